import { startAiSdkAgent, type AiSdkAgent } from "./aisdk/app.ts";
import type { Route } from "./expect.ts";
import { threeAnswers, type Turn } from "./scenario.ts";
import { describeStack } from "./suite.ts";

/**
 * The Vercel AI SDK stack (ai 7.0.173, @ai-sdk/mcp 2.0.99, the `ai/test` mock model calling the tool): a hosted agent
 * whose page never speaks MCP (test/agents/aisdk/app.ts), one app per agent under test. `@ai-sdk/mcp` has no URL mode
 * ("Only form elicitation is supported"): the URL fault is the Cloudflare agent's.
 */
type AiSdkRoute = Exclude<Route, "open-url">;

const routes: Record<AiSdkRoute, Turn[]> = {
  faithful: [...threeAnswers("legacy"), ...threeAnswers("modern")],
  // The account form is relayed; the yes/no asks are not, and the servers get cancel.
  swallow: [
    threeAnswers("legacy")[0]!,
    { server: "legacy", tool: "confirm_action", answer: "ignore", shown: false, result: /confirm: cancel$/ },
    { server: "modern", tool: "confirm_action", answer: "ignore", shown: false, result: /confirm: cancel$/ },
  ],
  // age 36 reaches the server as 37; decline reaches it as cancel.
  alter: [
    { ...threeAnswers("legacy")[0]!, result: /registered: accept \{"email":"ada@example\.com","age":37,/ },
    { ...threeAnswers("modern")[1]!, result: /confirm: cancel$/ },
  ],
};

describeStack<AiSdkRoute>({
  name: "Vercel AI SDK agent",
  routes,
  async start(direct, proxied) {
    const apps = { direct: await startAiSdkAgent({ servers: direct }) } as Record<AiSdkRoute | "direct", AiSdkAgent>;
    for (const route of Object.keys(proxied) as AiSdkRoute[]) {
      apps[route] = await startAiSdkAgent({ servers: proxied[route], ...(route !== "faithful" && { fault: route }) });
    }
    return {
      page: (route) => apps[route].url,
      forwarded: (route) => apps[route].forwarded,
      close: async () => void (await Promise.all(Object.values<AiSdkAgent>(apps).map((app) => app.close()))),
    };
  },
});

import type { Route } from "./expect.ts";
import { startCloudflareAgent } from "./cloudflare/start.ts";
import { threeAnswers, type Turn } from "./scenario.ts";
import { describeStack } from "./suite.ts";

/**
 * The Cloudflare stack (agents 0.32.0 under wrangler 4.164.0 `dev --local`, Node 22 from test/agents/cloudflare):
 * an Agent whose page talks to it over its WebSocket and never speaks MCP (test/agents/cloudflare/src/worker.js).
 * One wrangler serves every agent under test; each picks its servers and fault by its name.
 */
const signIn: Turn = { server: "legacy", tool: "sign_in", answer: "open", result: /sign-in: linked$/ };

const routes: Record<Route, Turn[]> = {
  faithful: [...threeAnswers("legacy"), ...threeAnswers("modern"), signIn],
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
  // The page loads the link at the agent's word as the ask arrives, before the user reads it and clicks Open.
  "open-url": [signIn],
};

describeStack<Route>({
  name: "Cloudflare agent",
  routes,
  async start(direct, proxied) {
    const wrangler = await startCloudflareAgent({ direct, ...proxied });
    const pages = new Map<string, string>();
    // One agent per route (a fresh name), the same one each time the suite asks.
    const page = (route: string) => pages.get(route) ?? (pages.set(route, wrangler.page(route)), pages.get(route)!);
    return { page, close: () => wrangler.close() };
  },
  ready: (page) => page.getByText("connected", { exact: true }).waitFor({ timeout: 30_000 }),
});

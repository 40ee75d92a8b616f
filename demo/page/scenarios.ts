import type { Asker, Era } from "./ask.ts";
import { openLegacy } from "./legacySession.ts";
import type { LegacySession } from "./legacySession.ts";
import { openModern } from "./modernSession.ts";

/**
 * The demo's scenarios: each button runs one tool (or prompt, or resource) of a real SDK server through the
 * real SDK client of its era, and the page shows the final result. The servers are demo/servers/*.ts, behind
 * the host's same-origin proxy at /legacy/mcp and /modern/mcp.
 */
export interface Scenario {
  /** Short name: the button is "Run: <label> (<era>)". */
  label: string;
  era: Era;
  target: string;
  what: string;
  run(ask: Asker, note: (line: string) => void): Promise<string>;
}

type Content = { type: string; text?: string }[];
const texts = (content: Content | undefined): string =>
  (content ?? []).map((c) => (c.type === "text" ? (c.text ?? "") : `[${c.type}]`)).join("\n");

const LEGACY_URL = "/legacy/mcp";
const MODERN_URL = "/modern/mcp";

async function withLegacy(
  origin: string,
  ask: Asker,
  use: (session: LegacySession) => Promise<string>,
): Promise<string> {
  const session = await openLegacy(LEGACY_URL, origin, ask);
  try {
    return await use(session);
  } finally {
    await session.close();
  }
}

const legacyTool = (label: string, target: string, what: string): Scenario => ({
  label,
  era: "2025-11-25",
  target,
  what,
  run: (ask) =>
    withLegacy(target, ask, async (session) => {
      const result = await session.call(target);
      return `${result.isError ? "error: " : ""}${texts(result.content)}`;
    }),
});

/** -32042: the call fails with the URLs to visit; the host shows them, waits for completion, then retries. */
const legacyUrlRequired = (label: string, target: string, what: string): Scenario => ({
  label,
  era: "2025-11-25",
  target,
  what,
  run: (ask, note) =>
    withLegacy(target, ask, async (session) => {
      try {
        return texts((await session.call(target)).content);
      } catch (error) {
        const data = (error as { code?: unknown; data?: { elicitations?: unknown } }).data;
        if ((error as { code?: unknown }).code !== -32042 || !Array.isArray(data?.elicitations)) throw error;
        note(`${target} failed with -32042 (URL elicitation required)`);
        for (const item of data.elicitations as { message?: unknown; url?: unknown; elicitationId?: unknown }[]) {
          const elicitationId = String(item.elicitationId);
          const completed = session.completed(elicitationId);
          const answer = await ask({
            era: "2025-11-25",
            origin: target,
            mode: "url",
            message: String(item.message),
            url: String(item.url),
            elicitationId,
            completed,
            stopWaiting: session.stopWaiting,
          });
          if (answer.action !== "accept") return `${target}: not retried (${answer.action})`;
          await completed;
          note(`notifications/elicitation/complete ${elicitationId}; retrying ${target}`);
        }
        return texts((await session.call(target)).content);
      }
    }),
});

async function withModern(
  origin: string,
  ask: Asker,
  use: (client: Awaited<ReturnType<typeof openModern>>) => Promise<string>,
): Promise<string> {
  const client = await openModern(MODERN_URL, origin, ask);
  try {
    return await use(client);
  } finally {
    await client.close();
  }
}

const modernTool = (label: string, target: string, what: string): Scenario => ({
  label,
  era: "2026-07-28",
  target,
  what,
  run: (ask) =>
    withModern(target, ask, async (client) => {
      const result = await client.callTool({ name: target, arguments: {} });
      return `${result.isError ? "error: " : ""}${texts(result.content as Content)}`;
    }),
});

export const scenarios: Scenario[] = [
  legacyTool(
    "confirm",
    "confirm_action",
    "Confirm a destructive action: a one-field boolean form, sent as elicitation/create on the call's SSE stream.",
  ),
  legacyTool("register", "register_user", "A multi-field form: email, age, newsletter, plan, topics."),
  legacyTool(
    "sign-in",
    "sign_in",
    "URL mode: open the consent page; the server then sends notifications/elicitation/complete and returns.",
  ),
  legacyUrlRequired(
    "repositories",
    "list_repositories",
    "The call fails with -32042 (URL elicitation required); after the consent page, the host retries it.",
  ),
  legacyTool("trip", "plan_trip", "Two questions one after the other on the same request."),
  modernTool(
    "confirm",
    "confirm_action",
    "Confirm a destructive action: input_required with one boolean form, then the retry.",
  ),
  modernTool("register", "register_user", "A multi-field form in one round."),
  modernTool(
    "sign-in",
    "sign_in",
    "URL mode in a round: open the consent page, then Accept; the retry tells the server.",
  ),
  modernTool(
    "trip",
    "plan_trip",
    "Multi round-trip over two rounds: where, then how many nights, carried in requestState.",
  ),
  modernTool("deploy", "deploy", "Three rounds: environment, confirmation, reason."),
  modernTool("meeting", "book_meeting", "Two questions keyed in the same round (date and room)."),
  {
    label: "prompt",
    era: "2026-07-28",
    target: "draft_reply",
    what: "A prompt that asks which tone before it answers.",
    run: (ask) =>
      withModern("draft_reply", ask, async (client) => {
        const result = await client.getPrompt({ name: "draft_reply" });
        return result.messages.map((m) => texts([m.content as Content[number]])).join("\n");
      }),
  },
  {
    label: "resource",
    era: "2026-07-28",
    target: "notes://private/today",
    what: "A resource that asks before revealing private notes.",
    run: (ask) =>
      withModern("notes://private/today", ask, async (client) => {
        const result = await client.readResource({ uri: "notes://private/today" });
        return result.contents.map((c) => ("text" in c ? c.text : "[blob]")).join("\n");
      }),
  },
];

export const scenarioName = (s: Scenario): string => `${s.label} (${s.era})`;

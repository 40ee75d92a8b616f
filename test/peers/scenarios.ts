import { Client as LegacyClient } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport as LegacyTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import {
  ElicitationCompleteNotificationSchema,
  ElicitRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import type {
  ClientCapabilities as LegacyCapabilities,
  ElicitRequest as LegacyElicitRequest,
  ElicitResult as LegacyElicitResult,
} from "@modelcontextprotocol/sdk/types.js";
import { Client as ModernClient, StreamableHTTPClientTransport as ModernTransport } from "@modelcontextprotocol/client";
import type {
  ClientCapabilities as ModernCapabilities,
  ElicitRequest as ModernElicitRequest,
  ElicitResult as ModernElicitResult,
} from "@modelcontextprotocol/client";
import type { CaptureRecord } from "../../src/capture/record.ts";
import { legacyTools, startLegacyServer } from "./legacyServer.ts";
import type { PeerServer } from "./legacyServer.ts";
import { modernPrompt, modernResource, modernTools, startModernServer } from "./modernServer.ts";
import { createRecorder } from "./recorder.ts";
import type { Recorder } from "./recorder.ts";

/**
 * Scenarios: the real SDK clients driven through the recording fetch against the peers. Each one records only
 * its own traffic (seq from 0); the answers come from the client's elicitation handler, as in a real host.
 */
export type Era = "legacy" | "modern";

export interface ScenarioResult {
  name: string;
  records: CaptureRecord[];
  /** What the SDK call returned (or the error it threw), for the tests' sanity checks. */
  outcome: unknown;
}

export interface Scenario {
  name: string;
  era: Era;
  run(url: string): Promise<ScenarioResult>;
}

export const CLIENT = "test-client";
const clientInfo = { name: "elicitation-inspector-tests", version: "1.0.0" };

type Answer<Req, Res> = (request: Req) => Res | Promise<Res>;

const accept = (content: Record<string, string | number | boolean | string[]>) => ({
  action: "accept" as const,
  content,
});
const decline = { action: "decline" as const };
const cancel = { action: "cancel" as const };

/** Stands in for the user's browser finishing the out-of-band page; not part of the MCP traffic, so not recorded. */
const visit = async (url: string): Promise<void> => void (await (await fetch(url)).text());

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

// ---------------------------------------------------------------------------------------------------------
// 2025-11-25: sdk 1.32.2 Client + StreamableHTTPClientTransport (initialize, session, GET stream)

interface LegacySession {
  client: LegacyClient;
  /** Settles when notifications/elicitation/complete for this elicitationId arrives (before or after the call). */
  completed(elicitationId: string): Promise<void>;
  close(): Promise<void>;
}

async function openLegacy(
  url: string,
  recorder: Recorder,
  capabilities: LegacyCapabilities,
  answer?: Answer<LegacyElicitRequest, LegacyElicitResult>,
): Promise<LegacySession> {
  const getStream = deferred();
  const fetchFn: typeof fetch = async (input, init) => {
    const response = await recorder.fetch(input, init);
    if ((init?.method ?? "GET").toUpperCase() === "GET" && response.ok) getStream.resolve();
    return response;
  };
  const client = new LegacyClient(clientInfo, { capabilities });
  if (answer) client.setRequestHandler(ElicitRequestSchema, (request) => answer(request));
  // notifications/elicitation/complete, by elicitationId; a waiter may come before or after the notification.
  const completions = new Map<string, ReturnType<typeof deferred>>();
  const completion = (id: string) => completions.get(id) ?? completions.set(id, deferred()).get(id)!;
  client.setNotificationHandler(ElicitationCompleteNotificationSchema, (notification) =>
    completion(notification.params.elicitationId).resolve(),
  );
  const transport = new LegacyTransport(new URL(url), { fetch: fetchFn });
  await client.connect(transport);
  // The client opens the GET stream after notifications/initialized. sdk 1.32.2 does not deliver a server message
  // without a related request while no GET stream is open (the event store keeps it for a Last-Event-ID
  // reconnect that never comes), so wait for the stream.
  await getStream.promise;
  return {
    client,
    completed: (id) => completion(id).promise,
    close: () => client.close(),
  };
}

async function legacyScenario(
  name: string,
  url: string,
  capabilities: LegacyCapabilities,
  answer: Answer<LegacyElicitRequest, LegacyElicitResult> | undefined,
  drive: (session: LegacySession) => Promise<unknown>,
): Promise<ScenarioResult> {
  const recorder = createRecorder({ client: CLIENT });
  const session = await openLegacy(url, recorder, capabilities, answer);
  let outcome: unknown;
  try {
    outcome = await drive(session);
  } catch (error) {
    outcome = error;
  } finally {
    // As a host would: the POST streams finish, then the client closes (which aborts its GET stream).
    await settle(recorder, (exchange) => exchange.method !== "GET");
    await session.close();
  }
  await settle(recorder);
  return { name, records: recorder.records, outcome };
}

const formAndUrl: LegacyCapabilities = { elicitation: { form: {}, url: {} } };
const callLegacy = (session: LegacySession, name: string) => session.client.callTool({ name, arguments: {} });

const legacyConfirm = (name: string, reply: LegacyElicitResult): Scenario => ({
  name,
  era: "legacy",
  run: (url) =>
    legacyScenario(
      name,
      url,
      formAndUrl,
      () => reply,
      (s) => callLegacy(s, legacyTools.confirm),
    ),
});

export const legacyScenarios: Scenario[] = [
  legacyConfirm("legacy-form-accept", accept({ confirm: true })),
  legacyConfirm("legacy-form-decline", decline),
  legacyConfirm("legacy-form-cancel", cancel),
  {
    name: "legacy-form-multi-field",
    era: "legacy",
    run: (url) =>
      legacyScenario(
        "legacy-form-multi-field",
        url,
        formAndUrl,
        () => accept({ email: "ada@example.com", age: 36, newsletter: true, plan: "pro", topics: ["mcp", "devtools"] }),
        (s) => callLegacy(s, legacyTools.form),
      ),
  },
  {
    name: "legacy-url-complete",
    era: "legacy",
    run: (url) =>
      legacyScenario(
        "legacy-url-complete",
        url,
        formAndUrl,
        (request) => {
          // Accept means consent to open the page; the user finishes it afterwards.
          const params = request.params;
          if ("url" in params) setTimeout(() => void visit(params.url), 5);
          return { action: "accept" };
        },
        (s) => callLegacy(s, legacyTools.signIn),
      ),
  },
  {
    name: "legacy-url-required-retry",
    era: "legacy",
    run: (url) =>
      legacyScenario("legacy-url-required-retry", url, formAndUrl, undefined, async (s) => {
        try {
          await callLegacy(s, legacyTools.urlRequired);
          throw new Error("expected -32042");
        } catch (error) {
          if (!(error instanceof McpError) || error.code !== -32042) throw error;
          const [elicitation] = (error.data as { elicitations: { url: string; elicitationId: string }[] }).elicitations;
          await visit(elicitation!.url);
          await s.completed(elicitation!.elicitationId);
          return callLegacy(s, legacyTools.urlRequired);
        }
      }),
  },
  {
    name: "legacy-no-elicitation-capability",
    era: "legacy",
    run: (url) =>
      legacyScenario("legacy-no-elicitation-capability", url, {}, undefined, (s) => callLegacy(s, legacyTools.confirm)),
  },
  {
    name: "legacy-two-sequential",
    era: "legacy",
    run: (url) =>
      legacyScenario(
        "legacy-two-sequential",
        url,
        formAndUrl,
        (request) =>
          "requestedSchema" in request.params && "city" in request.params.requestedSchema.properties
            ? accept({ city: "Lisbon" })
            : accept({ nights: 3 }),
        (s) => callLegacy(s, legacyTools.twoQuestions),
      ),
  },
  {
    name: "legacy-get-stream",
    era: "legacy",
    run: (url) =>
      legacyScenario(
        "legacy-get-stream",
        url,
        formAndUrl,
        () => accept({ confirm: true }),
        (s) => callLegacy(s, legacyTools.getStream),
      ),
  },
];

// ---------------------------------------------------------------------------------------------------------
// 2026-07-28: client@2.4.0 pinned to 2026-07-28 (server/discover, per-request _meta, MRTR auto-fulfilment)

async function modernScenario(
  name: string,
  url: string,
  capabilities: ModernCapabilities,
  answer: Answer<ModernElicitRequest, ModernElicitResult> | undefined,
  drive: (client: ModernClient) => Promise<unknown>,
): Promise<ScenarioResult> {
  const recorder = createRecorder({ client: CLIENT });
  const client = new ModernClient(clientInfo, { capabilities, versionNegotiation: { mode: { pin: "2026-07-28" } } });
  if (answer) client.setRequestHandler("elicitation/create", (request) => answer(request));
  let outcome: unknown;
  try {
    await client.connect(new ModernTransport(new URL(url), { fetch: recorder.fetch }));
    outcome = await drive(client);
  } catch (error) {
    outcome = error;
  } finally {
    await settle(recorder);
    await client.close();
  }
  await settle(recorder);
  return { name, records: recorder.records, outcome };
}

const modernForm: ModernCapabilities = { elicitation: { form: {}, url: {} } };
const callModern = (client: ModernClient, name: string) => client.callTool({ name, arguments: {} });

const modernConfirm = (name: string, reply: ModernElicitResult): Scenario => ({
  name,
  era: "modern",
  run: (url) =>
    modernScenario(
      name,
      url,
      modernForm,
      () => reply,
      (c) => callModern(c, modernTools.confirm),
    ),
});

/** Answers by the first property the form asks for. */
const byField =
  (answers: Record<string, ModernElicitResult>): Answer<ModernElicitRequest, ModernElicitResult> =>
  (request) => {
    const params = request.params;
    const field = "requestedSchema" in params ? Object.keys(params.requestedSchema.properties)[0] : undefined;
    return (field !== undefined && answers[field]) || cancel;
  };

export const modernScenarios: Scenario[] = [
  modernConfirm("modern-form-accept", accept({ confirm: true })),
  modernConfirm("modern-form-decline", decline),
  modernConfirm("modern-form-cancel", cancel),
  {
    name: "modern-two-rounds",
    era: "modern",
    run: (url) =>
      modernScenario(
        "modern-two-rounds",
        url,
        modernForm,
        byField({ city: accept({ city: "Lisbon" }), nights: accept({ nights: 3 }) }),
        (c) => callModern(c, modernTools.twoRounds),
      ),
  },
  {
    name: "modern-three-rounds",
    era: "modern",
    run: (url) =>
      modernScenario(
        "modern-three-rounds",
        url,
        modernForm,
        byField({
          env: accept({ env: "staging" }),
          confirm: accept({ confirm: true }),
          reason: accept({ reason: "hotfix" }),
        }),
        (c) => callModern(c, modernTools.threeRounds),
      ),
  },
  {
    name: "modern-two-keyed",
    era: "modern",
    run: (url) =>
      modernScenario(
        "modern-two-keyed",
        url,
        modernForm,
        byField({ date: accept({ date: "2026-09-01" }), room: accept({ room: "r2" }) }),
        (c) => callModern(c, modernTools.keyed),
      ),
  },
  {
    name: "modern-url",
    era: "modern",
    run: (url) =>
      modernScenario(
        "modern-url",
        url,
        modernForm,
        async (request) => {
          // No completion notification in 2026-07-28: the user finishes the page, then the retry carries accept.
          if (request.params.mode === "url") await visit(request.params.url);
          return { action: "accept" };
        },
        (c) => callModern(c, modernTools.signIn),
      ),
  },
  {
    name: "modern-prompt",
    era: "modern",
    run: (url) =>
      modernScenario(
        "modern-prompt",
        url,
        modernForm,
        () => accept({ tone: "formal" }),
        (c) => c.getPrompt({ name: modernPrompt }),
      ),
  },
  {
    name: "modern-resource",
    era: "modern",
    run: (url) =>
      modernScenario(
        "modern-resource",
        url,
        modernForm,
        () => accept({ confirm: true }),
        (c) => c.readResource({ uri: modernResource }),
      ),
  },
  {
    name: "modern-no-elicitation-capability",
    era: "modern",
    run: (url) =>
      modernScenario("modern-no-elicitation-capability", url, {}, undefined, (c) => callModern(c, modernTools.confirm)),
  },
  {
    name: "modern-mixed-session",
    era: "modern",
    run: (url) =>
      modernScenario(
        "modern-mixed-session",
        url,
        modernForm,
        byField({ confirm: accept({ confirm: true }), tone: accept({ tone: "friendly" }) }),
        async (c) => {
          const discovered = await c.discover();
          const tools = await c.listTools();
          const plain = await callModern(c, modernTools.plain);
          const confirmed = await callModern(c, modernTools.confirm);
          const prompt = await c.getPrompt({ name: modernPrompt });
          return { discovered, tools, plain, confirmed, prompt };
        },
      ),
  },
];

export const scenarios: Scenario[] = [...legacyScenarios, ...modernScenarios];

export const startServer = (era: Era): Promise<PeerServer> =>
  era === "legacy" ? startLegacyServer() : startModernServer();

/** Runs one scenario against a server of its own, closed afterwards. */
export async function runScenario(scenario: Scenario): Promise<ScenarioResult> {
  const server = await startServer(scenario.era);
  try {
    return await scenario.run(server.url);
  } finally {
    await server.close();
  }
}

/** Runs every scenario in order against one server per era (as a host talking to two endpoints would). */
export async function runAll(list: Scenario[] = scenarios): Promise<ScenarioResult[]> {
  const servers = new Map<Era, PeerServer>();
  try {
    const results: ScenarioResult[] = [];
    for (const scenario of list) {
      let server = servers.get(scenario.era);
      if (!server) servers.set(scenario.era, (server = await startServer(scenario.era)));
      results.push(await scenario.run(server.url));
    }
    return results;
  } finally {
    for (const server of servers.values()) await server.close();
  }
}

/**
 * Joins scenario captures into one, as a tap running through all of them would have written it: one seq space,
 * and exchange ids (which restart per recorder) prefixed with the scenario's name.
 */
export function mergeCaptures(results: ScenarioResult[]): CaptureRecord[] {
  const merged: CaptureRecord[] = [];
  for (const { name, records } of results) {
    for (const record of records) {
      merged.push({
        ...record,
        seq: merged.length,
        ...(record.exchange !== undefined && { exchange: `${name}/${record.exchange}` }),
      });
    }
  }
  return merged;
}

/** Waits (up to a second) until the matching exchanges have ended, so their `end` records are in. */
async function settle(
  recorder: Recorder,
  which: (exchange: { method: string }) => boolean = () => true,
): Promise<void> {
  for (let i = 0; i < 200 && recorder.open().some(which); i++) await new Promise((resolve) => setTimeout(resolve, 5));
}

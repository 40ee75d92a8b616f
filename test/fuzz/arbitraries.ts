import { readFileSync } from "node:fs";
import fc from "fast-check";
import { exportHar } from "../../src/capture/har/export.ts";
import { importJsonl } from "../../src/capture/jsonl.ts";
import { MAX_DEPTH } from "../../src/util/depth.ts";
import { copy, fromValue, nodes, write, type J } from "./json.ts";

/**
 * Inputs for the fuzz properties (test/fuzz/properties.ts): JSON-RPC messages of both protocol eras around
 * elicitation, framed as capture records, then written as JSONL, as HAR (through exportHar) or as HAR entries with
 * hand-framed SSE bodies — and mutated: type confusion, deep and huge values, odd numbers, colliding ids and
 * `__proto__` members, at the message, the record and the HAR level.
 */

/** Credential-looking values the default (redacted) exports must never contain. */
export const SECRETS = ["ghp_PLANTEDsecret0123456789abcdefABCDEF0", "sk-proj-PLANTEDkey0123456789abcdefghij"];

export interface Input {
  format: "jsonl" | "har";
  text: string;
}

const oddNumber: fc.Arbitrary<J> = fc.constantFrom<J>(
  { num: "1e308" },
  { num: "-1e308" },
  { num: "1e400" },
  { num: "-0" },
  { num: "1.5" },
  { num: "1e-400" },
  { num: "1E21" },
  { num: "123456789012345678901234567890" },
  { num: "9007199254740993" },
  { num: "-1" },
  { num: "0.1e1" },
  2 ** 53 + 2,
  -1,
  0,
  1.5,
);
const oddKey = fc.constantFrom(
  "__proto__",
  "constructor",
  "prototype",
  "toString",
  "valueOf",
  "hasOwnProperty",
  "toJSON",
  "",
  "a/b",
  "~0~1",
  "\u0000",
  "\u202e",
);
const key = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "name",
      "email",
      "password",
      "apiKey",
      "confirm",
      "region",
      "x",
      "content",
      "id",
      "action",
    ),
  },
  { weight: 1, arbitrary: oddKey },
  { weight: 1, arbitrary: fc.string({ maxLength: 8 }) },
);
const text = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      "Please confirm the deployment",
      "Enter your name",
      "Enter your API key",
      "https://example.com/connect?token=abc",
      "",
      " ",
    ),
  },
  { weight: 2, arbitrary: fc.string({ maxLength: 20 }) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(...SECRETS, `use ${SECRETS[0]} now`, `https://example.com/cb?code=${SECRETS[1]}`),
  },
);
const id: fc.Arbitrary<J> = fc.oneof(
  { weight: 6, arbitrary: fc.integer({ min: 0, max: 4 }) },
  { weight: 2, arbitrary: fc.constantFrom<J>("1", "0", "a", "", null, -1) },
  {
    weight: 1,
    arbitrary: fc.constantFrom<J>(
      { obj: [["toString", 1]] },
      {
        obj: [
          ["valueOf", { obj: [] }],
          ["toString", { obj: [] }],
        ],
      },
      { arr: [1] },
      { obj: [["__proto__", 1]] },
    ),
  },
  { weight: 1, arbitrary: oddNumber },
);
const jsonLeaf: fc.Arbitrary<J> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -5, max: 100 }),
  text,
  oddNumber,
);
const json: fc.Arbitrary<J> = fc.letrec<{ v: J }>((tie) => ({
  v: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    jsonLeaf,
    fc.array(tie("v"), { maxLength: 3 }).map((arr): J => ({ arr })),
    fc.array(fc.tuple(key, tie("v")), { maxLength: 3 }).map((obj): J => ({ obj })),
  ),
})).v;

const revision = fc.constantFrom("2025-06-18", "2025-11-25", "2026-07-28", "2024-11-05", "junk");
const property: fc.Arbitrary<J> = fc
  .record(
    {
      type: fc.constantFrom<J>("string", "number", "integer", "boolean", "array", "object", 5),
      title: text,
      description: text,
      format: fc.constantFrom<J>("email", "uri", "date", "date-time", "password", "x"),
      enum: fc.array(jsonLeaf, { maxLength: 3 }).map((arr): J => ({ arr })),
      default: jsonLeaf,
      writeOnly: fc.boolean(),
      minimum: oddNumber,
    },
    { requiredKeys: ["type"] },
  )
  .map((o) => fromValue(o));
const schema: fc.Arbitrary<J> = fc.array(fc.tuple(key, property), { maxLength: 4 }).map(
  (props): J => ({
    obj: [
      ["type", "object"],
      ["properties", { obj: props }],
    ],
  }),
);

const rpc = (members: [string, J][]): J => ({ obj: [["jsonrpc", "2.0"], ...members] });
const message: fc.Arbitrary<J> = fc.oneof(
  fc.tuple(id, revision).map(([i, v]) =>
    rpc([
      ["id", i],
      ["method", "initialize"],
      [
        "params",
        fromValue({
          protocolVersion: v,
          capabilities: { elicitation: { form: {}, url: {} } },
          clientInfo: { name: "c", version: "1" },
        }),
      ],
    ]),
  ),
  fc.tuple(id, revision).map(([i, v]) =>
    rpc([
      ["id", i],
      ["result", fromValue({ protocolVersion: v, capabilities: {}, serverInfo: { name: "s", version: "1" } })],
    ]),
  ),
  fc.constant(rpc([["method", "notifications/initialized"]])),
  fc.tuple(id, json).map(([i, args]) =>
    rpc([
      ["id", i],
      ["method", "tools/call"],
      [
        "params",
        {
          obj: [
            ["name", "deploy"],
            ["arguments", args],
          ],
        },
      ],
    ]),
  ),
  fc.tuple(id, text, schema, fc.constantFrom<J>("form", "url", 3)).map(([i, m, s, mode]) =>
    rpc([
      ["id", i],
      ["method", "elicitation/create"],
      [
        "params",
        {
          obj: [
            ["mode", mode],
            ["message", m],
            ["requestedSchema", s],
          ],
        },
      ],
    ]),
  ),
  fc.tuple(id, text).map(([i, url]) =>
    rpc([
      ["id", i],
      ["method", "elicitation/create"],
      [
        "params",
        {
          obj: [
            ["mode", "url"],
            ["message", "Connect your account"],
            ["url", url],
            ["elicitationId", "e1"],
          ],
        },
      ],
    ]),
  ),
  fc
    .tuple(
      id,
      fc.constantFrom<J>("accept", "decline", "cancel", "ok"),
      fc.array(fc.tuple(key, jsonLeaf), { maxLength: 3 }),
    )
    .map(([i, action, content]) =>
      rpc([
        ["id", i],
        [
          "result",
          {
            obj: [
              ["action", action],
              ["content", { obj: content }],
            ],
          },
        ],
      ]),
    ),
  fc.tuple(id, json).map(([i, content]) =>
    rpc([
      ["id", i],
      [
        "result",
        {
          obj: [
            [
              "content",
              {
                arr: [
                  {
                    obj: [
                      ["type", "text"],
                      ["text", content],
                    ],
                  },
                ],
              },
            ],
          ],
        },
      ],
    ]),
  ),
  fc.tuple(id, text).map(([i, url]) =>
    rpc([
      ["id", i],
      [
        "error",
        {
          obj: [
            ["code", -32042],
            ["message", "URL elicitation required"],
            [
              "data",
              {
                obj: [
                  [
                    "elicitations",
                    {
                      arr: [
                        {
                          obj: [
                            ["mode", "url"],
                            ["elicitationId", "e1"],
                            ["url", url],
                            ["message", "Sign in"],
                          ],
                        },
                      ],
                    },
                  ],
                ],
              },
            ],
          ],
        },
      ],
    ]),
  ),
  fc.tuple(id, schema, json).map(([i, s, state]) =>
    rpc([
      ["id", i],
      [
        "result",
        {
          obj: [
            ["resultType", "input_required"],
            [
              "inputRequests",
              {
                obj: [
                  [
                    "q1",
                    {
                      obj: [
                        ["method", "elicitation/create"],
                        [
                          "params",
                          {
                            obj: [
                              ["mode", "form"],
                              ["message", "Pick one"],
                              ["requestedSchema", s],
                            ],
                          },
                        ],
                      ],
                    },
                  ],
                ],
              },
            ],
            ["requestState", state],
          ],
        },
      ],
    ]),
  ),
  fc.constant(
    rpc([
      ["method", "notifications/elicitation/complete"],
      ["params", { obj: [["elicitationId", "e1"]] }],
    ]),
  ),
  fc.tuple(id, fc.integer({ min: -32700, max: -32000 })).map(([i, code]) =>
    rpc([
      ["id", i],
      [
        "error",
        {
          obj: [
            ["code", code],
            ["message", "x"],
          ],
        },
      ],
    ]),
  ),
  json,
);

/**
 * Nesting levels of a deep node: around the depth cut (src/util/depth.ts; where the node sits adds a few levels),
 * and well past it. JSON.parse costs by the level, and every step parses a text several times: the far one is
 * rarer. 100,000 levels, past any recursive walk's stack: rareMutation.
 */
const depth = fc.oneof(
  { weight: 9, arbitrary: fc.constantFrom(150, MAX_DEPTH - 1, MAX_DEPTH, MAX_DEPTH + 1, 250) },
  { weight: 1, arbitrary: fc.constant(1200) },
);

/** A replacement for one node of a tree: confusion, depth, size, odd numbers, prototype keys. */
const mutation: fc.Arbitrary<J> = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom<J>(null, true, "", 0, { arr: [] }, { obj: [] }, "x") },
  { weight: 4, arbitrary: oddNumber },
  {
    weight: 3,
    arbitrary: fc.constantFrom<J>(
      { obj: [["__proto__", { obj: [["polluted", "yes"]] }]] },
      { obj: [["constructor", { obj: [["prototype", { obj: [["polluted", "yes"]] }]] }]] },
      {
        obj: [
          ["a", 1],
          ["a", 2],
        ],
      },
    ),
  },
  {
    weight: 2,
    arbitrary: fc
      .tuple(depth, fc.constantFrom<"[" | '{"a":'>("[", '{"a":'), jsonLeaf)
      .map(([deep, open, leaf]): J => ({ deep, open, leaf })),
  },
  { weight: 2, arbitrary: json },
  { weight: 1, arbitrary: fc.constantFrom<J>(SECRETS[0]!, `${SECRETS[1]} and more`) },
);
const rareMutation: fc.Arbitrary<J> = fc.constantFrom<J>(
  { deep: 100_000, open: "[", leaf: 1 },
  { deep: 100_000, open: '{"a":', leaf: SECRETS[0]! },
  "x".repeat(300_000),
);

/** Applies mutations at picked nodes (indexes taken modulo the node count). */
function mutate(root: J, picks: [number, J][]): J {
  if (picks.length === 0) return root;
  // Generated values are reused while shrinking: work on copies.
  let tree = copy(root);
  for (const [at, picked] of picks) {
    const next = copy(picked);
    const all = nodes(tree);
    const target = all[at % all.length]!;
    if (target === all[0]) tree = next;
    else target.set(next);
  }
  return tree;
}
const mutations = (max: number) =>
  fc.oneof(
    { weight: 3000, arbitrary: fc.constant<[number, J][]>([]) },
    { weight: 6000, arbitrary: fc.array(fc.tuple(fc.nat(), mutation), { minLength: 1, maxLength: max }) },
    // 100,000 levels and 300,000 characters cost tens of milliseconds each: about one input in a thousand.
    { weight: 2, arbitrary: fc.tuple(fc.nat(), rareMutation).map((p): [number, J][] => [p]) },
  );

/**
 * Hosts that carry MCP in an envelope of their own (src/capture/envelopes): a generic wrapper member, MCP-B's
 * window messages, MCP Inspector v2's backend API (connect, send, events) and Inspector v1's proxy query.
 */
type Host = "none" | "generic" | "mcp-b" | "inspector-v2" | "proxy";
const ENDPOINT = "http://127.0.0.1:3000/mcp";
const PROXY = "http://127.0.0.1:6277/mcp?url=http%3A%2F%2F127.0.0.1%3A3001%2Fmcp&transportType=streamable-http";
const INSPECTOR = "http://127.0.0.1:6274/api/mcp";

/** Undefined `absent` times in `absent + 1`, else a value of `arbitrary`. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>, absent: number): fc.Arbitrary<T | undefined> =>
  fc.oneof({ weight: absent, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary });

interface Step {
  message: J;
  mutations: [number, J][];
  direction: "c2s" | "s2c";
  stream: "body" | "post-sse" | "get-sse" | "websocket" | "postMessage" | "eventsource" | "stdio";
  exchange: number;
  status: number | J;
  end: boolean;
  gap: number;
  batch: boolean;
  host: Host;
  session: string;
  /** Record members most records lack: an SSE event's id and type, the tap's cut mark, an empty body, a failure. */
  eventId: string | undefined;
  event: string | undefined;
  truncated: number | undefined;
  emptyBody: boolean | undefined;
  error: string | undefined;
  /** Another request of the page (a HAR's non-MCP entry: url-no-prefetch reads them), before the step. */
  pageRequest: string | undefined;
}
const step: fc.Arbitrary<Step> = fc.record({
  message,
  mutations: mutations(3),
  direction: fc.constantFrom("c2s", "s2c"),
  stream: fc.constantFrom(
    "body",
    "body",
    "post-sse",
    "post-sse",
    "get-sse",
    "websocket",
    "postMessage",
    "eventsource",
    "stdio",
  ),
  exchange: fc.integer({ min: 0, max: 3 }),
  status: fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(200, 202, 400, 404, 500, 101) },
    { weight: 1, arbitrary: oddNumber },
  ),
  end: fc.boolean(),
  gap: fc.oneof(fc.integer({ min: 0, max: 50 }), fc.constant(0.25)),
  batch: fc.boolean(),
  host: fc.oneof(
    { weight: 12, arbitrary: fc.constant<Host>("none") },
    { weight: 4, arbitrary: fc.constantFrom<Host>("generic", "mcp-b", "inspector-v2", "proxy") },
  ),
  session: fc.constantFrom("s1", "s1", "s2"),
  eventId: sometimes(fc.constantFrom("1", "e-2", "", " x"), 3),
  event: sometimes(fc.constantFrom("endpoint", "ping", "message", ""), 5),
  truncated: sometimes(fc.constantFrom(0, 1, 4096), 15),
  emptyBody: sometimes(fc.boolean(), 3),
  error: sometimes(fc.constantFrom("abort", "network", "net::ERR_FAILED"), 4),
  pageRequest: sometimes(
    fc.constantFrom(
      "https://example.com/connect",
      "http://127.0.0.1:3000/.well-known/oauth-protected-resource",
      "https://auth.example.com/authorize",
    ),
    8,
  ),
});

/** Capture records (as JSON trees) for the steps; `sane`: no record-level oddities (for the HAR path, through exportHar). */
function records(steps: Step[], sane: boolean): J[] {
  const out: J[] = [];
  let time = 1_767_225_600_000;
  let seq = 0;
  const head = (transport: string, exchange: string, url: string | undefined): [string, J][] => [
    ["v", 1],
    ["seq", seq++],
    ["time", time],
    ["transport", transport],
    ["exchange", exchange],
    ...(url === undefined ? [] : [["url", url] as [string, J]]),
  ];
  const message = (
    transport: string,
    exchange: string,
    url: string,
    direction: string,
    stream: string,
    method: string,
    headers: J | undefined,
    text: string,
    more: [string, J][] = [],
  ): J => ({
    obj: [
      ...head(transport, exchange, url),
      ["client", "page"],
      ["kind", "message"],
      ["direction", direction],
      ["stream", stream],
      ["method", method],
      ...(headers === undefined ? [] : [["headers", headers] as [string, J]]),
      ...more,
      ["text", text],
    ],
  });
  const response = (transport: string, exchange: string, url: string, status: J, type: string): J => ({
    obj: [
      ...head(transport, exchange, url),
      ["kind", "response"],
      ["status", status],
      ["headers", { obj: [["content-type", type]] }],
    ],
  });
  const end = (transport: string, exchange: string, error?: string): J => ({
    obj: [
      ...head(transport, exchange, undefined),
      ["kind", "end"],
      ...(error === undefined ? [] : [["error", error] as [string, J]]),
    ],
  });
  // Inspector v2 names its upstream in a connect before any send.
  if (steps.some((s) => s.host === "inspector-v2")) {
    out.push(
      message(
        "http",
        "http:connect",
        `${INSPECTOR}/connect`,
        "c2s",
        "body",
        "POST",
        { obj: [["content-type", "application/json"]] },
        '{"config":{"type":"streamable-http","url":"http://127.0.0.1:3001/mcp"}}',
      ),
    );
    out.push(response("http", "http:connect", `${INSPECTOR}/connect`, 200, "application/json"));
    out.push(
      message("http", "http:connect", `${INSPECTOR}/connect`, "s2c", "body", "POST", undefined, '{"sessionId":"iv1"}'),
    );
    out.push(end("http", "http:connect"));
  }
  for (const s of steps) {
    time += s.gap;
    if (s.pageRequest !== undefined) {
      const metadata: [string, J][] = s.pageRequest.includes("well-known")
        ? [
            [
              "metadata",
              {
                obj: [
                  ["resource", ENDPOINT],
                  ["authorizationServers", { arr: ["https://auth.example.com"] }],
                ],
              },
            ],
          ]
        : [];
      out.push({
        obj: [
          ["v", 1],
          ["seq", seq++],
          ["time", time],
          ["transport", "http"],
          ["url", s.pageRequest],
          ["client", "page"],
          ["kind", "page-request"],
          ["method", "GET"],
          ...metadata,
        ],
      });
    }
    let body = mutate(s.message, s.mutations);
    if (s.batch) body = { arr: [body, s.message] };
    const headers: J = {
      obj: [
        ["mcp-session-id", s.session],
        ["mcp-protocol-version", "2025-11-25"],
      ],
    };
    if (s.host === "mcp-b") {
      const envelope = fromValue({
        channel: "mcp-default",
        type: "mcp",
        direction: s.direction === "c2s" ? "client-to-server" : "server-to-client",
      });
      const text = write({
        obj: [...(envelope as { obj: [string, J][] }).obj, ["payload", s.status === 101 ? "mcp-check-ready" : body]],
      });
      out.push(
        message(
          "postMessage",
          `postMessage:mcp-b${s.exchange}`,
          "http://127.0.0.1:3000",
          s.direction,
          "postMessage",
          "POST",
          undefined,
          text,
        ),
      );
      if (s.end) out.push(end("postMessage", `postMessage:mcp-b${s.exchange}`));
      continue;
    }
    if (s.host === "inspector-v2") {
      const wrapped =
        s.direction === "c2s"
          ? {
              obj: [
                ["sessionId", "iv1"],
                ["message", body],
              ] as [string, J][],
            }
          : {
              obj: [
                ["type", "message"],
                ["data", body],
              ] as [string, J][],
            };
      if (s.direction === "c2s") {
        const exchange = `http:send${seq}`;
        out.push(
          message(
            "http",
            exchange,
            `${INSPECTOR}/send`,
            "c2s",
            "body",
            "POST",
            { obj: [["content-type", "application/json"]] },
            write(wrapped),
          ),
        );
        out.push(response("http", exchange, `${INSPECTOR}/send`, 200, "application/json"));
        out.push(message("http", exchange, `${INSPECTOR}/send`, "s2c", "body", "POST", undefined, '{"ok":true}'));
        out.push(end("http", exchange));
      } else
        out.push(
          message(
            "http",
            "http:events",
            `${INSPECTOR}/events?sessionId=iv1`,
            "s2c",
            "get-sse",
            "GET",
            undefined,
            write(wrapped),
            [["event", "message"]],
          ),
        );
      continue;
    }
    const transport =
      s.stream === "websocket" || s.stream === "postMessage" || s.stream === "eventsource" || s.stream === "stdio"
        ? s.stream
        : "http";
    // The tap's exchange names never cross transports ("f12", "ws3", "pm:…"); a name shared by two transports is
    // one exchange to the engine and two to HAR, which keeps them apart.
    const exchange = `${transport}:${s.exchange}`;
    const url = s.host === "proxy" ? PROXY : ENDPOINT;
    // A wrapped message names no MCP session or version: Streamable HTTP's bare messages do (generic.ts).
    const text = s.host === "generic" ? write({ obj: [["message", body]] }) : write(body);
    const sse = s.stream === "post-sse" || s.stream === "get-sse" || s.stream === "eventsource";
    const more: [string, J][] = [];
    if (sse && s.eventId !== undefined) more.push(["eventId", s.eventId]);
    if (sse && s.event !== undefined) more.push(["event", s.event]);
    if (s.truncated !== undefined) more.push(["truncated", s.truncated]);
    out.push(
      message(
        transport,
        exchange,
        url,
        s.direction,
        s.stream,
        s.stream === "get-sse" ? "GET" : "POST",
        s.host === "generic" ? undefined : headers,
        text,
        more,
      ),
    );
    if (transport === "http" && s.direction === "c2s") {
      time += 1;
      const head = response(
        transport,
        exchange,
        url,
        sane && typeof s.status !== "number" ? 200 : s.status,
        s.exchange % 2 ? "application/json" : "text/event-stream",
      ) as { obj: [string, J][] };
      if (s.emptyBody !== undefined) head.obj.push(["emptyBody", s.emptyBody]);
      out.push(head);
    }
    if (s.end) {
      time += 1;
      out.push(end(transport, exchange, s.error));
    }
  }
  return out;
}

export const jsonlInput: fc.Arbitrary<Input> = fc
  .tuple(
    fc.array(step, { minLength: 1, maxLength: 5 }),
    fc.array(fc.tuple(fc.nat(), fc.nat(), mutation), { maxLength: 2 }),
    fc.constantFrom("\n", "\r\n"),
    fc.boolean(),
  )
  .map(([steps, recordMutations, eol, bom]) => {
    const recs = records(steps, false);
    for (const [which, at, next] of recordMutations)
      recs[which % recs.length] = mutate(recs[which % recs.length]!, [[at, next]]);
    return { format: "jsonl" as const, text: (bom ? "\uFEFF" : "") + recs.map(write).join(eol) + eol };
  });

/**
 * What a HAR merged or edited by hand does to its entries (HAR 1.2 does not require them in time order): shuffled
 * (a sort by generated keys), one duplicated somewhere else, the whole list concatenated again as a merge of
 * recordings is (each copy with sessions of its own, on the same endpoint or on a path of its own), and an entry's
 * start moved (by up to a minute either way, beyond the streaming import's slack, or by a fraction of a ms).
 */
type Reorder =
  | { shuffle: number[] }
  | { duplicate: [number, number] }
  | { concat: [number, boolean] }
  | { shift: [number, number] };
const reorder: fc.Arbitrary<Reorder> = fc.oneof(
  fc.array(fc.nat(), { minLength: 1, maxLength: 12 }).map((keys): Reorder => ({ shuffle: keys })),
  fc.tuple(fc.nat(), fc.nat()).map((p): Reorder => ({ duplicate: p })),
  fc.tuple(fc.integer({ min: 2, max: 3 }), fc.boolean()).map((p): Reorder => ({ concat: p })),
  fc
    .tuple(fc.nat(), fc.oneof(fc.integer({ min: -60_000, max: 60_000 }), fc.constantFrom(-2001, 2001, -0.25, 0.5)))
    .map((p): Reorder => ({ shift: p })),
);
const reorders = fc.oneof(
  { weight: 2, arbitrary: fc.constant<Reorder[]>([]) },
  { weight: 1, arbitrary: fc.array(reorder, { minLength: 1, maxLength: 3 }) },
);

type Entry = Record<string, unknown> & { startedDateTime?: unknown; request?: { url?: unknown } };
function renameSessions(entry: Entry, prefix: string): void {
  for (const side of [entry.request, entry.response] as unknown[]) {
    const headers = (side as { headers?: unknown } | undefined)?.headers;
    if (!Array.isArray(headers)) continue;
    for (const h of headers as { name?: unknown; value?: unknown }[]) {
      if (typeof h?.name === "string" && h.name.toLowerCase() === "mcp-session-id" && typeof h.value === "string")
        h.value = prefix + h.value;
    }
  }
}
function reordered(entries: Entry[], ops: readonly Reorder[]): Entry[] {
  let list = entries;
  for (const op of ops) {
    if (list.length === 0) break;
    if ("shuffle" in op) {
      const keyed = list.map((e, i) => [op.shuffle[i % op.shuffle.length]! + i / list.length, e] as const);
      list = keyed.sort((a, b) => a[0] - b[0]).map(([, e]) => e);
    } else if ("duplicate" in op) {
      const copy = structuredClone(list[op.duplicate[0] % list.length]!);
      list = [
        ...list.slice(0, op.duplicate[1] % (list.length + 1)),
        copy,
        ...list.slice(op.duplicate[1] % (list.length + 1)),
      ];
    } else if ("concat" in op) {
      const [copies, ownPath] = op.concat;
      const out: Entry[] = [];
      for (let k = 0; k < copies; k++) {
        for (const e of list) {
          const copy = structuredClone(e);
          if (ownPath && k > 0 && copy.request && typeof copy.request.url === "string")
            copy.request.url = copy.request.url.replace(/\/mcp\b/, `/r${k}/mcp`);
          // Another recording has sessions of its own.
          if (k > 0) renameSessions(copy, `r${k}-`);
          out.push(copy);
        }
      }
      list = out;
    } else {
      const e = list[op.shift[0] % list.length]!;
      const at = typeof e.startedDateTime === "string" ? Date.parse(e.startedDateTime) : NaN;
      if (!Number.isNaN(at)) e.startedDateTime = new Date(at + op.shift[1]).toISOString();
    }
  }
  return list;
}

/**
 * The demo's real SDK sessions (demo/demo-capture.jsonl: both eras, POST and GET streams), each as the entries of
 * its HAR export: whole sessions for the reorderings to shuffle, repeat and merge.
 */
const demoSessions: Entry[][] = (() => {
  const records = importJsonl(
    readFileSync(new URL("../../demo/demo-capture.jsonl", import.meta.url), "utf8"),
    "demo.jsonl",
  ).records;
  const byScenario = new Map<string, typeof records>();
  for (const r of records) {
    const name = (r.exchange ?? "").split("/")[0]!;
    const list = byScenario.get(name);
    if (list) list.push(r);
    else byScenario.set(name, [r]);
  }
  return [...byScenario.values()].map(
    (list) => (JSON.parse(exportHar(list)) as { log: { entries: Entry[] } }).log.entries,
  );
})();

const sessionsInput: fc.Arbitrary<Input> = fc
  .tuple(
    fc.array(fc.nat({ max: demoSessions.length - 1 }), { minLength: 1, maxLength: 3 }),
    fc.array(reorder, { minLength: 1, maxLength: 3 }),
    mutations(2),
  )
  .map(([picked, ops, harMutations]) => {
    const entries = reordered(
      picked.flatMap((i) => structuredClone(demoSessions[i]!)),
      ops,
    );
    const tree = { log: { version: "1.2", creator: { name: "fuzz", version: "1" }, pages: [], entries } };
    if (harMutations.length === 0) return { format: "har" as const, text: JSON.stringify(tree, null, 2) };
    return { format: "har" as const, text: write(mutate(fromValue(tree), harMutations)) };
  });

/** Through exportHar (sane records), its entries reordered, then mutated as a HAR tree. */
const stepsInput: fc.Arbitrary<Input> = fc
  .tuple(fc.array(step, { minLength: 1, maxLength: 5 }), reorders, mutations(4))
  .map(([steps, ops, harMutations]) => {
    const recs = records(steps, true).map((r) => JSON.parse(write(r)) as Record<string, unknown>);
    let har: string;
    try {
      har = exportHar(recs as never);
    } catch (error) {
      // exportHar must take any valid capture; the property reports this input.
      return { format: "har" as const, text: `EXPORT-THREW ${(error as Error).message}` };
    }
    if (ops.length) {
      const tree = JSON.parse(har) as { log: { entries: Entry[] } };
      tree.log.entries = reordered(tree.log.entries, ops);
      har = JSON.stringify(tree, null, 2);
    }
    if (harMutations.length === 0) return { format: "har" as const, text: har };
    return { format: "har" as const, text: write(mutate(fromValue(JSON.parse(har)), harMutations)) };
  });

/** Generated captures through exportHar, and the demo's real sessions merged out of order. */
export const harInput: fc.Arbitrary<Input> = fc.oneof(
  { weight: 3, arbitrary: stepsInput },
  { weight: 2, arbitrary: sessionsInput },
);

/** HAR entries whose SSE bodies are framed by hand: CR, LF, CRLF, comments, ids, event types, split data lines, cut ends. */
const sseEvent = fc.record({
  message,
  mutations: mutations(2),
  eol: fc.constantFrom("\n", "\r\n", "\r"),
  id: fc.option(fc.constantFrom("1", "e-2", "", " x")),
  event: fc.option(fc.constantFrom("message", "endpoint", "ping", "")),
  comment: fc.boolean(),
  split: fc.boolean(),
  space: fc.boolean(),
});
export const sseInput: fc.Arbitrary<Input> = fc
  .tuple(
    fc.array(sseEvent, { minLength: 1, maxLength: 6 }),
    fc.boolean(),
    fc.constantFrom("text/event-stream", "text/event-stream; charset=utf-8", "application/json"),
    fc.boolean(),
  )
  .map(([events, cut, mimeType, bom]) => {
    let body = bom ? "\uFEFF" : "";
    for (const e of events) {
      const data = write(mutate(e.message, e.mutations));
      const lines: string[] = [];
      if (e.comment) lines.push(": keep-alive");
      if (e.id !== null) lines.push(`id:${e.id}`);
      if (e.event !== null) lines.push(`event:${e.event}`);
      const prefix = e.space ? "data: " : "data:";
      if (e.split && data.length > 4)
        lines.push(prefix + data.slice(0, data.length >> 1), prefix + data.slice(data.length >> 1));
      else lines.push(prefix + data);
      body += lines.join(e.eol) + e.eol + e.eol;
    }
    if (cut) body = body.slice(0, Math.max(1, body.length - 3));
    const request = {
      method: "POST",
      url: "http://127.0.0.1:3000/mcp",
      headers: [
        { name: "Mcp-Session-Id", value: "s1" },
        { name: "Content-Type", value: "application/json" },
      ],
      postData: {
        mimeType: "application/json",
        text: '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"deploy","arguments":{}}}',
      },
    };
    const entry = {
      startedDateTime: "2026-01-01T00:00:00.000Z",
      time: 10,
      request,
      response: {
        status: 200,
        headers: [{ name: "Content-Type", value: mimeType }],
        content: { size: body.length, mimeType, text: body },
      },
      timings: { send: 1, wait: 5, receive: 4 },
    };
    return {
      format: "har" as const,
      text: JSON.stringify({ log: { version: "1.2", creator: { name: "fuzz", version: "1" }, entries: [entry] } }),
    };
  });

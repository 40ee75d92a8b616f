import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { toNodeHandler } from "@modelcontextprotocol/node";
import { createMcpHandler, inputRequired, inputResponse, McpServer } from "@modelcontextprotocol/server";
import type { CallToolResult, InputResponseView, ServerContext } from "@modelcontextprotocol/server";
import type { PeerOptions, PeerServer } from "./legacyServer.ts";

/**
 * A real 2026-07-28 server (server@2.4.0 behind createMcpHandler, node@2.1.2 adapter) on 127.0.0.1.
 * Stateless: every round of a multi round-trip request is its own POST, answered by a fresh McpServer.
 * `legacy: "reject"` keeps it modern-only, so every exchange is 2026-07-28 traffic. Shared by the tests (through
 * test/peers/) and the demo host.
 *
 * A client without the elicitation capability in its request `_meta` gets what the SDK does on its own
 * (`_invokeInputRequiredCapableHandler`): a -32021 MissingRequiredClientCapability error, HTTP 400.
 */
export const modernTools = {
  confirm: "confirm_action",
  form: "register_user",
  twoRounds: "plan_trip",
  threeRounds: "deploy",
  keyed: "book_meeting",
  signIn: "sign_in",
  plain: "server_time",
} as const;
export const modernPrompt = "draft_reply";
export const modernResource = "notes://private/today";

const confirmSchema = {
  type: "object" as const,
  properties: { confirm: { type: "boolean" as const, title: "Confirm" } },
  required: ["confirm"],
};

const registerSchema = {
  type: "object" as const,
  properties: {
    email: { type: "string" as const, format: "email" as const, title: "Email" },
    age: { type: "integer" as const, minimum: 18, maximum: 120, title: "Age" },
    newsletter: { type: "boolean" as const, default: false, title: "Newsletter" },
    plan: {
      type: "string" as const,
      title: "Plan",
      oneOf: [
        { const: "free", title: "Free" },
        { const: "pro", title: "Pro" },
      ],
      default: "free",
    },
  },
  required: ["email", "age", "plan"],
};

const text = (value: string): CallToolResult => ({ content: [{ type: "text", text: value }] });
const describe = (view: InputResponseView): string =>
  view.kind === "elicit" ? `${view.action}${view.content ? ` ${JSON.stringify(view.content)}` : ""}` : view.kind;

/** requestState is opaque to the client; these peers keep plain JSON in it (no integrity protection: test data only). */
const state = (value: Record<string, unknown>): string => Buffer.from(JSON.stringify(value)).toString("base64url");
const readState = (ctx: ServerContext): Record<string, unknown> => {
  const raw = ctx.mcpReq.requestState<string>();
  return raw ? (JSON.parse(Buffer.from(raw, "base64url").toString("utf8")) as Record<string, unknown>) : {};
};
const answer = (ctx: ServerContext, key: string): InputResponseView => inputResponse(ctx.mcpReq.inputResponses, key);

export async function startModernServer(options: PeerOptions = {}): Promise<PeerServer> {
  const consents = new Set<string>();
  let origin = "";

  const makeServer = (): McpServer => {
    const mcp = new McpServer({ name: "modern-peer", version: "2.0.0" });

    // A plain call: complete on the first request.
    mcp.registerTool(modernTools.plain, { description: "Answers at once, no input needed." }, async () =>
      text("time: 12:00"),
    );

    // One round, no requestState.
    mcp.registerTool(modernTools.confirm, { description: "Asks for a yes/no confirmation." }, async (ctx) => {
      const reply = answer(ctx, "confirm");
      if (reply.kind === "missing") {
        return inputRequired({
          inputRequests: {
            confirm: inputRequired.elicit({ message: "Delete the staging database?", requestedSchema: confirmSchema }),
          },
        });
      }
      return text(`confirm: ${describe(reply)}`);
    });

    // Several fields in one form, one round.
    mcp.registerTool(modernTools.form, { description: "Asks for several fields at once." }, async (ctx) => {
      const reply = answer(ctx, "account");
      if (reply.kind === "missing") {
        return inputRequired({
          inputRequests: {
            account: inputRequired.elicit({ message: "Create your account", requestedSchema: registerSchema }),
          },
        });
      }
      return text(`registered: ${describe(reply)}`);
    });

    // Two rounds; the second question depends on the first answer, kept in requestState.
    mcp.registerTool(modernTools.twoRounds, { description: "Asks where, then how long." }, async (ctx) => {
      const kept = readState(ctx);
      const city = answer(ctx, "city");
      if (kept.city === undefined) {
        if (city.kind !== "elicit") {
          return inputRequired({
            inputRequests: {
              city: inputRequired.elicit({
                message: "Where to?",
                requestedSchema: {
                  type: "object",
                  properties: { city: { type: "string", title: "City" } },
                  required: ["city"],
                },
              }),
            },
            requestState: state({ step: 1 }),
          });
        }
        if (city.action !== "accept") return text(`trip: ${city.action}`);
        return inputRequired({
          inputRequests: {
            nights: inputRequired.elicit({
              message: `How many nights in ${String(city.content?.city)}?`,
              requestedSchema: {
                type: "object",
                properties: { nights: { type: "integer", minimum: 1, maximum: 30 } },
                required: ["nights"],
              },
            }),
          },
          requestState: state({ step: 2, city: city.content?.city }),
        });
      }
      return text(`trip: ${String(kept.city)} for ${describe(answer(ctx, "nights"))}`);
    });

    // Three rounds: environment, then confirmation, then a reason.
    mcp.registerTool(
      modernTools.threeRounds,
      { description: "Asks the environment, a confirmation and a reason." },
      async (ctx) => {
        const kept = readState(ctx);
        const step = typeof kept.step === "number" ? kept.step : 0;
        if (step === 0) {
          return inputRequired({
            inputRequests: {
              env: inputRequired.elicit({
                message: "Deploy where?",
                requestedSchema: {
                  type: "object",
                  properties: { env: { type: "string", title: "Environment", enum: ["staging", "production"] } },
                  required: ["env"],
                },
              }),
            },
            requestState: state({ step: 1 }),
          });
        }
        if (step === 1) {
          const env = answer(ctx, "env");
          if (env.kind !== "elicit" || env.action !== "accept") return text(`deploy: ${describe(env)}`);
          return inputRequired({
            inputRequests: {
              confirm: inputRequired.elicit({
                message: `Deploy to ${String(env.content?.env)}?`,
                requestedSchema: confirmSchema,
              }),
            },
            requestState: state({ step: 2, env: env.content?.env }),
          });
        }
        if (step === 2) {
          const confirm = answer(ctx, "confirm");
          if (confirm.kind !== "elicit" || confirm.action !== "accept") return text(`deploy: ${describe(confirm)}`);
          return inputRequired({
            inputRequests: {
              reason: inputRequired.elicit({
                message: "Why deploy now?",
                requestedSchema: {
                  type: "object",
                  properties: { reason: { type: "string", title: "Reason", maxLength: 200 } },
                  required: ["reason"],
                },
              }),
            },
            requestState: state({ step: 3, env: kept.env }),
          });
        }
        return text(`deploy: ${String(kept.env)} because ${describe(answer(ctx, "reason"))}`);
      },
    );

    // Two keyed questions in one round.
    mcp.registerTool(modernTools.keyed, { description: "Asks a date and a room in the same round." }, async (ctx) => {
      const date = answer(ctx, "date");
      const room = answer(ctx, "room");
      if (date.kind === "missing" || room.kind === "missing") {
        return inputRequired({
          inputRequests: {
            date: inputRequired.elicit({
              message: "Which day?",
              requestedSchema: {
                type: "object",
                properties: { date: { type: "string", format: "date", title: "Date" } },
                required: ["date"],
              },
            }),
            room: inputRequired.elicit({
              message: "Which room?",
              requestedSchema: {
                type: "object",
                properties: {
                  room: {
                    type: "string",
                    title: "Room",
                    oneOf: [
                      { const: "r1", title: "Room 1" },
                      { const: "r2", title: "Room 2" },
                    ],
                  },
                },
                required: ["room"],
              },
            }),
          },
          requestState: state({ booking: "b-1" }),
        });
      }
      return text(`meeting: ${describe(date)} in ${describe(room)}`);
    });

    // URL mode: the consent page on this server stands in for the out-of-band step; the retry sees it done.
    mcp.registerTool(modernTools.signIn, { description: "Sends the user to a page (URL mode)." }, async (ctx) => {
      const kept = readState(ctx);
      const reply = answer(ctx, "signin");
      if (typeof kept.consent === "string" && reply.kind === "elicit") {
        if (reply.action !== "accept") return text(`sign-in: ${reply.action}`);
        return text(consents.has(kept.consent) ? "sign-in: linked" : "sign-in: not finished");
      }
      const consent = `consent-${Math.random().toString(36).slice(2, 10)}`;
      return inputRequired({
        inputRequests: {
          signin: inputRequired.elicitUrl({
            message: "Link your calendar account",
            url: `${options.consentBase ?? `${origin}/consent/`}${consent}`,
          }),
        },
        requestState: state({ consent }),
      });
    });

    mcp.registerPrompt(modernPrompt, { description: "Drafts a reply in the tone the user picks." }, async (ctx) => {
      const tone = answer(ctx, "tone");
      if (tone.kind === "missing") {
        return inputRequired({
          inputRequests: {
            tone: inputRequired.elicit({
              message: "Which tone?",
              requestedSchema: {
                type: "object",
                properties: {
                  tone: { type: "string", title: "Tone", enum: ["formal", "friendly"], default: "friendly" },
                },
                required: ["tone"],
              },
            }),
          },
        });
      }
      const chosen = tone.kind === "elicit" && tone.action === "accept" ? String(tone.content?.tone) : "neutral";
      return { messages: [{ role: "user", content: { type: "text", text: `Draft a ${chosen} reply.` } }] };
    });

    mcp.registerResource(
      "private-notes",
      modernResource,
      { mimeType: "text/plain", description: "Asks before revealing private notes." },
      async (uri, ctx) => {
        const reveal = answer(ctx, "reveal");
        if (reveal.kind === "missing") {
          return inputRequired({
            inputRequests: {
              reveal: inputRequired.elicit({ message: "Show your private notes?", requestedSchema: confirmSchema }),
            },
          });
        }
        const shown = reveal.kind === "elicit" && reveal.action === "accept" && reveal.content?.confirm === true;
        return {
          contents: [{ uri: uri.href, mimeType: "text/plain", text: shown ? "Call the dentist." : "(hidden)" }],
        };
      },
    );

    return mcp;
  };

  const handler = createMcpHandler(() => makeServer(), { legacy: "reject", keepAliveMs: 0 });
  const serve = toNodeHandler(handler);
  const http = createServer((req, res) => {
    const path = new URL(req.url ?? "/", origin).pathname;
    if (path.startsWith("/consent/")) {
      consents.add(decodeURIComponent(path.slice("/consent/".length)));
      res.writeHead(200, { "content-type": "text/plain" }).end("Done. You can close this tab.");
      return;
    }
    if (path !== "/mcp") {
      res.writeHead(404).end();
      return;
    }
    void serve(req, res);
  });
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;

  return {
    url: `${origin}/mcp`,
    async close() {
      await handler.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}

// The relay rules (catalogue §3.13): a hosted agent between the MCP server and the user, judged on the joined flow
// of its two wires (src/engine/correlator/relay.ts).
import { canonicalJson, isObject } from "../../util/json.ts";
import type { Relay } from "../flow.ts";
import type { RuleMeta, RuleModule } from "../ruleKit/types.ts";

const spec = { revision: null, path: "client/elicitation" };
export const meta: readonly RuleMeta[] = [
  {
    id: "relay-ask-not-shown",
    severity: "warning",
    severityNote: "warning (heuristic)",
    revisions: "all (hosted agent)",
    violator: "client",
    violatorNote: "client (agent)",
    detection: "stateful, heuristic",
    title: "An elicitation reached the agent but never the page",
    section: "3.13",
    spec,
  },
  {
    id: "relay-answer-lost",
    severity: "warning",
    severityNote: "warning",
    revisions: "all (hosted agent)",
    violator: "client",
    violatorNote: "client (agent)",
    detection: "stateful",
    title: "The user's answer in the page never reached the server",
    section: "3.13",
    spec,
  },
  {
    id: "relay-answer-altered",
    severity: "error",
    severityNote: "error / warning",
    revisions: "all (hosted agent)",
    violator: "client",
    violatorNote: "client (agent)",
    detection: "stateful",
    title: "The answer changed between the page and the server",
    section: "3.13",
    spec,
  },
  {
    id: "relay-url-opened-unasked",
    severity: "error",
    severityNote: "error (side-channel)",
    revisions: "2025-11-25, 2026-07-28 (hosted agent)",
    violator: "client",
    violatorNote: "client (agent)",
    detection: "side-channel, heuristic",
    title: "A relayed URL-mode ask's URL opened before the user accepted",
    section: "3.13",
    spec,
  },
  {
    id: "relay-schema-dropped",
    severity: "warning",
    severityNote: "warning",
    revisions: "all (hosted agent)",
    violator: "client",
    violatorNote: "client (agent)",
    detection: "stateful",
    title: "The relayed form drops fields or constraints of the server's schema",
    section: "3.13",
    spec,
  },
];

/** Keywords whose loss changes what the user may enter. */
const CONSTRAINTS = [
  "enum",
  "oneOf",
  "anyOf",
  "minimum",
  "maximum",
  "minLength",
  "maxLength",
  "pattern",
  "format",
  "minItems",
  "maxItems",
];

const guess = (relay: Relay): string =>
  relay.inferred
    ? ` (joined by ${relay.joinedBy === "order" ? "order" : "a guess among alike asks"}: the page's ask may be another's)`
    : "";
const quote = (value: unknown): string => {
  const text = JSON.stringify(value) ?? "undefined";
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
};

/** What the relayed schema lost of the server's: missing properties, required ones no longer required, constraints. */
export function droppedFromSchema(server: unknown, relayed: unknown): string[] {
  if (!isObject(server)) return [];
  const out: string[] = [];
  const theirs = isObject(server.properties) ? server.properties : {};
  const ours = isObject(relayed) && isObject(relayed.properties) ? relayed.properties : {};
  const required = Array.isArray(server.required) ? server.required : [];
  const stillRequired = new Set(isObject(relayed) && Array.isArray(relayed.required) ? relayed.required : []);
  for (const [name, property] of Object.entries(theirs)) {
    const mine = ours[name];
    if (!isObject(mine)) {
      out.push(`field "${name}" is missing`);
      continue;
    }
    if (required.includes(name) && !stillRequired.has(name)) out.push(`field "${name}" is no longer required`);
    if (!isObject(property)) continue;
    for (const keyword of CONSTRAINTS) {
      if (!(keyword in property)) continue;
      if (!(keyword in mine)) out.push(`"${name}" lost ${keyword} ${quote(property[keyword])}`);
      else if (canonicalJson(mine[keyword]) !== canonicalJson(property[keyword]))
        out.push(`"${name}" ${keyword} ${quote(property[keyword])} became ${quote(mine[keyword])}`);
    }
  }
  return out;
}

/** How the server's answer differs from the user's content: fields added, removed, changed. */
function contentChanges(user: unknown, sent: unknown): string[] {
  const a = isObject(user) ? user : {};
  const b = isObject(sent) ? sent : {};
  const out: string[] = [];
  for (const key of Object.keys(a)) {
    if (!(key in b)) out.push(`"${key}" removed`);
    else if (canonicalJson(a[key]) !== canonicalJson(b[key]))
      out.push(`"${key}" ${quote(a[key])} became ${quote(b[key])}`);
  }
  for (const key of Object.keys(b)) if (!(key in a)) out.push(`"${key}" added (${quote(b[key])})`);
  return out;
}

export const relay: RuleModule = {
  meta,
  create({ report, on }) {
    return {
      relayJoined({ el, relay: r }) {
        if (!on("relay-schema-dropped") || el.mode === "url") return;
        const lost = droppedFromSchema(el.schema, r.params.requestedSchema);
        if (r.params.message !== el.message)
          lost.unshift(`the message ${quote(el.message)} became ${quote(r.params.message)}`);
        if (lost.length === 0) return;
        report({
          rule: "relay-schema-dropped",
          pointer: "/params/requestedSchema",
          message: `The form the page received is not the server's: ${lost.join("; ")}${guess(r)}.`,
        });
      },
      relayForwarded({ el, relay: r }) {
        if (!on("relay-answer-altered")) return;
        if (r.action !== el.action) {
          report({
            rule: "relay-answer-altered",
            record: el.answerRecord,
            pointer: el.answerPointer ?? "",
            message: `The user answered "${r.action ?? "?"}" in the page (record ${r.answerRecord}), the agent sent the server "${el.action ?? "?"}"${guess(r)}.`,
          });
          return;
        }
        if (el.action !== "accept") return;
        const changes = contentChanges(r.content, el.content);
        if (changes.length === 0) return;
        report({
          rule: "relay-answer-altered",
          severity: "warning",
          record: el.answerRecord,
          pointer: `${el.answerPointer ?? ""}/content`,
          message: `The content the server got is not what the user gave in the page (record ${r.answerRecord}): ${changes.join("; ")}${guess(r)}.`,
        });
      },
      relayLost({ relay: r, why }) {
        const when =
          why === "answered-before"
            ? "the agent had answered the server before the user answered"
            : "the server's flow ended without it";
        report({
          rule: "relay-answer-lost",
          pointer: "/result",
          message: `The user answered "${r.action ?? "?"}" in the page, and that answer never reached the server: ${when}${guess(r)}.`,
        });
      },
      relayUnshown({ el }) {
        report({
          rule: "relay-ask-not-shown",
          pointer: el.answerPointer ?? "",
          message: `The agent answered "${el.action ?? "?"}" to this elicitation (asked in record ${el.askRecord}: ${quote(el.message)}) without relaying it to the page: the user never saw it.`,
        });
      },
      relayUrlOpened({ page, entry, at }) {
        const r = entry.el.relay;
        const answer =
          r?.action === undefined
            ? "before the user answered in the page"
            : `after the user answered "${r.action}" in the page`;
        report({
          rule: "relay-url-opened-unasked",
          pointer: "",
          message: `The page requested the relayed elicitation's URL (${page.method} ${at}) ${answer}: it must not be opened or fetched without the user's consent (asked in record ${entry.el.askRecord}).`,
        });
      },
    };
  },
};

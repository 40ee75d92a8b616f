// The server's side of MRTR results (mrtr.mdx; basic/index.mdx § "ResultType"): resultType, and the shape of an
// InputRequiredResult apart from the elicitation payloads themselves.
import { INPUT_METHODS, MRTR_METHODS } from "../../../protocol/mrtr.ts";
import { isObject } from "../../../util/json.ts";
import { join } from "../../../util/pointer.ts";
import type { ClientRequest } from "../../model/scope.ts";
import type { Report } from "../../ruleKit/types.ts";

/** Final-result fields per method (mrtr-irr-mixed-payload). */
const FINAL_FIELDS: Record<string, string[]> = {
  "tools/call": ["content", "structuredContent", "isError"],
  "prompts/get": ["messages"],
  "resources/read": ["contents"],
};

/** resultType values added by extensions, by extension id (2026-07-28 tasks extension, SEP-2663: "task"). */
const EXTENSION_RESULT_TYPES: Record<string, string[]> = { "io.modelcontextprotocol/tasks": ["task"] };

/** basic/index.mdx § "ResultType": core values plus those of the extensions the request's capabilities advertise. */
function advertisedResultType(rt: unknown, caps: unknown): boolean {
  const extensions = isObject(caps) && isObject(caps.extensions) ? caps.extensions : {};
  return Object.entries(EXTENSION_RESULT_TYPES).some(
    ([ext, types]) => ext in extensions && types.includes(rt as string),
  );
}

/** Server-side checks of a 2026-07-28 result (basic/index.mdx § "ResultType"; mrtr.mdx). `caps`: the request's clientCapabilities. */
export function checkResultType(result: Record<string, unknown>, at: string, report: Report, caps?: unknown): void {
  const rt = result.resultType;
  if (rt === undefined || (rt === "complete" && ("inputRequests" in result || "requestState" in result))) {
    const irrish = "inputRequests" in result || "requestState" in result;
    report({
      rule: "mrtr-result-type-required",
      pointer: rt === undefined ? `${at}/result` : `${at}/result/resultType`,
      message: irrish
        ? `Result carries inputRequests/requestState but resultType is ${rt === undefined ? "absent" : '"complete"'}; a client will treat it as complete.`
        : "2026-07-28 result has no resultType; servers of this revision must include it.",
    });
  } else if (rt !== "complete" && rt !== "input_required" && !advertisedResultType(rt, caps)) {
    report({
      rule: "mrtr-result-type-known",
      pointer: `${at}/result/resultType`,
      message: `resultType ${JSON.stringify(rt)} is neither "complete" nor "input_required" and no extension declares it.`,
    });
  }
}

const QUOTE = 34;
const COLON = 58;
const WHITESPACE = /\s/;

/** Duplicate keys inside an `inputRequests` object: visible only in the raw text (parsed JSON collapses them). */
export function duplicateInputRequestKeys(text: string): string[] {
  const start = text.indexOf('"inputRequests"');
  if (start < 0) return [];
  const open = text.indexOf("{", start);
  if (open < 0) return [];
  // Most inputRequests hold one key: the set of keys seen is made when a second one comes.
  let first: string | undefined;
  let seen: Set<string> | undefined;
  const dups: string[] = [];
  const n = text.length;
  let depth = 0;
  // The next backslash at or after the scan, found again only once the scan passes it: amortised linear.
  let backslash = -1;
  // Character codes, not one-character strings: this walks the whole inputRequests text of every InputRequiredResult.
  for (let i = open; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === QUOTE) {
      // A string runs to the first quote that no backslash escapes (a backslash escapes the next character).
      // indexOf jumps to the candidates, which costs far less than looking at every character of every string.
      let j = i + 1;
      let escaped = false;
      for (;;) {
        let quote = text.indexOf('"', j);
        if (quote < 0) quote = n;
        if (backslash < j) {
          backslash = text.indexOf("\\", j);
          if (backslash < 0) backslash = n;
        }
        if (backslash >= quote) {
          j = quote;
          break;
        }
        escaped = true;
        j = backslash + 2;
      }
      if (depth === 1) {
        let k = j + 1;
        while (k < n && text.charCodeAt(k) !== COLON && WHITESPACE.test(text[k]!)) k++;
        if (text.charCodeAt(k) === COLON) {
          // Without escapes the key is its text (JSON.parse would return it, or throw and leave the same slice).
          let key = text.slice(i + 1, j);
          if (escaped) {
            try {
              key = JSON.parse(text.slice(i, j + 1)) as string;
            } catch {
              // keep the raw text
            }
          }
          if (first === undefined) first = key;
          else {
            seen ??= new Set<string>().add(first);
            if (seen.has(key)) dups.push(key);
            seen.add(key);
          }
        }
      }
      i = j;
    } else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) {
      depth--;
      if (depth === 0) break;
    }
  }
  return dups;
}

/** Server-side checks of an InputRequiredResult, apart from the elicitation payloads themselves. */
export function checkIrr(
  result: Record<string, unknown>,
  at: string,
  req: ClientRequest,
  text: string,
  report: Report,
): void {
  if (!MRTR_METHODS.has(req.method)) {
    report({
      rule: "mrtr-supported-methods",
      pointer: `${at}/result/resultType`,
      message: `InputRequiredResult in reply to ${req.method}; only tools/call, prompts/get and resources/read may return one.`,
    });
  }
  const { inputRequests, requestState } = result;
  if (inputRequests === undefined && requestState === undefined) {
    report({
      rule: "mrtr-irr-not-empty",
      pointer: `${at}/result`,
      message: "InputRequiredResult has neither inputRequests nor requestState.",
    });
  } else if (isObject(inputRequests) && Object.keys(inputRequests).length === 0 && requestState === undefined) {
    report({
      rule: "mrtr-irr-not-empty",
      severity: "warning",
      pointer: `${at}/result/inputRequests`,
      message: "InputRequiredResult has an empty inputRequests and no requestState.",
    });
  }
  if (requestState !== undefined && typeof requestState !== "string") {
    report({
      rule: "mrtr-request-state-string",
      violator: "server",
      pointer: `${at}/result/requestState`,
      message: `requestState is ${requestState === null ? "null" : typeof requestState}; it must be an opaque string.`,
    });
  }
  const finals = FINAL_FIELDS[req.method];
  const mixed = finals === undefined ? [] : finals.filter((f) => f in result);
  if (mixed.length) {
    report({
      rule: "mrtr-irr-mixed-payload",
      pointer: `${at}/result/${mixed[0]}`,
      message: `InputRequiredResult also carries final-result field${mixed.length > 1 ? "s" : ""} ${mixed.join(", ")}.`,
    });
  }
  for (const key of duplicateInputRequestKeys(text)) {
    report({
      rule: "mrtr-input-request-keys-unique",
      pointer: join(`${at}/result/inputRequests`, key),
      message: `inputRequests key "${key}" appears more than once in the raw JSON; keys must be unique.`,
    });
  }
  if (inputRequests === undefined) return;
  if (!isObject(inputRequests)) {
    report({
      rule: "mrtr-input-request-method",
      pointer: `${at}/result/inputRequests`,
      message: "inputRequests is not an object of key → request.",
    });
    return;
  }
  for (const [key, entry] of Object.entries(inputRequests)) {
    const p = join(`${at}/result/inputRequests`, key);
    if (!isObject(entry)) {
      report({
        rule: "mrtr-input-request-method",
        pointer: p,
        message: `inputRequests.${key} is not a request object.`,
      });
      continue;
    }
    if (!(INPUT_METHODS as readonly unknown[]).includes(entry.method)) {
      report({
        rule: "mrtr-input-request-method",
        pointer: `${p}/method`,
        message: `inputRequests.${key}.method ${JSON.stringify(entry.method)} is not elicitation/create, sampling/createMessage or roots/list.`,
      });
    } else if (entry.method === "elicitation/create" && !isObject(entry.params)) {
      report({
        rule: "mrtr-input-request-method",
        pointer: `${p}/params`,
        message: `inputRequests.${key} (elicitation/create) has no params object.`,
      });
    }
    if (entry.method === "sampling/createMessage" || entry.method === "roots/list") {
      report({
        rule: "mrtr-deprecated-input-kinds",
        pointer: `${p}/method`,
        message: `inputRequests.${key} uses ${entry.method}, deprecated in 2026-07-28 (SEP-2577).`,
      });
    }
    if ("jsonrpc" in entry || "id" in entry) {
      report({
        rule: "mrtr-input-request-shape",
        pointer: "id" in entry ? `${p}/id` : `${p}/jsonrpc`,
        message: `inputRequests.${key} carries JSON-RPC envelope fields; an input request is {method, params}, keyed by its key.`,
      });
    }
  }
}

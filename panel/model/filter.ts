import type { Finding, Flow } from "../../src/engine/index.ts";
import { severityRank, type Severity } from "../../src/engine/ruleKit/types.ts";
import { isModern } from "../../src/protocol/revision.ts";

/**
 * The filter box's language, as in DevTools' Network filter: `key:value` tokens and free text.
 *
 *   method:tools/call status:pending -rule:url-https severity:warning server:127.0.0.1 era:2026 frame:top source:backend "two words"
 *
 * Different keys AND together; the same key repeated ORs (`status:pending status:error`); `-key:value` excludes;
 * `key:"a value"` quotes. Free-text words and quoted phrases must all occur in the flow's message texts.
 */
/** `value` is lower-cased: every comparison is case-insensitive. */
export type FilterToken = { key: FilterKey; value: string; negate: boolean };
export interface ParsedFilter {
  tokens: FilterToken[];
  /** Free-text words and phrases, lower-cased. */
  text: string[];
  errors: string[];
}
export interface FlowFacts {
  flow: Flow;
  findings: readonly Finding[];
  /** all message texts of the flow's records, lowercased, joined */
  text: string;
  /** The frame the flow was seen in, lower-cased (frame.ts frameText); empty when the capture does not say. */
  frame?: string;
}

const KEYS = ["method", "status", "mode", "rule", "severity", "server", "era", "frame", "source"] as const;
export type FilterKey = (typeof KEYS)[number];
const isKey = (key: string): key is FilterKey => (KEYS as readonly string[]).includes(key);
const STATUSES: readonly Flow["status"][] = ["pending", "complete", "error", "abandoned"];
const SEVERITIES = Object.keys(severityRank) as Severity[];
const SOURCES = ["backend", "page"];

export function parseFilter(input: string): ParsedFilter {
  const tokens: FilterToken[] = [];
  const text: string[] = [];
  const errors: string[] = [];
  let i = 0;
  /** `"…"` with `\"` and `\\` escapes; an unclosed quote runs to the end (the user is still typing). */
  const quoted = (): string => {
    let out = "";
    for (i++; i < input.length && input[i] !== '"'; i++)
      out += input[i] === "\\" && i + 1 < input.length ? input[++i] : input[i];
    i++;
    return out;
  };
  const bare = (): string => {
    const start = i;
    while (i < input.length && !/\s/.test(input[i]!)) i++;
    return input.slice(start, i);
  };
  while (i < input.length) {
    if (/\s/.test(input[i]!)) {
      i++;
      continue;
    }
    const negate = input[i] === "-" && i + 1 < input.length && !/\s/.test(input[i + 1]!);
    const head = /^([A-Za-z]+):/.exec(input.slice(negate ? i + 1 : i, i + 40));
    // `https://…` is text to search for, not a key.
    if (!head || input.startsWith("//", (negate ? i + 1 : i) + head[0].length)) {
      // Free text is literal, a leading "-" included.
      const word = input[i] === '"' ? quoted() : bare();
      if (word !== "") text.push(word.toLowerCase());
      continue;
    }
    i += (negate ? 1 : 0) + head[0].length;
    const value = input[i] === '"' ? quoted() : bare();
    const name = head[1]!;
    const key = name.toLowerCase();
    if (!isKey(key)) {
      errors.push(`Unknown filter "${name}:"; use ${KEYS.map((k) => `${k}:`).join(", ")}.`);
      continue;
    }
    const problem = check(key, value);
    if (problem) errors.push(problem);
    else tokens.push({ key, value: value.toLowerCase(), negate });
  }
  return { tokens, text, errors };
}

function check(key: FilterKey, value: string): string | null {
  if (value === "") return `"${key}:" needs a value.`;
  const v = value.toLowerCase();
  if (key === "status" && !STATUSES.some((s) => s.startsWith(v)))
    return `No status "${value}"; use ${STATUSES.join(", ")}.`;
  if (key === "severity" && !SEVERITIES.some((s) => s.startsWith(v)))
    return `No severity "${value}"; use error, warning or info.`;
  if (key === "source" && !SOURCES.some((s) => s.startsWith(v))) return `No source "${value}"; use backend or page.`;
  return null;
}

export function matchFlow(filter: ParsedFilter, facts: FlowFacts): boolean {
  const { tokens } = filter;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    // Each key once, on its first token: its positive tokens OR, its negated ones each exclude.
    if (tokens.findIndex((t) => t.key === token.key) !== i) continue;
    let wanted = false;
    let any = false;
    for (const t of tokens) {
      if (t.key !== token.key) continue;
      const hit = matches(t.key, t.value, facts);
      if (t.negate && hit) return false;
      if (!t.negate) {
        wanted = true;
        any ||= hit;
      }
    }
    if (wanted && !any) return false;
  }
  return filter.text.every((word) => facts.text.includes(word));
}

/** `value` is lower-cased. */
function matches(key: FilterKey, value: string, { flow, findings, frame }: FlowFacts): boolean {
  switch (key) {
    // The method and what it names: `method:tools/call`, `method:deploy`.
    case "method":
      return flow.method.toLowerCase().includes(value) || (flow.target?.toLowerCase().includes(value) ?? false);
    case "status":
      return flow.status.startsWith(value);
    case "mode":
      return flow.elicitations.some((e) => String(e.mode).toLowerCase() === value);
    case "rule":
      return findings.some((f) => f.rule.includes(value));
    // `severity:warning` is warning and above.
    case "severity": {
      const min = SEVERITIES.find((s) => s.startsWith(value));
      return min !== undefined && findings.some((f) => severityRank[f.severity] >= severityRank[min]);
    }
    // The upstream, or the proxy or backend it went through (`server:6277` finds every flow behind that proxy).
    case "server":
      return flow.server.toLowerCase().includes(value) || (flow.via?.toLowerCase().includes(value) ?? false);
    // `frame:top`, `frame:3` (the browser's frame id), `frame:localhost` (its origin).
    case "frame":
      return (frame ?? "").split(" ").some((part) => part === value || (value.length > 2 && part.includes(value)));
    // `era:2026`, `era:2025-11-25`, or by name: `era:modern` (2026-07-28 on), `era:legacy`, `era:unknown`.
    case "era":
      if (flow.revision === null) return value === "unknown";
      if (value === "modern") return isModern(flow.revision);
      if (value === "legacy") return !isModern(flow.revision);
      return flow.revision.toLowerCase().startsWith(value);
    // Which wire: `source:backend` (an agent backend's, through mcp-elicit proxy), `source:page` (the page's own,
    // a relayed ask included). A backend flow joined with the page's relayed ask is both.
    case "source":
      if ("backend".startsWith(value)) return flow.source === "backend";
      return flow.source === undefined || flow.elicitations.some((e) => e.relay !== undefined);
  }
}

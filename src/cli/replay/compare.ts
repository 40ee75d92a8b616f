type Obj = Record<string, unknown>;
const isObj = (x: unknown): x is Obj => typeof x === "object" && x !== null && !Array.isArray(x);

const show = (v: unknown): string => {
  const s = JSON.stringify(v) ?? "undefined";
  return s.length > 80 ? s.slice(0, 79) + "…" : s;
};

const same = (a: unknown, b: unknown): boolean => {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (isObj(a) && isObj(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && same(a[k], b[k]));
  }
  return false;
};

/**
 * How a client's answer to an elicitation differs from the captured one: another action, a field the capture's
 * content has and the answer lacks (or the other way round), a field with another value. Empty: the same answer.
 */
export function compareElicitResult(captured: unknown, live: unknown): string[] {
  if (!isObj(captured) || !isObj(live))
    return same(captured, live) ? [] : [`answered ${show(live)} where the capture has ${show(captured)}`];
  if (captured.action !== live.action)
    return [`action ${show(live.action)} where the capture has ${show(captured.action)}`];
  const was = isObj(captured.content) ? captured.content : {};
  const now = isObj(live.content) ? live.content : {};
  const out: string[] = [];
  for (const key of Object.keys(was)) {
    if (!(key in now)) out.push(`missing field ${show(key)} (the capture's answer has ${show(was[key])})`);
    else if (!same(was[key], now[key]))
      out.push(`field ${show(key)} is ${show(now[key])} where the capture has ${show(was[key])}`);
  }
  for (const key of Object.keys(now)) if (!(key in was)) out.push(`field ${show(key)} that the capture's answer lacks`);
  return out;
}

/** A client's JSON-RPC answer (result or error) to a server request, against the captured answer. */
export function compareAnswer(method: string | undefined, captured: Obj, live: Obj): string[] {
  if ("error" in live && !("error" in captured)) return [`an error ${show(live.error)} where the capture has a result`];
  if ("error" in captured && !("error" in live))
    return [`a result where the capture has the error ${show(captured.error)}`];
  if ("error" in captured) return [];
  if (method === "elicitation/create") return compareElicitResult(captured.result, live.result);
  return same(captured.result, live.result)
    ? []
    : [`result ${show(live.result)} where the capture has ${show(captured.result)}`];
}

/**
 * A client request against the captured one it stands for: the same arguments, and for a 2026-07-28 retry the
 * requestState echoed and an answer per inputRequests key, each as the capture answered.
 */
export function compareRequest(captured: Obj, live: Obj): string[] {
  const was = isObj(captured.params) ? captured.params : {};
  const now = isObj(live.params) ? live.params : {};
  const out: string[] = [];
  if ("arguments" in was && !same(was.arguments, now.arguments))
    out.push(`arguments ${show(now.arguments)} where the capture has ${show(was.arguments)}`);
  if (captured.method === "initialize") {
    if (was.protocolVersion !== now.protocolVersion)
      out.push(`protocolVersion ${show(now.protocolVersion)} where the capture has ${show(was.protocolVersion)}`);
    const caps = (p: Obj) =>
      isObj(p.capabilities) && isObj(p.capabilities.elicitation) ? Object.keys(p.capabilities.elicitation).sort() : [];
    if (!same(caps(was), caps(now)))
      out.push(`elicitation capability ${show(caps(now))} where the capture has ${show(caps(was))}`);
  }
  if (typeof was.requestState === "string") {
    if (now.requestState === undefined) out.push("requestState not echoed");
    else if (now.requestState !== was.requestState)
      out.push(`requestState ${show(now.requestState)} is not the one sent (${show(was.requestState)})`);
  } else if (now.requestState !== undefined)
    out.push(`a requestState ${show(now.requestState)} where the capture has none`);
  const asked = isObj(was.inputResponses) ? was.inputResponses : undefined;
  const answered = isObj(now.inputResponses) ? now.inputResponses : {};
  if (asked) {
    for (const key of Object.keys(asked)) {
      if (!(key in answered)) out.push(`no answer for inputRequests key ${show(key)}`);
      else out.push(...compareElicitResult(asked[key], answered[key]).map((d) => `inputResponses ${show(key)}: ${d}`));
    }
  }
  for (const key of Object.keys(answered))
    if (!asked || !(key in asked)) out.push(`inputResponses key ${show(key)} that the capture lacks`);
  return out;
}

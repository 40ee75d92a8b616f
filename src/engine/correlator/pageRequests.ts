// HAR page requests (not MCP): the page's own requests, matched with the URL-mode elicitations of its flows by
// the URL's origin + path. A request for a URL the user has not accepted (yet) is evidence for its flow.
import { originAndPath, type PageRequestRecord } from "../../capture/record.ts";
import type { State } from "./state.ts";

/** Files the URL elicitations not yet indexed under their origin + path. */
export function indexUrls(s: State): void {
  if (s.unindexed.length === 0) return;
  const fresh = s.unindexed;
  s.unindexed = [];
  for (const entry of fresh) {
    entry.at = originAndPath(entry.url);
    if (entry.at === undefined) continue;
    const list = s.urlElicitations.get(entry.at);
    if (list) list.push(entry);
    else s.urlElicitations.set(entry.at, [entry]);
    s.emit("urlElicitation", { flow: entry.flow, revision: entry.flow.revision, record: entry.el.askRecord, entry });
  }
}

export function onPageRequest(s: State, record: PageRequestRecord): void {
  s.pageRequestsSeen = true;
  indexUrls(s);
  s.emit("pageRequest", { flow: null, revision: null, page: record, entries: s.urlElicitations });
  const at = record.url === undefined ? undefined : originAndPath(record.url);
  const list = at === undefined ? undefined : s.urlElicitations.get(at);
  if (!list) return;
  for (const entry of list) {
    // Not the entries of a -32042 error: no answer travels on the wire for them, so consent cannot be seen.
    if (entry.flow.kind === "url-required-error" || s.prefetched.has(entry) || entry.flow.joinedInto !== undefined)
      continue;
    // A hosted agent's ask: consent is the user's accept in the page, not the agent's answer to the server.
    if (entry.flow.source === "backend" || entry.flow.kind === "relay") {
      const relay = entry.el.relay;
      if (relay?.action === "accept" && relay.answeredAt !== undefined && relay.answeredAt <= record.time) continue;
      s.prefetched.add(entry);
      s.emit("relayUrlOpened", {
        flow: entry.flow,
        revision: entry.flow.revision,
        record: record.seq,
        page: record,
        entry,
        at: at!,
      });
      s.touch(entry.flow, record.seq);
      continue;
    }
    if (entry.el.action === "accept") continue;
    s.prefetched.add(entry);
    s.emit("urlFetched", {
      flow: entry.flow,
      revision: entry.flow.revision,
      record: record.seq,
      page: record,
      entry,
      at: at!,
    });
    // The evidence belongs with the flow's messages, where the panel shows a finding's evidence.
    s.touch(entry.flow, record.seq);
  }
}

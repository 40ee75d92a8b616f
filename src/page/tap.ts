import type { RecordDraft } from "../shared/tapRecord.ts";
import { TAP_DECODERS, TAP_RECORDING } from "../shared/tags.ts";
import { createDecoderMatcher } from "./decoders.ts";
import { createEmitter } from "./emit.ts";
import { tapEventSource } from "./eventSourceTap.ts";
import { tapFetch } from "./fetchTap.ts";
import type { Tap } from "./mcp.ts";
import { tapMessages } from "./messageTap.ts";
import { captureNatives, type Natives } from "./natives.ts";
import {
  MathRandom,
  NumberPrototypeToString,
  SetCtor,
  SetPrototypeAdd,
  SetPrototypeHas,
  StringPrototypeIndexOf,
  StringPrototypeSlice,
} from "./primordials.ts";
import { createAskUrls } from "./relay.ts";
import { tapWebSocket } from "./webSocketTap.ts";
import { createWrap, type Wrap } from "./wrap.ts";
import { tapXhr } from "./xhrTap.ts";

/**
 * Installs every hook in this window; each one alone, so a browser without one API still gets the others. Leaves
 * no mark on the page: the manifest injects page.js once per document, so there is nothing to guard against.
 */
/** Marks that some endpoint is known (not a URL: it has no scheme). */
const ANY = "*";

export function installTap(win: Window & typeof globalThis): void {
  const N = captureNatives(win);
  const wrap = createWrap();
  const emitter = createEmitter(win, N);
  const prefix = StringPrototypeSlice(NumberPrototypeToString(MathRandom(), 36), 2, 8);
  const decoder = new N.TextDecoder();
  const endpoints = new SetCtor<string>();
  const rules = createDecoderMatcher();
  // The relay's decode rules (src/content/decoders.ts), a JSON string: they apply to what the page does from then on.
  N.listen(emitter.channel, TAP_DECODERS, (event) => {
    try {
      rules.set(N.customEventDetail(event));
    } catch {
      // A malformed update leaves the rules as they were.
    }
  });
  // Whether the worker records this frame ("on" or "off", from the relay's acks): off, the tap sends nothing.
  N.listen(emitter.channel, TAP_RECORDING, (event) => {
    try {
      const detail = N.customEventDetail(event);
      if (detail === "on" || detail === "off") emitter.setSending(detail === "on");
    } catch {
      // Never into the page.
    }
  });
  let exchanges = 0;
  const askUrls = createAskUrls();
  const tap: Tap = {
    emit(record: RecordDraft) {
      // A relayed ask (a message outside any MCP exchange) may name a URL the page must not load unasked.
      if (record.kind === "message" && record.exchange === undefined && record.direction === "s2c")
        askUrls.note(record.text);
      emitter.emit(record);
    },
    on: emitter.sending,
    reserve: () => emitter.reserve(),
    now: N.now,
    client: win.location.origin,
    id: (kind) => `${prefix}:${kind}${exchanges++}`,
    addEndpoint: (url) => void SetPrototypeAdd(SetPrototypeAdd(endpoints, url), ANY),
    hasEndpoint: (url) => SetPrototypeHas(endpoints, url),
    hasEndpoints: () => SetPrototypeHas(endpoints, ANY),
    decode: (bytes) => N.decode(decoder, bytes),
    rules,
    askUrls,
    pageRequest(href, method) {
      if (!askUrls.take(href)) return;
      // No query or fragment: the path alone says which ask's URL it was.
      let cut = StringPrototypeIndexOf(href, "#");
      const query = StringPrototypeIndexOf(href, "?");
      if (query >= 0 && (cut < 0 || query < cut)) cut = query;
      const url = cut < 0 ? href : StringPrototypeSlice(href, 0, cut);
      emitter.emit({ transport: "http", url, client: tap.client, time: N.now(), kind: "page-request", method });
    },
  };
  const hooks: ((win: Window & typeof globalThis, tap: Tap, N: Natives, wrap: Wrap) => void)[] = [
    tapFetch,
    tapXhr,
    tapEventSource,
    tapWebSocket,
    tapMessages,
  ];
  for (let i = 0; i < hooks.length; i++) {
    try {
      hooks[i]!(win, tap, N, wrap);
    } catch {
      // A hook that cannot be installed leaves its API untouched.
    }
  }
}

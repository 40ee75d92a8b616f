// The ISOLATED-world relay, at document_start in every frame (manifest.json). Wiring only: listen.ts, uplink.ts,
// decoders.ts.
import browser from "webextension-polyfill";
import { storedDecoders } from "../shared/decoderStorage.ts";
import { CONTENT_PORT, PROTOCOL_VERSION, WORKER_SOURCE } from "../shared/tags.ts";
import { listenToTap } from "./listen.ts";
import { feedRules } from "./decoders.ts";
import { createUplink } from "./uplink.ts";

const uplink = createUplink({
  connect: () => browser.runtime.connect({ name: CONTENT_PORT }),
  doc: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`,
  top: window === window.top,
  onRecording: (on) => toTap.recording(on),
});
const toTap = listenToTap(window, (envelopes, rejected, tooLarge) => uplink.push(envelopes, rejected, tooLarge));
uplink.hello();
feedRules(storedDecoders, toTap.rules);
// DevTools opened on the tab, or a site chosen for recording (src/background/index.ts `wake`): the tap sends again,
// and the next ack says whether it stays on. Only the extension can message a content script.
browser.runtime.onMessage.addListener((message: unknown) => {
  const m = message as { source?: unknown; v?: unknown; kind?: unknown } | null;
  if (
    m !== null &&
    typeof m === "object" &&
    m.source === WORKER_SOURCE &&
    m.v === PROTOCOL_VERSION &&
    m.kind === "recording"
  )
    toTap.recording(true);
});

// The ISOLATED-world relay, at document_start in every frame (manifest.json). Wiring only: listen.ts, uplink.ts,
// decoders.ts.
import browser from "webextension-polyfill";
import { storedDecoders } from "../shared/decoderStorage.ts";
import { CONTENT_PORT } from "../shared/tags.ts";
import { listenToTap } from "./listen.ts";
import { feedRules } from "./decoders.ts";
import { createUplink } from "./uplink.ts";

const uplink = createUplink({
  connect: () => browser.runtime.connect({ name: CONTENT_PORT }),
  doc: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`,
  top: window === window.top,
});
const toTap = listenToTap(window, (envelopes, rejected, tooLarge) => uplink.push(envelopes, rejected, tooLarge));
uplink.hello();
feedRules(storedDecoders, toTap);

// The ISOLATED-world relay, at document_start in every frame (manifest.json). Wiring only: listen.ts, uplink.ts,
// rules.ts.
import browser from "webextension-polyfill";
import { CONTENT_PORT, DECODE_RULES_KEY } from "../shared/tags.ts";
import { listenToTap } from "./listen.ts";
import { feedRules } from "./rules.ts";
import { createUplink } from "./uplink.ts";

const uplink = createUplink({
  connect: () => browser.runtime.connect({ name: CONTENT_PORT }),
  doc: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`,
  top: window === window.top,
});
const toTap = listenToTap(window, (envelopes, rejected, tooLarge) => uplink.push(envelopes, rejected, tooLarge));
uplink.hello();
feedRules(
  {
    read: () => browser.storage.local.get(DECODE_RULES_KEY).then((items) => items[DECODE_RULES_KEY]),
    onChange: (listener) =>
      browser.storage.onChanged.addListener((changes, area) => {
        if (area === "local" && DECODE_RULES_KEY in changes) listener(changes[DECODE_RULES_KEY]!.newValue);
      }),
  },
  toTap,
);

// The ISOLATED-world relay, at document_start in every frame (manifest.json). Wiring only: listen.ts, uplink.ts.
import { ext } from "../shared/ext.ts";
import { CONTENT_PORT } from "../shared/tags.ts";
import { listenToTap } from "./listen.ts";
import { createUplink } from "./uplink.ts";

const uplink = createUplink({
  connect: () => ext.runtime.connect({ name: CONTENT_PORT }),
  doc: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`,
  top: window === window.top,
});
listenToTap(window, (envelopes, rejected) => uplink.push(envelopes, rejected));
uplink.hello();

// The ISOLATED-world relay, at document_start in every frame (manifest.json). Wiring only: listen.ts, uplink.ts.
import "../shared/jitless.ts";
import { ext } from "../shared/ext.ts";
import { CONTENT_PORT } from "../shared/tags.ts";
import { listenToTap } from "./listen.ts";
import { createUplink } from "./uplink.ts";

const uplink = createUplink({
  connect: () => ext.runtime.connect({ name: CONTENT_PORT }),
  doc: `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 10)}`,
  top: window === window.top,
});
listenToTap(window, (records, rejected) => uplink.push(records, rejected));
uplink.hello();

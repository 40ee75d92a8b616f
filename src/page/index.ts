// The MAIN-world tap, injected at document_start in every frame (manifest.json). Wiring only: src/page/tap.ts.
import { installTap } from "./tap.ts";

installTap(window);

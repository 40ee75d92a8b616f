// Test-time hook of the differential check (scripts/diff/check.mjs): every import of src/engine/index.ts
// outside this folder gets recordingEngine.ts instead, which runs the real engine and writes each run's
// records and options to $DIFF_CAPTURE_DIR when the process exits.
import { register } from "node:module";
register(new URL("./resolve.mjs", import.meta.url));

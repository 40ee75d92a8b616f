import type { EngineOptions } from "../../src/engine/index.ts";
import type { Decoder } from "../../src/capture/envelopes/index.ts";
import type { ImportProgress, ImportResult } from "./importFile.ts";

/**
 * The messages between the panel and its import worker (importer.js, one per import): the panel sends the file
 * once, the worker answers with steps and then the result or why it failed. The panel acknowledges each step once
 * it has shown it (`shown`); until then the worker merges the next steps into one, so the panel is never handed
 * more than it can show. Both ends are the extension's own code on the extension's origin, so these are types
 * rather than schemas; the payloads in them are captured data.
 */
export type ToImporter =
  | { kind: "import"; file: File; rules: readonly Decoder[]; engine?: EngineOptions }
  | { kind: "shown" };

export type FromImporter =
  | ({ kind: "progress" } & ImportProgress)
  | { kind: "done"; result: ImportResult }
  | { kind: "failed"; message: string };

/** The worker's script, next to panel.html in dist/<browser>/ (build.mjs). */
export const IMPORTER_SCRIPT = "importer.js";

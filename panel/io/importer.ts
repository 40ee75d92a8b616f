// importer.js's entry, a dedicated worker started by the panel for one import (startImport.ts). Wiring only: the
// file in, importFile's steps and its result out. The engine and the importers live here, not in panel.js.
import "../../src/shared/jitless.ts";
import { importFile, type ImportProgress } from "./importFile.ts";
import type { FromImporter, ToImporter } from "./importProtocol.ts";
import { createStepGate } from "./stepGate.ts";

const post = (message: FromImporter): void => postMessage(message);
const gate = createStepGate((step) => post({ kind: "progress", ...step }));

addEventListener("message", (event: MessageEvent<ToImporter>) => {
  const { data } = event;
  if (data?.kind === "shown") gate.shown();
  if (data?.kind !== "import") return;
  importFile(data.file, (step: ImportProgress) => gate.step(step), {
    rules: data.rules,
    ...(data.engine && { engine: data.engine }),
  }).then(
    (result) => gate.flushed().then(() => post({ kind: "done", result })),
    (error: unknown) => post({ kind: "failed", message: error instanceof Error ? error.message : String(error) }),
  );
});

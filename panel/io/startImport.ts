import type { EngineOptions } from "../../src/engine/index.ts";
import type { Decoder } from "../../src/capture/envelopes/index.ts";
import type { FlowStore } from "../state/store.ts";
import type { ImportProgress, ImportResult } from "./importFile.ts";
import { IMPORTER_SCRIPT, type FromImporter, type ToImporter } from "./importProtocol.ts";
import { createInterner } from "./intern.ts";

export type ImportOutcome =
  | { kind: "done"; result: ImportResult }
  | { kind: "cancelled" }
  | { kind: "failed"; message: string };

/** An import under way: its end, and Cancel. */
export interface ImportRun {
  readonly outcome: Promise<ImportOutcome>;
  /** Stops the import worker where it is; the store keeps what it had shown and says the import was cancelled. */
  cancel(): void;
}

/** The store's side of an import: what each step of importFile (importFile.ts) does to it. */
export type FileStore = Pick<FlowStore, "openFile" | "ingestFile">;

/**
 * Feeds one import's steps to the store: the file opens, each step adds to it (a `restart` opens it again), the
 * records are interned. `onFirstRows` is called once, on the first step with flows or on the last.
 */
export function feedStore(
  store: FileStore,
  file: { name: string; size?: number },
  onFirstRows?: () => void,
): (step: ImportProgress) => void {
  let intern = createInterner();
  let first = true;
  store.openFile(file.name, file.size ?? 0);
  return (step) => {
    if (step.restart) {
      intern = createInterner();
      store.openFile(file.name, file.size ?? 0);
    }
    if (step.changes.records) for (const record of step.changes.records) intern(record);
    store.ingestFile(step.changes, step.done, {
      records: step.records,
      bytes: step.bytes,
      size: step.size,
      ...(step.total !== undefined ? { total: step.total } : {}),
    });
    if (first && (step.changes.flows.length > 0 || step.done)) {
      first = false;
      onFirstRows?.();
    }
  };
}

/**
 * After the next frame is painted (a task queued from requestAnimationFrame runs after the paint), or after 100 ms
 * when no frame comes (the panel is hidden: DevTools shows another panel), so a hidden import still goes on.
 */
const afterPaint = (): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, 100);
    requestAnimationFrame(() =>
      setTimeout(() => {
        clearTimeout(timer);
        resolve();
      }, 0),
    );
  });

/**
 * A worker started ahead of the import, when the pointer or the focus reaches Import… (the user is about to pick a
 * file): starting one and loading importer.js takes 50–600 ms on a loaded machine, answering a file ready one 10–30.
 */
let spare: Worker | null = null;
export function warmImporter(): void {
  spare ??= new Worker(IMPORTER_SCRIPT);
}
const takeWorker = (): Worker => {
  const worker = spare ?? new Worker(IMPORTER_SCRIPT);
  spare = null;
  return worker;
};

/**
 * Imports a file in a worker of its own (importer.js): the engine and the importers never run on the panel's
 * thread, nor sit in panel.js. The worker reads the File itself (a File is posted, not its text) and sends
 * steps, which go to the store as they come; Cancel terminates the worker.
 */
export function startImport(
  file: File,
  store: FlowStore,
  options: { rules?: readonly Decoder[]; engine?: EngineOptions; onFirstRows?(): void } = {},
): ImportRun {
  const feed = feedStore(store, file, options.onFirstRows);
  const worker = takeWorker();
  let settle: (outcome: ImportOutcome) => void = () => undefined;
  const outcome = new Promise<ImportOutcome>((resolve) => (settle = resolve));
  let over = false;
  /** A step came (the bench's `mcp:import-first-chunk`: the worker has read and analysed its first piece). */
  let stepped = false;
  const end = (result: ImportOutcome): void => {
    if (over) return;
    over = true;
    worker.terminate();
    if (result.kind !== "done") store.stopImport(result.kind === "cancelled");
    settle(result);
  };
  worker.onmessage = (event: MessageEvent<FromImporter>) => {
    if (over) return;
    const message = event.data;
    if (message.kind === "progress") {
      if (!stepped) performance.mark("mcp:import-first-chunk");
      stepped = true;
      feed(message);
      // Shown: the next step may come (the worker merges what it makes meanwhile).
      void afterPaint().then(() => {
        if (!over) worker.postMessage({ kind: "shown" } satisfies ToImporter);
      });
    } else if (message.kind === "done") end({ kind: "done", result: message.result });
    else end({ kind: "failed", message: message.message });
  };
  // The script failed to load or threw outside importFile (which reports its own failures).
  worker.onerror = (event) => {
    event.preventDefault();
    end({ kind: "failed", message: `the import worker stopped (${event.message || "it could not be started"})` });
  };
  const request: ToImporter = {
    kind: "import",
    file,
    rules: options.rules ?? [],
    ...(options.engine && { engine: options.engine }),
  };
  worker.postMessage(request);
  return {
    outcome,
    cancel() {
      if (over) return;
      end({ kind: "cancelled" });
    },
  };
}

import type { RecordDraft } from "../shared/tapRecord.ts";
import { createEmitter } from "./emit.ts";
import { tapEventSource } from "./eventSourceTap.ts";
import { tapFetch } from "./fetchTap.ts";
import type { Tap } from "./mcp.ts";
import { tapMessages } from "./messageTap.ts";
import { captureNatives } from "./natives.ts";
import { tapWebSocket } from "./webSocketTap.ts";
import { tapXhr } from "./xhrTap.ts";

const INSTALLED = Symbol.for("mcp-elicitation-inspector.tap");

/** Installs every hook in this window; each one alone, so a browser without one API still gets the others. */
export function installTap(win: Window & typeof globalThis): void {
  const marks = win as unknown as Record<symbol, boolean>;
  if (marks[INSTALLED]) return;
  Object.defineProperty(win, INSTALLED, { value: true });

  const N = captureNatives(win);
  const emitter = createEmitter(win, N);
  const prefix = N.random().toString(36).slice(2, 8);
  const decoder = new N.TextDecoder();
  let exchanges = 0;
  const tap: Tap = {
    emit: (record: RecordDraft) => emitter.emit(record),
    reserve: () => emitter.reserve(),
    emitSent: (record: RecordDraft) => emitter.emitSent(record),
    reading: (change) => void (emitter.streams += change),
    now: N.now,
    client: win.location.origin,
    id: (kind) => `${prefix}:${kind}${exchanges++}`,
    endpoints: new Set(),
    decode: (bytes) => decoder.decode(bytes),
  };
  for (const install of [tapFetch, tapXhr, tapEventSource, tapWebSocket, tapMessages]) {
    try {
      install(win, tap, N);
    } catch {
      // A hook that cannot be installed leaves its API untouched.
    }
  }
}

import type { CaptureRecord } from "../../src/capture/record.ts";
import type { Flow } from "../../src/engine/index.ts";

/** The frame a flow was seen in, as the browser named it to the worker (record.ts `frame`, `frameOrigin`). */
export interface FlowFrame {
  id: number;
  origin: string;
}

/** The flow's frame: that of its first record that names one (imported captures name none). */
export function frameOf(flow: Flow, record: (seq: number) => CaptureRecord | undefined): FlowFrame | undefined {
  for (const seq of flow.records) {
    const r = record(seq);
    if (r?.frame !== undefined) return { id: r.frame, origin: r.frameOrigin ?? "" };
  }
  return undefined;
}

/** `top` for the tab's top frame, `frame N` for a subframe, empty when the capture does not say. */
export const frameLabel = (frame: FlowFrame | undefined): string =>
  frame === undefined ? "" : frame.id === 0 ? "top" : `frame ${frame.id}`;

/** What `frame:` matches: the label and the frame's origin (`frame:top`, `frame:3`, `frame:localhost`). */
export const frameText = (frame: FlowFrame | undefined): string =>
  frame === undefined ? "" : `${frameLabel(frame)} ${frame.origin}`.toLowerCase();

import type { WorkerToPanel } from "../shared/panelProtocol.ts";
import { PROTOCOL_VERSION, WORKER_SOURCE } from "../shared/tags.ts";

/** The part of a runtime Port the hub uses (tests pass fakes). */
export interface HubPort {
  name: string;
  sender?: { tab?: { id?: number; incognito?: boolean }; url?: string; origin?: string; frameId?: number };
  postMessage(message: unknown): void;
  disconnect(): void;
  onMessage: { addListener(listener: (message: unknown) => void): void };
  onDisconnect: { addListener(listener: () => void): void };
}

/** The head of every message the worker sends, to a relay or a panel. */
export const envelope = { source: WORKER_SOURCE, v: PROTOCOL_VERSION } as const;

/** Posts to a port that may have died meanwhile (its onDisconnect cleans up). */
export const post = (port: HubPort, message: WorkerToPanel | Record<string, unknown>): void => {
  try {
    port.postMessage(message);
  } catch {
    // A port that died meanwhile; its onDisconnect cleans up.
  }
};

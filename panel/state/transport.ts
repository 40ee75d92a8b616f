/// <reference types="chrome" />
import browser from "webextension-polyfill";
import type { DecoderInput } from "../../src/shared/decoders.ts";
import type { PanelCommand, WorkerToPanel } from "../../src/shared/panelProtocol.ts";
import { PANEL_PORT, PANEL_SOURCE, PROTOCOL_VERSION, WORKER_SOURCE } from "../../src/shared/tags.ts";

/** The only panel module that touches extension APIs. */

export type Command =
  | { kind: "subscribe" }
  | { kind: "clear" }
  | { kind: "preserveLog"; on: boolean }
  | { kind: "record"; on: boolean }
  | { kind: "records" }
  | { kind: "decoders" }
  | { kind: "addDecoder"; rule: DecoderInput }
  | { kind: "removeDecoder"; id: string }
  | { kind: "backendRecords"; feed: string; records: unknown[] }
  | { kind: "settings" }
  | { kind: "setSettings"; config: unknown };

export interface Transport {
  send(command: Command): void;
  close(): void;
}

/** The inspected tab: DevTools' own, or `?tabId=N` when the panel is opened as a page (tests, no DevTools). */
export function inspectedTabId(): number | undefined {
  const inspected = browser.devtools?.inspectedWindow;
  if (inspected) return inspected.tabId;
  const raw = new URLSearchParams(location.search).get("tabId");
  const fromQuery = raw === null || raw === "" ? NaN : Number(raw);
  return Number.isInteger(fromQuery) && fromQuery >= 0 ? fromQuery : undefined;
}

export type Theme = "light" | "dark";

/**
 * The DevTools theme when the panel lives in DevTools, otherwise the system's (`prefers-color-scheme`), and its
 * changes: Chromium's `themeName` is "default" or "dark" and `setThemeChangeHandler` reports a switch; Firefox's is
 * "light", "dark" or "firebug" and `onThemeChanged` reports it. Anything but "dark" is light.
 */
export function watchTheme(onChange: (theme: Theme) => void): Theme {
  const panels = browser.devtools?.panels as DevtoolsPanelsTheme | undefined;
  const fromName = (name: unknown): Theme => (name === "dark" ? "dark" : "light");
  if (typeof panels?.themeName === "string") {
    const hear = (name: unknown) => onChange(fromName(name));
    try {
      if (typeof panels.setThemeChangeHandler === "function") panels.setThemeChangeHandler(hear);
      else panels.onThemeChanged?.addListener(hear);
    } catch {
      // An older DevTools without either: its panels are reloaded on a theme switch.
    }
    return fromName(panels.themeName);
  }
  const query = globalThis.matchMedia?.("(prefers-color-scheme: dark)");
  query?.addEventListener("change", (e) => onChange(e.matches ? "dark" : "light"));
  return query?.matches ? "dark" : "light";
}

/** The theme members of `devtools.panels` in Chromium (`setThemeChangeHandler`) and Firefox (`onThemeChanged`). */
interface DevtoolsPanelsTheme {
  themeName?: string;
  setThemeChangeHandler?(callback: (themeName: string) => void): void;
  onThemeChanged?: { addListener(listener: (themeName: string) => void): void };
}

/** devtools.html: adds the panel to DevTools. */
export function registerPanel(): void {
  void browser.devtools?.panels.create("MCP Elicitation", "icons/icon-32.png", "panel.html");
}

/**
 * A port to the worker that subscribes to the tab and reconnects when the MV3 worker is stopped (every port drops
 * then): each new port subscribes again and gets a fresh snapshot, so nothing is missed or applied twice.
 */
export function connectTransport(tabId: number, onMessage: (message: WorkerToPanel) => void, onStatus: (connected: boolean) => void): Transport {
  let port: chrome.runtime.Port | undefined;
  let closed = false;
  let failures = 0;
  const command = (c: Command): PanelCommand => ({ source: PANEL_SOURCE, v: PROTOCOL_VERSION, tabId, ...c });

  const connect = (): void => {
    if (closed) return;
    let next: chrome.runtime.Port;
    try {
      next = browser.runtime.connect({ name: PANEL_PORT });
    } catch {
      onStatus(false);
      return; // the extension was reloaded: this page is orphaned
    }
    port = next;
    next.onMessage.addListener((message: WorkerToPanel) => {
      if (message?.source !== WORKER_SOURCE || message.v !== PROTOCOL_VERSION || message.tabId !== tabId) return;
      failures = 0;
      onStatus(true);
      onMessage(message);
    });
    next.onDisconnect.addListener(() => {
      if (port !== next) return;
      port = undefined;
      onStatus(false);
      failures++;
      setTimeout(connect, failures <= 1 ? 0 : Math.min(2000, 50 * 2 ** failures));
    });
    next.postMessage(command({ kind: "subscribe" }));
    // The worker's decode rules (the browser's, not the tab's): asked again on every port, as the snapshot is.
    next.postMessage(command({ kind: "decoders" }));
    next.postMessage(command({ kind: "settings" }));
  };
  connect();

  return {
    send(c) {
      port?.postMessage(command(c));
    },
    close() {
      closed = true;
      port?.disconnect();
    },
  };
}

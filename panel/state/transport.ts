/// <reference types="chrome" />
import browser from "webextension-polyfill";
import type { PanelCommand, PanelRequest, WorkerToPanel } from "../../src/shared/panelProtocol.ts";
import { createPortAdapter } from "../../src/shared/portAdapter.ts";
import { PANEL_PORT, PANEL_SOURCE, PROTOCOL_VERSION, WORKER_SOURCE } from "../../src/shared/tags.ts";

/** The only panel module that touches extension APIs. */

export type Command = PanelRequest;

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
 * then; src/shared/portAdapter.ts): each new port subscribes again and gets a fresh snapshot, so nothing is missed
 * or applied twice. A panel's subscription counts as DevTools being open on the tab (the worker records it).
 */
export function connectTransport(
  tabId: number,
  onMessage: (message: WorkerToPanel) => void,
  onStatus: (connected: boolean) => void,
): Transport {
  const command = (c: Command): PanelCommand => ({ source: PANEL_SOURCE, v: PROTOCOL_VERSION, tabId, ...c });
  const link = createPortAdapter({
    connect: () => browser.runtime.connect({ name: PANEL_PORT }),
    onConnect(port) {
      port.postMessage(command({ kind: "subscribe" }));
      // The worker's decoders (the browser's, not the tab's): asked again on every port, as the snapshot is.
      port.postMessage(command({ kind: "decoders" }));
      port.postMessage(command({ kind: "settings" }));
    },
    onMessage(raw) {
      const message = raw as WorkerToPanel;
      if (message?.source !== WORKER_SOURCE || message.v !== PROTOCOL_VERSION || message.tabId !== tabId) return;
      onStatus(true);
      onMessage(message);
    },
    onStatus: (connected) => !connected && onStatus(false),
  });
  link.open();

  return {
    send(c) {
      if (link.connected()) link.post(command(c));
    },
    close: () => link.close(),
  };
}

/**
 * The DevTools page's port (devtools.html): DevTools is open on the tab for as long as it lives, and the worker
 * records the tab from the moment the first `inspect` arrives, before the panel is ever shown; a reload with DevTools
 * open is recorded from its first request. Reconnects after a worker restart, like the panel's.
 */
export function announceInspection(): void {
  const tabId = browser.devtools?.inspectedWindow?.tabId;
  if (tabId === undefined) return;
  createPortAdapter({
    connect: () => browser.runtime.connect({ name: PANEL_PORT }),
    onConnect: (port) =>
      port.postMessage({ source: PANEL_SOURCE, v: PROTOCOL_VERSION, tabId, kind: "inspect" } satisfies PanelCommand),
    onMessage: () => undefined,
  }).open();
}

// The background worker (a service worker in Chrome, an event page in Firefox). Wiring only: hub.ts.
import "../shared/jitless.ts";
import browser from "webextension-polyfill";
import { storedDecoders } from "../shared/decoderStorage.ts";
import type { WorkerWake } from "../shared/contentProtocol.ts";
import {
  CONTENT_PORT,
  INSPECTED_KEY,
  PANEL_PORT,
  PROTOCOL_VERSION,
  RECORD_SITES_KEY,
  SETTINGS_KEY,
  WORKER_SOURCE,
} from "../shared/tags.ts";
import { DEFAULT_LIMITS, TEST_LIMITS } from "./budget.ts";
import { createHub } from "./hub.ts";
import { openIdbStore } from "./idbStore.ts";
import { createRecordingGate } from "./recording.ts";

/** storage.session: cleared with the browser session, kept across worker restarts (Chrome 102, Firefox 115). */
const sessionArea = browser.storage.session;

const hub = createHub({
  store: openIdbStore(),
  // Test builds (MCP_ELICIT_TEST=1) keep a small budget, so a flood test reaches it in seconds (test/extension/flood.test.ts).
  limits: __TEST__ ? TEST_LIMITS : DEFAULT_LIMITS,
  gate: createRecordingGate({
    readInspected: () => sessionArea.get(INSPECTED_KEY).then((items) => items[INSPECTED_KEY]),
    writeInspected: (value) => sessionArea.set({ [INSPECTED_KEY]: value }),
    readSites: () => browser.storage.local.get(RECORD_SITES_KEY).then((items) => items[RECORD_SITES_KEY]),
    writeSites: (value) => browser.storage.local.set({ [RECORD_SITES_KEY]: value }),
    onSitesChange: (listener) =>
      browser.storage.onChanged.addListener((changes, area) => {
        if (area === "local" && RECORD_SITES_KEY in changes) listener(changes[RECORD_SITES_KEY]!.newValue);
      }),
  }),
  isPrivate: (tabId) => browser.tabs.get(tabId).then((tab) => tab.incognito),
  wake(tabId) {
    const wake: WorkerWake = { source: WORKER_SOURCE, v: PROTOCOL_VERSION, kind: "recording" };
    // A tab without a relay (chrome://, a page still loading) refuses the message: nothing to wake there.
    const tell = (id: number | undefined): void =>
      void (id === undefined ? undefined : browser.tabs.sendMessage(id, wake).catch(() => undefined));
    if (tabId !== undefined) tell(tabId);
    else
      void browser.tabs.query({}).then(
        (tabs) => tabs.forEach((tab) => tell(tab.id)),
        () => undefined,
      );
  },
  rules: storedDecoders,
  settings: {
    read: () => browser.storage.local.get(SETTINGS_KEY).then((items) => items[SETTINGS_KEY]),
    write: (value) => browser.storage.local.set({ [SETTINGS_KEY]: value }),
  },
  badge(tabId, badge) {
    // The tab may be gone already; a badge is never worth an error.
    void browser.action.setBadgeText({ tabId, text: badge.text }).catch(() => undefined);
    void browser.action.setBadgeBackgroundColor({ tabId, color: badge.color }).catch(() => undefined);
    void browser.action.setTitle({ tabId, title: badge.title }).catch(() => undefined);
  },
});

const extensionOrigin = browser.runtime.getURL("");
browser.runtime.onConnect.addListener((port) => {
  if (port.name === CONTENT_PORT && port.sender?.tab) hub.connectContent(port);
  // Only the extension's own pages may read a tab's capture (a content script could ask for the name too).
  else if (port.name === PANEL_PORT && port.sender?.url?.startsWith(extensionOrigin)) hub.connectPanel(port);
  else port.disconnect();
});
browser.tabs.onRemoved.addListener((tabId) => void hub.removeTab(tabId));
browser.runtime.onStartup.addListener(() => void hub.resetAll());
browser.runtime.onInstalled.addListener(() => void hub.resetAll());

// Test builds only (MCP_ELICIT_TEST=1): a page the Firefox test can drive, since WebDriver BiDi may not navigate to
// moz-extension:// URLs (test/extension/FIREFOX-NEEDS.md).
if (__TEST__)
  browser.runtime.onInstalled.addListener(
    () => void browser.tabs.create({ url: browser.runtime.getURL("panel.html"), active: false }),
  );

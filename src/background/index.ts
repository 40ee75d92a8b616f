// The background worker (a service worker in Chrome, an event page in Firefox). Wiring only: hub.ts.
import "../shared/jitless.ts";
import browser from "webextension-polyfill";
import { storedDecoders } from "../shared/decoderStorage.ts";
import { CONTENT_PORT, PANEL_PORT, SETTINGS_KEY } from "../shared/tags.ts";
import { createHub } from "./hub.ts";
import { openIdbStore } from "./idbStore.ts";

const hub = createHub({
  store: openIdbStore(),
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
if (__TEST__) browser.runtime.onInstalled.addListener(() => void browser.tabs.create({ url: browser.runtime.getURL("panel.html"), active: false }));

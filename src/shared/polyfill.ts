/**
 * What `import browser from "webextension-polyfill"` is in the extension's bundles (build.mjs aliases the package
 * here): the global `browser` that the package's own browser-polyfill.min.js defines. That file is one unmodified copy
 * in dist, loaded before every bundle that uses it (the package README's "Basic Setup"): first in the relay's
 * content_scripts list, in devtools.html and panel.html, in Firefox's background.scripts, and by importScripts here in
 * Chrome's service worker, whose manifest names one file. The four contexts share that copy instead of bundling one
 * each (29 KB of each unminified bundle), and AMO review can match it to the published package.
 *
 * The polyfill wraps `chrome` only where no `browser` exists: Chrome before 148 (before 152 for an extension with a
 * devtools_page, such as this one: developer.chrome.com/docs/extensions/develop/concepts/browser-namespace). Firefox
 * and newer Chrome get their own `browser` back unchanged. The page tap (MAIN world) never loads it.
 */
declare const ServiceWorkerGlobalScope: (abstract new () => object) | undefined;
declare function importScripts(...urls: string[]): void;

if (typeof ServiceWorkerGlobalScope === "function" && globalThis instanceof ServiceWorkerGlobalScope)
  importScripts("browser-polyfill.min.js");

export default (globalThis as unknown as { browser: unknown }).browser;

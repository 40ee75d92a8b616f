/// <reference types="chrome" />
/**
 * Types for `webextension-polyfill`, which ships none (@types/webextension-polyfill is not a dependency). The
 * polyfill gives Chrome Firefox's promise-based `browser`; the members this extension calls have the shapes of
 * @types/chrome's MV3 promise overloads, so this facade is those namespaces. Ports and events pass through unwrapped.
 * In the bundles the import is the global the polyfill's own script defines (src/shared/polyfill.ts).
 */
declare module "webextension-polyfill" {
  const browser: Pick<typeof chrome, "action" | "runtime" | "storage" | "tabs"> & {
    /** Only in DevTools pages (devtools.html, the panel inside DevTools); absent in the panel opened as a tab. */
    devtools?: typeof chrome.devtools;
  };
  export default browser;
}

/// <reference types="chrome" />
/**
 * The extension API of the running browser: Firefox's promise-based `browser`, else Chrome's `chrome` (promises in
 * MV3). Every call this extension makes has the same shape in both, so no polyfill is needed; typed by @types/chrome.
 */
export const ext: typeof chrome = (globalThis as { browser?: typeof chrome }).browser ?? globalThis.chrome;

/** Build-time constants, defined by build.mjs (esbuild `define`). */
declare const __DEBUG__: boolean;
declare const __BROWSER__: "chrome" | "firefox";
/** Test builds only (MCP_ELICIT_TEST=1): hooks the real-browser tests need, compiled out of release builds. */
declare const __TEST__: boolean;

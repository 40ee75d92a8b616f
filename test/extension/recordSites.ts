/**
 * The sites the browser tests record without DevTools (src/background/recording.ts, "Record on this site without
 * DevTools"): every test server listens on 127.0.0.1, and most tests open the panel (or ask the worker for records)
 * only after the page has run, as a user who keeps an agent's pop-up recorded would. A test of recording while
 * inspected serves its page from another host name (`localhost`), which this leaves unrecorded.
 */
export const TEST_SITES = ["http://127.0.0.1"];

/** The storage.local key the worker reads the sites from (src/shared/tags.ts RECORD_SITES_KEY). */
export const RECORD_SITES_KEY = "recordSites";

/** Lets the worker's storage.onChanged listener take the new list before the test's first page loads. */
export const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 300));

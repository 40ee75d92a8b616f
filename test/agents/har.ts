import { readFile } from "node:fs/promises";

interface Har {
  log: { pages?: { id: string }[]; entries: { pageref?: string; request: { url: string } }[] } & Record<
    string,
    unknown
  >;
}

/**
 * The HAR a user saves from one tab's Network panel: Chromium's HAR of the whole browser (Playwright's recorder) cut
 * down to the page whose navigation went to `pageUrl` and the entries it made.
 */
export async function pageHar(path: string, pageUrl: string): Promise<string> {
  const har = JSON.parse(await readFile(path, "utf8")) as Har;
  const pageref = har.log.entries.find((e) => e.request.url === pageUrl && e.pageref !== undefined)?.pageref;
  if (pageref === undefined) throw new Error(`the HAR has no navigation to ${pageUrl}`);
  const log = {
    ...har.log,
    pages: (har.log.pages ?? []).filter((p) => p.id === pageref),
    entries: har.log.entries.filter((e) => e.pageref === pageref),
  };
  return JSON.stringify({ ...har, log });
}

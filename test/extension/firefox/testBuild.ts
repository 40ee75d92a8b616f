import { cp, readFile, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";

/**
 * The extension the Firefox test installs: dist/firefox copied into the run's temporary folder, with one extra
 * background script that opens `panel.html` in a tab when the add-on is installed.
 *
 * Why: WebDriver BiDi refuses to navigate to moz-extension:// ("Navigation to moz-extension://… is not allowed in
 * this context", browsingContext.navigate), and a web page may not open one either; so the test cannot reach an
 * extension page unless the extension opens it. Once there, the page is an ordinary extension page: it asks the
 * worker for a tab's records over the panel port and opens `panel.html?tabId=N` with tabs.create. Everything else
 * the test runs is dist/firefox as built. If the background grows this hook itself (`__TEST__`), see
 * ../FIREFOX-NEEDS.md for the switch.
 */
export const TEST_HOOK = "test-open-panel.js";

const hook = `// Test-only, added by test/extension/firefox/testBuild.ts: opens an extension page the test can drive.
browser.runtime.onInstalled.addListener(() => {
  void browser.tabs.create({ url: browser.runtime.getURL("panel.html"), active: false });
});
`;

export interface TestBuild {
  dir: string;
  /** browser_specific_settings.gecko.id of the built manifest. */
  geckoId: string;
}

export async function prepareTestBuild(into: string, from = resolve("dist/firefox")): Promise<TestBuild> {
  const dir = join(into, "extension");
  await cp(from, dir, { recursive: true });
  const manifestPath = join(dir, "manifest.json");
  const manifest = JSON.parse(await readFile(manifestPath, "utf8")) as {
    background?: { scripts?: string[] };
    browser_specific_settings?: { gecko?: { id?: string } };
  };
  const geckoId = manifest.browser_specific_settings?.gecko?.id;
  const scripts = manifest.background?.scripts;
  if (!geckoId) throw new Error("dist/firefox/manifest.json has no browser_specific_settings.gecko.id");
  if (!scripts?.length)
    throw new Error("dist/firefox/manifest.json has no background.scripts (an event page is expected in Firefox)");
  scripts.push(TEST_HOOK);
  await writeFile(join(dir, TEST_HOOK), hook);
  await writeFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return { dir, geckoId };
}

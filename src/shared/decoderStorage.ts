import browser from "webextension-polyfill";
import { DECODERS_KEY } from "./tags.ts";

/**
 * The decoders as storage.local holds them (DECODERS_KEY), for the two that use them: the worker, which reads and
 * writes them (src/background/decoderBook.ts), and every content relay, which reads them at document_start and
 * follows their changes (src/content/decoders.ts). storage.local, not IndexedDB: a relay reads it without waking
 * the worker.
 */
export const storedDecoders = {
  read: (): Promise<unknown> => browser.storage.local.get(DECODERS_KEY).then((items) => items[DECODERS_KEY]),
  write: (value: unknown): Promise<void> => browser.storage.local.set({ [DECODERS_KEY]: value }),
  onChange(listener: (value: unknown) => void): void {
    browser.storage.onChanged.addListener((changes, area) => {
      if (area === "local" && DECODERS_KEY in changes) listener(changes[DECODERS_KEY]!.newValue);
    });
  },
};

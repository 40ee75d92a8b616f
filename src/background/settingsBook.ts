import { configValue, defaultSettings, engineOptions, isSettings, readConfig, type Settings } from "../engine/settings.ts";
import type { EngineOptions } from "../engine/index.ts";

/** Where the settings live: storage.local in the extension, memory in tests. */
export interface SettingsStorage {
  read(): Promise<unknown>;
  write(value: unknown): Promise<void>;
}

export const createMemorySettingsStorage = (initial?: unknown): SettingsStorage & { value: unknown } => {
  const storage = {
    value: initial,
    read: async () => structuredClone(storage.value),
    write: async (value: unknown) => void (storage.value = structuredClone(value)),
  };
  return storage;
};

/**
 * The engine settings of the worker (rule levels, the strict profile), kept as a configuration file's value and read
 * back through the same check on every wake (a broken value starts from the defaults). Decode rules stay with the
 * rule book (ruleBook.ts): a configuration's are added there by the panel.
 */
export function createSettingsBook(storage: SettingsStorage, onChange: (options: EngineOptions) => void = () => undefined) {
  let settings: Settings = defaultSettings();
  const loaded = storage
    .read()
    .then((value) => {
      const read = value === undefined ? undefined : readConfig(value);
      if (read && isSettings(read)) settings = { ...read, decode: [] };
    })
    .catch(() => undefined);
  let chain: Promise<unknown> = loaded;
  return {
    loaded,
    options: (): EngineOptions => engineOptions(settings),
    config: () => configValue(settings),
    /** Replaces the settings with a configuration's value; the error says where it is wrong. */
    set(value: unknown): Promise<{ error?: string }> {
      const run = chain.then(async () => {
        const read = readConfig(value);
        if (!isSettings(read)) return { error: read.error };
        const next = { ...read, decode: [] };
        await storage.write(configValue(next));
        settings = next;
        onChange(engineOptions(settings));
        return {};
      });
      chain = run.catch(() => undefined);
      return run.catch((error: unknown) => ({ error: `the settings could not be saved: ${String(error)}` }));
    },
  };
}

export type SettingsBook = ReturnType<typeof createSettingsBook>;

import {
  configValue,
  defaultSettings,
  engineOptions,
  isSettings,
  readEngineSettings,
  type Settings,
} from "../engine/settings.ts";
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

/** The worker's engine settings, stored as a configuration value and checked again on every wake. */
export function createSettingsBook(
  storage: SettingsStorage,
  onChange: (options: EngineOptions) => void = () => undefined,
) {
  let settings: Settings = defaultSettings();
  const loaded = storage
    .read()
    .then((value) => {
      const read = value === undefined ? undefined : readEngineSettings(value);
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
        const read = readEngineSettings(value);
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

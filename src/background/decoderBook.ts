import { Decoder, DecoderInput, StoredDecoders } from "../shared/decoders.ts";
import { MAX_DECODE_RULES } from "../shared/tags.ts";

/** Where the rule set lives: storage.local in the extension (every relay reads it there), memory in tests. */
export interface DecoderStorage {
  read(): Promise<unknown>;
  write(value: StoredDecoders): Promise<void>;
}

export function createMemoryRuleStorage(initial?: unknown): DecoderStorage & { value: unknown } {
  const storage = {
    value: initial,
    read: async () => structuredClone(storage.value),
    write: async (value: StoredDecoders) => void (storage.value = structuredClone(value)),
  };
  return storage;
}

export type DecoderChange = { rules: Decoder[]; error?: string };

/**
 * The "Decode as MCP" rules of the worker: loaded from storage on wake (checked against `StoredDecoders`: a value an
 * older build wrote, or a broken one, starts an empty set), changed one step at a time. Each change is written
 * whole with a higher `rev`; the relays follow storage.onChanged (src/content/decoders.ts), the worker's sessions
 * follow `onChange`. Ids are `d1`, `d2`, … and never reused, so a removed rule's count cannot be taken for a new one's.
 */
export function createDecoderBook(
  storage: DecoderStorage,
  onChange: (rules: readonly Decoder[]) => void = () => undefined,
) {
  let state: StoredDecoders = { rev: 0, next: 1, rules: [] };
  const loaded: Promise<void> = storage
    .read()
    .then((value) => {
      const parsed = StoredDecoders.safeParse(value);
      if (parsed.success) state = parsed.data;
    })
    .catch(() => undefined);
  let chain: Promise<unknown> = loaded;

  const step = (change: () => { next: StoredDecoders } | { error: string }): Promise<DecoderChange> => {
    const run = chain.then(async (): Promise<DecoderChange> => {
      const result = change();
      if ("error" in result) return { rules: state.rules, error: result.error };
      await storage.write(result.next);
      state = result.next;
      onChange(state.rules);
      return { rules: state.rules };
    });
    chain = run.catch(() => undefined);
    return run.catch((error: unknown) => ({
      rules: state.rules,
      error: `the rules could not be saved: ${String(error)}`,
    }));
  };

  return {
    loaded,
    rules: (): readonly Decoder[] => state.rules,
    /** Adds a rule the panel sent (validated by the caller against DecoderInput); its method is upper-cased. */
    add(input: DecoderInput): Promise<DecoderChange> {
      return step(() => {
        if (state.rules.length >= MAX_DECODE_RULES) return { error: `at most ${MAX_DECODE_RULES} decode rules` };
        const rule = Decoder.parse({
          ...input,
          ...(input.method !== undefined && { method: input.method.toUpperCase() }),
          id: `d${state.next}`,
        });
        return { next: { rev: state.rev + 1, next: state.next + 1, rules: [...state.rules, rule] } };
      });
    },
    remove(id: string): Promise<DecoderChange> {
      return step(() => {
        if (!state.rules.some((r) => r.id === id)) return { error: `no decode rule ${id}` };
        return { next: { rev: state.rev + 1, next: state.next, rules: state.rules.filter((r) => r.id !== id) } };
      });
    },
  };
}

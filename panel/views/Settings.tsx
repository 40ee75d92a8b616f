import { useSignal } from "@preact/signals";
import { download } from "../io/exportCapture.ts";
import {
  importSettings,
  levelOf,
  LEVELS,
  settingsFile,
  withLevel,
  withStrict,
  type LevelChoice,
} from "../model/settings.ts";
import { escapeInvisible } from "../model/text.ts";
import type { FlowStore } from "../state/store.ts";
import type { Command } from "../state/transport.ts";
import { ruleMeta } from "../../src/engine/ruleKit/rules.ts";

/**
 * The engine settings a team keeps in `mcp-elicit.config.json` (docs/cli.md): rule levels, the strict SEP-2260
 * profile, decode rules. The worker keeps them and analyses every tab with them; Import… and Export read and write
 * the file the CLI reads. A rule's level is also set from its findings' context menu.
 */
export function Settings({
  store,
  send,
  editable,
  onClose,
}: {
  store: FlowStore;
  send(c: Command): void;
  editable: boolean;
  onClose(): void;
}) {
  const importError = useSignal<string | null>(null);
  const config = store.settings.value;
  const levels = Object.entries((config.rules ?? {}) as Record<string, string>);
  const onFile = async (file: File) => {
    const read = importSettings(await file.text(), store.decoders.value);
    if ("error" in read) {
      importError.value = `${file.name}: ${read.error}`;
      return;
    }
    importError.value = null;
    send({ kind: "setSettings", config: read.config });
    for (const rule of read.decode) send({ kind: "addDecoder", rule });
  };
  const onExport = () =>
    download(
      "mcp-elicit.config.json",
      new Blob([settingsFile(config, store.decoders.value)], { type: "application/json" }),
    );
  const error = importError.value ?? store.settingsError.value;
  return (
    <section class="decode settings" aria-label="Settings">
      <p class="hint">
        Rule levels and the strict profile apply to this browser's tabs and to imported files, as{" "}
        <code>mcp-elicit.config.json</code> applies them to <code>mcp-elicit lint</code>. Right-click a finding to set
        its rule's level.
      </p>
      {!editable && (
        <p class="warn">No tab: the settings are the extension worker's, and this panel has none to talk to.</p>
      )}
      {error && (
        <p class="warn" role="alert">
          {escapeInvisible(error)}
        </p>
      )}
      <div class="decode-form">
        <label class="check">
          <input
            type="checkbox"
            checked={config.strict2260 === true}
            disabled={!editable}
            onChange={(e) => send({ kind: "setSettings", config: withStrict(config, e.currentTarget.checked) })}
          />
          strict SEP-2260 profile
        </label>
        <label class="button">
          Import configuration…
          <input
            type="file"
            class="visually-hidden"
            aria-label="Import configuration file"
            accept=".json,application/json"
            disabled={!editable}
            onChange={(e) => {
              const file = e.currentTarget.files?.[0];
              e.currentTarget.value = "";
              if (file) void onFile(file);
            }}
          />
        </label>
        <button type="button" onClick={onExport}>
          Export configuration
        </button>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      {levels.length === 0 ? (
        <p class="empty">Every rule has its catalogue severity.</p>
      ) : (
        <table class="decode-rules" aria-label="Rule levels">
          <tbody>
            {levels.map(([rule, level]) => (
              <tr key={rule}>
                <td>{rule}</td>
                <td>
                  <select
                    aria-label={`Level of ${rule}`}
                    value={level}
                    disabled={!editable}
                    onChange={(e) =>
                      send({
                        kind: "setSettings",
                        config: withLevel(config, rule, e.currentTarget.value as LevelChoice),
                      })
                    }
                  >
                    <option value="default">default ({ruleMeta(rule)?.severity ?? "?"})</option>
                    {LEVELS.map((l) => (
                      <option key={l} value={l}>
                        {l}
                      </option>
                    ))}
                  </select>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}

/** The context menu of a finding: its rule's level, as Wireshark's expert info lets a user re-grade an item. */
export function levelItems(store: FlowStore, rule: string, send: (c: Command) => void) {
  const config = store.settings.value;
  const current = levelOf(config, rule) ?? "default";
  const catalogue = ruleMeta(rule)?.severity ?? "?";
  return (["default", ...LEVELS] as LevelChoice[]).map((level) => ({
    label: level === "default" ? `${rule}: default level (${catalogue})` : `${rule}: ${level}`,
    checked: current === level,
    onSelect: () => send({ kind: "setSettings", config: withLevel(config, rule, level) }),
  }));
}

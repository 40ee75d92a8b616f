import { readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { parseConfig } from "../engine/configFile.ts";
import { CONFIG_FILE, defaultSettings, isSettings, type Settings } from "../engine/settings.ts";

/**
 * The settings `lint` starts from: the file `--config` names, else the nearest `mcp-elicit.config.json` from the
 * working directory upward (as eslint and prettier find theirs), else the defaults. A file that cannot be read or
 * is malformed is the one sentence a usage error prints, naming the file and the place in it.
 */
export async function loadSettings(
  explicit: string | undefined,
  cwd = process.cwd(),
): Promise<{ settings: Settings; file?: string } | string> {
  const file = explicit ?? (await findUp(cwd));
  if (file === undefined) return { settings: defaultSettings() };
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === "ENOENT" ? "no such file" : code === "EISDIR" ? "a directory" : (e as Error).message;
    return `cannot read the configuration ${file}: ${why}`;
  }
  const parsed = parseConfig(text);
  return isSettings(parsed) ? { settings: parsed, file } : `configuration ${file}: ${parsed.error}`;
}

async function findUp(cwd: string): Promise<string | undefined> {
  for (let dir = resolve(cwd); ; dir = dirname(dir)) {
    const candidate = join(dir, CONFIG_FILE);
    if (
      await readFile(candidate).then(
        () => true,
        () => false,
      )
    )
      return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

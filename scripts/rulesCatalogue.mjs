// Reads the rule catalogue (docs/catalogue.md): every rule's quick-index row (id, revisions, severity, violator,
// one-line title) and, from its detailed entry, its detection and the section it sits in. The meta test
// (test/engine/coverage.test.ts) holds every rule module's meta against this.
import { readFileSync } from "node:fs";

// The violator a catalogue cell names first ("client (+server)": the client; "n/a", "(client UI)": none): what
// findings carry.
/** @param {string} cell @returns {"server" | "client" | "either" | "none"} */
export const violatorOf = (cell) => {
  const v = cell.toLowerCase();
  if (v.startsWith("server")) return "server";
  if (v.startsWith("client")) return "client";
  if (v.startsWith("either") || v.startsWith("sender")) return "either";
  return "none";
};

/** @returns {Map<string, {id: string, revisions: string, severity: string, severityNote: string, violator: string, title: string, detection: string, section: string}>} */
export function readCatalogue(path = new URL("../docs/catalogue.md", import.meta.url)) {
  const lines = readFileSync(path, "utf8").split("\n");
  const out = new Map();
  for (const l of lines) {
    if (!/^\| `[a-z0-9-]+` \|/.test(l)) continue;
    const [idCell, revisions, severityNote, violator, title] = l
      .split("|")
      .slice(1, -1)
      .map((c) => c.trim());
    const id = idCell.replace(/`/g, "");
    out.set(id, {
      id,
      revisions,
      severity: severityNote.match(/^(error|warning|info)/)[1],
      severityNote,
      violator,
      title,
      detection: "",
      section: "",
    });
  }
  let section = "";
  for (let i = 0; i < lines.length; i++) {
    const heading = lines[i].match(/^### (\d+\.\d+) /);
    if (heading) section = heading[1];
    const entry = lines[i].match(/^#### `([a-z0-9-]+)`$/);
    if (!entry || !out.has(entry[1])) continue;
    const rule = out.get(entry[1]);
    rule.section = section;
    for (let j = i + 1; j < lines.length && !lines[j].startsWith("#"); j++) {
      const d = lines[j].match(/^- \*\*Detection:\*\*\s*(.*)$/);
      if (!d) continue;
      const parts = d[1] ? [d[1]] : [];
      for (let k = j + 1; k < lines.length && /^ {2}- /.test(lines[k]); k++)
        parts.push(lines[k].replace(/^ {2}- /, ""));
      rule.detection = parts.join(" ");
      break;
    }
  }
  return out;
}

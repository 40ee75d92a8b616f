// Writes the meta of the rule modules from the catalogue: replaces each `/*META id id …*/` placeholder in
// src/engine/rules/**/*.ts with the rules' meta read from docs/catalogue.md. Run once per new module; the meta
// test then holds the written meta against the catalogue.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { readCatalogue, violatorOf } from "./rulesCatalogue.mjs";

const catalogue = readCatalogue();
const specOf = (id) => {
  if (id.startsWith("rev-header") || id === "mrtr-retry-headers")
    return ["2026-07-28", "basic/transports/streamable-http"];
  if (id.startsWith("rev-")) return ["2026-07-28", "basic/index"];
  if (id.startsWith("del-r3")) return ["2026-07-28", "basic/patterns"];
  if (id.startsWith("del-r12")) return ["2025-11-25", "basic/transports"];
  if (id === "cap-before-initialized") return ["2025-11-25", "basic/lifecycle"];
  if (id.startsWith("notify-") || id.startsWith("err-url-")) return ["2025-11-25", "client/elicitation"];
  if (id.startsWith("err-")) return ["2026-07-28", "basic/index"];
  if (id.startsWith("mrtr-")) return ["2026-07-28", "basic/patterns/mrtr"];
  if (id.startsWith("task-r2")) return ["2025-11-25", "basic/utilities/tasks"];
  if (id === "task-r3-extension") return ["2026-07-28", "changelog"];
  return [null, "client/elicitation"];
};
const files = readdirSync("src/engine/rules", { recursive: true })
  .map(String)
  .filter((f) => f.endsWith(".ts"))
  .map((f) => `src/engine/rules/${f}`);
for (const file of files) {
  const text = readFileSync(file, "utf8");
  const out = text.replace(/^( *)\/\*META ([^*]+)\*\/$/m, (_, indent, ids) =>
    ids
      .trim()
      .split(/\s+/)
      .map((id) => {
        const r = catalogue.get(id);
        if (!r) throw new Error(`${file}: ${id} is not in the catalogue`);
        const [revision, path] = specOf(id);
        const { severity, severityNote, revisions, detection, title, section } = r;
        const violator = violatorOf(r.violator);
        const note = violator === r.violator ? {} : { violatorNote: r.violator };
        const meta = {
          id,
          severity,
          severityNote,
          revisions,
          violator,
          ...note,
          detection,
          title,
          section,
          spec: { revision, path },
        };
        return `${indent}${JSON.stringify(meta)
          .replace(/"([a-zA-Z]+)":/g, "$1: ")
          .replace(/,(?=[a-zA-Z]+: )/g, ", ")
          .replace(/^{/, "{ ")
          .replace(/}$/, " }")
          .replace(/\}\s\}$/, "} }")},`;
      })
      .join("\n"),
  );
  if (out !== text) writeFileSync(file, out);
}

import { askedTerm, isProfileLabel, secretTerm } from "../util/secrets.ts";
import { MAX_DEPTH } from "../util/depth.ts";

// Secret form fields (redact.ts): the fields a form asks for that are secrets, and the pointers of their
// defaults and answers in a message, to blank.

export type Obj = Record<string, unknown>;
export const isObj = (x: unknown): x is Obj => typeof x === "object" && x !== null && !Array.isArray(x);
const isSelect = (def: Obj): boolean => def.type === "array" || "enum" in def || "oneOf" in def;

/**
 * The form-secret-field heuristic of secrets.ts (as rules/form.ts applies it), identity numbers included in
 * every era: a free-text field that asks for a password, key, token, card or identity number.
 */
function isSecretField(key: string, def: unknown): boolean {
  if (!isObj(def)) return false;
  if (def.writeOnly === true || def.format === "password") return true;
  if (def.type === "number" || def.type === "integer" || def.type === "boolean" || isSelect(def)) return false;
  const title = typeof def.title === "string" ? def.title : "";
  const description = typeof def.description === "string" ? def.description : "";
  const identity = { identity: true };
  return (
    secretTerm(key, identity) !== null ||
    (title !== "" && secretTerm(title, identity) !== null) ||
    (description !== "" && !isProfileLabel(`${key} ${title}`) && askedTerm(description, identity) !== null)
  );
}

/** `requestedSchema`, or `schema` in FrontMCP's `_meta.elicitationPending`. */
export function propertiesOf(node: Obj): [string, Obj] | undefined {
  for (const name of ["requestedSchema", "schema"]) {
    const schema = node[name];
    if (isObj(schema) && isObj(schema.properties)) return [name, schema.properties];
  }
  return undefined;
}

/**
 * Adds the secret fields that the forms in `node` ask for. True when `node` holds a form schema or a `content`
 * object anywhere: only then can secretPointers find something to blank in it.
 */
export function collectSecretFields(node: unknown, names: Set<string>): boolean {
  if (Array.isArray(node)) {
    let found = false;
    for (const n of node) found = collectSecretFields(n, names) || found;
    return found;
  }
  if (!isObj(node)) return false;
  const form = propertiesOf(node);
  let found = form !== undefined || isObj(node.content);
  for (const [key, def] of Object.entries(form?.[1] ?? {})) if (isSecretField(key, def)) names.add(key);
  for (const child of Object.values(node)) found = collectSecretFields(child, names) || found;
  return found;
}

/**
 * Pointers of the values to blank in one message: the defaults of secret fields in every form schema, and
 * the answers to them in every form `content` object — a 2025-xx ElicitResult (`result.content`), a 2026-07-28
 * `params.inputResponses.<key>.content`, FrontMCP's `sendElicitationResult` `arguments.content`. Tool results
 * carry `content` arrays, never objects, so they are not taken for answers.
 */
export function secretPointers(message: unknown, secretFields: ReadonlySet<string>): Set<string> {
  const out = new Set<string>();
  const walk = (node: unknown, at: string): void => {
    if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
    if (!isObj(node)) return;
    const [schema, properties = {}] = propertiesOf(node) ?? [];
    for (const [key, def] of Object.entries(properties)) {
      if (isSecretField(key, def)) out.add(`${at}/${schema}/properties/${escapeKey(key)}/default`);
    }
    if (isObj(node.content)) {
      for (const key of Object.keys(node.content)) {
        if (secretFields.has(key) || secretTerm(key, { identity: true }) !== null)
          out.add(`${at}/content/${escapeKey(key)}`);
      }
    }
    for (const [key, child] of Object.entries(node)) walk(child, `${at}/${escapeKey(key)}`);
  };
  walk(message, "");
  return out;
}

export const escapeKey = (key: string): string => key.replace(/~/g, "~0").replace(/\//g, "~1");
const pointerOf = (path: readonly string[]): string => path.map((k) => `/${escapeKey(k)}`).join("");
/** A multi-select default or answer is an array: its items are blanked with it. The pointers to blank lie no
 * deeper than MAX_DEPTH (secretPointers walks a cut value), so a string deeper down is looked up no further. */
export function isBlanked(at: string | readonly string[], blank: ReadonlySet<string>): boolean {
  const pointer = typeof at === "string" ? at : pointerOf(at.length > MAX_DEPTH + 4 ? at.slice(0, MAX_DEPTH + 4) : at);
  if (blank.has(pointer)) return true;
  for (let cut = pointer.lastIndexOf("/"); cut > 0; cut = pointer.lastIndexOf("/", cut - 1)) {
    if (blank.has(pointer.slice(0, cut))) return true;
  }
  return false;
}

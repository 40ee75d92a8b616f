import type { FieldValue, RequestedSchema } from "./ask.ts";

/**
 * Turns the restricted schema of a form-mode elicitation (spec 2025-11-25, "Requested Schema": flat object of
 * string, number/integer, boolean and enum properties, plus multi-select arrays) into labelled inputs, and
 * reads them back as the `content` of an accept. Titles, descriptions and option labels are server text: they
 * go in with textContent. Anything outside the restricted subset becomes a plain text input.
 */
export interface FormFields {
  /** Checks the inputs (showing the browser's messages) and returns the content, or undefined when invalid. */
  read(): Record<string, FieldValue> | undefined;
}

type Json = Record<string, unknown>;
interface Choice {
  value: string;
  label: string;
}

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const str = (value: unknown): string | undefined => (typeof value === "string" ? value : undefined);
const num = (value: unknown): number | undefined =>
  typeof value === "number" && Number.isFinite(value) ? value : undefined;

/** `enum` (with the deprecated `enumNames`), or `oneOf`/`anyOf` of `{ const, title }`. */
function choicesOf(def: Json): Choice[] | undefined {
  if (Array.isArray(def.enum)) {
    const names = Array.isArray(def.enumNames) ? def.enumNames : [];
    return def.enum.map((v, i) => ({ value: String(v), label: str(names[i]) ?? String(v) }));
  }
  const list = Array.isArray(def.oneOf) ? def.oneOf : Array.isArray(def.anyOf) ? def.anyOf : undefined;
  return list?.filter(isObject).map((c) => ({ value: String(c.const), label: str(c.title) ?? String(c.const) }));
}

function el<K extends keyof HTMLElementTagNameMap>(tag: K, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text !== undefined) node.textContent = text;
  return node;
}

let nextId = 0;

export function renderFields(form: HTMLFormElement, schema: RequestedSchema): FormFields {
  const properties = isObject(schema.properties) ? schema.properties : {};
  const required = new Set(
    Array.isArray(schema.required) ? schema.required.filter((r): r is string => typeof r === "string") : [],
  );
  const readers: (() => [string, FieldValue] | undefined)[] = [];

  for (const [name, raw] of Object.entries(properties)) {
    const def = isObject(raw) ? raw : {};
    const id = `field-${++nextId}`;
    const title = str(def.title) ?? name;
    const isRequired = required.has(name);
    const row = el("div");
    row.className = "field";
    const label = el("label", title);
    label.htmlFor = id;
    // The input's `required` tells assistive tech; the mark is for the eye and stays out of the label's name.
    const caption = el("span");
    caption.append(label);
    if (isRequired) {
      const mark = el("span", " *");
      mark.className = "required";
      mark.setAttribute("aria-hidden", "true");
      caption.append(mark);
    }
    const description = str(def.description);
    const help = description === undefined ? undefined : el("small", description);
    if (help) help.id = `${id}-help`;
    const describe = (input: HTMLElement) => help && input.setAttribute("aria-describedby", help.id);

    const choices = choicesOf(def);
    const items = isObject(def.items) ? def.items : undefined;
    if (def.type === "array" && items) {
      // Multi-select: a group of checkboxes; minItems/maxItems checked by hand (no native constraint for them).
      const group = el("fieldset");
      group.append(el("legend", title));
      if (help) group.setAttribute("aria-describedby", help.id);
      const boxes: HTMLInputElement[] = [];
      const defaults = Array.isArray(def.default) ? def.default.map(String) : [];
      for (const choice of choicesOf(items) ?? []) {
        const box = el("input");
        box.type = "checkbox";
        box.id = `${id}-${boxes.length}`;
        box.value = choice.value;
        box.checked = defaults.includes(choice.value);
        const boxLabel = el("label", choice.label);
        boxLabel.htmlFor = box.id;
        const line = el("div");
        line.append(box, boxLabel);
        group.append(line);
        boxes.push(box);
      }
      const min = num(def.minItems) ?? (isRequired ? 1 : 0);
      const max = num(def.maxItems);
      readers.push(() => {
        const picked = boxes.filter((b) => b.checked).map((b) => b.value);
        const wrong =
          picked.length < min
            ? `Pick at least ${min}.`
            : max !== undefined && picked.length > max
              ? `Pick at most ${max}.`
              : "";
        boxes[0]?.setCustomValidity(wrong);
        return picked.length || isRequired ? [name, picked] : undefined;
      });
      row.append(group);
    } else if (def.type === "boolean") {
      const box = el("input");
      box.type = "checkbox";
      box.id = id;
      box.checked = def.default === true;
      describe(box);
      row.classList.add("check");
      row.append(box, caption);
      readers.push(() => [name, box.checked]);
    } else if (choices) {
      const select = el("select");
      select.id = id;
      select.required = isRequired;
      describe(select);
      const fallback = str(def.default);
      if (!isRequired || fallback === undefined) {
        const placeholder = el("option", isRequired ? "Choose…" : "(none)");
        placeholder.value = "";
        select.append(placeholder);
      }
      for (const choice of choices) {
        const option = el("option", choice.label);
        option.value = choice.value;
        option.selected = choice.value === fallback;
        select.append(option);
      }
      row.append(caption, select);
      readers.push(() => (select.value === "" ? undefined : [name, select.value]));
    } else {
      const input = el("input");
      input.id = id;
      input.required = isRequired;
      describe(input);
      const isNumber = def.type === "number" || def.type === "integer";
      if (isNumber) {
        input.type = "number";
        input.step = def.type === "integer" ? "1" : "any";
        const min = num(def.minimum);
        const max = num(def.maximum);
        if (min !== undefined) input.min = String(min);
        if (max !== undefined) input.max = String(max);
        if (num(def.default) !== undefined) input.value = String(def.default);
      } else {
        const format = str(def.format);
        input.type =
          format === "email"
            ? "email"
            : format === "uri"
              ? "url"
              : format === "date"
                ? "date"
                : format === "date-time"
                  ? "datetime-local"
                  : "text";
        const minLength = num(def.minLength);
        const maxLength = num(def.maxLength);
        if (minLength !== undefined) input.minLength = minLength;
        if (maxLength !== undefined) input.maxLength = maxLength;
        if (str(def.default) !== undefined) input.value = String(def.default);
      }
      row.append(caption, input);
      readers.push(() => {
        if (input.value === "") return undefined;
        if (isNumber) return [name, input.valueAsNumber];
        // datetime-local has no zone; the spec's date-time is RFC 3339.
        return [name, input.type === "datetime-local" ? new Date(input.value).toISOString() : input.value];
      });
    }
    if (help) row.append(help);
    form.append(row);
  }

  return {
    read() {
      const entries = readers.map((read) => read());
      if (!form.reportValidity()) return undefined;
      return Object.fromEntries(entries.filter((e): e is [string, FieldValue] => e !== undefined));
    },
  };
}

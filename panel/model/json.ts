import { parseBounded } from "../../src/util/depth.ts";
import { escapeInvisible } from "./text.ts";

/** Pretty JSON text and where the value at a pointer sits in it (its member name included). */
export interface Pretty {
  text: string;
  /** [start, end) of the highlighted value, when the pointer resolved. */
  range?: [number, number];
}

const token = (part: string | number): string => String(part).replace(/~/g, "~0").replace(/\//g, "~1");
const str = (s: string): string => escapeInvisible(JSON.stringify(s));

/**
 * JSON.stringify(value, null, 2) that also tracks the RFC 6901 pointer of every value, so a finding's evidence can
 * be highlighted in the text. Strings are written with invisible and bidi characters escaped (./text.ts).
 */
export function prettyJson(value: unknown, target?: string): Pretty {
  let out = "";
  let range: [number, number] | undefined;
  const write = (v: unknown, indent: string, at: string, startAt: number): void => {
    if (v === null || typeof v !== "object") {
      out += typeof v === "string" ? str(v) : v === undefined ? "null" : (JSON.stringify(v) ?? "null");
    } else if (Array.isArray(v)) {
      if (v.length === 0) out += "[]";
      else {
        out += "[\n";
        const inner = indent + "  ";
        v.forEach((item, i) => {
          const start = out.length + inner.length;
          out += inner;
          write(item, inner, `${at}/${i}`, start);
          out += i < v.length - 1 ? ",\n" : "\n";
        });
        out += `${indent}]`;
      }
    } else {
      const keys = Object.keys(v);
      if (keys.length === 0) out += "{}";
      else {
        out += "{\n";
        const inner = indent + "  ";
        keys.forEach((key, i) => {
          const start = out.length + inner.length;
          out += `${inner}${str(key)}: `;
          write((v as Record<string, unknown>)[key], inner, `${at}/${token(key)}`, start);
          out += i < keys.length - 1 ? ",\n" : "\n";
        });
        out += `${indent}}`;
      }
    }
    if (target !== undefined && at === target && !range) range = [startAt, out.length];
  };
  write(value, "", "", 0);
  return range ? { text: out, range } : { text: out };
}

/** The value at an RFC 6901 pointer, or undefined. */
export function atPointer(value: unknown, pointer: string): unknown {
  if (pointer === "") return value;
  let current = value;
  for (const raw of pointer.split("/").slice(1)) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (current === null || typeof current !== "object") return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

/** A captured text parsed, cut at MAX_DEPTH (src/util/depth.ts): every view's walk over it stays within the stack. */
export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: parseBounded(text).value };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

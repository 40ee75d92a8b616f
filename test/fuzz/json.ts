/**
 * JSON as a tree the fuzzer controls, written out by hand: duplicate members, `__proto__` members (JSON.parse makes
 * them own members), numbers spelled as given (`1e308`, `-0`, `1.5e-320`), and nesting 100,000 deep without a
 * 100,000-deep object in the fuzzer (a `deep` node is written with repeat).
 */
export type J =
  | null
  | boolean
  | number
  | string
  | { arr: J[] }
  | { obj: [string, J][] }
  | { deep: number; open: "[" | '{"a":'; leaf: J }
  | { num: string };

export function fromValue(value: unknown, depth = 0): J {
  if (value === null || typeof value === "boolean" || typeof value === "number" || typeof value === "string")
    return value;
  if (depth > 50) return null;
  if (Array.isArray(value)) return { arr: value.map((v) => fromValue(v, depth + 1)) };
  if (typeof value === "object")
    return {
      obj: Object.entries(value as object)
        .filter(([, v]) => v !== undefined)
        .map(([k, v]) => [k, fromValue(v, depth + 1)]),
    };
  return null;
}

export function write(node: J): string {
  if (node === null || typeof node === "boolean") return String(node);
  if (typeof node === "number") return Number.isFinite(node) ? String(node) : "null";
  if (typeof node === "string") return JSON.stringify(node);
  if ("arr" in node) return `[${node.arr.map(write).join(",")}]`;
  if ("obj" in node) return `{${node.obj.map(([k, v]) => `${JSON.stringify(k)}:${write(v)}`).join(",")}}`;
  if ("num" in node) return node.num;
  const close = node.open === "[" ? "]" : "}";
  return node.open.repeat(node.deep) + write(node.leaf) + close.repeat(node.deep);
}

/**
 * A copy that mutate can change in place: arrays and objects (the only nodes with children to replace); `deep`
 * and `num` nodes are never changed, and are shared. Several times cheaper than structuredClone.
 */
export function copy(node: J): J {
  if (node === null || typeof node !== "object") return node;
  if ("arr" in node) return { arr: node.arr.map(copy) };
  if ("obj" in node) return { obj: node.obj.map(([k, v]): [string, J] => [k, copy(v)]) };
  return node;
}

/** Every node, in order (for picking one to mutate). */
export function nodes(root: J): { node: J; set(next: J): void }[] {
  const out: { node: J; set(next: J): void }[] = [{ node: root, set: () => undefined }];
  const walk = (node: J): void => {
    if (node === null || typeof node !== "object") return;
    if ("arr" in node)
      node.arr.forEach((child, i) => {
        out.push({ node: child, set: (next) => (node.arr[i] = next) });
        walk(child);
      });
    else if ("obj" in node)
      node.obj.forEach((member, i) => {
        out.push({ node: member[1], set: (next) => (node.obj[i] = [member[0], next]) });
        walk(member[1]);
      });
  };
  walk(root);
  return out;
}

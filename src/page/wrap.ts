/**
 * Swaps a method or constructor for a Proxy of it. A Proxy keeps what pages and libraries check: `name`, `length`,
 * `prototype`, static members, `instanceof`, subclassing (`new.target` passes through), and `toString()` still says
 * `[native code]`. The replacement keeps the property's attributes (assignment to an existing data property).
 */
export function replaceMethod<T extends object, K extends keyof T>(owner: T, key: K, handler: ProxyHandler<T[K] & object>): T[K] | undefined {
  const original = owner[key];
  if (typeof original !== "function") return undefined;
  const proxy = new Proxy(original as T[K] & object, handler);
  owner[key] = proxy;
  return original;
}

/**
 * Replaces a global constructor with a Proxy whose `construct` runs `watch` on each new instance, and points
 * `prototype.constructor` at the Proxy so `instance.constructor === Global` still holds.
 */
export function replaceConstructor<C extends abstract new (...args: never[]) => object>(win: object, name: string, watch: (instance: InstanceType<C>) => void): void {
  const owner = win as Record<string, unknown>;
  const original = owner[name] as C | undefined;
  if (typeof original !== "function") return;
  const proxy = new Proxy(original, {
    construct(target, args, newTarget) {
      const instance = Reflect.construct(target as unknown as new (...a: unknown[]) => object, args, newTarget) as InstanceType<C>;
      try {
        watch(instance);
      } catch {
        // Never into the page.
      }
      return instance;
    },
  });
  const descriptor = Object.getOwnPropertyDescriptor(original.prototype, "constructor");
  if (descriptor) Object.defineProperty(original.prototype, "constructor", { ...descriptor, value: proxy });
  owner[name] = proxy;
}

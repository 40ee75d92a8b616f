import {
  ErrorCtor,
  FunctionPrototype,
  FunctionPrototypeToString,
  PromiseCtor,
  PromisePrototypeThen,
  ProxyCtor,
  ReflectApply,
  ReflectConstruct,
  ReflectDefineProperty,
  ReflectGet,
  ReflectGetOwnPropertyDescriptor,
  ReflectGetPrototypeOf,
  ReflectSet,
  StringPrototypeCharCodeAt,
  StringPrototypeIndexOf,
  StringPrototypeSlice,
  WeakMapCtor,
  WeakMapPrototypeGet,
  WeakMapPrototypeSet,
} from "./primordials.ts";

type Fn = (...args: never[]) => unknown;
type ApplyTrap = (target: Fn, self: unknown, args: unknown[]) => unknown;

export interface Wrap {
  /** Replaces `owner[key]` (a method) by a Proxy whose `apply` is `trap`; returns the original, or undefined. */
  method(owner: object | undefined, key: PropertyKey, trap: ApplyTrap): Fn | undefined;
  /** The same Proxy under several keys that hold one function (ReadableStream's `values` and `@@asyncIterator`). */
  methods(owner: object | undefined, keys: PropertyKey[], trap: ApplyTrap): Fn | undefined;
  /** Replaces a global constructor; `watch` sees each new instance. */
  ctor(win: object, name: string, watch: (instance: EventTarget) => void): void;
  /** Calls a native; a synchronous throw is rethrown without the tap's stack frames. */
  invoke(target: Fn, self: unknown, args: unknown[]): unknown;
  /** Removes the tap's frames from an error's stack (an error the browser made while the tap was on the stack). */
  strip<E>(error: E): E;
  /**
   * Calls a promise-returning native expected to reject at once (the browser makes the error while the trap is on
   * the stack): the page gets a promise that settles as the browser's, one microtask later, its error stripped.
   */
  rejecting(target: Fn, self: unknown, args: unknown[]): Promise<unknown>;
}

/** What V8 prints for every callable Proxy and bound function: no name. */
const ANONYMOUS_NATIVE = "function () { [native code] }";

/**
 * Swaps built-ins for Proxies of them, so that what pages and libraries check stays the browser's: `name`,
 * `length`, `prototype`, statics, property attributes, `instanceof`, subclassing (`new.target` passes through).
 * Two things a Proxy alone gives away are handled here:
 *
 * - `Function.prototype.toString` prints a callable Proxy as `function () { [native code] }`, without the name, so
 *   `/^function fetch\(\) \{ \[native code\] \}$/` would tell. toString itself is wrapped: a WeakMap from each
 *   Proxy to its original (the toString Proxy included) makes it print the original. A function of another window
 *   (an iframe's `fetch`, wrapped by that window's tap) is printed by that window's toString, when it is a tap's.
 * - The traps are on the stack when a native throws (`xhr.open("b a d")`), and V8 records their frames, with the
 *   extension's URL, in `error.stack`. Every trap rethrows through `strip`, which removes the lines naming page.js.
 *
 * Handlers have no prototype: a page that defines `Object.prototype.get` must not add traps to our Proxies.
 */
export function createWrap(): Wrap {
  const originals = new WeakMapCtor<object, Fn>();
  const url = scriptUrl();

  const strip = <E>(error: E): E => {
    if (url === undefined || error === null || typeof error !== "object") return error;
    try {
      const stack: unknown = ReflectGet(error, "stack");
      if (typeof stack !== "string" || StringPrototypeIndexOf(stack, url) === -1) return error;
      let out = "";
      let first = true;
      for (let start = 0; start <= stack.length; ) {
        let end = StringPrototypeIndexOf(stack, "\n", start);
        if (end === -1) end = stack.length;
        const line = StringPrototypeSlice(stack, start, end);
        if (StringPrototypeIndexOf(line, url) === -1) {
          out = first ? line : `${out}\n${line}`;
          first = false;
        }
        start = end + 1;
      }
      ReflectSet(error, "stack", out);
    } catch {
      // A stack we cannot rewrite stays as it is.
    }
    return error;
  };

  const invoke = (target: Fn, self: unknown, args: unknown[]): unknown => {
    try {
      return ReflectApply(target, self, args);
    } catch (error) {
      throw strip(error);
    }
  };

  const proxyOf = (original: Fn, trap: ApplyTrap): Fn => {
    const proxy = new ProxyCtor(original, { __proto__: null, apply: trap } as ProxyHandler<Fn>);
    WeakMapPrototypeSet(originals, proxy, original);
    return proxy;
  };

  const methods = (owner: object | undefined, keys: PropertyKey[], trap: ApplyTrap): Fn | undefined => {
    if (!owner) return undefined;
    const first: unknown = ReflectGet(owner, keys[0]!);
    if (typeof first !== "function") return undefined;
    const proxy = proxyOf(first as Fn, trap);
    // Assignment keeps each property's attributes (all writable data properties). A key that holds another
    // function (a browser where they differ) gets a Proxy of its own.
    for (let i = 0; i < keys.length; i++) {
      const value: unknown = ReflectGet(owner, keys[i]!);
      if (value === first) ReflectSet(owner, keys[i]!, proxy);
      else if (typeof value === "function") ReflectSet(owner, keys[i]!, proxyOf(value as Fn, trap));
    }
    return first as Fn;
  };

  // Function.prototype.toString first, so that it prints itself as native too.
  const toStringProxy = proxyOf(FunctionPrototypeToString as Fn, (target, self, args) => {
    try {
      const original =
        self !== null && (typeof self === "object" || typeof self === "function")
          ? WeakMapPrototypeGet(originals, self)
          : undefined;
      if (original !== undefined) return ReflectApply(target, original, args);
      const text = ReflectApply(target, self, args) as string;
      return text === ANONYMOUS_NATIVE ? (foreign(self as Fn, args) ?? text) : text;
    } catch (error) {
      throw strip(error);
    }
  });
  ReflectSet(FunctionPrototype, "toString", toStringProxy);

  /** A Proxy or bound function of another window: that window's toString knows it if its tap wrapped it. */
  function foreign(fn: Fn, args: unknown[]): string | undefined {
    const proto = ReflectGetPrototypeOf(fn);
    if (proto === FunctionPrototype || typeof proto !== "function") return undefined;
    const other: unknown = ReflectGetOwnPropertyDescriptor(proto, "toString")?.value;
    // Only another tap's toString (a Proxy, printed without a name): a page's own function is never called.
    if (typeof other !== "function" || ReflectApply(FunctionPrototypeToString, other, []) !== ANONYMOUS_NATIVE)
      return undefined;
    const text: unknown = ReflectApply(other, fn, args);
    return typeof text === "string" ? text : undefined;
  }

  const rejecting = (target: Fn, self: unknown, args: unknown[]): Promise<unknown> => {
    const promise = invoke(target, self, args) as Promise<unknown>;
    return new PromiseCtor(
      (resolve, reject) => void PromisePrototypeThen(promise, resolve, (error) => reject(strip(error))),
    );
  };

  return {
    method: (owner, key, trap) => methods(owner, [key], trap),
    methods,
    ctor(target, name, watch) {
      const owner = target as Record<string, unknown>;
      const original = owner[name] as (new (...args: unknown[]) => object) | undefined;
      if (typeof original !== "function") return;
      const proxy = new ProxyCtor(original, {
        __proto__: null,
        construct(ctor, args, newTarget) {
          let instance: object;
          try {
            instance = ReflectConstruct(ctor, args, newTarget);
          } catch (error) {
            throw strip(error);
          }
          try {
            watch(instance as EventTarget);
          } catch {
            // Never into the page.
          }
          return instance;
        },
      } as ProxyHandler<typeof original>);
      WeakMapPrototypeSet(originals, proxy, original as unknown as Fn);
      const descriptor = ReflectGetOwnPropertyDescriptor(original.prototype, "constructor");
      if (descriptor)
        ReflectDefineProperty(original.prototype, "constructor", {
          __proto__: null,
          ...descriptor,
          value: proxy,
        } as PropertyDescriptor);
      owner[name] = proxy;
    },
    invoke,
    strip,
    rejecting,
  };
}

/**
 * What names page.js's frames in a stack: its URL (`chrome-extension://<id>/page.js`), read from a stack; or, in
 * Firefox, which shows a MAIN-world content script's frames to the page as `fn@<anonymous code>:line:col`, that.
 */
function scriptUrl(): string | undefined {
  let stack: unknown;
  try {
    stack = new ErrorCtor().stack;
  } catch {
    return undefined;
  }
  if (typeof stack !== "string") return undefined;
  const at = StringPrototypeIndexOf(stack, "-extension://");
  if (at === -1) return StringPrototypeIndexOf(stack, ANONYMOUS) === -1 ? undefined : ANONYMOUS;
  let start = at;
  while (start > 0 && isSchemeChar(StringPrototypeCharCodeAt(stack, start - 1))) start--;
  const path = StringPrototypeIndexOf(stack, "/", at + 13);
  const colon = path === -1 ? -1 : StringPrototypeIndexOf(stack, ":", path);
  return colon === -1 ? undefined : StringPrototypeSlice(stack, start, colon);
}

const ANONYMOUS = "@<anonymous code>:";

const isSchemeChar = (c: number): boolean =>
  (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46;

/**
 * The language built-ins the tap uses, taken when page.js is evaluated: at document_start, before any page script
 * (in the spirit of Node's lib/internal/per_context/primordials.js). A page or library that later replaces
 * `Reflect.apply`, `Array.prototype.push`, `String.prototype.indexOf` or `RegExp.prototype.exec` (zone.js, anti-bot
 * and observability scripts do) neither sees the tap call its replacement nor breaks the tap. Methods are
 * uncurried (`StringPrototypeSlice(s, 1)`): a bound `Function.prototype.call`, so not even `.call` is looked up
 * later. Web platform APIs are captured per window in natives.ts. Only language built-ins here, so the pure
 * helpers that tests import under Node can use this module too.
 */
const apply = Reflect.apply;
const bind = Function.prototype.bind;
const call = Function.prototype.call;

type Method = (this: never, ...args: never[]) => unknown;
/** `fn.call` as a plain function: `uncurry(String.prototype.slice)(s, 1)` is `s.slice(1)` without any lookup. */
export type Uncurried<F> = F extends (this: infer T, ...args: infer A) => infer R ? (self: T, ...args: A) => R : never;
export const uncurry = <F extends Method>(fn: F): Uncurried<F> => apply(bind, call, [fn]) as Uncurried<F>;

/** An accessor's getter, uncurried; undefined when the browser has no such accessor. */
export function getter<V>(proto: object | undefined, key: PropertyKey): ((self: unknown) => V) | undefined {
  const get = proto ? Reflect.getOwnPropertyDescriptor(proto, key)?.get : undefined;
  return get ? (apply(bind, call, [get]) as (self: unknown) => V) : undefined;
}

export const ReflectApply = Reflect.apply;
export const ReflectConstruct = Reflect.construct;
export const ReflectGet = Reflect.get;
export const ReflectSet = Reflect.set;
export const ReflectGetPrototypeOf = Reflect.getPrototypeOf;
export const ReflectGetOwnPropertyDescriptor = Reflect.getOwnPropertyDescriptor;
export const ReflectDefineProperty = Reflect.defineProperty;
export const ReflectOwnKeys = Reflect.ownKeys;
export const ProxyCtor = Proxy;
export const ArrayIsArray = Array.isArray;
export const ArrayBufferIsView = ArrayBuffer.isView;
export const JSONParse = JSON.parse;
export const JSONStringify = JSON.stringify;
export const MathRandom = Math.random;
export const FunctionPrototype = Function.prototype;
export const ObjectPrototype = Object.prototype;
export const ArrayPrototype = Array.prototype;
export const FunctionPrototypeToString = Function.prototype.toString;
export const ErrorCtor = Error;
export const TypeErrorPrototype = TypeError.prototype;

export const StringPrototypeIndexOf = uncurry(String.prototype.indexOf);
export const StringPrototypeSlice = uncurry(String.prototype.slice);
export const StringPrototypeCharCodeAt = uncurry(String.prototype.charCodeAt);
export const StringPrototypeToLowerCase = uncurry(String.prototype.toLowerCase);
export const StringPrototypeToUpperCase = uncurry(String.prototype.toUpperCase);
export const StringPrototypeIncludes = uncurry(String.prototype.includes);
export const RegExpPrototypeExec = uncurry(RegExp.prototype.exec);
export const NumberPrototypeToString = uncurry(Number.prototype.toString);
export const NumberIsFinite = Number.isFinite;
export const DatePrototypeGetTime = uncurry(Date.prototype.getTime);
export const DatePrototypeToISOString = uncurry(Date.prototype.toISOString);
export const NumberPrototypeValueOf = uncurry(Number.prototype.valueOf);
export const StringPrototypeValueOf = uncurry(String.prototype.valueOf);
export const BooleanPrototypeValueOf = uncurry(Boolean.prototype.valueOf);

export const PromiseCtor = Promise;
const promiseThen = uncurry(Promise.prototype.then) as <T, R1 = T, R2 = never>(
  promise: PromiseLike<T>,
  onFulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
  onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
) => Promise<R1 | R2>;
const ReflectDeleteProperty = Reflect.deleteProperty;
const UNDEFINED_CONSTRUCTOR = {
  __proto__: null,
  value: undefined,
  writable: true,
  configurable: true,
} as PropertyDescriptor;
/**
 * `promise.then(onFulfilled, onRejected)` that reads nothing the page can patch. The built-in `then` asks the promise
 * for its `constructor` (SpeciesConstructor), found on Promise.prototype where a page may have put a getter, and
 * then for that constructor's `Symbol.species`. An own `constructor` of undefined, there only for the call, makes
 * `then` take the built-in Promise without looking further; it is gone before any page code can run.
 */
export function PromisePrototypeThen<T, R1 = T, R2 = never>(
  promise: PromiseLike<T>,
  onFulfilled?: ((value: T) => R1 | PromiseLike<R1>) | null,
  onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
): Promise<R1 | R2> {
  if (
    ReflectGetOwnPropertyDescriptor(promise, "constructor") !== undefined ||
    !ReflectDefineProperty(promise, "constructor", UNDEFINED_CONSTRUCTOR)
  )
    return promiseThen(promise, onFulfilled, onRejected);
  try {
    return promiseThen(promise, onFulfilled, onRejected);
  } finally {
    ReflectDeleteProperty(promise, "constructor");
  }
}
const promiseResolve = Promise.resolve;
export const PromiseResolve = <T>(value: T): Promise<Awaited<T>> =>
  apply(promiseResolve, Promise, [value]) as Promise<Awaited<T>>;

export const WeakMapCtor = WeakMap;
export const WeakMapPrototypeGet = uncurry(WeakMap.prototype.get) as <K extends WeakKey, V>(
  map: WeakMap<K, V>,
  key: K,
) => V | undefined;
export const WeakMapPrototypeSet = uncurry(WeakMap.prototype.set) as <K extends WeakKey, V>(
  map: WeakMap<K, V>,
  key: K,
  value: V,
) => WeakMap<K, V>;
export const WeakMapPrototypeHas = uncurry(WeakMap.prototype.has) as <K extends WeakKey>(
  map: WeakMap<K, unknown>,
  key: K,
) => boolean;
export const WeakMapPrototypeDelete = uncurry(WeakMap.prototype.delete) as <K extends WeakKey>(
  map: WeakMap<K, unknown>,
  key: K,
) => boolean;
export const SetCtor = Set;
export const SetPrototypeAdd = uncurry(Set.prototype.add) as <T>(set: Set<T>, value: T) => Set<T>;
export const SetPrototypeHas = uncurry(Set.prototype.has) as <T>(set: Set<T>, value: T) => boolean;
export const SetPrototypeDelete = uncurry(Set.prototype.delete) as <T>(set: Set<T>, value: T) => boolean;

const TypedArrayPrototype = Reflect.getPrototypeOf(Uint8Array.prototype) as object;
export const Uint8ArrayCtor = Uint8Array;
const TypedArrayPrototypeGetBuffer = getter<ArrayBufferLike>(TypedArrayPrototype, "buffer")!;
const TypedArrayPrototypeGetByteOffset = getter<number>(TypedArrayPrototype, "byteOffset")!;
const TypedArrayPrototypeGetByteLength = getter<number>(TypedArrayPrototype, "byteLength")!;
const DataViewPrototypeGetBuffer = getter<ArrayBufferLike>(DataView.prototype, "buffer")!;
const DataViewPrototypeGetByteOffset = getter<number>(DataView.prototype, "byteOffset")!;
const DataViewPrototypeGetByteLength = getter<number>(DataView.prototype, "byteLength")!;
const ArrayBufferPrototypeGetByteLength = getter<number>(ArrayBuffer.prototype, "byteLength")!;

/** Brand checks through the built-in getters: no `instanceof` (Symbol.hasInstance can be redefined). */
export function isArrayBuffer(value: unknown): value is ArrayBuffer {
  if (value === null || typeof value !== "object") return false;
  try {
    ArrayBufferPrototypeGetByteLength(value);
    return true;
  } catch {
    return false;
  }
}

/** A view's bytes as [buffer, offset, length] (typed arrays and DataViews alike); undefined for anything else. */
export function viewBytes(view: unknown): [ArrayBufferLike, number, number] | undefined {
  if (!ArrayBufferIsView(view)) return undefined;
  try {
    return [
      TypedArrayPrototypeGetBuffer(view),
      TypedArrayPrototypeGetByteOffset(view),
      TypedArrayPrototypeGetByteLength(view),
    ];
  } catch {
    return [
      DataViewPrototypeGetBuffer(view),
      DataViewPrototypeGetByteOffset(view),
      DataViewPrototypeGetByteLength(view),
    ];
  }
}

/** The byte length of an ArrayBuffer or view, or -1. */
export function byteLengthOf(value: unknown): number {
  if (isArrayBuffer(value)) return ArrayBufferPrototypeGetByteLength(value);
  const bytes = viewBytes(value);
  return bytes ? bytes[2] : -1;
}

/** Appends without Array.prototype.push. */
export const append = <T>(array: T[], value: T): void => void (array[array.length] = value);

/** The part of `text` before the first `?` or `#` (an endpoint: origin and path). */
export function endpointOf(url: string): string {
  const q = StringPrototypeIndexOf(url, "?");
  const h = StringPrototypeIndexOf(url, "#");
  const end = q === -1 ? h : h === -1 ? q : q < h ? q : h;
  return end === -1 ? url : StringPrototypeSlice(url, 0, end);
}

const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13 || c === 12;

/** `text.trim()` for ASCII whitespace (HTTP's), with captured built-ins. */
export function trimAscii(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isSpace(StringPrototypeCharCodeAt(text, start))) start++;
  while (end > start && isSpace(StringPrototypeCharCodeAt(text, end - 1))) end--;
  return start === 0 && end === text.length ? text : StringPrototypeSlice(text, start, end);
}

/** Whether `text` holds only ASCII whitespace (or nothing). */
export const isBlank = (text: string): boolean => trimAscii(text) === "";

// Plain-JSON helpers: objects here are always the result of JSON.parse (no cycles, no class instances).

export type JSONObject = { [k: string]: unknown };

export const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v);

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!deepEqual(a[i], b[i])) return false;
    return true;
  }
  if (Array.isArray(b)) return false;
  const ak = Object.keys(a as object);
  const bo = b as JSONObject;
  if (ak.length !== Object.keys(bo).length) return false;
  for (const k of ak) if (!(k in bo) || !deepEqual((a as JSONObject)[k], bo[k])) return false;
  return true;
}

/** A copy with object keys sorted at every level: how Go encodes unstructured maps, so custom resources read back as kube-apiserver writes them. */
export function sortKeysDeep<T>(v: T): T {
  return sortKeysDeepChecked(v).copy;
}

/**
 * Sorts strings as Array.prototype.sort() does (by UTF-16 code units). The few keys of an object, often in
 * order already, by insertion: the built-in sort allocates work arrays on every call.
 */
function sortStrings(keys: string[]): void {
  if (keys.length > 32) {
    keys.sort();
    return;
  }
  for (let i = 1; i < keys.length; i++) {
    const k = keys[i]!;
    let j = i - 1;
    if (keys[j]! <= k) continue;
    while (j >= 0 && keys[j]! > k) {
      keys[j + 1] = keys[j]!;
      j--;
    }
    keys[j + 1] = k;
  }
}

/**
 * sortKeysDeep, also telling whether the copy is plain JSON (isPlainJson: parsing its JSON text gives it
 * back exactly), found in the same walk.
 */
export function sortKeysDeepChecked<T>(v: T): { copy: T; plain: boolean } {
  if (typeof v !== 'object' || v === null) return { copy: v, plain: isPlainJson(v) };
  // Explicit stacks of sources and their copies: bodies may nest 10,000 deep, beyond the call stack.
  let plain = true;
  const copy = (x: object): object => {
    if (Array.isArray(x)) return new Array<unknown>(x.length);
    if (Object.getPrototypeOf(x) !== Object.prototype) plain = false;
    return {};
  };
  const root = copy(v);
  const srcs: object[] = [v];
  const outs: object[] = [root];
  const member = (x: unknown): unknown => {
    if (typeof x === 'object') {
      if (x === null) return x;
      const c = copy(x);
      srcs.push(x);
      outs.push(c);
      return c;
    }
    if (plain && typeof x !== 'string' && typeof x !== 'boolean' && !isJsonNumber(x)) plain = false;
    return x;
  };
  while (srcs.length > 0) {
    const src = srcs.pop()!;
    const out = outs.pop()!;
    if (Array.isArray(src)) {
      const a = out as unknown[];
      for (let i = 0; i < src.length; i++) a[i] = member(src[i]);
      continue;
    }
    const keys = Object.keys(src);
    sortStrings(keys);
    const o = out as Record<string, unknown>;
    for (const k of keys) {
      if (k === '__proto__') plain = false;
      o[k] = member((src as Record<string, unknown>)[k]);
    }
  }
  return { copy: root as T, plain };
}

/** A node of sortKeysDeepShared's walk: its keys in order (undefined for an array) and, once it must be copied, its members' results. */
interface SortFrame {
  src: object;
  keys: string[] | undefined;
  /** The members' results, index by index: made when the node turns out to need a copy. */
  vals: unknown[] | undefined;
  i: number;
}

/**
 * sortKeysDeepChecked for an object its caller gives away: a node already in order (a plain object with its
 * keys sorted, or an array, and everything below it so) is the node itself in the result rather than a copy;
 * the rest is copied as sortKeysDeepChecked copies it. JSON.stringify writes the same text of both results,
 * and `plain` is the same. Most of a request's body (its spec, labels, annotations) is in order already.
 * A walk of its own: keeping a node needs its members' results first (a post-order walk), which made
 * sortKeysDeepChecked's always-copying walk 1.2–1.9× slower when tried as one walk with a flag.
 */
export function sortKeysDeepShared<T>(v: T): { copy: T; plain: boolean } {
  if (typeof v !== 'object' || v === null) return { copy: v, plain: isPlainJson(v) };
  let plain = true;
  const open = (x: object): SortFrame => {
    if (Array.isArray(x)) return { src: x, keys: undefined, vals: undefined, i: 0 };
    // A node not made by a JSON parse, or with a `__proto__` member (which the copy's assignment takes as its
    // prototype, dropping it from the text), is copied, as sortKeysDeepChecked does.
    let copy = Object.getPrototypeOf(x) !== Object.prototype;
    if (copy) plain = false;
    const keys = Object.keys(x);
    for (let k = 0; k < keys.length; k++) {
      if (k > 0 && keys[k - 1]! > keys[k]!) copy = true;
      if (keys[k] === '__proto__') {
        plain = false;
        copy = true;
      }
    }
    if (copy) sortStrings(keys);
    return { src: x, keys, vals: copy ? new Array<unknown>(keys.length) : undefined, i: 0 };
  };
  const memberOf = (f: SortFrame, idx: number): unknown => (f.keys === undefined ? (f.src as unknown[])[idx] : (f.src as Record<string, unknown>)[f.keys[idx]!]);
  /** Records a member's result; a node whose member is not the same as before becomes a copy. */
  const settle = (f: SortFrame, idx: number, out: unknown, same: boolean): void => {
    if (f.vals === undefined) {
      if (same) return;
      // Everything before it was the same: the copy starts with the source's members.
      f.vals = new Array<unknown>(f.keys === undefined ? (f.src as unknown[]).length : f.keys.length);
      for (let k = 0; k < idx; k++) f.vals[k] = memberOf(f, k);
    }
    f.vals[idx] = out;
  };
  const frames: SortFrame[] = [open(v)];
  let result: unknown;
  while (frames.length > 0) {
    const f = frames[frames.length - 1]!;
    const n = f.keys === undefined ? (f.src as unknown[]).length : f.keys.length;
    if (f.i < n) {
      const idx = f.i++;
      const x = memberOf(f, idx);
      if (typeof x === 'object') {
        if (x !== null) {
          frames.push(open(x));
          continue;
        }
      } else if (plain && typeof x !== 'string' && typeof x !== 'boolean' && !isJsonNumber(x)) plain = false;
      settle(f, idx, x, true);
      continue;
    }
    frames.pop();
    let out: object = f.src;
    if (f.vals !== undefined) {
      if (f.keys === undefined) out = f.vals;
      else {
        const o: Record<string, unknown> = {};
        for (let k = 0; k < f.keys.length; k++) o[f.keys[k]!] = f.vals[k];
        out = o;
      }
    }
    const parent = frames[frames.length - 1];
    if (parent === undefined) result = out;
    else settle(parent, parent.i - 1, out, out === f.src);
  }
  return { copy: result as T, plain };
}

/** A number JSON text gives back as it is: finite, and not -0 (written as 0). */
const isJsonNumber = (x: unknown): boolean => typeof x === 'number' && Number.isFinite(x) && !Object.is(x, -0);

/**
 * Whether JSON.parse of JSON.stringify(v) gives back v exactly: plain objects and arrays only (no class
 * instances, no `__proto__` member), no undefined, functions, symbols, bigints, non-finite numbers or -0.
 * What is built in memory may then stand for what parsing its stored text would give.
 */
export function isPlainJson(v: unknown): boolean {
  const todo: unknown[] = [v];
  while (todo.length > 0) {
    const x = todo.pop();
    switch (typeof x) {
      case 'string':
      case 'boolean':
        continue;
      case 'number':
        if (!isJsonNumber(x)) return false;
        continue;
      case 'object': {
        if (x === null) continue;
        if (Array.isArray(x)) {
          for (let i = 0; i < x.length; i++) todo.push(x[i]);
          continue;
        }
        if (Object.getPrototypeOf(x) !== Object.prototype) return false;
        for (const k in x) {
          if (!Object.hasOwn(x, k)) return false;
          todo.push((x as JSONObject)[k]);
        }
        continue;
      }
      default:
        return false;
    }
  }
  return true;
}

/** o[k] = v as an own data property, even for "__proto__" (a plain assignment would set the prototype). */
export function setOwn(o: Record<string, unknown>, k: string, v: unknown): void {
  if (k === '__proto__') Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  else o[k] = v;
}

/** runtime.DeepCopyJSONValue. */
export function deepCopyJSON<T>(v: T): T {
  if (v === null || typeof v !== 'object') return v;
  if (Array.isArray(v)) {
    const out = new Array(v.length);
    for (let i = 0; i < v.length; i++) out[i] = deepCopyJSON(v[i]);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const k in v as Record<string, unknown>) setOwn(out, k, deepCopyJSON((v as Record<string, unknown>)[k]));
  return out as T;
}

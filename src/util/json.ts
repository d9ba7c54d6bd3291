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
  if (typeof v !== 'object' || v === null) return v;
  // An explicit stack of (source, copy) pairs: bodies may nest 10,000 deep, beyond the call stack.
  const copy = (x: object): object => (Array.isArray(x) ? new Array<unknown>(x.length) : {});
  const root = copy(v);
  const todo: [object, Record<string | number, unknown>][] = [[v, root as Record<string, unknown>]];
  while (todo.length > 0) {
    const [src, out] = todo.pop()!;
    const keys: (string | number)[] = Array.isArray(src) ? src.map((_, i) => i) : Object.keys(src).sort();
    for (const k of keys) {
      const x = (src as Record<string | number, unknown>)[k];
      if (typeof x === 'object' && x !== null) {
        const c = copy(x);
        out[k] = c;
        todo.push([x, c as Record<string, unknown>]);
      } else out[k] = x;
    }
  }
  return root as T;
}


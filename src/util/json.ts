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
  if (Array.isArray(v)) return v.map(sortKeysDeep) as T;
  if (!isObject(v)) return v;
  const out: JSONObject = {};
  for (const k of Object.keys(v).sort()) out[k] = sortKeysDeep(v[k]);
  return out as T;
}


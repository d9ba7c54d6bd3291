// Built-in (typed) objects print their fields in Go struct order, as kube-apiserver's typed encoder does:
// the order derives from the kind's declared Go struct.
import { TYPE_META_KEYS, type GoStruct } from '../api/go-struct.js';
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';

function orderKeys(obj: JSONObject, order: readonly string[]): JSONObject {
  const out: JSONObject = {};
  for (const k of order) if (obj[k] !== undefined) out[k] = obj[k];
  for (const k of Object.keys(obj)) if (!(k in out) && obj[k] !== undefined) out[k] = obj[k];
  return out;
}

const keysOf = (s: GoStruct): string[] => [...(s.typeMeta ? TYPE_META_KEYS : []), ...s.fields.map((f) => f.json)];

/**
 * The key order of a kind: its own fields, and one level down those of its struct members (metadata,
 * spec, status). Deeper levels keep the order they were written in. The kind's own omitempty maps are left
 * out when empty, as encoding/json leaves them (a ConfigMap's `data: {}`).
 */
export function typedOrder(kind: GoStruct): (obj: JSONObject) => JSONObject {
  const top = keysOf(kind);
  const members = kind.fields.flatMap((f) => (typeof f.type === 'object' && !f.slice && !f.map ? [[f.json, keysOf(f.type)] as const] : []));
  const omittedWhenEmpty = kind.fields.filter((f) => f.map && f.omitempty).map((f) => f.json);
  return (obj) => {
    const out = orderKeys(obj, top);
    for (const key of omittedWhenEmpty) {
      const v = out[key];
      if (isObject(v) && Object.keys(v).length === 0) delete out[key];
    }
    for (const [key, order] of members) {
      const v = out[key];
      if (isObject(v)) out[key] = orderKeys(v, order);
    }
    return out;
  };
}

// The patched object's JSON as json-patch v4's MergePatch writes it for kube's jsonPatcher, which quotes it in
// the 422 for a patched object that does not decode: the top and every object the patch merged into are Go
// maps (sorted keys), a value the patch put in place keeps the patch's order (sorted when null-pruned), and
// whatever the patch did not reach is the current object's JSON as kube encoded it (Go field order).
import { goEncodeOrder, goJsonMarshalOrdered, memberOrderType, type GoOrderType } from '../api/go-encode-order.js';
import type { GoTypeContext } from '../api/go-type-names.js';
import { RawJson, goJsonMarshal } from '../util/go-json.js';

type JsonObject = Record<string, unknown>;
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (o: JsonObject, k: string): boolean => Object.prototype.hasOwnProperty.call(o, k);

/** One merged document: its members rendered as mergeDocs left them. */
function mergedTree(out: JsonObject, cur: JsonObject, patch: JsonObject, t: GoOrderType, ctx: GoTypeContext): JsonObject {
  const node: JsonObject = {};
  for (const [k, o] of Object.entries(out)) {
    const mt = memberOrderType(t, k, ctx);
    if (!has(patch, k)) {
      node[k] = new RawJson(goJsonMarshalOrdered(goEncodeOrder(cur[k], mt, ctx)));
      continue;
    }
    const c = cur[k];
    const p = patch[k];
    // merge(): an object merged into an object stays a document; a non-object replacing one is the patch's raw
    // value; anything else was null-pruned, which unfolds it (every object in it sorted).
    if (isObject(c) && isObject(p) && isObject(o)) node[k] = mergedTree(o, c, p, mt, ctx);
    else if (isObject(c) && !isObject(p) && c !== null) node[k] = new RawJson(goJsonMarshalOrdered(p));
    else node[k] = o;
  }
  return node;
}

/** The JSON text of `out`, the result of merge-patching `current` (a built-in object of type `t`) with `patch`. */
export function mergePatchedText(current: JsonObject, patch: unknown, out: JsonObject, t: GoOrderType, ctx: GoTypeContext): string {
  if (!isObject(patch)) return goJsonMarshal(out);
  return goJsonMarshal(mergedTree(out, current, patch, t, ctx));
}

// A PATCH request's body applied to the current object, by patch type. Problems a strict decoder finds
// in the patch (duplicate fields) become warnings under fieldValidation=Warn and a 422 under Strict.
import { StatusError, badRequest } from '../api/status.js';
import type { GenericStore } from '../registry/store.js';
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';
import {
  APPLY_PATCH,
  JSON_PATCH,
  MERGE_PATCH,
  STRATEGIC_MERGE_PATCH,
  applyJsonPatch,
  applyMergePatch,
  decodePatch,
  patchInvalid,
  strictDecodingMessage,
  type FieldValidation,
  type PatchType,
} from '../registry/patch.js';
import { goJsonMarshal } from '../util/go-json.js';
import { applyStrategicMergePatch, goV, strategicMergePatchUnsupported } from '../registry/strategic-merge-patch.js';
import { patchMetaOf } from '../registry/patch-meta.js';

function unwrap(v: unknown): JSONObject {
  if (v instanceof StatusError) throw v;
  if (!isObject(v)) throw badRequest('the patched document is not an object');
  return v;
}

export function applyPatchRequest(
  store: GenericStore,
  type: PatchType,
  body: Buffer,
  current: JSONObject,
  fieldValidation: FieldValidation,
  warnings: string[],
): JSONObject {
  const decoded = decodePatch(type, body, fieldValidation);
  if (decoded instanceof StatusError) throw decoded;
  const strict = (rendered: () => string): void => {
    if (decoded.strictErrors.length === 0) return;
    if (fieldValidation === 'Strict') throw patchInvalid(rendered(), strictDecodingMessage(decoded.strictErrors));
    if (fieldValidation === 'Warn') warnings.push(...decoded.strictErrors);
  };
  switch (decoded.type) {
    case MERGE_PATCH: {
      const out = unwrap(applyMergePatch(current, decoded.patch));
      strict(() => goJsonMarshal(out));
      return out;
    }
    case JSON_PATCH: {
      const out = unwrap(applyJsonPatch(current, decoded.operations));
      strict(() => goJsonMarshal(out));
      return out;
    }
    case STRATEGIC_MERGE_PATCH: {
      // Custom resources are unstructured: no Go type, no patch tags, no strategic merge patch.
      const goType = store.type.goType;
      if (!goType) throw strategicMergePatchUnsupported();
      const meta = patchMetaOf(goType);
      strict(() => goV(decoded.patch as Parameters<typeof goV>[0]));
      return unwrap(applyStrategicMergePatch(current, decoded.patch, meta));
    }
    case APPLY_PATCH:
      // Server-side apply is not implemented: no endpoint lists its content type, so this is never reached.
      throw badRequest('server-side apply is not supported');
  }
}

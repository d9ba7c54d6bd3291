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
import { goDecodeInto } from '../api/go-decode.js';
import { goFromUnstructuredError } from '../api/go-from-unstructured.js';
import { goTypeOf } from './typed-decoding.js';

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
  const go = goTypeOf(store.type);
  /** A built-in kind's patched JSON decoded into its Go type (jsonPatcher's DecodeInto): a misfit is the 422. */
  const decodeJson = (out: JSONObject): JSONObject => {
    if (!go) return out;
    const typed = structuredClone(out);
    const err = goDecodeInto(typed, go.struct, go.ctx);
    if (err !== undefined) throw patchInvalid(goJsonMarshal(out), err);
    return typed;
  };
  switch (decoded.type) {
    case MERGE_PATCH: {
      const out = unwrap(applyMergePatch(current, decoded.patch));
      const typed = decodeJson(out);
      strict(() => goJsonMarshal(out));
      return typed;
    }
    case JSON_PATCH: {
      const out = unwrap(applyJsonPatch(current, decoded.operations));
      const typed = decodeJson(out);
      strict(() => goJsonMarshal(out));
      return typed;
    }
    case STRATEGIC_MERGE_PATCH: {
      // Custom resources are unstructured: no Go type, no patch tags, no strategic merge patch.
      const goType = store.type.goType;
      if (!goType) throw strategicMergePatchUnsupported();
      const meta = patchMetaOf(goType);
      const rendered = (): string => goV(decoded.patch as Parameters<typeof goV>[0]);
      const out = unwrap(applyStrategicMergePatch(current, decoded.patch, meta));
      // The patched map is converted into the Go type (FromUnstructuredWithValidation), with its own errors;
      // the patch's strict errors come after.
      const err = go ? goFromUnstructuredError(out, go.struct, go.ctx) ?? goDecodeInto(out, go.struct, go.ctx) : undefined;
      if (err !== undefined) throw patchInvalid(rendered(), err);
      strict(rendered);
      return out;
    }
    case APPLY_PATCH:
      // Server-side apply is not implemented: no endpoint lists its content type, so this is never reached.
      throw badRequest('server-side apply is not supported');
  }
}

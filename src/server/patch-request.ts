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
  /** The strict errors of the patch itself, then those of decoding the patched object (unknown fields). */
  const strict = (rendered: () => string, decoding: readonly string[] = []): void => {
    const errs = [...decoded.strictErrors, ...decoding];
    if (errs.length === 0) return;
    if (fieldValidation === 'Strict') throw patchInvalid(rendered(), strictDecodingMessage(errs));
    if (fieldValidation === 'Warn') warnings.push(...errs);
  };
  const go = goTypeOf(store.type);
  /**
   * A built-in kind's patched JSON decoded into its Go type (jsonPatcher's DecodeInto): a misfit is the 422
   * (before any strict error), unknown fields are dropped and are strict errors.
   */
  const decodeJson = (out: JSONObject): JSONObject => {
    if (!go) {
      strict(() => goJsonMarshal(out));
      return out;
    }
    const typed = structuredClone(out);
    const unknown: string[] = [];
    const err = goDecodeInto(typed, go.struct, go.ctx, { unknownFields: unknown });
    if (err !== undefined) throw patchInvalid(goJsonMarshal(out), err);
    strict(() => goJsonMarshal(out), unknown);
    return typed;
  };
  switch (decoded.type) {
    case MERGE_PATCH:
      return decodeJson(unwrap(applyMergePatch(current, decoded.patch)));
    case JSON_PATCH:
      return decodeJson(unwrap(applyJsonPatch(current, decoded.operations)));
    case STRATEGIC_MERGE_PATCH: {
      // Custom resources are unstructured: no Go type, no patch tags, no strategic merge patch.
      if (!go) throw strategicMergePatchUnsupported();
      const meta = patchMetaOf(go.struct);
      const rendered = (): string => goV(decoded.patch as Parameters<typeof goV>[0]);
      const out = unwrap(applyStrategicMergePatch(current, decoded.patch, meta));
      // The patched map is converted into the Go type (FromUnstructuredWithValidation), with its own errors;
      // then the patch's strict errors and the unknown fields it found, sorted.
      const unknown: string[] = [];
      const err = goFromUnstructuredError(out, go.struct, go.ctx) ?? goDecodeInto(out, go.struct, go.ctx, { unknownFields: unknown });
      if (err !== undefined) throw patchInvalid(rendered(), err);
      strict(rendered, unknown.sort());
      return out;
    }
    case APPLY_PATCH:
      // Server-side apply is not implemented: no endpoint lists its content type, so this is never reached.
      throw badRequest('server-side apply is not supported');
  }
}

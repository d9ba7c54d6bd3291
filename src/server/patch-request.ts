// A PATCH request's body applied to the current object, by patch type. Problems a strict decoder finds
// in the patch (duplicate fields) become warnings under fieldValidation=Warn and a 422 under Strict.
import { StatusError, badRequest } from '../api/status.js';
import type { GenericStore } from '../registry/store.js';
import type { JSONObject } from '../util/json.js';
import { isObject, deepCopyJSON } from '../util/json.js';
import {
  APPLY_PATCH,
  JSON_PATCH,
  MERGE_PATCH,
  STRATEGIC_MERGE_PATCH,
  applyJsonPatch,
  applyJsonPatchToText,
  applyMergePatch,
  decodePatch,
  decodeApplyPatch,
  patchInvalid,
  strictDecodingMessage,
  type FieldValidation,
  type PatchType,
  unknownServerError,
} from '../registry/patch.js';
import type { Subresource } from '../registry/resource-type.js';
import { RawJson, goJsonMarshal } from '../util/go-json.js';
import { firstOutOfRangeNumber, nonIntegerNumberLiterals } from '../util/json-number-literals.js';
import { jsonDepthOffset, maxDepthMessage, valueDepthExceeds } from '../util/json-depth.js';
import { applyStrategicMergePatch, goV, strategicMergePatchUnsupported } from '../registry/strategic-merge-patch.js';
import { patchMetaOf } from '../registry/patch-meta.js';
import { goDecodeInto } from '../api/go-decode.js';
import { goFromUnstructuredError } from '../api/go-from-unstructured.js';
import { goTypeOf } from './typed-decoding.js';
import { jsonDuplicateFields, yamlDuplicateKeysError } from './duplicate-fields.js';
import { goEncodeOrder, goJsonMarshalOrdered } from '../api/go-encode-order.js';
import { mergePatchedText } from '../registry/merge-patched-text.js';

function unwrap(v: unknown): JSONObject {
  if (v instanceof StatusError) throw v;
  if (!isObject(v)) throw badRequest('the patched document is not an object');
  return v;
}

export function applyPatchRequest(
  store: GenericStore,
  type: Exclude<PatchType, typeof APPLY_PATCH>,
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
   * quoting the patched JSON as json-patch wrote it (before any strict error); unknown fields are dropped and
   * are strict errors. Custom resources' JSON is unstructured: every key sorted.
   */
  const decodeJson = (out: JSONObject, text: () => string): JSONObject => {
    if (!go) {
      strict(text);
      return out;
    }
    const typed = deepCopyJSON(out);
    const unknown: string[] = [];
    const err = goDecodeInto(typed, go.struct, go.ctx, { unknownFields: unknown });
    if (err !== undefined) throw patchInvalid(text(), err);
    strict(text, unknown);
    return typed;
  };
  const kindOrder = go ? ({ kind: 'struct', struct: go.struct } as const) : undefined;
  switch (decoded.type) {
    case MERGE_PATCH: {
      // A custom resource's patch and current object (the update's own copy) are not read again: merged in place.
      const out = unwrap(applyMergePatch(current, decoded.patch, !go));
      if (!go) refuseOutOfRange(out, body.toString('utf8'));
      return decodeJson(out, () => (go && kindOrder ? mergePatchedText(current, decoded.patch, out, kindOrder, go.ctx) : goJsonMarshal(out)));
    }
    case JSON_PATCH: {
      if (!go || !kindOrder) {
        const out = unwrap(applyJsonPatch(current, decoded.operations));
        tooDeep(out, () => goJsonMarshal(out));
        // The operations' values stay raw text in json-patch: the patched JSON quotes such a number as written.
        if (hasNonFinite(out)) {
          const r = applyJsonPatchToText(goJsonMarshal(current), decoded.operations);
          if (!(r instanceof StatusError)) throw outOfRange(r.text);
        }
        return decodeJson(out, () => goJsonMarshal(out));
      }
      const r = applyJsonPatchToText(goJsonMarshalOrdered(goEncodeOrder(current, kindOrder, go.ctx)), decoded.operations);
      if (r instanceof StatusError) throw r;
      tooDeep(r.value, () => r.text);
      return decodeJson(unwrap(r.value), () => r.text);
    }
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
      // decodePatch keeps the type it was given, which is never an apply patch here.
      throw new TypeError('apply patches go through applyRequest');
  }
}

/**
 * A custom resource's merge-patched JSON holds the patch's number literals as written (json-patch keeps them
 * raw); one beyond float64 fails the unstructured decoding of the result (DecodeInto's 422). Only reached
 * under fieldValidation=Ignore (JSON patches too): the strict decoding of the patch refuses it first otherwise.
 */
function refuseOutOfRange(out: JSONObject, patchText: string): void {
  if (!hasNonFinite(out)) return;
  const literals = nonIntegerNumberLiterals(patchText) ?? new Map<string, string>();
  // The patched JSON with each such number as its literal, by the path it has in the patch and the result.
  const raw = (v: unknown, path: string): unknown => {
    if (typeof v === 'number' && !Number.isFinite(v)) return new RawJson(literals.get(path) ?? String(v));
    if (Array.isArray(v)) return v.map((e, i) => raw(e, `${path}[${i}]`));
    if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, e]) => [k, raw(e, path ? `${path}.${k}` : k)]));
    return v;
  };
  throw outOfRange(goJsonMarshal(raw(out, '')));
}

/** DecodeInto's 422 for patched JSON holding a number beyond float64. */
const outOfRange = (text: string): StatusError =>
  patchInvalid(text, `json: cannot unmarshal number ${firstOutOfRangeNumber(text) ?? '+Inf'} into Go value of type float64`);

/** Whether a decoded value holds ±Infinity (a JSON number beyond float64); an explicit stack. */
function hasNonFinite(v: unknown): boolean {
  const todo: unknown[] = [v];
  while (todo.length > 0) {
    const x = todo.pop();
    if (typeof x === 'number') {
      if (!Number.isFinite(x)) return true;
    } else if (typeof x === 'object' && x !== null) todo.push(...Object.values(x));
  }
  return false;
}

/**
 * A JSON patch can nest its values at the end of deep paths, so its result may go deeper than any body the
 * server takes (json-depth.ts): refused as the codec refuses patched JSON it cannot decode (DecodeInto's 422).
 */
function tooDeep(out: unknown, text: () => string): void {
  if (!valueDepthExceeds(out)) return;
  const t = text();
  throw patchInvalid(t, `couldn't get version/kind; json parse error: ${maxDepthMessage(t, jsonDepthOffset(t))}`);
}

/**
 * go-yaml's strict error for duplicate keys in an apply body: JSON bodies (the usual case) are counted first,
 * so only one with duplicates pays for the YAML walk.
 */
function applyDuplicateKeys(text: string, parsed: unknown): string | undefined {
  if (/^\s*\{/.test(text)) {
    try {
      if (jsonDuplicateFields(text, parsed).length === 0) return undefined;
    } catch {
      // Flow-style YAML rather than JSON: the YAML walk decides.
    }
  }
  return yamlDuplicateKeysError(text);
}

/**
 * An apply patch (applyPatcher): the configuration merged into the current object (undefined: created) by the
 * field manager, as `fieldManager`, forced or not; then the strict decoding of the YAML, and the type's own
 * admission of the body (custom resources' defaults).
 */
export async function applyRequest(
  store: GenericStore,
  sub: Subresource,
  body: Buffer,
  current: JSONObject | undefined,
  q: { fieldManager: string; force?: boolean; fieldValidation: FieldValidation },
  warnings: string[],
): Promise<JSONObject> {
  const fm = store.fieldManager(sub);
  if (!fm) throw unknownServerError(`no field manager for ${store.type.served.resource}`);
  const decoded = decodeApplyPatch(body);
  if (decoded instanceof StatusError) throw decoded;
  const out = await fm.apply(current, decoded.patch as JSONObject, q.fieldManager, q.force ?? false);
  // Then yaml.UnmarshalStrict of the body under Strict and Warn: duplicate keys, in go-yaml's words.
  if (q.fieldValidation !== 'Ignore') {
    const dup = applyDuplicateKeys(body.toString('utf8'), decoded.patch);
    if (dup !== undefined) {
      const err = `error converting YAML to JSON: ${dup}`;
      if (q.fieldValidation === 'Strict') throw badRequest(`error strict decoding YAML: ${err}`);
      warnings.push(err);
    }
  }
  store.type.strategy.admitBody?.(out, q.fieldValidation, warnings);
  return out;
}

// The scale subresource's model (apiextensions pkg/registry/customresource): an autoscaling/v1 Scale
// read from a custom resource through the CRD's specReplicasPath, statusReplicasPath and
// labelSelectorPath, the replicas written back, and the strategy's checks of the values at those
// paths (ValidateScaleSpec, ValidateScaleStatus). Values are plain JSON as the store holds them.
import { invalid, type FieldError } from '../api/field-error.js';
import type { ScaleSubresource } from '../api/resource.js';
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';
import { goSprintV, goTypeName, isInt64 } from '../util/jsonpath-values.js';
import { coerceObjectMeta } from '../schema/prune-objectmeta.js';

export type ScalePaths = ScaleSubresource;

export const SCALE_API_VERSION = 'autoscaling/v1';
const MAX_INT32 = 2147483647;
const MIN_INT32 = -2147483648;

/** A Go error's text, as kube's handlers pass it on (a 500 without a reason when nothing wraps it). */
export class GoError extends Error {}

/** splitReplicasPath: the keys of a dot path, the leading dot dropped. */
const pathFields = (path: string): string[] => path.replace(/^\./, '').split('.');

/** unstructured's jsonPath(fields): ".a.b". */
const jsonPath = (fields: readonly string[]): string => `.${fields.join('.')}`;

/** %T of a decoded JSON value (a nil interface prints as <nil>). */
const goType = (v: unknown): string => (v === null || v === undefined ? '<nil>' : goTypeName(v));

/** NestedFieldNoCopy: the value at fields; a null on the way is "not found", any other non-map an error. */
function nestedField(obj: JSONObject, fields: readonly string[]): { found: boolean; value?: unknown } {
  let cur: unknown = obj;
  for (let i = 0; i < fields.length; i++) {
    if (cur === null || cur === undefined) return { found: false };
    if (!isObject(cur)) {
      throw new GoError(`${jsonPath(fields.slice(0, i + 1))} accessor error: ${goSprintV(cur)} is of the type ${goType(cur)}, expected map[string]interface{}`);
    }
    if (!Object.hasOwn(cur, fields[i]!)) return { found: false };
    cur = cur[fields[i]!];
  }
  return { found: true, value: cur };
}

/** NestedInt64: JSON integers are int64 to kube; anything else at the path is an accessor error. */
export function nestedInt64(obj: JSONObject, path: string): { value: number; found: boolean } {
  const fields = pathFields(path);
  const r = nestedField(obj, fields);
  if (!r.found) return { value: 0, found: false };
  if (typeof r.value === 'bigint') return { value: Number(r.value), found: true }; // an int64 beyond 2^53
  if (typeof r.value !== 'number' || !isInt64(r.value)) {
    throw new GoError(`${jsonPath(fields)} accessor error: ${goSprintV(r.value)} is of the type ${goType(r.value)}, expected int64`);
  }
  return { value: r.value, found: true };
}

/** NestedString. */
export function nestedString(obj: JSONObject, path: string): { value: string; found: boolean } {
  const fields = pathFields(path);
  const r = nestedField(obj, fields);
  if (!r.found) return { value: '', found: false };
  if (typeof r.value !== 'string') {
    throw new GoError(`${jsonPath(fields)} accessor error: ${goSprintV(r.value)} is of the type ${goType(r.value)}, expected string`);
  }
  return { value: r.value, found: true };
}

/** SetNestedField: maps are created on the way; a non-map on the way is an error. */
export function setNestedField(obj: JSONObject, path: string, value: unknown): void {
  const fields = pathFields(path);
  let cur = obj;
  for (let i = 0; i < fields.length - 1; i++) {
    const f = fields[i]!;
    if (!Object.hasOwn(cur, f)) {
      const created: JSONObject = {};
      cur[f] = created;
      cur = created;
      continue;
    }
    const next = cur[f];
    if (!isObject(next)) throw new GoError(`value cannot be set because ${jsonPath(fields.slice(0, i + 1))} is not a map[string]interface{}`);
    cur = next;
  }
  cur[fields[fields.length - 1]!] = value;
}

/** int32(x) of an int64, as Go converts: wrapped to 32 bits. */
const toInt32 = (n: number): number => Number(BigInt.asIntN(32, BigInt(n)));

/** The fields of a Scale this server reads or writes (what autoscalingv1.Scale holds). */
export interface Scale {
  name: string;
  namespace: string;
  uid: string;
  resourceVersion: string;
  creationTimestamp: string | null;
  specReplicas: number;
  statusReplicas: number;
  selector: string;
}

/** The Scale as autoscaling/v1 encodes it: struct order, omitempty (spec.replicas 0 and "" selector vanish). */
export function scaleToJSON(s: Scale): JSONObject {
  const metadata: JSONObject = { name: s.name };
  if (s.namespace) metadata['namespace'] = s.namespace;
  if (s.uid) metadata['uid'] = s.uid;
  if (s.resourceVersion) metadata['resourceVersion'] = s.resourceVersion;
  metadata['creationTimestamp'] = s.creationTimestamp;
  const status: JSONObject = { replicas: s.statusReplicas };
  if (s.selector) status['selector'] = s.selector;
  return { kind: 'Scale', apiVersion: SCALE_API_VERSION, metadata, spec: s.specReplicas !== 0 ? { replicas: s.specReplicas } : {}, status };
}

/** scaleFromCustomResource: the Scale, and whether the object has spec replicas. Throws GoError. */
export function scaleFromCustomResource(cr: JSONObject, paths: ScalePaths): { scale: Scale; replicasFound: boolean } {
  const spec = nestedInt64(cr, paths.specReplicasPath);
  const status = nestedInt64(cr, paths.statusReplicasPath);
  const selector = paths.labelSelectorPath ? nestedString(cr, paths.labelSelectorPath).value : '';
  const m = isObject(cr['metadata']) ? cr['metadata'] : {};
  const str = (v: unknown): string => (typeof v === 'string' ? v : '');
  return {
    scale: {
      name: str(m['name']),
      namespace: str(m['namespace']),
      uid: str(m['uid']),
      resourceVersion: str(m['resourceVersion']),
      creationTimestamp: typeof m['creationTimestamp'] === 'string' ? m['creationTimestamp'] : null,
      specReplicas: toInt32(spec.value),
      statusReplicas: toInt32(status.value),
      selector,
    },
    replicasFound: spec.found,
  };
}

/** The range checks ValidateScaleSpec and ValidateScaleStatus make of a replicas path. */
function replicasErrors(obj: JSONObject, path: string): FieldError[] {
  let value: number;
  try {
    value = nestedInt64(obj, path).value;
  } catch (e) {
    if (e instanceof GoError) return [invalid(path, 0, e.message)];
    throw e;
  }
  // field.NewPath(path): the configured path, leading dot and all.
  if (value < 0) return [invalid(path, value, 'should be a non-negative integer')];
  if (value > MAX_INT32) return [invalid(path, value, `should be less than or equal to ${MAX_INT32}`)];
  return [];
}

/** customResourceValidator.ValidateScaleSpec: spec replicas an int32 >= 0 (absent is fine). */
export function validateScaleSpec(obj: JSONObject, paths: ScalePaths | undefined): FieldError[] {
  return paths ? replicasErrors(obj, paths.specReplicasPath) : [];
}

/** customResourceValidator.ValidateScaleStatus: status replicas as spec's, the selector a string. */
export function validateScaleStatus(obj: JSONObject, paths: ScalePaths | undefined): FieldError[] {
  if (!paths) return [];
  const errs = replicasErrors(obj, paths.statusReplicasPath);
  if (paths.labelSelectorPath !== undefined) {
    try {
      nestedString(obj, paths.labelSelectorPath);
    } catch (e) {
      if (!(e instanceof GoError)) throw e;
      errs.push(invalid(paths.labelSelectorPath, '', e.message));
    }
  }
  return errs;
}

// ------------------------------------------------------------------ decoding a client's Scale

/** The kinds the scale converter's scheme knows (client-go/scale): other groups' Scales decode, then mismatch. */
const REGISTERED_SCALE_VERSIONS = new Set(['autoscaling/v1', 'extensions/v1beta1', 'apps/v1beta1', 'apps/v1beta2']);
const SCALE_SCHEME = 'k8s.io/client-go/scale/util.go:146';

/** A body that does not decode into a Scale: Go's error, and the kind the decoder saw (for the 400's wording). */
export class ScaleDecodeError extends Error {
  constructor(
    message: string,
    readonly kind: string,
    readonly version: string,
  ) {
    super(message);
  }
}

/** A kind/version the scheme does not know, or one it knows at another version than autoscaling/v1. */
type ScaleKindCheck = { ok: true } | { wrongVersion: string } | { unregistered: ScaleDecodeError };

/** encoding/json's name of a JSON value's kind in UnmarshalTypeError. */
function jsonKind(v: unknown): string {
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'object' && v !== null) return 'object';
  return typeof v === 'bigint' ? 'number' : typeof v; // string, number
}

/** UnmarshalTypeError's text; a number that does not fit an integer field is quoted with its literal. */
const typeError = (v: unknown, field: string, goType: string): string =>
  `json: cannot unmarshal ${(typeof v === 'number' || typeof v === 'bigint') && goType === 'int32' ? `number ${String(v)}` : jsonKind(v)} into Go struct field ${field} of type ${goType}`;

/** A JSON value decoded into an int32 struct field: undefined when it fits, else Go's error. */
function int32Error(v: unknown, field: string): string | undefined {
  if (v === null) return undefined;
  if (typeof v === 'number' && Number.isInteger(v) && v >= MIN_INT32 && v <= MAX_INT32) return undefined;
  return typeError(v, field, 'int32');
}

export interface DecodedScale {
  name: string;
  namespace: string;
  resourceVersion: string;
  specReplicas: number;
  /** sigs.k8s.io/json's strict errors: unknown fields (duplicates are the body decoder's). */
  strictErrors: string[];
}

/**
 * The kind and apiVersion a body names (absent ones default to autoscaling/v1 Scale, as the typed
 * decoder fills them from the endpoint), checked against the scale converter's scheme.
 */
export function checkScaleKind(value: unknown): ScaleKindCheck {
  if (value !== null && !isObject(value)) {
    throw new ScaleDecodeError(
      `couldn't get version/kind; json parse error: json: cannot unmarshal ${jsonKind(value)} into Go value of type struct { APIVersion string "json:\\"apiVersion,omitempty\\""; Kind string "json:\\"kind,omitempty\\"" }`,
      '',
      '',
    );
  }
  const obj = value ?? {};
  for (const k of ['apiVersion', 'kind']) {
    const v = obj[k];
    if (v !== undefined && v !== null && typeof v !== 'string') {
      // SimpleMetaFactory.Interpret reads them into an anonymous struct first.
      throw new ScaleDecodeError(`couldn't get version/kind; json parse error: ${typeError(v, `.${k}`, 'string')}`, '', '');
    }
  }
  const apiVersion = typeof obj['apiVersion'] === 'string' && obj['apiVersion'] ? obj['apiVersion'] : SCALE_API_VERSION;
  const kind = typeof obj['kind'] === 'string' && obj['kind'] ? obj['kind'] : 'Scale';
  const version = apiVersion.includes('/') ? apiVersion.slice(apiVersion.indexOf('/') + 1) : apiVersion;
  if (kind !== 'Scale' || !REGISTERED_SCALE_VERSIONS.has(apiVersion)) {
    return { unregistered: new ScaleDecodeError(`no kind "${kind}" is registered for version "${apiVersion}" in scheme "${SCALE_SCHEME}"`, kind, version) };
  }
  return apiVersion === SCALE_API_VERSION ? { ok: true } : { wrongVersion: apiVersion };
}

/**
 * A JSON value decoded into autoscalingv1.Scale as the typed (case-sensitive) decoder does: the first
 * type mismatch fails it (GoError with encoding/json's text), unknown fields are strict errors.
 */
export function decodeScale(value: unknown): DecodedScale {
  const out: DecodedScale = { name: '', namespace: '', resourceVersion: '', specReplicas: 0, strictErrors: [] };
  if (value === null) return out; // null leaves the Scale at its zero value
  if (!isObject(value)) throw new GoError(`json: cannot unmarshal ${jsonKind(value)} into Go value of type v1.Scale`);
  const unknown = (path: string): void => void out.strictErrors.push(`unknown field "${path}"`);
  for (const [key, v] of Object.entries(value)) {
    switch (key) {
      case 'kind':
      case 'apiVersion':
        break; // checked by checkScaleKind
      case 'metadata': {
        const m = coerceObjectMeta(v, { dropMalformedFields: false, returnUnknownFieldPaths: true, pathPrefix: 'metadata' });
        if (m.error !== undefined) {
          // ObjectMeta decoded on its own names its fields from itself; inside a Scale they sit under metadata.
          const msg = m.error.includes('into Go value of type v1.ObjectMeta')
            ? m.error.replace('into Go value of type v1.ObjectMeta', 'into Go struct field Scale.metadata of type v1.ObjectMeta')
            : m.error.replace(/into Go struct field (\w+)\./, 'into Go struct field $1.metadata.');
          throw new GoError(msg);
        }
        out.strictErrors.push(...m.unknownFields.map((p) => `unknown field "${p}"`));
        const meta = m.meta ?? {};
        if (typeof meta['name'] === 'string') out.name = meta['name'];
        if (typeof meta['namespace'] === 'string') out.namespace = meta['namespace'];
        if (typeof meta['resourceVersion'] === 'string') out.resourceVersion = meta['resourceVersion'];
        break;
      }
      case 'spec':
        if (v === null) break;
        if (!isObject(v)) throw new GoError(typeError(v, 'Scale.spec', 'v1.ScaleSpec'));
        for (const [k, x] of Object.entries(v)) {
          if (k !== 'replicas') {
            unknown(`spec.${k}`);
            continue;
          }
          const err = int32Error(x, 'ScaleSpec.spec.replicas');
          if (err) throw new GoError(err);
          if (typeof x === 'number') out.specReplicas = x;
        }
        break;
      case 'status':
        if (v === null) break;
        if (!isObject(v)) throw new GoError(typeError(v, 'Scale.status', 'v1.ScaleStatus'));
        for (const [k, x] of Object.entries(v)) {
          if (k === 'replicas') {
            const err = int32Error(x, 'ScaleStatus.status.replicas');
            if (err) throw new GoError(err);
          } else if (k === 'selector') {
            if (x !== null && typeof x !== 'string') throw new GoError(typeError(x, 'ScaleStatus.status.selector', 'string'));
          } else unknown(`status.${k}`);
        }
        break;
      default:
        unknown(key);
    }
  }
  return out;
}

// ObjectMeta coercion (apiextensions pkg/apiserver/schema/objectmeta/coerce.go): metadata is
// round-tripped through the typed metav1.ObjectMeta. Fields it does not know are dropped (and
// reported as unknown under strict decoding), fields of the wrong JSON type fail the decode (or,
// when reading from storage, are dropped one by one), timestamps are normalized to UTC seconds,
// and empty values vanish (omitempty) except creationTimestamp, which becomes null.
import { goJSON } from './value-go.js';
import { parseGoRfc3339 } from '../util/go-time-parse.js';
import { deepCopyJSON, setOwn } from '../util/json.js';

type JSONObject = Record<string, unknown>;

const isObject = (v: unknown): v is JSONObject => typeof v === 'object' && v !== null && !Array.isArray(v);

/** encoding/json's name for the JSON kind of a value in UnmarshalTypeError. */
function jsonKind(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
    case 'bigint':
      return 'number';
    case 'boolean':
      return 'bool';
    default:
      return 'object';
  }
}

class DecodeError extends Error {}

const typeError = (v: unknown, struct: string, field: string, goType: string): DecodeError =>
  new DecodeError(`json: cannot unmarshal ${jsonKind(v)} into Go struct field ${struct}.${field} of type ${goType}`);

// ---- metav1.Time ----

const ZERO_TIME = '0001-01-01T00:00:00Z';

/** metav1.Time: null is the zero time; the result is the normalized string, or null for zero. */
function decodeTime(v: unknown, struct: string, field: string): string | null {
  if (v === null) return null;
  if (typeof v !== 'string') throw typeError(v, struct, field, 'string');
  const r = parseGoRfc3339(v);
  if ('error' in r) throw new DecodeError(r.error);
  return r.utc === ZERO_TIME ? null : r.utc;
}

// ---- field decoders: (value, strict unknown-field paths sink, path prefix) → normalized value or undefined (omitted) ----

type Decoder = (v: unknown, unknown: string[] | null, path: string) => unknown;

const str =
  (struct: string, field: string): Decoder =>
  (v) => {
    if (v === null) return undefined;
    if (typeof v !== 'string') throw typeError(v, struct, field, 'string');
    return v === '' ? undefined : v;
  };

/** A non-omitempty string (OwnerReference's required fields). */
const strKept =
  (struct: string, field: string): Decoder =>
  (v) => {
    if (v === null) return '';
    if (typeof v !== 'string') throw typeError(v, struct, field, 'string');
    return v;
  };

const int64 =
  (struct: string, field: string, keepZero: boolean): Decoder =>
  (v) => {
    if (v === null) return undefined;
    if (typeof v === 'bigint') return v; // an int64 beyond the safe integers
    if (typeof v !== 'number') throw typeError(v, struct, field, 'int64');
    if (!Number.isInteger(v) || Math.abs(v) >= 2 ** 63) {
      throw new DecodeError(`json: cannot unmarshal number ${goJSON(v)} into Go struct field ${struct}.${field} of type int64`);
    }
    return v === 0 && !keepZero ? undefined : v;
  };

const boolPtr =
  (struct: string, field: string): Decoder =>
  (v) => {
    if (v === null) return undefined;
    if (typeof v !== 'boolean') throw typeError(v, struct, field, 'bool');
    return v;
  };

const timePtr =
  (struct: string, field: string): Decoder =>
  (v) => {
    if (v === null) return undefined;
    // A non-nil *Time pointing at the zero time still serializes, as null.
    return decodeTime(v, struct, field);
  };

const stringMap =
  (struct: string, field: string): Decoder =>
  (v) => {
    if (v === null) return undefined;
    if (!isObject(v)) throw typeError(v, struct, field, 'map[string]string');
    const out: JSONObject = {};
    let n = 0;
    for (const k in v) {
      const x = v[k];
      if (x !== null && typeof x !== 'string') throw typeError(x, struct, field, 'string'); // map keys are not part of the error path
      setOwn(out, k, x ?? '');
      n++;
    }
    return n === 0 ? undefined : out;
  };

const stringSlice =
  (struct: string, field: string): Decoder =>
  (v) => {
    if (v === null) return undefined;
    if (!Array.isArray(v)) throw typeError(v, struct, field, '[]string');
    const out = v.map((x) => {
      if (x !== null && typeof x !== 'string') throw typeError(x, struct, field, 'string');
      return x ?? '';
    });
    return out.length === 0 ? undefined : out;
  };

interface StructDecoder {
  name: string;
  goType: string;
  fields: Array<[string, Decoder]>;
}

/** Decodes a struct-typed JSON object: known fields in struct order, unknown ones reported under strict decoding. */
function decodeStruct(sd: StructDecoder, v: JSONObject, unknown: string[] | null, path: string): JSONObject {
  const known = new Map(sd.fields);
  const out: JSONObject = {};
  const decoded = new Map<string, unknown>();
  for (const k in v) {
    const dec = known.get(k);
    if (dec === undefined) {
      unknown?.push(path === '' ? k : `${path}.${k}`);
      continue;
    }
    decoded.set(k, dec(v[k], unknown, path === '' ? k : `${path}.${k}`));
  }
  for (const [k, dec] of sd.fields) {
    if (decoded.has(k)) {
      const x = decoded.get(k);
      if (x !== undefined) out[k] = x;
    } else {
      // Absent fields take their zero value, which only non-omitempty fields show.
      const zero = dec(null, null, '');
      if (zero !== undefined) out[k] = zero;
    }
  }
  return out;
}

const structSlice =
  (sd: StructDecoder, field: string): Decoder =>
  (v, unknown, path) => {
    if (v === null) return undefined;
    if (!Array.isArray(v)) throw typeError(v, 'ObjectMeta', field, `[]${sd.goType}`);
    const out = v.map((x, i) => {
      if (x === null) return decodeStruct(sd, {}, null, '');
      if (!isObject(x)) throw typeError(x, 'ObjectMeta', field, sd.goType);
      return decodeStruct(sd, x, unknown, `${path}[${i}]`);
    });
    return out.length === 0 ? undefined : out;
  };

const OWNER_REFERENCE: StructDecoder = {
  name: 'OwnerReference',
  goType: 'v1.OwnerReference',
  fields: [
    ['apiVersion', strKept('OwnerReference', 'ownerReferences.apiVersion')],
    ['kind', strKept('OwnerReference', 'ownerReferences.kind')],
    ['name', strKept('OwnerReference', 'ownerReferences.name')],
    ['uid', strKept('OwnerReference', 'ownerReferences.uid')],
    ['controller', boolPtr('OwnerReference', 'ownerReferences.controller')],
    ['blockOwnerDeletion', boolPtr('OwnerReference', 'ownerReferences.blockOwnerDeletion')],
  ],
};

const MANAGED_FIELDS_ENTRY: StructDecoder = {
  name: 'ManagedFieldsEntry',
  goType: 'v1.ManagedFieldsEntry',
  fields: [
    ['manager', str('ManagedFieldsEntry', 'managedFields.manager')],
    ['operation', str('ManagedFieldsEntry', 'managedFields.operation')],
    ['apiVersion', str('ManagedFieldsEntry', 'managedFields.apiVersion')],
    ['time', timePtr('ManagedFieldsEntry', 'managedFields.time')],
    ['fieldsType', str('ManagedFieldsEntry', 'managedFields.fieldsType')],
    // FieldsV1 keeps its raw JSON; null leaves the pointer nil.
    ['fieldsV1', (v) => (v === null ? undefined : deepCopyJSON(v))],
    ['subresource', str('ManagedFieldsEntry', 'managedFields.subresource')],
  ],
};

const OBJECT_META: StructDecoder = {
  name: 'ObjectMeta',
  goType: 'v1.ObjectMeta',
  fields: [
    ['name', str('ObjectMeta', 'name')],
    ['generateName', str('ObjectMeta', 'generateName')],
    ['namespace', str('ObjectMeta', 'namespace')],
    ['selfLink', str('ObjectMeta', 'selfLink')],
    ['uid', str('ObjectMeta', 'uid')],
    ['resourceVersion', str('ObjectMeta', 'resourceVersion')],
    ['generation', int64('ObjectMeta', 'generation', false)],
    // A struct, not omitempty: the zero time serializes as null.
    ['creationTimestamp', (v) => decodeTime(v, 'ObjectMeta', 'creationTimestamp')],
    ['deletionTimestamp', timePtr('ObjectMeta', 'deletionTimestamp')],
    ['deletionGracePeriodSeconds', int64('ObjectMeta', 'deletionGracePeriodSeconds', true)],
    ['labels', stringMap('ObjectMeta', 'labels')],
    ['annotations', stringMap('ObjectMeta', 'annotations')],
    ['ownerReferences', structSlice(OWNER_REFERENCE, 'ownerReferences')],
    ['finalizers', stringSlice('ObjectMeta', 'finalizers')],
    ['managedFields', structSlice(MANAGED_FIELDS_ENTRY, 'managedFields')],
  ],
};

interface ObjectMetaCoercion {
  /** The metadata as SetObjectMeta writes it back (absent when decoding failed). */
  meta?: JSONObject;
  /** Paths of fields ObjectMeta does not know (only when asked for), e.g. "metadata.foo". */
  unknownFields: string[];
  /** The decode error (json.Unmarshal's message), when the metadata could not be decoded. */
  error?: string;
}

/**
 * GetObjectMetaWithOptions followed by the ObjectMeta → unstructured conversion of SetObjectMeta.
 * `pathPrefix` is the field path of the metadata ("metadata", "spec.template.metadata").
 */
export function coerceObjectMeta(
  metadata: unknown,
  opts: { dropMalformedFields: boolean; returnUnknownFieldPaths: boolean; pathPrefix: string },
): ObjectMetaCoercion {
  const unknown: string[] | null = opts.returnUnknownFieldPaths ? [] : null;
  const relative: string[] | null = unknown ? [] : null;
  try {
    if (metadata === null) return { meta: decodeStruct(OBJECT_META, {}, null, ''), unknownFields: [] };
    if (!isObject(metadata)) throw new DecodeError(`json: cannot unmarshal ${jsonKind(metadata)} into Go value of type v1.ObjectMeta`);
    const meta = decodeStruct(OBJECT_META, metadata, relative, '');
    return { meta, unknownFields: (relative ?? []).map((p) => `${opts.pathPrefix}.${p}`) };
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e;
    if (!opts.dropMalformedFields) return { unknownFields: [], error: e.message };
    if (!isObject(metadata)) {
      return { unknownFields: [], error: `invalid metadata: expected object, got ${goTypeName(metadata)}` };
    }
    // Field by field, keeping what decodes.
    const kept: JSONObject = {};
    const fieldUnknown: string[] = [];
    for (const k in metadata) {
      try {
        const one: JSONObject = {};
        setOwn(one, k, metadata[k]);
        const single: string[] = [];
        decodeStruct(OBJECT_META, one, single, '');
        fieldUnknown.push(...single);
        setOwn(kept, k, metadata[k]);
      } catch (err) {
        if (!(err instanceof DecodeError)) throw err;
      }
    }
    const meta = decodeStruct(OBJECT_META, kept, null, '');
    return { meta, unknownFields: unknown ? fieldUnknown.map((p) => `${opts.pathPrefix}.${p}`) : [] };
  }
}

/** Go's %T of a decoded JSON value. */
function goTypeName(v: unknown): string {
  if (v === null) return '<nil>';
  if (Array.isArray(v)) return '[]interface {}';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'number':
      return Number.isSafeInteger(v) ? 'int64' : 'float64'; // beyond, integer literals are bigints
    case 'bigint':
      return 'int64';
    case 'boolean':
      return 'bool';
    default:
      return 'map[string]interface {}';
  }
}

// ---- the common case: metadata already in the form SetObjectMeta would write ----

const CANONICAL_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const nonEmptyString = (v: unknown): boolean => typeof v === 'string' && v !== '';
const isInt64 = (v: unknown): boolean => typeof v === 'bigint' || Number.isSafeInteger(v);

/** Times found canonical lately: the same few (an object's creation, the seconds of its writes) come again and again. */
const canonicalTimes = new Set<string>();

function canonicalTime(v: unknown): boolean {
  if (typeof v !== 'string') return false;
  if (canonicalTimes.has(v)) return true;
  if (!CANONICAL_TIME.test(v)) return false;
  const r = parseGoRfc3339(v);
  if (!('utc' in r && r.utc === v && v !== ZERO_TIME)) return false;
  if (canonicalTimes.size >= 1024) canonicalTimes.clear();
  canonicalTimes.add(v);
  return true;
}

function canonicalStringMap(v: unknown): boolean {
  if (!isObject(v)) return false;
  let n = 0;
  for (const k in v) {
    if (typeof v[k] !== 'string') return false;
    n++;
  }
  return n > 0;
}

function canonicalOwnerReference(v: unknown): boolean {
  if (!isObject(v)) return false;
  let required = 0;
  for (const k in v) {
    const x = v[k];
    if (k === 'apiVersion' || k === 'kind' || k === 'name' || k === 'uid') {
      if (typeof x !== 'string') return false;
      required++;
    } else if (k === 'controller' || k === 'blockOwnerDeletion') {
      if (typeof x !== 'boolean') return false;
    } else {
      return false;
    }
  }
  return required === 4;
}

function canonicalManagedFieldsEntry(v: unknown): boolean {
  if (!isObject(v)) return false;
  for (const k in v) {
    const x = v[k];
    if (k === 'time') {
      if (!canonicalTime(x)) return false;
    } else if (k === 'fieldsV1') {
      if (x === null) return false;
    } else if (k === 'manager' || k === 'operation' || k === 'apiVersion' || k === 'fieldsType' || k === 'subresource') {
      if (!nonEmptyString(x)) return false;
    } else {
      return false;
    }
  }
  return true;
}

/**
 * Whether coercion would leave this metadata unchanged and report nothing: every field known,
 * of its type and in its serialized form. Lets the common case skip the typed round trip.
 */
export function isCanonicalObjectMeta(m: unknown, allowZeroCreationTimestamp = false): boolean {
  if (!isObject(m)) return false;
  for (const k in m) {
    const v = m[k];
    switch (k) {
      case 'name':
      case 'generateName':
      case 'namespace':
      case 'selfLink':
      case 'uid':
      case 'resourceVersion':
        if (!nonEmptyString(v)) return false;
        break;
      case 'generation':
        if (!isInt64(v) || v === 0) return false;
        break;
      case 'deletionGracePeriodSeconds':
        if (!isInt64(v)) return false;
        break;
      case 'creationTimestamp':
        if (!(canonicalTime(v) || (allowZeroCreationTimestamp && v === null))) return false;
        break;
      case 'deletionTimestamp':
        if (!canonicalTime(v)) return false;
        break;
      case 'labels':
      case 'annotations':
        if (!canonicalStringMap(v)) return false;
        break;
      case 'finalizers':
        if (!Array.isArray(v) || v.length === 0 || !v.every((x) => typeof x === 'string')) return false;
        break;
      case 'ownerReferences':
        if (!Array.isArray(v) || v.length === 0 || !v.every(canonicalOwnerReference)) return false;
        break;
      case 'managedFields':
        if (!Array.isArray(v) || v.length === 0 || !v.every(canonicalManagedFieldsEntry)) return false;
        break;
      default:
        return false;
    }
  }
  return true;
}

// TypeMeta/ObjectMeta of embedded resources inside schema default values, as kube checks them when
// a CRD is written (pkg/apiserver/schema/objectmeta Coerce and Validate): apiVersion and kind must
// be strings, metadata must decode as an ObjectMeta (and is normalized by the round trip), and
// embedded objects need a valid apiVersion, kind and metadata.
import { type FieldError, goQuote, invalid, required } from '../api/field-error.js';
import { isDNS1035Label } from './names.js';
import { validateObjectMeta } from './objectmeta.js';
import { child, key, index } from './structural-path.js';
import { type Raw, type Structural, compareGo, isObj } from './structural-model.js';

/** The schema as kube treats it at a resource root: an embedded resource. */
export function asResourceRoot(s: Structural | undefined): Structural {
  const base: Structural = s ?? {
    raw: {},
    generic: { description: '', type: '', title: '', default: undefined, nullable: false },
    extensions: { preserveUnknownFields: false, embeddedResource: false, intOrString: false },
    valueValidation: { format: '', exclusiveMaximum: false, exclusiveMinimum: false, pattern: '', uniqueItems: false },
  };
  return base.extensions.embeddedResource ? base : { ...base, extensions: { ...base.extensions, embeddedResource: true } };
}

/**
 * Coerce: type-checks TypeMeta and normalizes ObjectMeta of embedded resources in x, in place.
 * With dropInvalid, wrongly typed fields are removed instead of reported.
 */
export function coerceEmbedded(path: string, x: unknown, s: Structural | undefined, isResourceRoot: boolean, dropInvalid: boolean): FieldError | undefined {
  return coerce(path, x, isResourceRoot ? asResourceRoot(s) : s, dropInvalid);
}

function coerce(path: string, x: unknown, s: Structural | undefined, drop: boolean): FieldError | undefined {
  if (!s) return undefined;
  if (Array.isArray(x)) {
    for (let i = 0; i < x.length; i++) {
      const err = coerce(index(path, i), x[i], s.items, drop);
      if (err) return err;
    }
    return undefined;
  }
  if (!isObj(x)) return undefined;
  for (const k of Object.keys(x)) {
    if (s.extensions.embeddedResource) {
      if (k === 'apiVersion' || k === 'kind') {
        if (typeof x[k] !== 'string') {
          if (!drop) return invalid(child(path, k), x[k] ?? 'null', 'must be a string');
          delete x[k];
        }
      } else if (k === 'metadata') {
        const r = decodeObjectMeta(x[k], drop);
        if ('error' in r) {
          if (!drop) return invalid(child(path, 'metadata'), x[k] ?? 'null', r.error);
        } else {
          x[k] = normalizedObjectMeta(r.meta);
        }
      }
    }
    if (!Object.hasOwn(x, k)) continue;
    const prop = s.properties?.get(k);
    if (prop) {
      const err = coerce(child(path, k), x[k], prop, drop);
      if (err) return err;
    } else if (s.additionalProperties) {
      const err = coerce(key(path, k), x[k], s.additionalProperties.structural, drop);
      if (err) return err;
    }
  }
  return undefined;
}

/** Validate: apiVersion, kind and metadata of every embedded resource in x. */
export function validateEmbedded(path: string, x: unknown, s: Structural | undefined, isResourceRoot: boolean): FieldError[] {
  return validate(path, x, isResourceRoot ? asResourceRoot(s) : s);
}

function validate(path: string, x: unknown, s: Structural | undefined): FieldError[] {
  if (!s) return [];
  if (Array.isArray(x)) return x.flatMap((v, i) => validate(index(path, i), v, s.items));
  if (!isObj(x)) return [];
  const errs: FieldError[] = s.extensions.embeddedResource ? embeddedResourceErrors(path, x) : [];
  for (const k of Object.keys(x)) {
    const prop = s.properties?.get(k);
    if (prop) errs.push(...validate(child(path, k), x[k], prop));
    else if (s.additionalProperties) errs.push(...validate(key(path, k), x[k], s.additionalProperties.structural));
  }
  return errs;
}

function embeddedResourceErrors(path: string, x: Raw): FieldError[] {
  const errs: FieldError[] = [];
  // apiVersion and kind are required, metadata is not.
  if (!Object.hasOwn(x, 'apiVersion')) errs.push(required(child(path, 'apiVersion'), 'must not be empty'));
  if (!Object.hasOwn(x, 'kind')) errs.push(required(child(path, 'kind'), 'must not be empty'));
  for (const k of Object.keys(x)) {
    const v = x[k];
    if (k === 'apiVersion') {
      if (typeof v !== 'string') errs.push(invalid(child(path, k), v ?? 'null', 'must be a string'));
      else if (v === '') errs.push(invalid(child(path, k), v, 'must not be empty'));
      else if (v.split('/').length > 2) errs.push(invalid(child(path, k), v, `unexpected GroupVersion string: ${v}`));
    } else if (k === 'kind') {
      if (typeof v !== 'string') errs.push(invalid(child(path, k), v ?? 'null', 'must be a string'));
      else if (v === '') errs.push(invalid(child(path, k), v, 'must not be empty'));
      else {
        const msgs = isDNS1035Label(v.toLowerCase());
        if (msgs.length > 0) errs.push(invalid(child(path, k), v, 'may have mixed case, but should otherwise match: ' + msgs.join(',')));
      }
    } else if (k === 'metadata') {
      const r = decodeObjectMeta(v, false);
      if ('error' in r) {
        errs.push(invalid(child(path, 'metadata'), v ?? 'null', r.error));
      } else {
        const meta = { ...r.meta };
        // kube fills a name so that only the other fields are judged.
        if (typeof meta['name'] !== 'string' || meta['name'] === '') meta['name'] = 'fakename';
        const namespaced = typeof meta['namespace'] === 'string' && meta['namespace'] !== '';
        errs.push(...validateObjectMeta(meta, { namespaced, nameValidator: 'pathSegment' }, child(path, 'metadata')));
      }
    }
  }
  return errs;
}

// ---------------------------------------------------------------------------------------------
// metadata as encoding/json decodes it into metav1.ObjectMeta

type FieldKind = 'string' | 'int64' | 'time' | 'stringMap' | 'stringSlice' | 'objectSlice';
const OBJECT_META_FIELDS: Record<string, FieldKind> = {
  annotations: 'stringMap',
  creationTimestamp: 'time',
  deletionGracePeriodSeconds: 'int64',
  deletionTimestamp: 'time',
  finalizers: 'stringSlice',
  generateName: 'string',
  generation: 'int64',
  labels: 'stringMap',
  managedFields: 'objectSlice',
  name: 'string',
  namespace: 'string',
  ownerReferences: 'objectSlice',
  resourceVersion: 'string',
  selfLink: 'string',
  uid: 'string',
};
const GO_TYPE: Record<FieldKind, string> = {
  string: 'string',
  int64: 'int64',
  time: 'v1.Time',
  stringMap: 'map[string]string',
  stringSlice: '[]string',
  objectSlice: '[]v1.OwnerReference',
};

function jsonKind(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number' || typeof v === 'bigint') return 'number';
  if (typeof v === 'boolean') return 'bool';
  return Array.isArray(v) ? 'array' : 'object';
}

const RFC3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** The decode error of one ObjectMeta field, as encoding/json words it. */
function fieldError(name: string, kind: FieldKind, v: unknown): string | undefined {
  if (v === null) return undefined;
  const typeErr = (what: string, goType: string) => `json: cannot unmarshal ${what} into Go struct field ObjectMeta.${name} of type ${goType}`;
  switch (kind) {
    case 'string':
      return typeof v === 'string' ? undefined : typeErr(jsonKind(v), 'string');
    case 'int64':
      if (typeof v === 'bigint') return undefined; // within int64 by construction
      if (typeof v !== 'number') return typeErr(jsonKind(v), 'int64');
      return Number.isInteger(v) ? undefined : typeErr(`number ${v}`, 'int64');
    case 'time':
      if (typeof v !== 'string') return `json: cannot unmarshal ${jsonKind(v)} into Go value of type string`;
      return RFC3339.test(v) && !Number.isNaN(Date.parse(v)) ? undefined : `parsing time ${goQuote(v)} as "2006-01-02T15:04:05Z07:00": cannot parse ${goQuote(v)} as "2006"`;
    case 'stringMap':
      if (!isObj(v)) return typeErr(jsonKind(v), GO_TYPE[kind]);
      for (const k of Object.keys(v).sort(compareGo)) {
        if (v[k] !== null && typeof v[k] !== 'string') return typeErr(jsonKind(v[k]), 'string');
      }
      return undefined;
    case 'stringSlice':
      if (!Array.isArray(v)) return typeErr(jsonKind(v), GO_TYPE[kind]);
      for (const x of v) if (x !== null && typeof x !== 'string') return typeErr(jsonKind(x), 'string');
      return undefined;
    case 'objectSlice':
      if (!Array.isArray(v)) return typeErr(jsonKind(v), name === 'managedFields' ? '[]v1.ManagedFieldsEntry' : GO_TYPE[kind]);
      for (const x of v) if (x !== null && !isObj(x)) return typeErr(jsonKind(x), name === 'managedFields' ? 'v1.ManagedFieldsEntry' : 'v1.OwnerReference');
      return undefined;
  }
}

/**
 * GetObjectMeta: metadata decoded into ObjectMeta's fields (unknown fields dropped). Without
 * dropMalformed the first wrongly typed field (in key order: Go marshals the map sorted) fails it.
 */
function decodeObjectMeta(v: unknown, dropMalformed: boolean): { meta: Raw } | { error: string } {
  if (v === null || v === undefined) return { meta: {} };
  if (!isObj(v)) {
    return dropMalformed ? { error: `invalid metadata: expected object, got ${goTypeName(v)}` } : { error: `json: cannot unmarshal ${jsonKind(v)} into Go value of type v1.ObjectMeta` };
  }
  const meta: Raw = {};
  for (const k of Object.keys(v).sort(compareGo)) {
    const kind = OBJECT_META_FIELDS[k];
    if (!kind) continue;
    const err = fieldError(k, kind, v[k]);
    if (err !== undefined) {
      if (!dropMalformed) return { error: err };
      continue;
    }
    if (v[k] !== null) meta[k] = v[k];
  }
  return { meta };
}

function goTypeName(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'number' || typeof v === 'bigint') return 'float64';
  if (typeof v === 'boolean') return 'bool';
  return '[]interface {}';
}

/** SetObjectMeta after a decode: empty fields vanish (omitempty), times are re-rendered in UTC. */
function normalizedObjectMeta(meta: Raw): Raw {
  const out: Raw = {};
  for (const [k, v] of Object.entries(meta)) {
    const kind = OBJECT_META_FIELDS[k]!;
    if (kind === 'string' && v === '') continue;
    if (kind === 'int64' && v === 0 && k === 'generation') continue;
    if ((kind === 'stringMap' && Object.keys(v as object).length === 0) || (Array.isArray(v) && v.length === 0)) continue;
    if (kind === 'time') {
      out[k] = new Date(Date.parse(v as string)).toISOString().replace(/\.\d{3}Z$/, 'Z');
      continue;
    }
    if (kind === 'stringMap') {
      out[k] = Object.fromEntries(Object.entries(v as Raw).map(([a, b]) => [a, b ?? '']));
      continue;
    }
    if (kind === 'stringSlice') {
      out[k] = (v as unknown[]).map((x) => x ?? '');
      continue;
    }
    out[k] = v;
  }
  return out;
}

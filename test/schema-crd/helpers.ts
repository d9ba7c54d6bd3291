// Test doubles for the value engine the CRD schema checks depend on, and CRD builders.
import { RE2JS } from 're2js';
import { type FieldError, fieldErrorString, invalid, notSupported, typeInvalid } from '../../src/api/field-error.js';
import type { CustomResourceDefinition, JSONSchemaProps } from '../../src/crd/types.js';
import type { CRDSchemaDeps } from '../../src/crd/crd-schema-validate.js';

type Raw = Record<string, unknown>;
const isObj = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);
const META = new Set(['apiVersion', 'kind', 'metadata']);

/** pruning.Prune over a JSON schema, as kube does it on the structural schema (reference for tests). */
export function refPrune(schema: JSONSchemaProps | undefined, value: unknown, isResourceRoot: boolean): unknown {
  const copy = structuredClone(value);
  const root = isResourceRoot ? { ...(schema ?? {}), 'x-kubernetes-embedded-resource': true } : schema;
  prune(copy, root);
  return copy;
}

function apOf(s: Raw): { present: boolean; schema?: Raw } {
  const ap = s['additionalProperties'];
  if (typeof ap === 'boolean') return { present: true };
  if (isObj(ap)) return { present: true, schema: ap };
  return { present: false };
}

function propOf(s: Raw, k: string): Raw | undefined {
  const props = s['properties'];
  return isObj(props) && Object.keys(props).length > 0 && isObj(props[k]) ? (props[k] as Raw) : undefined;
}

function prune(x: unknown, s: Raw | undefined): void {
  if (s && s['x-kubernetes-preserve-unknown-fields'] === true) return skipPrune(x, s);
  if (Array.isArray(x)) {
    for (const v of x) prune(v, s && isObj(s['items']) ? (s['items'] as Raw) : undefined);
    return;
  }
  if (!isObj(x)) return;
  if (!s) {
    for (const k of Object.keys(x)) delete x[k];
    return;
  }
  for (const k of Object.keys(x)) {
    if (s['x-kubernetes-embedded-resource'] === true && META.has(k)) continue;
    const p = propOf(s, k);
    const ap = apOf(s);
    if (p) prune(x[k], p);
    else if (ap.present) prune(x[k], ap.schema);
    else delete x[k];
  }
}

function skipPrune(x: unknown, s: Raw): void {
  if (Array.isArray(x)) {
    const items = isObj(s['items']) ? (s['items'] as Raw) : undefined;
    if (items) for (const v of x) skipPrune(v, items);
    return;
  }
  if (!isObj(x)) return;
  for (const k of Object.keys(x)) {
    if (s['x-kubernetes-embedded-resource'] === true && META.has(k)) continue;
    const p = propOf(s, k);
    const ap = apOf(s);
    if (p) prune(x[k], p);
    else if (ap.present) prune(x[k], ap.schema);
  }
}

/**
 * A stand-in value validator: `type`, `enum` and `pattern` only, recursing through properties,
 * additionalProperties and items, with kube's error types (messages are made up, except for enum).
 */
export function typeOnlyValidate(schema: JSONSchemaProps, value: unknown, path: string): FieldError[] {
  const t = typeof schema['type'] === 'string' ? schema['type'] : '';
  const actual = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value === 'number' ? (Number.isInteger(value) ? 'integer' : 'number') : typeof value;
  const ok = t === '' || t === actual || (t === 'number' && actual === 'integer');
  if (!ok) return [typeInvalid(path, value, `must be of type ${t}`)];
  const errs: FieldError[] = [];
  const enumValues = schema['enum'];
  if (Array.isArray(enumValues) && !enumValues.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    errs.push(notSupported(path, value, enumValues.map((e) => (typeof e === 'string' ? e : JSON.stringify(e)))));
  }
  const pattern = schema['pattern'];
  if (typeof pattern === 'string' && typeof value === 'string' && !RE2JS.compile(pattern).matcher(value).find()) {
    errs.push(invalid(path, value, `should match '${pattern}'`));
  }
  if (isObj(value)) {
    for (const [k, v] of Object.entries(value)) {
      const p = propOf(schema, k);
      const ap = apOf(schema);
      if (p) errs.push(...typeOnlyValidate(p, v, `${path}.${k}`));
      else if (ap.schema) errs.push(...typeOnlyValidate(ap.schema, v, `${path}.${k}`));
    }
  }
  if (Array.isArray(value) && isObj(schema['items'])) value.forEach((v, i) => errs.push(...typeOnlyValidate(schema['items'] as Raw, v, `${path}[${i}]`)));
  return errs;
}

export const testDeps: CRDSchemaDeps = { validateValue: typeOnlyValidate, pruneValue: refPrune };

export const strings = (errs: readonly FieldError[]): string[] => errs.map(fieldErrorString);

/** A defaulted single-version CRD around `schema` (schema errors then read `spec.validation.openAPIV3Schema...`). */
export function crdWith(schema: JSONSchemaProps, opts: { status?: boolean } = {}): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'foos.example.com' },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'foos', singular: 'foo', kind: 'Foo', listKind: 'FooList' },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: schema }, ...(opts.status ? { subresources: { status: {} } } : {}) }],
      conversion: { strategy: 'None' },
    },
    status: { storedVersions: ['v1'] },
  };
}

/** Two versions with different schemas: errors of `schema` read `spec.versions[1].schema.openAPIV3Schema...`. */
export function crdWithTwoVersions(schema: JSONSchemaProps): CustomResourceDefinition {
  const crd = crdWith(schema);
  crd.spec.versions.unshift({ name: 'v1beta1', served: true, storage: false, schema: { openAPIV3Schema: { type: 'object' } } });
  return crd;
}

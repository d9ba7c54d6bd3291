// The schema kube publishes for a custom resource kind: the CRD's openAPIV3Schema taken through
// the structural-schema round trip (unknown keywords such as example, externalDocs, $ref dropped),
// x-kubernetes-int-or-string unfolded into anyOf, apiVersion/kind/metadata added at the root and in
// every embedded resource, the GVK extension set, and refs with siblings wrapped in allOf
// (apiextensions-apiserver controller/openapi/builder, builder3).

import { TYPE_META_PROPERTIES } from './openapi-definitions.js';

export type Schema = Record<string, unknown>;

const OBJECT_META_REF = '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta';
const LIST_META_REF = '#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta';

/** metav1.PartialObjectMetadata's SwaggerDoc for metadata, which kube reuses for every CR. */
const OBJECT_METADATA_DESCRIPTION =
  "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
/** metav1beta1.PartialObjectMetadataList's SwaggerDoc for metadata (sic: #types-kinds), used for CR lists. */
const LIST_METADATA_DESCRIPTION =
  'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Keys a structural schema keeps as plain values, in the order kube-openapi writes them. */
const VALUE_KEYS = [
  'description',
  'type',
  'format',
  'title',
  'default',
  'maximum',
  'exclusiveMaximum',
  'minimum',
  'exclusiveMinimum',
  'maxLength',
  'minLength',
  'pattern',
  'maxItems',
  'minItems',
  'uniqueItems',
  'multipleOf',
  'enum',
  'maxProperties',
  'minProperties',
  'required',
  'nullable',
] as const;

/** Keys that Go leaves out when false / empty (bool and slice omitempty). */
const OMIT_WHEN_FALSE = new Set(['exclusiveMaximum', 'exclusiveMinimum', 'uniqueItems', 'nullable']);
const OMIT_WHEN_EMPTY = new Set(['description', 'type', 'format', 'title', 'pattern', 'enum', 'required']);

const INT_OR_STRING_ANY_OF: Schema[] = [{ type: 'integer' }, { type: 'string' }];

function isIntOrStringAnyOf(v: unknown): boolean {
  return (
    Array.isArray(v) &&
    v.length === 2 &&
    isObject(v[0]) &&
    isObject(v[1]) &&
    Object.keys(v[0]).length === 1 &&
    Object.keys(v[1]).length === 1 &&
    v[0]['type'] === 'integer' &&
    v[1]['type'] === 'string'
  );
}

/** One JSONSchemaProps node as Structural.ToKubeOpenAPI writes it back out (after Unfold). */
export function structural(s: Schema, nested: boolean): Schema {
  const out: Schema = {};
  for (const key of VALUE_KEYS) {
    const v = s[key];
    if (v === undefined || v === null) continue;
    if (OMIT_WHEN_FALSE.has(key) && v !== true) continue;
    if (OMIT_WHEN_EMPTY.has(key) && (v === '' || (Array.isArray(v) && v.length === 0))) continue;
    out[key] = structuredClone(v);
  }
  if (isObject(s['items'])) out['items'] = structural(s['items'], nested);
  if (isObject(s['properties'])) {
    out['properties'] = Object.fromEntries(Object.entries(s['properties']).filter(([, v]) => isObject(v)).map(([k, v]) => [k, structural(v as Schema, nested)]));
  }
  const ap = s['additionalProperties'];
  if (!nested && (typeof ap === 'boolean' || isObject(ap))) out['additionalProperties'] = isObject(ap) ? structural(ap, false) : ap;
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = s[key];
    if (Array.isArray(list) && list.length > 0) out[key] = list.filter(isObject).map((x) => structural(x, true));
  }
  if (isObject(s['not'])) out['not'] = structural(s['not'], true);
  for (const key of ['x-kubernetes-preserve-unknown-fields', 'x-kubernetes-embedded-resource', 'x-kubernetes-int-or-string'] as const) {
    if (s[key] === true) out[key] = true;
  }
  const mapKeys = s['x-kubernetes-list-map-keys'];
  if (Array.isArray(mapKeys) && mapKeys.length > 0) out['x-kubernetes-list-map-keys'] = [...mapKeys];
  for (const key of ['x-kubernetes-list-type', 'x-kubernetes-map-type'] as const) {
    if (typeof s[key] === 'string') out[key] = s[key];
  }
  const rules = s['x-kubernetes-validations'];
  if (Array.isArray(rules) && rules.length > 0) out['x-kubernetes-validations'] = structuredClone(rules);
  if (!nested && out['x-kubernetes-int-or-string'] === true) unfoldIntOrString(out);
  return out;
}

/** Structural.Unfold: int-or-string gains anyOf [integer, string] unless it already spells it out. */
function unfoldIntOrString(s: Schema): void {
  const allOf = s['allOf'];
  if (isIntOrStringAnyOf(s['anyOf'])) return;
  if (Array.isArray(allOf) && allOf.length > 0 && isObject(allOf[0]) && isIntOrStringAnyOf(allOf[0]['anyOf'])) return;
  if (s['anyOf'] === undefined) s['anyOf'] = structuredClone(INT_OR_STRING_ANY_OF);
  else s['allOf'] = [{ anyOf: structuredClone(INT_OR_STRING_ANY_OF) }, ...(Array.isArray(allOf) ? allOf : [])];
}

const metadataProperty = (): Schema => ({ description: OBJECT_METADATA_DESCRIPTION, $ref: OBJECT_META_REF });

/**
 * addEmbeddedProperties: embedded resources get apiVersion, kind, metadata (as `metadata` gives it for the
 * document's version) and require kind and apiVersion; `skip` leaves out nodes the version does not extend.
 */
export function addEmbeddedProperties(s: Schema, metadata: () => Schema = metadataProperty, skip: (node: Schema) => boolean = () => false): void {
  const props = s['properties'];
  if (isObject(props)) for (const v of Object.values(props)) if (isObject(v)) addEmbeddedProperties(v, metadata, skip);
  if (isObject(s['items'])) addEmbeddedProperties(s['items'], metadata, skip);
  if (isObject(s['additionalProperties'])) addEmbeddedProperties(s['additionalProperties'], metadata, skip);
  if (s['x-kubernetes-embedded-resource'] !== true || skip(s)) return;
  const properties: Schema = isObject(props) ? props : {};
  properties['apiVersion'] = {
    ...TYPE_META_PROPERTIES.apiVersion,
    description:
      'apiVersion defines the versioned schema of this representation of an object. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources',
  };
  properties['kind'] = {
    ...TYPE_META_PROPERTIES.kind,
    description:
      'kind is a string value representing the type of this object. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds',
  };
  properties['metadata'] = metadata();
  s['properties'] = properties;
  const required = Array.isArray(s['required']) ? [...(s['required'] as string[])] : [];
  if (!required.includes('kind')) required.push('kind');
  if (!required.includes('apiVersion')) required.push('apiVersion');
  s['required'] = required;
}

/** builder3 WrapRefs: a $ref with sibling keywords becomes allOf: [{$ref}] so the siblings stay valid. */
function wrapRefs<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => wrapRefs(v)) as T;
  if (!isObject(value)) return value;
  const out: Schema = {};
  for (const [k, v] of Object.entries(value)) {
    // Only schema-valued keywords hold schemas; enum/default/extension values are data.
    out[k] = SCHEMA_CHILDREN.has(k) ? wrapRefs(v) : k === 'properties' && isObject(v) ? Object.fromEntries(Object.entries(v).map(([pk, pv]) => [pk, wrapRefs(pv)])) : v;
  }
  if (typeof out['$ref'] === 'string' && Object.keys(out).length > 1) {
    const ref = out['$ref'];
    delete out['$ref'];
    out['allOf'] = [{ $ref: ref }, ...(Array.isArray(out['allOf']) ? out['allOf'] : [])];
  }
  return out as T;
}
const SCHEMA_CHILDREN = new Set(['items', 'additionalProperties', 'allOf', 'anyOf', 'oneOf', 'not']);

export interface GVK {
  group: string;
  version: string;
  kind: string;
}

/** x-kubernetes-group-version-kind as kube writes it on definitions (a Go map: keys sorted). */
export const gvkExtension = (gvks: readonly GVK[]): { group: string; kind: string; version: string }[] =>
  gvks.map((g) => ({ group: g.group, kind: g.kind, version: g.version }));

/**
 * The published schema of a kind. With no CRD schema (our built-ins) it is a permissive object that
 * still names apiVersion, kind and metadata; otherwise it is buildKubeNative's result.
 */
export function publishedObjectSchema(schema: Schema | undefined, gvk: GVK): Schema {
  const out: Schema = schema ? structural(schema, false) : { type: 'object', 'x-kubernetes-preserve-unknown-fields': true };
  const properties: Schema = isObject(out['properties']) ? out['properties'] : {};
  properties['metadata'] = metadataProperty();
  properties['apiVersion'] = { ...TYPE_META_PROPERTIES.apiVersion };
  properties['kind'] = { ...TYPE_META_PROPERTIES.kind };
  out['properties'] = properties;
  addEmbeddedProperties(out);
  out['x-kubernetes-group-version-kind'] = gvkExtension([gvk]);
  return wrapRefs(out);
}

/** buildListSchema: the <Kind>List schema with items referring to the kind's definition. */
export function publishedListSchema(kindRef: string, gvk: GVK, listKind: string, plural: string): Schema {
  return wrapRefs({
    description: `${listKind} is a list of ${gvk.kind}`,
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: { ...TYPE_META_PROPERTIES.apiVersion },
      items: {
        description: `List of ${plural}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md`,
        type: 'array',
        items: { $ref: kindRef },
      },
      kind: { ...TYPE_META_PROPERTIES.kind },
      metadata: { description: LIST_METADATA_DESCRIPTION, $ref: LIST_META_REF },
    },
    'x-kubernetes-group-version-kind': gvkExtension([{ group: gvk.group, version: gvk.version, kind: listKind }]),
  });
}

/**
 * x-kubernetes-selectable-fields, as kube's builder adds it to a CRD version's kind and list schemas when the
 * version has selectableFields: one {fieldPath} per field, its JSON path without the leading dot.
 */
export function withSelectableFields(schema: Schema, fieldPaths: readonly string[] | undefined): Schema {
  if (!fieldPaths?.length) return schema;
  return { ...schema, 'x-kubernetes-selectable-fields': fieldPaths.map((fieldPath) => ({ fieldPath })) };
}

// The OpenAPI v2 schema of a custom resource kind and its list, as apiextensions-apiserver's
// controller/openapi/builder builds them with Options{V2: true}: the structural schema unfolded and
// taken through v2/conversion.go's ToStructuralOpenAPIV2 (junctors dropped, nullable values untyped,
// preserve-unknown-fields values without properties), then ToKubeOpenAPI plus TypeMeta, ObjectMeta and
// the embedded-resource properties; refs stay plain `$ref` siblings as Swagger 2.0 allows them. The
// controller prunes every default before the spec is merged (handler.PruneDefaults).

import type { ServedResource } from '../api/resource.js';
import { newStructural } from '../schema/structural-model.js';
import { validateStructural } from '../crd/structural-validate.js';
import { type GVK, type Schema, addEmbeddedProperties, gvkExtension, structural } from './openapi-schema.js';
import { TYPE_META_PROPERTIES } from './openapi-definitions.js';

export const V2_DEFINITIONS = '#/definitions/';
const OBJECT_META_REF = `${V2_DEFINITIONS}io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`;
const LIST_META_REF = `${V2_DEFINITIONS}io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta`;

/** metav1beta1.PartialObjectMetadata's SwaggerDoc for metadata. */
const OBJECT_METADATA_DESCRIPTION =
  "Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
/** metav1beta1.PartialObjectMetadataList's SwaggerDoc for metadata. */
const LIST_METADATA_DESCRIPTION =
  'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds';

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * ToStructuralOpenAPIV2 over the ToKubeOpenAPI form of a structural schema, parent before children as
 * kube's Visitor goes: what Swagger 2.0 (and kubectl's reading of it) cannot take is removed.
 */
export function toOpenAPIV2(s: Schema): Schema {
  const out: Schema = { ...s };
  for (const junctor of ['allOf', 'oneOf', 'anyOf', 'not']) delete out[junctor];
  // A nullable value loses its type and, untyped, its items and properties (kubectl breaks on them).
  if (out['nullable'] === true) {
    delete out['type'];
    delete out['items'];
    delete out['properties'];
  }
  delete out['nullable'];
  const preserve = out['x-kubernetes-preserve-unknown-fields'] === true;
  if (preserve) {
    delete out['items'];
    delete out['properties'];
  }
  if (out['type'] === 'array' && out['items'] === undefined) delete out['type'];
  if (preserve && out['type'] === 'object') delete out['type'];
  // A nullable property is not required; a nullable map value makes nothing required.
  if (Array.isArray(out['required'])) {
    const props = isObject(out['properties']) ? out['properties'] : {};
    let required = (out['required'] as string[]).filter((name) => !(isObject(props[name]) && props[name]['nullable'] === true));
    if (isObject(out['additionalProperties']) && out['additionalProperties']['nullable'] === true) required = [];
    if (required.length > 0) out['required'] = required;
    else delete out['required'];
  }
  if (isObject(out['items'])) out['items'] = toOpenAPIV2(out['items']);
  if (isObject(out['properties'])) out['properties'] = Object.fromEntries(Object.entries(out['properties']).map(([k, v]) => [k, isObject(v) ? toOpenAPIV2(v) : v]));
  if (isObject(out['additionalProperties'])) out['additionalProperties'] = toOpenAPIV2(out['additionalProperties']);
  return out;
}

/** handler.PruneDefaults: no `default` anywhere in a definition. */
export function pruneDefaults<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => pruneDefaults(v)) as T;
  if (!isObject(value)) return value;
  const out: Schema = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === 'default') continue;
    // enum and extension values are data, not schemas.
    out[k] = k === 'enum' || k.startsWith('x-') ? v : k === 'properties' && isObject(v) ? Object.fromEntries(Object.entries(v).map(([pk, pv]) => [pk, pruneDefaults(pv)])) : pruneDefaults(v);
  }
  return out as T;
}

const typeMeta = (): Schema => ({ apiVersion: { ...TYPE_META_PROPERTIES.apiVersion }, kind: { ...TYPE_META_PROPERTIES.kind } });

/** Embedded resources in v2: metadata a plain $ref, and none added under preserved unknown fields. */
const addEmbeddedPropertiesV2 = (s: Schema): void =>
  addEmbeddedProperties(s, () => ({ description: OBJECT_METADATA_DESCRIPTION, $ref: OBJECT_META_REF }), (node) => node['x-kubernetes-preserve-unknown-fields'] === true);

const VALID_TYPES = new Set(['array', 'boolean', 'integer', 'number', 'object', 'string']);

/** validation.SchemaHasInvalidTypes: a type outside OpenAPI's, anywhere in the schema. */
function hasInvalidTypes(v: unknown): boolean {
  if (Array.isArray(v)) return v.some(hasInvalidTypes);
  if (!isObject(v)) return false;
  if (typeof v['type'] === 'string' && v['type'] !== '' && !VALID_TYPES.has(v['type'])) return true;
  return Object.entries(v).some(([k, x]) => k !== 'enum' && k !== 'default' && k !== 'example' && !k.startsWith('x-') && hasInvalidTypes(x));
}

/** The schema generateBuilder keeps: a structural one (non-structural v1beta1 schemas publish none). */
function structuralSchema(schema: Schema | undefined): Schema | undefined {
  if (!schema || hasInvalidTypes(schema)) return undefined;
  const r = newStructural(schema);
  if ('error' in r || validateStructural('', r.structural).length > 0) return undefined;
  return structural(schema, false);
}

/** buildKubeNative with V2: the definition of a custom resource kind at one version. */
export function kindSchemaV2(r: Pick<ServedResource, 'group' | 'version' | 'kind' | 'schema' | 'preserveUnknownFields'>): Schema {
  const gvk: GVK = { group: r.group, version: r.version, kind: r.kind };
  const schema = structuralSchema(r.schema);
  let out: Schema;
  if (!schema || schema['x-kubernetes-preserve-unknown-fields'] === true || r.preserveUnknownFields) {
    // kubectl would take the absence of other properties as additionalProperties: false.
    out = { type: 'object' };
  } else {
    out = toOpenAPIV2(schema);
    const properties: Schema = isObject(out['properties']) ? out['properties'] : {};
    properties['metadata'] = { description: OBJECT_METADATA_DESCRIPTION, $ref: OBJECT_META_REF };
    Object.assign(properties, typeMeta());
    out['properties'] = properties;
    addEmbeddedPropertiesV2(out);
  }
  out['x-kubernetes-group-version-kind'] = gvkExtension([gvk]);
  return pruneDefaults(out);
}

/** buildListSchema with V2. */
export function listSchemaV2(kindDefinition: string, r: Pick<ServedResource, 'group' | 'version' | 'kind' | 'listKind' | 'resource'>): Schema {
  return {
    description: `${r.listKind} is a list of ${r.kind}`,
    type: 'object',
    required: ['items'],
    properties: {
      apiVersion: { ...TYPE_META_PROPERTIES.apiVersion },
      items: {
        description: `List of ${r.resource}. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md`,
        type: 'array',
        items: { $ref: V2_DEFINITIONS + kindDefinition },
      },
      kind: { ...TYPE_META_PROPERTIES.kind },
      metadata: { description: LIST_METADATA_DESCRIPTION, $ref: LIST_META_REF },
    },
    'x-kubernetes-group-version-kind': gvkExtension([{ group: r.group, version: r.version, kind: r.listKind }]),
  };
}

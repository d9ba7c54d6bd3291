// The OpenAPI v2 definitions of built-in types, from the same sources as the v3 ones: the structs
// declared under src/apis and the undeclared meta/v1 types of openapi-definitions.ts. v2 form is
// kube-openapi's v2 builder output with the aggregator's pruning: `#/definitions/` refs that keep
// their sibling description (no allOf wrapper), and no defaults.

import type { KindDeclaration } from '../apis/kind.js';
import { openapiDefinitions } from './openapi-definitions.js';
import { builtinKindDefinitions } from './openapi-builtin-kinds.js';
import { gvkExtension, type Schema } from './openapi-schema.js';
import { registeredKinds } from './openapi.js';
import { V2_DEFINITIONS, pruneDefaults } from './openapi-v2-schema.js';

const V3_SCHEMAS = '#/components/schemas/';

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A v3 (builder3) schema in v2 form: refs renamed, `allOf: [{$ref}]` wrappers unwrapped, defaults pruned. */
export function v2FromV3(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(v2FromV3);
  if (!isObject(value)) return value;
  const out: Schema = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '$ref' && typeof v === 'string') out[k] = v.replace(V3_SCHEMAS, V2_DEFINITIONS);
    else if (k === 'enum' || k === 'default' || k.startsWith('x-')) out[k] = v;
    else if (k === 'properties' && isObject(v)) out[k] = Object.fromEntries(Object.entries(v).map(([pk, pv]) => [pk, v2FromV3(pv)]));
    else out[k] = v2FromV3(v);
  }
  const allOf = out['allOf'];
  if (Array.isArray(allOf) && allOf.length === 1 && isObject(allOf[0]) && Object.keys(allOf[0]).length === 1 && typeof allOf[0]['$ref'] === 'string') {
    delete out['allOf'];
    out['$ref'] = allOf[0]['$ref'];
  }
  return pruneDefaults(out);
}

/** The definitions a v2 schema refers to. */
export function v2Refs(value: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(value)) for (const v of value) v2Refs(v, out);
  else if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(V2_DEFINITIONS)) out.add(v.slice(V2_DEFINITIONS.length));
      // Property names are names (JSONSchemaProps has x-kubernetes-validations and enum properties).
      else if (k === 'properties' && isObject(v)) for (const p of Object.values(v)) v2Refs(p, out);
      else if (k !== 'enum' && !k.startsWith('x-')) v2Refs(v, out);
    }
  }
  return out;
}

/** A built-in type's v2 definition by name, with the group-version-kinds kube's namer gives registered types. */
export function builtinDefinitionV2(name: string): Schema | undefined {
  const def = openapiDefinitions()[name];
  if (!def) return undefined;
  const schema = v2FromV3(def.schema) as Schema;
  const kinds = registeredKinds(name);
  if (kinds) schema['x-kubernetes-group-version-kind'] = gvkExtension(kinds);
  return schema;
}

/**
 * The definitions of a served built-in kind: its struct and the structs it holds (its list's too when
 * declared), when src/apis declares them in full; otherwise kube's definition of a kind without a schema
 * ({type: object}).
 */
export function builtinKindDefinitionsV2(k: KindDeclaration): Record<string, Schema> {
  const defs = builtinKindDefinitions(k);
  if (!defs) {
    const { group, version, kind } = k.served;
    return { [`${k.object.openapi ?? ''}.${kind}`]: { type: 'object', 'x-kubernetes-group-version-kind': gvkExtension([{ group, version, kind }]) } };
  }
  return Object.fromEntries(Object.entries(defs).map(([name, schema]) => [name, v2FromV3(schema) as Schema]));
}

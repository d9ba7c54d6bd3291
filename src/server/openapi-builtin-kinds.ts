// The OpenAPI v3 definitions of a built-in kind declared in full under src/apis (its struct, its list's
// when declared, and the structs they hold), as kube publishes its Go types: the same in /openapi/v2
// (converted) and in the group-version's /openapi/v3 document.
import type { KindDeclaration } from '../apis/kind.js';
import { openapiDefinitions, TYPE_META_PROPERTIES } from './openapi-definitions.js';
import { declaredInFull, publishedStructs, structDefinition, structDefinitionName } from './openapi-struct.js';
import { gvkExtension, type Schema } from './openapi-schema.js';

/**
 * The definitions a kind's document carries for it, with the group-version-kinds kube's namer gives the kind
 * and its list; those of the shared table (meta/v1, JSONSchemaProps) left to it. Undefined when the kind is
 * not declared in full.
 */
export function builtinKindDefinitions(k: Pick<KindDeclaration, 'object' | 'list' | 'served'>): Record<string, Schema> | undefined {
  const roots = k.list ? [k.object, k.list] : [k.object];
  if (!roots.every(declaredInFull)) return undefined;
  const out: Record<string, Schema> = {};
  for (const s of publishedStructs(roots)) {
    const name = structDefinitionName(s)!;
    if (!openapiDefinitions()[name]) out[name] = structDefinition(s, TYPE_META_PROPERTIES);
  }
  const { group, version, kind, listKind } = k.served;
  out[structDefinitionName(k.object)!]!['x-kubernetes-group-version-kind'] = gvkExtension([{ group, version, kind }]);
  if (k.list) out[structDefinitionName(k.list)!]!['x-kubernetes-group-version-kind'] = gvkExtension([{ group, version, kind: listKind }]);
  return out;
}

// The merge schema server-side apply uses for a resource at one version, derived from the OpenAPI kube would
// publish for it (kube builds its type converters from those models): a custom resource's from its version's
// schema as the CRD OpenAPI builder renders it, a built-in kind's from its declared Go struct; both over the
// meta/v1 definitions (ObjectMeta's finalizers as a set, ownerReferences keyed by uid, ...).
import type { ServedResource } from '../api/resource.js';
import type { GoStruct } from '../api/go-struct.js';
import { MergeSchema, COMMON_TYPES, UNTYPED_DEDUCED, type TypeDef } from '../smd/schema.js';
import { typeDefsFromOpenAPI } from '../smd/from-openapi.js';
import { managedFieldsTypes, type TypedSchema } from '../registry/field-manager/merge-types.js';
import type { ResourceType } from '../registry/resource-type.js';
import { gvString } from '../api/resource.js';
import { goZero } from '../api/go-zero.js';
import { FieldManager } from '../registry/field-manager/field-manager.js';
import type { JSONObject } from '../util/json.js';
import { Scale } from '../apis/autoscaling/v1/scale.js';
import { openapiDefinitions, TYPE_META_PROPERTIES } from './openapi-definitions.js';
import { publishedStructs, structDefinition, structDefinitionName } from './openapi-struct.js';
import { publishedObjectSchema } from './openapi-schema.js';
import { definitionName } from './openapi.js';

let metaTypes: TypeDef[] | undefined;
/** The shared definitions' types, converted once. */
function sharedTypes(): TypeDef[] {
  metaTypes ??= typeDefsFromOpenAPI(Object.fromEntries(Object.entries(openapiDefinitions()).map(([name, d]) => [name, d.schema])));
  return metaTypes;
}

/** NewDeducedTypeConverter's schema: every map granular, every list atomic, as kube uses without a schema. */
const DEDUCED: TypedSchema = { schema: new MergeSchema(COMMON_TYPES), root: { namedType: UNTYPED_DEDUCED } };

function goStructTypes(s: GoStruct): TypedSchema | undefined {
  const root = structDefinitionName(s);
  if (!root) return undefined;
  try {
    const models = Object.fromEntries(publishedStructs([s]).map((x) => [structDefinitionName(x)!, structDefinition(x, TYPE_META_PROPERTIES)]));
    return { schema: new MergeSchema([...sharedTypes(), ...typeDefsFromOpenAPI(models)]), root: { namedType: root } };
  } catch {
    // A struct not fully declared for OpenAPI yet: its objects are tracked without a schema.
    return undefined;
  }
}

export function mergeSchemaFor(served: ServedResource, goType?: GoStruct): TypedSchema {
  if (goType) return goStructTypes(goType) ?? DEDUCED;
  const name = definitionName(served.group, served.version, served.kind);
  const gvk = { group: served.group, version: served.version, kind: served.kind };
  try {
    const own = typeDefsFromOpenAPI({ [name]: publishedObjectSchema(served.schema, gvk) }, served.preserveUnknownFields === true);
    return { schema: new MergeSchema([...sharedTypes(), ...own]), root: { namedType: name } };
  } catch {
    return DEDUCED;
  }
}

/**
 * Gives built-in resource types their managed-fields types: one per stored kind, over every version it is
 * served at (events.k8s.io/v1 Event is core/v1 Event stored: managers of either read through the other).
 */
export function trackManagedFields(types: readonly ResourceType[]): void {
  const byKind = new Map<string, ResourceType[]>();
  for (const t of types) {
    const key = t.keyPrefix;
    byKind.set(key, [...(byKind.get(key) ?? []), t]);
  }
  for (const kindTypes of byKind.values()) {
    const mft = managedFieldsTypes(
      kindTypes.map((type) => {
        const apiVersion = gvString(type.served.group, type.served.version);
        const zero = type.goType ? goZero(type.goType) : {};
        return { apiVersion, type, schema: () => mergeSchemaFor(type.served, type.goType), newObject: () => ({ apiVersion, kind: type.served.kind, ...structuredClone(zero) }) };
      }),
    );
    for (const t of kindTypes) t.managedFields = mft;
  }
}

let scaleManager: FieldManager | undefined;
/** The field manager of Scale writes (autoscaling/v1 Scale through /scale), the same for every resource. */
export function scaleFieldManager(): FieldManager {
  if (!scaleManager) {
    const apiVersion = 'autoscaling/v1';
    const identity = (obj: JSONObject): JSONObject => obj;
    const types = managedFieldsTypes([
      {
        apiVersion,
        type: { toStorage: identity, fromStorage: identity },
        schema: () => goStructTypes(Scale) ?? DEDUCED,
        newObject: () => ({ apiVersion, kind: 'Scale', ...goZero(Scale) }),
      },
    ]);
    scaleManager = new FieldManager({ types, group: 'autoscaling', version: 'v1', kind: 'Scale', subresource: 'scale' });
  }
  return scaleManager;
}

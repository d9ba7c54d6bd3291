// The structural view of a (structural) openAPIV3Schema that pruning, defaulting, embedded-object
// and list-type checks walk: apiextensions' schema.Structural. Logical junctors are not part of
// it; only properties, additionalProperties and items are.
import type { JSONSchemaProps } from './value-validate.js';

export interface StructuralNode {
  type: string;
  nullable: boolean;
  /** The default value, when the schema has one (undefined otherwise; defaults are never undefined in JSON). */
  default: unknown;
  properties: Map<string, StructuralNode> | null;
  /**
   * additionalProperties: undefined when absent, null for the boolean form without a schema
   * (`additionalProperties: true`), else its schema.
   */
  additionalProperties: StructuralNode | null | undefined;
  items: StructuralNode | null;
  preserveUnknownFields: boolean;
  embeddedResource: boolean;
  intOrString: boolean;
  listType: string | undefined;
  listMapKeys: string[];
  mapType: string | undefined;
}

const isSchema = (v: unknown): v is JSONSchemaProps => typeof v === 'object' && v !== null && !Array.isArray(v);

/** schema.NewStructural. */
export function toStructural(s: JSONSchemaProps): StructuralNode {
  let properties: Map<string, StructuralNode> | null = null;
  if (isSchema(s.properties)) {
    const entries = Object.entries(s.properties).filter(([, v]) => isSchema(v));
    if (entries.length > 0) properties = new Map(entries.map(([k, v]) => [k, toStructural(v as JSONSchemaProps)]));
  }
  const ap = s.additionalProperties;
  return {
    type: typeof s.type === 'string' ? s.type : '',
    nullable: s.nullable === true,
    default: s.default === null ? undefined : s.default,
    properties,
    additionalProperties: isSchema(ap) ? toStructural(ap) : ap === undefined || ap === null ? undefined : null,
    items: isSchema(s.items) ? toStructural(s.items) : null,
    preserveUnknownFields: s['x-kubernetes-preserve-unknown-fields'] === true,
    embeddedResource: s['x-kubernetes-embedded-resource'] === true,
    intOrString: s['x-kubernetes-int-or-string'] === true,
    listType: typeof s['x-kubernetes-list-type'] === 'string' ? s['x-kubernetes-list-type'] : undefined,
    listMapKeys: Array.isArray(s['x-kubernetes-list-map-keys'])
      ? (s['x-kubernetes-list-map-keys'] as unknown[]).filter((k): k is string => typeof k === 'string')
      : [],
    mapType: typeof s['x-kubernetes-map-type'] === 'string' ? s['x-kubernetes-map-type'] : undefined,
  };
}

/** The schema for a field of an object: its property, else additionalProperties' schema. */
export function fieldSchema(s: StructuralNode | null, k: string): StructuralNode | null {
  if (s === null) return null;
  const p = s.properties?.get(k);
  if (p !== undefined) return p;
  return s.additionalProperties ?? null;
}

/** Whether any node below (and including) s satisfies pred. */
export function anyNode(s: StructuralNode | null | undefined, pred: (n: StructuralNode) => boolean, seen = new Set<StructuralNode>()): boolean {
  if (!s || seen.has(s)) return false;
  seen.add(s);
  if (pred(s)) return true;
  if (s.properties) for (const p of s.properties.values()) if (anyNode(p, pred, seen)) return true;
  return anyNode(s.additionalProperties, pred, seen) || anyNode(s.items, pred, seen);
}

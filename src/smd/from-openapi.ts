// The merge schema of OpenAPI definitions, as kube-openapi's schemaconv.ToSchemaFromOpenAPI derives it (the
// type converter kube-apiserver builds for every resource): objects become maps (granular unless
// `x-kubernetes-map-type: atomic`), arrays lists (atomic unless `x-kubernetes-list-type` set or map, or a
// merge patch strategy says otherwise), references named types, a schema without a type an untyped atom,
// and unknown fields deduced where preserved.
import { isObject, type JSONObject } from '../util/json.js';
import { COMMON_TYPES, MergeSchema, UNTYPED_ATOMIC, UNTYPED_DEDUCED, type Atom, type ElementRelationship, type ListType, type MapType, type StructField, type TypeDef, type TypeRef } from './schema.js';

const QUANTITY = 'io.k8s.apimachinery.pkg.api.resource.Quantity';
const RAW_EXTENSION = 'io.k8s.apimachinery.pkg.runtime.RawExtension';

/** A schema conversion problem, as kube-openapi reports it (the type converter then fails to build). */
export class SchemaConversionError extends Error {}

/** Definitions by name (`#/definitions/<name>` or `#/components/schemas/<name>` refs name them). */
export function mergeSchemaFromOpenAPI(models: Readonly<Record<string, unknown>>, preserveUnknownFields = false): MergeSchema {
  return new MergeSchema(typeDefsFromOpenAPI(models, preserveUnknownFields));
}

export function typeDefsFromOpenAPI(models: Readonly<Record<string, unknown>>, preserveUnknownFields = false): TypeDef[] {
  const errors: string[] = [];
  const types: TypeDef[] = [];
  for (const name of Object.keys(models)) {
    const spec = models[name];
    if (!isObject(spec) || typeof spec['$ref'] === 'string') continue;
    let atom: Atom;
    if (name === QUANTITY) atom = { scalar: 'untyped' };
    else if (name === RAW_EXTENSION) atom = withoutName(COMMON_TYPES[0]!);
    else atom = new Converter(name, preserveUnknownFields, errors).visit(spec);
    if (atom.scalar || atom.list || atom.map) types.push({ name, ...atom });
  }
  if (errors.length) throw new SchemaConversionError(errors.join('\n'));
  return [...types, ...COMMON_TYPES];
}

const withoutName = ({ scalar, list, map }: TypeDef): Atom => ({ scalar, list, map });

class Converter {
  constructor(
    private readonly name: string,
    private preserveUnknownFields: boolean,
    private readonly errors: string[],
  ) {}

  private report(message: string): void {
    this.errors.push(`${this.name}: ${message}`);
  }

  visit(spec: JSONObject): Atom {
    if (spec['x-kubernetes-preserve-unknown-fields'] === true) this.preserveUnknownFields = true;
    const type = Array.isArray(spec['type']) ? String(spec['type'][0] ?? '') : typeof spec['type'] === 'string' ? spec['type'] : '';
    switch (type) {
      case '':
        return { scalar: 'untyped', list: this.list(spec), map: this.object(spec) };
      case 'object':
        return { map: this.object(spec) };
      case 'array':
        return { list: this.list(spec) };
      case 'integer':
      case 'number':
        return { scalar: 'numeric' };
      case 'boolean':
        return { scalar: 'boolean' };
      case 'string':
        return { scalar: spec['format'] === undefined || spec['format'] === '' || spec['format'] === 'byte' ? 'string' : 'untyped' };
      default:
        this.report(`unrecognized type: '${type}'`);
        return { scalar: 'untyped' };
    }
  }

  private ref(spec: JSONObject): TypeRef {
    let ref = typeof spec['$ref'] === 'string' ? spec['$ref'] : '';
    const allOf = spec['allOf'];
    if (!ref && Array.isArray(allOf) && allOf.length === 1 && isObject(allOf[0]) && typeof allOf[0]['$ref'] === 'string') ref = allOf[0]['$ref'];
    const name = ref.slice(ref.lastIndexOf('/') + 1);
    if (name) {
      const er = this.mapRelationship(spec);
      return er ? { namedType: name, elementRelationship: er } : { namedType: name };
    }
    const inner = new Converter(`inlined in ${this.name}`, this.preserveUnknownFields, this.errors);
    return inner.visit(spec);
  }

  private object(spec: JSONObject): MapType {
    const props = isObject(spec['properties']) ? spec['properties'] : {};
    const fields: StructField[] = Object.entries(props).map(([name, member]) => {
      const m = isObject(member) ? member : {};
      const field: StructField = { name, type: this.ref(m) };
      if (m['default'] !== undefined) field.default = m['default'];
      return field;
    });
    const ap = spec['additionalProperties'];
    let elementType: TypeRef | undefined;
    if (ap === undefined || ap === null) {
      if (this.preserveUnknownFields || fields.length === 0) elementType = { namedType: UNTYPED_DEDUCED };
    } else if (isObject(ap)) elementType = this.ref(ap);
    else if (ap === true) elementType = { namedType: UNTYPED_DEDUCED };
    const map: MapType = {};
    if (fields.length) map.fields = fields;
    if (elementType) map.elementType = elementType;
    const er = this.mapRelationship(spec);
    if (er) map.elementRelationship = er;
    return map;
  }

  private list(spec: JSONObject): ListType {
    const { relationship, keys } = this.listRelationship(spec);
    let elementType: TypeRef;
    const items = spec['items'];
    if (items !== undefined && items !== null) {
      if (!isObject(items)) {
        this.report('structural schema arrays must have exactly one member subtype');
        elementType = { namedType: UNTYPED_DEDUCED };
      } else elementType = this.ref(items);
    } else {
      if (spec['type']) this.report('`items` must be specified on arrays');
      elementType = { namedType: UNTYPED_ATOMIC };
    }
    const list: ListType = { elementType, elementRelationship: relationship };
    if (keys.length) list.keys = keys;
    return list;
  }

  private mapRelationship(spec: JSONObject): ElementRelationship | undefined {
    const v = spec['x-kubernetes-map-type'];
    if (v === undefined) return undefined;
    if (v === 'atomic') return 'atomic';
    if (v === 'granular') return 'separable';
    this.report(`unknown map type ${String(v)}`);
    return undefined;
  }

  private listRelationship(spec: JSONObject): { relationship: ElementRelationship; keys: string[] } {
    const listType = spec['x-kubernetes-list-type'];
    if (listType !== undefined) {
      if (listType === 'atomic') return { relationship: 'atomic', keys: [] };
      if (listType === 'set') return { relationship: 'associative', keys: [] };
      if (listType === 'map') {
        const keys = spec['x-kubernetes-list-map-keys'];
        if (!Array.isArray(keys) || keys.some((k) => typeof k !== 'string')) {
          this.report(keys === undefined ? 'missing map keys' : `uninterpreted map keys: ${JSON.stringify(keys)}`);
          return { relationship: 'associative', keys: [] };
        }
        return { relationship: 'associative', keys: keys as string[] };
      }
      this.report(`unknown list type ${String(listType)}`);
      return { relationship: 'atomic', keys: [] };
    }
    const strategy = spec['x-kubernetes-patch-strategy'];
    if (strategy !== undefined) {
      if (strategy === 'merge' || strategy === 'merge,retainKeys') {
        const key = spec['x-kubernetes-patch-merge-key'];
        if (key === undefined) return { relationship: 'associative', keys: [] };
        if (typeof key !== 'string') {
          this.report(`uninterpreted merge key: ${JSON.stringify(key)}`);
          return { relationship: 'associative', keys: [] };
        }
        return { relationship: 'associative', keys: [key] };
      }
      if (strategy === 'retainKeys') return { relationship: 'atomic', keys: [] };
      this.report(`unknown patch strategy ${String(strategy)}`);
    }
    return { relationship: 'atomic', keys: [] };
  }
}

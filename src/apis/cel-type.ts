// The CEL type of a built-in kind's objects, from its declared Go struct: what kube's type checking gets from
// the kind's OpenAPI schema (SchemaDeclType over the resolved definitions). Scalars map to their CEL types,
// metav1.Time to timestamps, []byte to bytes, slices and maps to lists and string-keyed maps, structs to
// object types, and free-form JSON to dyn.
import type { GoField, GoStruct } from '../api/go-struct.js';
import { BOOL, BYTES, DOUBLE, DYN, INT, STRING, TIMESTAMP, listOf, mapOf, type CelType, type ObjectType } from '../cel/types.js';

function elemType(f: GoField, structs: Map<GoStruct, ObjectType>): CelType {
  const t = f.type;
  if (typeof t === 'object') return structType(t, structs);
  switch (t) {
    case 'string':
      return STRING;
    case 'int32':
    case 'int64':
      return INT;
    case 'float64':
      return DOUBLE;
    case 'bool':
      return BOOL;
    case 'bytes':
      return BYTES;
    case 'time':
    case 'microTime':
      return TIMESTAMP;
    default:
      return DYN;
  }
}

function structType(s: GoStruct, structs: Map<GoStruct, ObjectType>, name = s.openapi ? `${s.openapi}.${s.name}` : s.name): ObjectType {
  const known = structs.get(s);
  if (known) return known;
  const t: ObjectType = { kind: 'object', name, fields: new Map() };
  structs.set(s, t);
  if (s.typeMeta) {
    t.fields.set('kind', { type: STRING, jsonName: 'kind' });
    t.fields.set('apiVersion', { type: STRING, jsonName: 'apiVersion' });
  }
  for (const f of s.fields) {
    let ft = elemType(f, structs);
    // []byte is one bytes value, not a list.
    if (f.slice && f.type !== 'bytes') ft = listOf(ft);
    if (f.map) ft = mapOf(STRING, ft);
    t.fields.set(f.json, { type: ft, jsonName: f.json });
  }
  return t;
}

/** The object type of a kind, its root named `rootName` (kube names it after the kind, uniquely). */
export function goStructCelType(s: GoStruct, rootName: string): ObjectType {
  return structType(s, new Map(), rootName);
}

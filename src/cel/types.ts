// CEL types, as the checker and the runtime see them. Plain data, compared
// structurally; declared object types (from CRD schemas) are compared by name.

type PrimitiveName = 'int' | 'uint' | 'double' | 'bool' | 'string' | 'bytes';

export type CelType =
  | { kind: 'primitive'; name: PrimitiveName }
  | { kind: 'null' }
  | { kind: 'dyn' }
  | { kind: 'error' }
  | { kind: 'timestamp' }
  | { kind: 'duration' }
  | ListType
  | MapType
  /** The type of a type value: `type(int)`; param absent for the bare `type`. */
  | { kind: 'type'; param?: CelType }
  /** Named abstract types: `optional_type`, `kubernetes.Quantity`, `net.IP`, ... */
  | { kind: 'opaque'; name: string; params: CelType[] }
  | ObjectType
  /** A type parameter in an overload signature, such as `A` in `list(A)`. */
  | { kind: 'typeParam'; name: string };

/** Kubernetes list semantics ride on the type: a set or map list compares
 * without order and concatenates by union or merge. */
export interface ListType {
  kind: 'list';
  elem: CelType;
  listType?: 'atomic' | 'set' | 'map';
  /** x-kubernetes-list-map-keys, by JSON name. */
  mapKeys?: string[];
  /** Largest possible element count, for cost estimation (from maxItems or request size). */
  maxElements?: number;
}

export interface MapType {
  kind: 'map';
  key: CelType;
  value: CelType;
  maxElements?: number;
}

export interface FieldDecl {
  type: CelType;
  /** The property name in JSON; the CEL name (the map key) may be escaped (`x__dash__prop`). */
  jsonName: string;
}

/** A message type: a schema object with properties. */
export interface ObjectType {
  kind: 'object';
  name: string;
  /** CEL field name → declaration. */
  fields: Map<string, FieldDecl>;
  maxElements?: number;
}


export const INT: CelType = { kind: 'primitive', name: 'int' };
export const UINT: CelType = { kind: 'primitive', name: 'uint' };
export const DOUBLE: CelType = { kind: 'primitive', name: 'double' };
export const BOOL: CelType = { kind: 'primitive', name: 'bool' };
export const STRING: CelType = { kind: 'primitive', name: 'string' };
export const BYTES: CelType = { kind: 'primitive', name: 'bytes' };
export const NULL: CelType = { kind: 'null' };
export const DYN: CelType = { kind: 'dyn' };
export const ERROR: CelType = { kind: 'error' };
export const TIMESTAMP: CelType = { kind: 'timestamp' };
export const DURATION: CelType = { kind: 'duration' };
export const TYPE: CelType = { kind: 'type' };

export const listOf = (elem: CelType): ListType => ({ kind: 'list', elem });
export const mapOf = (key: CelType, value: CelType): MapType => ({ kind: 'map', key, value });
export const typeOf = (param: CelType): CelType => ({ kind: 'type', param });
export const opaque = (name: string, ...params: CelType[]): CelType => ({ kind: 'opaque', name, params });
export const optionalOf = (param: CelType): CelType => opaque('optional_type', param);
export const typeParam = (name: string): CelType => ({ kind: 'typeParam', name });

/** The type's name as cel-go prints it in messages: `list(int)`, `map(string, dyn)`,
 * `google.protobuf.Timestamp`, `optional_type(string)`. */
export function formatType(t: CelType): string {
  switch (t.kind) {
    case 'primitive': return t.name;
    case 'null': return 'null_type';
    case 'dyn': return 'dyn';
    case 'error': return '*error*';
    case 'timestamp': return 'google.protobuf.Timestamp';
    case 'duration': return 'google.protobuf.Duration';
    case 'list': return `list(${formatType(t.elem)})`;
    case 'map': return `map(${formatType(t.key)}, ${formatType(t.value)})`;
    case 'type': return t.param ? `type(${formatType(t.param)})` : 'type';
    case 'opaque': return t.params.length ? `${t.name}(${t.params.map(formatType).join(', ')})` : t.name;
    case 'object': return t.name;
    case 'typeParam': return t.name;
  }
}

// The schema structured-merge-diff merges by (its schema package), in the same shape as its YAML form so
// that its test schemas load as they are: named types, and type references that name a type or inline
// one, optionally overriding the element relationship. An atom may be a scalar, a list and a map at once
// (an untyped field); the value decides which applies.
import { isObject } from '../util/json.js';

export type ElementRelationship = 'associative' | 'atomic' | 'separable';
export type Scalar = 'numeric' | 'string' | 'boolean' | 'untyped';

export interface StructField {
  name: string;
  type: TypeRef;
  /** A key field's default (associative-list keys missing from an item take it). */
  default?: unknown;
}

export interface MapType {
  fields?: StructField[];
  elementType?: TypeRef;
  /** Absent means separable. */
  elementRelationship?: ElementRelationship;
}

export interface ListType {
  elementType: TypeRef;
  /** Absent means atomic. */
  elementRelationship?: ElementRelationship;
  keys?: string[];
}

export interface Atom {
  scalar?: Scalar;
  list?: ListType;
  map?: MapType;
}

export interface TypeRef extends Atom {
  namedType?: string;
  elementRelationship?: ElementRelationship;
}

export interface TypeDef extends Atom {
  name: string;
}

export const UNTYPED_ATOMIC = '__untyped_atomic_';
export const UNTYPED_DEDUCED = '__untyped_deduced_';

/** The two types every converted schema carries (kube-openapi's addCommonTypes). */
export const COMMON_TYPES: readonly TypeDef[] = [
  {
    name: UNTYPED_ATOMIC,
    scalar: 'untyped',
    list: { elementType: { namedType: UNTYPED_ATOMIC }, elementRelationship: 'atomic' },
    map: { elementType: { namedType: UNTYPED_ATOMIC }, elementRelationship: 'atomic' },
  },
  {
    name: UNTYPED_DEDUCED,
    scalar: 'untyped',
    list: { elementType: { namedType: UNTYPED_ATOMIC }, elementRelationship: 'atomic' },
    map: { elementType: { namedType: UNTYPED_DEDUCED }, elementRelationship: 'separable' },
  },
];

export class MergeSchema {
  private readonly named = new Map<string, TypeDef>();
  private readonly fieldIndex = new WeakMap<MapType, Map<string, StructField>>();

  constructor(types: readonly TypeDef[]) {
    for (const t of types) this.named.set(t.name, t);
  }

  /** A schema from its YAML form, already parsed (`types: [...]`). */
  static fromObject(doc: unknown): MergeSchema {
    const types = isObject(doc) && Array.isArray(doc['types']) ? (doc['types'] as TypeDef[]) : [];
    return new MergeSchema(types);
  }

  /**
   * Schema.Resolve: the atom a reference stands for, with its element relationship override applied. Read only:
   * the type itself when there is no override (walks resolve at every node of every value), else one atom per
   * reference, made once (so that its map keeps its field index).
   */
  resolve(ref: TypeRef): Atom | undefined {
    const atom: Atom | undefined = ref.namedType !== undefined ? this.named.get(ref.namedType) : ref;
    if (!atom) return undefined;
    const er = ref.elementRelationship;
    if (er === undefined) return atom;
    let o = this.overridden.get(ref);
    if (o === undefined) {
      o = atom.map ? { map: { ...atom.map, elementRelationship: er } } : atom.list ? { list: { ...atom.list, elementRelationship: er } } : null;
      this.overridden.set(ref, o);
    }
    return o ?? undefined;
  }

  private readonly overridden = new WeakMap<TypeRef, Atom | null>();

  /** Map.FindField. */
  field(map: MapType, name: string): StructField | undefined {
    let index = this.fieldIndex.get(map);
    if (!index) {
      index = new Map((map.fields ?? []).map((f) => [f.name, f]));
      this.fieldIndex.set(map, index);
    }
    return index.get(name);
  }
}

/** deduceAtom: of an atom that is several kinds at once, the kind the value is (the atom itself when it is that kind alone). */
export function deduceAtom(atom: Atom, value: unknown): Atom {
  if (value === undefined) return atom;
  if (typeof value === 'number' || typeof value === 'string' || typeof value === 'boolean' || typeof value === 'bigint') {
    if (atom.scalar) return atom.list || atom.map ? { scalar: atom.scalar } : atom;
  } else if (Array.isArray(value)) {
    if (atom.list) return atom.scalar || atom.map ? { list: atom.list } : atom;
  } else if (isObject(value)) {
    if (atom.map) return atom.scalar || atom.list ? { map: atom.map } : atom;
  }
  return atom;
}

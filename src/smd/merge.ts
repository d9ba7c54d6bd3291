// Merging two values of a type (structured-merge-diff's TypedValue.Merge): the right-hand side wins at
// every leaf (scalars, atomic lists and maps, lists or maps empty on both sides); separable maps merge key
// by key; associative lists merge item by item, keeping the right-hand side's order for the items it has
// and placing the left-hand side's other items where they were relative to them.
import { isObject, type JSONObject } from '../util/json.js';
import { serializeElement, type PathElement } from './path-element.js';
import { deduceAtom, type Atom, type ListType, type MapType, type MergeSchema, type TypeRef } from './schema.js';
import { listItemElement } from './to-field-set.js';

/** `undefined` is an absent value; the result is undefined when neither side leaves anything. */
export function merge(schema: MergeSchema, root: TypeRef, lhs: unknown, rhs: unknown): unknown {
  return new Merger(schema).merge(root, lhs, rhs, { inLeaf: false });
}

interface Leaf {
  inLeaf: boolean;
}

const sameKinds = (a: Atom, b: Atom): boolean => a.scalar === b.scalar && !a.list === !b.list && !a.map === !b.map;

/** A list's item elements in order, and each element's item (null when the element is duplicated). */
interface Indexed {
  order: PathElement[];
  values: Map<string, unknown>;
}

class Merger {
  constructor(private readonly schema: MergeSchema) {}

  merge(ref: TypeRef, lhs: unknown, rhs: unknown, leaf: Leaf): unknown {
    const atom = this.schema.resolve(ref);
    if (!atom) return undefined;
    const al = deduceAtom(atom, lhs);
    const ar = deduceAtom(atom, rhs);
    if (rhs === undefined) return this.handle(al, lhs, rhs, leaf);
    if (lhs === undefined || sameKinds(al, ar)) return this.handle(ar, lhs, rhs, leaf);
    // The value changed kind (an untyped field): both readings are walked, the right-hand one decides.
    this.handle(al, lhs, rhs, { ...leaf });
    return this.handle(ar, lhs, rhs, leaf);
  }

  private handle(atom: Atom, lhs: unknown, rhs: unknown, leaf: Leaf): unknown {
    if (atom.map) return this.doMap(atom.map, lhs, rhs, leaf);
    if (atom.scalar) return this.doLeaf(lhs, rhs, leaf);
    if (atom.list) return this.doList(atom.list, lhs, rhs, leaf);
    return undefined;
  }

  /** ruleKeepRHS. */
  private doLeaf(lhs: unknown, rhs: unknown, leaf: Leaf): unknown {
    if (leaf.inLeaf) return undefined;
    leaf.inLeaf = true;
    return rhs !== undefined ? rhs : lhs;
  }

  private doMap(t: MapType, lhs: unknown, rhs: unknown, leaf: Leaf): unknown {
    const l = isObject(lhs) ? lhs : undefined;
    const r = isObject(rhs) ? rhs : undefined;
    const bothEmpty = (!l || Object.keys(l).length === 0) && (!r || Object.keys(r).length === 0);
    if (t.elementRelationship === 'atomic' || bothEmpty) return this.doLeaf(lhs, rhs, leaf);
    if (!l && !r) return undefined;
    const out: JSONObject = {};
    for (const key of new Set([...Object.keys(l ?? {}), ...Object.keys(r ?? {})])) {
      const type = this.schema.field(t, key)?.type ?? t.elementType ?? {};
      const v = this.merge(type, l && key in l ? l[key] : undefined, r && key in r ? r[key] : undefined, { inLeaf: leaf.inLeaf });
      if (v !== undefined) out[key] = v;
    }
    return Object.keys(out).length > 0 ? out : undefined;
  }

  private doList(t: ListType, lhs: unknown, rhs: unknown, leaf: Leaf): unknown {
    const l = Array.isArray(lhs) ? lhs : undefined;
    const r = Array.isArray(rhs) ? rhs : undefined;
    const bothEmpty = (!l || l.length === 0) && (!r || r.length === 0);
    if (t.elementRelationship !== 'associative' || bothEmpty) return this.doLeaf(lhs, rhs, leaf);
    if (!l && !r) return undefined;
    return this.mergeItems(t, l ?? [], r ?? [], leaf);
  }

  private index(t: ListType, items: readonly unknown[]): Indexed {
    const order: PathElement[] = [];
    const values = new Map<string, unknown>();
    for (const item of items) {
      const pe = listItemElement(this.schema, t, item);
      if (!pe) continue;
      const id = serializeElement(pe);
      values.set(id, values.has(id) ? null : item);
      order.push(pe);
    }
    return { order, values };
  }

  /**
   * The merged items: walk both sides' elements; an element both have merges in place; one only the left
   * has keeps its place; one the right also has but later is skipped on the left, unless the right has not
   * reached the next shared element yet.
   */
  private mergeItems(t: ListType, lhs: readonly unknown[], rhs: readonly unknown[], leaf: Leaf): unknown {
    const R = this.index(t, rhs);
    const L = this.index(t, lhs);
    const id = serializeElement;
    const shared = R.order.filter((pe) => L.values.has(id(pe)));
    let sharedAt = 0;
    let nextShared: PathElement | undefined = shared[sharedAt++];
    const advanceShared = (): void => {
      nextShared = shared[sharedAt++];
    };
    const merged = new Set<string>();
    const out: unknown[] = [];
    const item = (lv: unknown, rv: unknown): void => {
      const v = this.merge(t.elementType, lv, rv, { inLeaf: leaf.inLeaf });
      if (v !== undefined) out.push(v);
    };
    let li = 0;
    let ri = 0;
    while (li < L.order.length || ri < R.order.length) {
      if (li < L.order.length && ri < R.order.length) {
        const pe = L.order[li]!;
        if (id(pe) === id(R.order[ri]!)) {
          merged.add(id(pe));
          item(L.values.get(id(pe)), R.values.get(id(pe)));
          li++;
          ri++;
          advanceShared();
          continue;
        }
        if (R.values.has(id(pe)) && nextShared && id(nextShared) !== id(pe)) {
          li++;
          continue;
        }
      }
      if (li < L.order.length) {
        const pe = L.order[li]!;
        if (!R.values.has(id(pe))) {
          item(lhs[li], undefined);
          li++;
          continue;
        } else if (merged.has(id(pe))) li++;
      }
      if (ri < R.order.length) {
        const pe = R.order[ri]!;
        merged.add(id(pe));
        item(L.values.get(id(pe)), R.values.get(id(pe)));
        ri++;
        if (nextShared && id(nextShared) === id(pe)) advanceShared();
      }
    }
    return out.length > 0 ? out : undefined;
  }
}

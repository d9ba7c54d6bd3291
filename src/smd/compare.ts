// What changed between two values of a type (structured-merge-diff's TypedValue.Compare): the fields
// removed, modified and added, by the same rules as ToFieldSet. Atomic lists and maps, scalars, and lists
// or maps empty on both sides are compared whole; a separable map field by field; an associative list item
// by item, an item given more than once being compared as a whole.
import { isObject } from '../util/json.js';
import { fieldElement, serializeElement, type PathElement } from './path-element.js';
import { FieldSet } from './set.js';
import { deduceAtom, type Atom, type ListType, type MapType, type MergeSchema, type TypeRef } from './schema.js';
import { listItemElement } from './to-field-set.js';
import { valuesEqual } from './value-order.js';

export interface Comparison {
  removed: FieldSet;
  modified: FieldSet;
  added: FieldSet;
}

/** `undefined` stands for a value that is absent (Go's nil value), `null` for JSON null. */
export function compare(schema: MergeSchema, root: TypeRef, lhs: unknown, rhs: unknown): Comparison {
  const c: Comparison = { removed: new FieldSet(), modified: new FieldSet(), added: new FieldSet() };
  new Walker(schema, c).compare(root, lhs, rhs, [], { inLeaf: false });
  return c;
}

export const isSame = (c: Comparison): boolean => c.removed.empty() && c.modified.empty() && c.added.empty();

/** Comparison.ExcludeFields: drop the fields (and everything below them) of `fields`. */
export function excludeFields(c: Comparison, fields: FieldSet | undefined): Comparison {
  if (!fields || fields.empty()) return c;
  return { removed: c.removed.recursiveDifference(fields), modified: c.modified.recursiveDifference(fields), added: c.added.recursiveDifference(fields) };
}

interface Leaf {
  inLeaf: boolean;
}

const sameKinds = (a: Atom, b: Atom): boolean => a.scalar === b.scalar && !a.list === !b.list && !a.map === !b.map;

class Walker {
  constructor(
    private readonly schema: MergeSchema,
    private readonly c: Comparison,
  ) {}

  compare(ref: TypeRef, lhs: unknown, rhs: unknown, path: PathElement[], leaf: Leaf): void {
    // One value on both sides has no differences (a leaf's flag set below is its caller's fresh copy).
    if (lhs === rhs && lhs !== undefined) return;
    const atom = this.schema.resolve(ref);
    if (!atom) return;
    const al = deduceAtom(atom, lhs);
    const ar = deduceAtom(atom, rhs);
    if (rhs === undefined) this.handle(al, lhs, rhs, path, leaf);
    else if (lhs === undefined || sameKinds(al, ar)) this.handle(ar, lhs, rhs, path, leaf);
    else {
      // The value changed kind (an untyped field): both readings are walked.
      this.handle(al, lhs, rhs, path, { ...leaf });
      this.handle(ar, lhs, rhs, path, leaf);
    }
    if (!leaf.inLeaf) {
      if (lhs === undefined) this.c.added.insert(path);
      else if (rhs === undefined) this.c.removed.insert(path);
    }
  }

  private handle(atom: Atom, lhs: unknown, rhs: unknown, path: PathElement[], leaf: Leaf): void {
    if (atom.map) return this.doMap(atom.map, lhs, rhs, path, leaf);
    if (atom.scalar) return this.doLeaf(lhs, rhs, path, leaf);
    if (atom.list) return this.doList(atom.list, lhs, rhs, path, leaf);
  }

  private doLeaf(lhs: unknown, rhs: unknown, path: PathElement[], leaf: Leaf): void {
    if (leaf.inLeaf) return;
    leaf.inLeaf = true;
    if (lhs === undefined) this.c.added.insert(path);
    else if (rhs === undefined) this.c.removed.insert(path);
    else if (!valuesEqual(lhs, rhs)) this.c.modified.insert(path);
  }

  private doMap(t: MapType, lhs: unknown, rhs: unknown, path: PathElement[], leaf: Leaf): void {
    const l = isObject(lhs) ? lhs : undefined;
    const r = isObject(rhs) ? rhs : undefined;
    const bothEmpty = (!l || Object.keys(l).length === 0) && (!r || Object.keys(r).length === 0);
    if (t.elementRelationship === 'atomic' || bothEmpty) return this.doLeaf(lhs, rhs, path, leaf);
    if (!l && !r) return;
    // One side alone (most of a create) needs no union of the keys.
    const keys = l && r ? new Set([...Object.keys(l), ...Object.keys(r)]) : Object.keys((l ?? r)!);
    for (const key of keys) {
      const type = this.schema.field(t, key)?.type ?? t.elementType ?? {};
      const lv = l && key in l ? l[key] : undefined;
      const rv = r && key in r ? r[key] : undefined;
      // The path grows and shrinks in place: sets keep its elements, never the array.
      path.push(fieldElement(key));
      this.compare(type, lv, rv, path, { inLeaf: leaf.inLeaf });
      path.pop();
    }
  }

  private doList(t: ListType, lhs: unknown, rhs: unknown, path: PathElement[], leaf: Leaf): void {
    const l = Array.isArray(lhs) ? lhs : undefined;
    const r = Array.isArray(rhs) ? rhs : undefined;
    const bothEmpty = (!l || l.length === 0) && (!r || r.length === 0);
    if (t.elementRelationship !== 'associative' || bothEmpty) return this.doLeaf(lhs, rhs, path, leaf);
    if (!l && !r) return;
    // Items grouped by their key (or value), in order of first appearance, lhs first.
    const groups = new Map<string, { pe: PathElement; l: unknown[]; r: unknown[] }>();
    // The serialized element is canonical (keys sorted, values in one JSON form): equal elements, equal strings.
    const groupOf = (pe: PathElement): { pe: PathElement; l: unknown[]; r: unknown[] } => {
      const id = serializeElement(pe);
      let g = groups.get(id);
      if (!g) groups.set(id, (g = { pe, l: [], r: [] }));
      return g;
    };
    for (const item of l ?? []) {
      const pe = listItemElement(this.schema, t, item);
      if (pe) groupOf(pe).l.push(item);
    }
    for (const item of r ?? []) {
      const pe = listItemElement(this.schema, t, item);
      if (pe) groupOf(pe).r.push(item);
    }
    for (const g of groups.values()) {
      const child = [...path, g.pe];
      const item = (v: unknown): void => this.compare(t.elementType, v, undefined, child, { inLeaf: leaf.inLeaf });
      if (g.l.length <= 1 && g.r.length <= 1) {
        this.compare(t.elementType, g.l[0], g.r[0], child, { inLeaf: leaf.inLeaf });
      } else if (g.l.length >= 2 && g.r.length >= 2) {
        if (g.l.length !== g.r.length || g.l.some((v, i) => !valuesEqual(v, g.r[i]))) this.c.modified.insert(child);
      } else if (g.l.length >= 2) {
        // Several items became at most one: the new one is walked as added, the group is removed.
        if (g.r.length) this.compare(t.elementType, undefined, g.r[0], child, { inLeaf: leaf.inLeaf });
        this.c.removed.insert(child);
      } else {
        if (g.l.length) item(g.l[0]);
        this.c.added.insert(child);
      }
    }
  }
}

/**
 * compare(schema, root, undefined, value).added, built in one pass (a create's changes are all additions):
 * every node the walk reaches is added, and each set node is built where its map or list is walked, rather
 * than by inserting each path from the root. The same set as compare's, as the tests check.
 */
export function addedFields(schema: MergeSchema, root: TypeRef, value: unknown): FieldSet {
  // The root path itself is nobody's (insert ignores it): the set is what is below it.
  return new AddedWalker(schema).below(root, value) ?? new FieldSet();
}

class AddedWalker {
  constructor(private readonly schema: MergeSchema) {}

  /**
   * compare's walk of `value` under `pe` with nothing on the left: the element is added to `parent` when its
   * type resolves (one-sided, nothing is ever inside a leaf when reached), and what is below it goes under it.
   */
  visit(ref: TypeRef, value: unknown, parent: FieldSet, pe: PathElement): void {
    const atom = this.schema.resolve(ref);
    if (!atom) return;
    const below = this.belowAtom(atom, value);
    parent.addMember(pe);
    if (below && (below.members.length > 0 || below.children.length > 0)) {
      // Distinct elements that order as equal (list keys written differently) share one node, as insert's do.
      const existing = parent.child(pe);
      parent.setChild(pe, existing ? existing.union(below) : below);
    }
  }

  /** The set of what is below a value of `ref`, undefined when nothing can be (a leaf, or no type). */
  below(ref: TypeRef, value: unknown): FieldSet | undefined {
    const atom = this.schema.resolve(ref);
    return atom ? this.belowAtom(atom, value) : undefined;
  }

  private belowAtom(atom: Atom, value: unknown): FieldSet | undefined {
    // handle's order on the deduced atom: a map, else a scalar (a leaf), else a list.
    const a = deduceAtom(atom, value);
    if (a.map) {
      const t = a.map;
      if (t.elementRelationship === 'atomic' || !isObject(value)) return undefined;
      const keys = Object.keys(value);
      if (keys.length === 0) return undefined;
      const node = new FieldSet();
      for (const key of keys) this.visit(this.schema.field(t, key)?.type ?? t.elementType ?? {}, value[key], node, fieldElement(key));
      return node;
    }
    if (a.scalar || !a.list) return undefined;
    const t = a.list;
    if (t.elementRelationship !== 'associative' || !Array.isArray(value) || value.length === 0) return undefined;
    // Items grouped by their key (or value), in order of first appearance, as compare's doList groups them.
    const groups = new Map<string, { pe: PathElement; first: unknown; n: number }>();
    for (const item of value) {
      const pe = listItemElement(this.schema, t, item);
      if (!pe) continue;
      const id = serializeElement(pe);
      const g = groups.get(id);
      if (g) g.n++;
      else groups.set(id, { pe, first: item, n: 1 });
    }
    const node = new FieldSet();
    for (const g of groups.values()) {
      // An item given more than once is added as a whole.
      if (g.n > 1) node.addMember(g.pe);
      else this.visit(t.elementType, g.first, node, g.pe);
    }
    return node;
  }
}

// Field sets written under an older schema (structured-merge-diff's ReconcileFieldSetWithSchema): when a
// list, map or struct has become atomic since, a manager that owned fields inside it now owns it whole,
// so that a write to any part of it conflicts with that manager as it would have before. The reverse
// change (atomic to granular) needs nothing: the owner of the whole keeps the whole.
import type { PathElement } from './path-element.js';
import { FieldSet, type Path } from './set.js';
import { UNTYPED_DEDUCED, type MapType, type MergeSchema, type TypeRef } from './schema.js';

/** The reconciled set, or undefined when the schema changes nothing in it. */
export function reconcileFieldSetWithSchema(schema: MergeSchema, root: TypeRef, set: FieldSet): FieldSet | undefined {
  const changes = { toRemove: new FieldSet(), toAdd: new FieldSet(), changed: false };
  walk(schema, root, set, [], false, changes);
  if (!changes.changed) return undefined;
  return set.recursiveDifference(changes.toRemove).union(changes.toAdd);
}

interface Changes {
  toRemove: FieldSet;
  toAdd: FieldSet;
  changed: boolean;
}

/**
 * `set` is what is owned below `path` (undefined when nothing is); `isAtomic` that the path itself is
 * owned with nothing below it, as the owner of an atomic value is.
 */
function walk(schema: MergeSchema, ref: TypeRef, set: FieldSet | undefined, path: Path, isAtomic: boolean, c: Changes): void {
  // The resolved atom as it is (not deduced from a value: there is none), a map before a list.
  const atom = schema.resolve(ref);
  if (!atom) return;
  if (atom.map) {
    const t = atom.map;
    // Deduced maps (preserved unknown fields) carry no atomic or granular tags to reconcile with.
    if (isUntypedDeducedMap(t)) return;
    if (!isAtomic && t.elementRelationship === 'atomic') {
      if (set && set.size() > 0) ownWhole(path, c);
      return;
    }
    if (set) visitItems(set, (pe) => mapElementType(t, pe, schema), schema, path, c);
    return;
  }
  if (atom.list) {
    const t = atom.list;
    if (!isAtomic && t.elementRelationship === 'atomic') return ownWhole(path, c);
    if (set) visitItems(set, () => t.elementType, schema, path, c);
  }
}

/** The path's owner owns the whole of it, nothing below. */
function ownWhole(path: Path, c: Changes): void {
  c.toRemove.insert(path);
  c.toAdd.insert(path);
  c.changed = true;
}

/** Children that are not members first, then members, each with what is owned below it. */
function visitItems(set: FieldSet, typeOf: (pe: PathElement) => TypeRef | undefined, schema: MergeSchema, path: Path, c: Changes): void {
  const handle = (pe: PathElement, isMember: boolean): void => {
    const type = typeOf(pe);
    if (!type) return;
    const below = set.child(pe);
    walk(schema, type, below, [...path, pe], isMember && !below, c);
  };
  for (const child of set.children) if (!set.hasMember(child.element)) handle(child.element, false);
  for (const member of set.members) handle(member, true);
}

/** typeRefAtPath: a declared field's type, else the map's element type; fields not in the schema are skipped. */
function mapElementType(t: MapType, pe: PathElement, schema: MergeSchema): TypeRef | undefined {
  const type = ('field' in pe ? schema.field(t, pe.field)?.type : undefined) ?? t.elementType;
  return type && !isEmptyRef(type) ? type : undefined;
}

const isEmptyRef = (r: TypeRef): boolean => r.namedType === undefined && !r.scalar && !r.list && !r.map && r.elementRelationship === undefined;

/** A map with no fields whose elements are untyped (x-kubernetes-preserve-unknown-fields without properties). */
function isUntypedDeducedMap(m: MapType): boolean {
  const e = m.elementType;
  if (!e || m.fields !== undefined) return false;
  return e.namedType !== undefined ? e.namedType === UNTYPED_DEDUCED : e.scalar === 'untyped';
}

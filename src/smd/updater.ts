// Ownership through writes (structured-merge-diff's merge.Updater). An update gives its manager every field
// it changed and takes those fields from the others; an apply merges the manager's configuration onto the
// live object, drops the fields the manager applied last time and no longer does (unless someone else
// owns them), and refuses to change fields other managers own unless forced.
import { compare, excludeFields, type Comparison } from './compare.js';
import { ConflictError, conflictsFromManagers, type ManagedFields, type VersionedSet } from './managers.js';
import { merge } from './merge.js';
import { reconcileFieldSetWithSchema } from './reconcile-schema.js';
import { ensureNamedFieldsAreMembers, removeItems } from './remove.js';
import { FieldSet } from './set.js';
import type { MergeSchema, TypeRef } from './schema.js';
import { toFieldSet } from './to-field-set.js';
import { valuesEqual } from './value-order.js';

/** A value of the object's type at one API version. */
export interface Typed {
  value: unknown;
  version: string;
}

/**
 * Converts an object to another served version with that version's schema. `undefined` when the version is
 * no longer served (MissingVersionError): such managers' fields are dropped.
 */
export interface VersionConverter {
  schemaFor(version: string): { schema: MergeSchema; root: TypeRef } | undefined;
  convert(obj: Typed, version: string): Typed | undefined;
}

export interface UpdaterOptions {
  converter: VersionConverter;
  /** Fields no manager owns, per version (the status of a main-resource write, the spec of a /status write). */
  ignoredFields?: ReadonlyMap<string, FieldSet>;
}

export class Updater {
  constructor(private readonly opts: UpdaterOptions) {}

  private typeAt(version: string): { schema: MergeSchema; root: TypeRef } {
    const t = this.opts.converter.schemaFor(version);
    if (!t) throw new Error(`no schema for version ${version}`);
    return t;
  }

  private compareAt(oldObj: Typed, newObj: Typed, version: string): Comparison | undefined {
    const o = oldObj.version === version ? oldObj : this.opts.converter.convert(oldObj, version);
    const n = newObj.version === version ? newObj : this.opts.converter.convert(newObj, version);
    if (!o || !n) return undefined;
    const { schema, root } = this.typeAt(version);
    return excludeFields(compare(schema, root, o.value, n.value), this.opts.ignoredFields?.get(version));
  }

  /** The shared step: who else changed ownership, and the conflicts it raises unless forced. */
  private update(oldObj: Typed, newObj: Typed, version: string, managers: ManagedFields, workflow: string, force: boolean): { managers: ManagedFields; comparison: Comparison } {
    const out: ManagedFields = new Map(managers);
    const versions = new Map<string, Comparison | undefined>();
    const comparison = this.compareAt(oldObj, newObj, version)!;
    versions.set(version, comparison);
    const conflicts: ManagedFields = new Map();
    const removed = new Map<string, FieldSet>();
    for (const [manager, vs] of managers) {
      if (manager === workflow) continue;
      if (!versions.has(vs.apiVersion)) versions.set(vs.apiVersion, this.compareAt(oldObj, newObj, vs.apiVersion));
      const c = versions.get(vs.apiVersion);
      if (!c) {
        out.delete(manager);
        continue;
      }
      const conflict = vs.set.intersection(c.modified.union(c.added));
      if (!conflict.empty()) conflicts.set(manager, { set: conflict, apiVersion: vs.apiVersion, applied: false });
      if (!c.removed.empty()) removed.set(manager, c.removed);
    }
    if (!force && conflicts.size > 0) throw new ConflictError(conflictsFromManagers(conflicts));
    for (const [manager, c] of conflicts) {
      const vs = out.get(manager)!;
      out.set(manager, { ...vs, set: vs.set.difference(c.set) });
    }
    for (const [manager, r] of removed) {
      const vs = out.get(manager);
      if (vs) out.set(manager, { ...vs, set: vs.set.difference(r) });
    }
    for (const [manager, vs] of out) if (vs.set.empty()) out.delete(manager);
    return { managers: out, comparison };
  }

  /**
   * reconcileManagedFieldsWithSchemaChanges: each manager's set against its version's schema as it is now
   * (fields inside what has become atomic are owned as the whole); managers of versions no longer served
   * are dropped.
   */
  private reconcile(live: Typed, managers: ManagedFields): ManagedFields {
    const out: ManagedFields = new Map();
    for (const [manager, vs] of managers) {
      if (!(live.version === vs.apiVersion ? live : this.opts.converter.convert(live, vs.apiVersion))) continue;
      const { schema, root } = this.typeAt(vs.apiVersion);
      const reconciled = reconcileFieldSetWithSchema(schema, root, vs.set);
      out.set(manager, reconciled ? { ...vs, set: reconciled } : vs);
    }
    return out;
  }

  /** Updater.Update: the manager now owns what it changed; the object is the new one. */
  updateObject(live: Typed, next: Typed, managersBefore: ManagedFields, manager: string): ManagedFields {
    const managers = this.reconcile(live, managersBefore);
    const { managers: out, comparison } = this.update(live, next, next.version, managers, manager, true);
    const mine = out.get(manager)?.set ?? new FieldSet();
    let set = mine.difference(comparison.removed).union(comparison.modified).union(comparison.added);
    const ignored = this.opts.ignoredFields?.get(next.version);
    if (ignored) set = set.recursiveDifference(ignored);
    if (set.empty()) out.delete(manager);
    else out.set(manager, { set, apiVersion: next.version, applied: false });
    return out;
  }

  /**
   * Updater.Apply: the object after applying `config` as `manager`, or undefined when nothing changes, with
   * the managers after it. Throws ConflictError unless forced.
   */
  apply(live: Typed, config: Typed, managersBefore: ManagedFields, manager: string, force: boolean): { object: unknown; managers: ManagedFields } {
    const managers = this.reconcile(live, managersBefore);
    const version = config.version;
    const { schema, root } = this.typeAt(version);
    const liveAt = live.version === version ? live : this.opts.converter.convert(live, version);
    if (!liveAt) throw new Error(`cannot convert the live object to ${version}`);
    const merged: Typed = { value: merge(schema, root, liveAt.value, config.value) ?? null, version };
    const last = managers.get(manager);
    let set = toFieldSet(schema, root, config.value);
    const ignored = this.opts.ignoredFields?.get(version);
    if (ignored) set = set.recursiveDifference(ignored);
    const withMine: ManagedFields = new Map(managers);
    withMine.set(manager, { set, apiVersion: version, applied: true });
    const pruned = this.prune(merged, withMine, manager, last);
    const { managers: out } = this.update(liveAt, pruned, version, withMine, manager, force);
    return { object: valuesEqual(liveAt.value, pruned.value) ? undefined : pruned.value, managers: out };
  }

  /** Removes what the manager applied last time and no longer applies, unless another manager owns it. */
  private prune(merged: Typed, managers: ManagedFields, applying: string, last: VersionedSet | undefined): Typed {
    if (!last || last.set.empty()) return merged;
    const at = this.opts.converter.convert(merged, last.apiVersion);
    if (!at) return merged;
    const { schema, root } = this.typeAt(last.apiVersion);
    let pruned: Typed = { value: removeItems(schema, root, at.value, ensureNamedFieldsAreMembers(schema, root, last.set)), version: last.apiVersion };
    pruned = this.addBackOwnedItems(at, pruned, managers);
    pruned = this.addBackDanglingItems(at, pruned, last.set);
    return this.opts.converter.convert(pruned, managers.get(applying)!.apiVersion) ?? pruned;
  }

  /** Puts back what pruning took that some manager (at any version) still owns. */
  private addBackOwnedItems(merged: Typed, pruned: Typed, managers: ManagedFields): Typed {
    const byVersion = new Map<string, FieldSet>();
    for (const vs of managers.values()) byVersion.set(vs.apiVersion, (byVersion.get(vs.apiVersion) ?? new FieldSet()).union(vs.set));
    const versions = [pruned.version, ...[...byVersion.keys()].filter((v) => v !== pruned.version)].filter((v) => byVersion.has(v));
    let m = merged;
    let p = pruned;
    for (const version of versions) {
      const mv = this.opts.converter.convert(m, version);
      const pv = this.opts.converter.convert(p, version);
      if (!mv || !pv) continue;
      const { schema, root } = this.typeAt(version);
      const named = (s: FieldSet): FieldSet => ensureNamedFieldsAreMembers(schema, root, s);
      const mergedSet = named(toFieldSet(schema, root, mv.value));
      const keep = named(toFieldSet(schema, root, pv.value)).union(named(byVersion.get(version)!));
      m = mv;
      p = { value: removeItems(schema, root, mv.value, mergedSet.difference(keep)), version };
    }
    return p;
  }

  /** Puts back what pruning took that the manager did not own after all (items it never set). */
  private addBackDanglingItems(merged: Typed, pruned: Typed, last: FieldSet): Typed {
    const pv = this.opts.converter.convert(pruned, merged.version);
    if (!pv) return merged;
    const { schema, root } = this.typeAt(merged.version);
    const named = (s: FieldSet): FieldSet => ensureNamedFieldsAreMembers(schema, root, s);
    const prunedSet = named(toFieldSet(schema, root, pv.value));
    const mergedSet = named(toFieldSet(schema, root, merged.value));
    return { value: removeItems(schema, root, merged.value, mergedSet.difference(prunedSet).intersection(named(last))), version: merged.version };
  }
}

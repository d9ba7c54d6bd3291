// Who depends on whom, by uid, as the informers last saw it (the GraphBuilder's uidToNode): each object's item
// key and owners, and for each owner uid its dependents' item keys.
import type { JSONObject } from '../../util/json.js';
import { isObject } from '../../util/json.js';
import { ownerRefsOf } from './owner-refs.js';

export class DependencyGraph {
  private readonly keyByUid = new Map<string, string>();
  private readonly uidByKey = new Map<string, string>();
  private readonly ownersByKey = new Map<string, Set<string>>();
  private readonly dependentsByOwner = new Map<string, Set<string>>();

  /** The object at `key` is now `obj` (undefined: gone). */
  observe(key: string, obj: JSONObject | undefined): void {
    for (const uid of this.ownersByKey.get(key) ?? []) {
      const deps = this.dependentsByOwner.get(uid);
      deps?.delete(key);
      if (deps?.size === 0) this.dependentsByOwner.delete(uid);
    }
    this.ownersByKey.delete(key);
    const meta = obj && isObject(obj['metadata']) ? obj['metadata'] : undefined;
    const uid = typeof meta?.['uid'] === 'string' ? meta['uid'] : undefined;
    const previous = this.uidByKey.get(key);
    if (previous !== undefined && previous !== uid) {
      this.keyByUid.delete(previous);
      this.uidByKey.delete(key);
    }
    if (!obj || !uid) return;
    this.keyByUid.set(uid, key);
    this.uidByKey.set(key, uid);
    const owners = new Set(ownerRefsOf(obj).map((r) => r.uid));
    if (owners.size === 0) return;
    this.ownersByKey.set(key, owners);
    for (const o of owners) {
      let deps = this.dependentsByOwner.get(o);
      if (!deps) this.dependentsByOwner.set(o, (deps = new Set()));
      deps.add(key);
    }
  }

  /** The item keys of the objects naming `uid` as an owner. */
  dependents(uid: string): string[] {
    return [...(this.dependentsByOwner.get(uid) ?? [])];
  }

  /** The item key of the object with this uid, when seen. */
  keyOf(uid: string): string | undefined {
    return this.keyByUid.get(uid);
  }

  /** The owner uids of the item at `key`. */
  ownersOf(key: string): string[] {
    return [...(this.ownersByKey.get(key) ?? [])];
  }
}

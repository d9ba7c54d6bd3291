// Who depends on whom, by uid, as the informers last saw it (the GraphBuilder's uidToNode, kept only for
// objects that have owners, so that memory grows with ownership, not with every object): each dependent's
// owner uids, and for each owner uid its dependents' item keys.
import type { JSONObject } from '../../util/json.js';
import { ownerRefsOf } from './owner-refs.js';

export class DependencyGraph {
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
    if (!obj) return;
    const owners = new Set(ownerRefsOf(obj).map((r) => r.uid));
    if (owners.size === 0) return;
    this.ownersByKey.set(key, owners);
    for (const o of owners) {
      let deps = this.dependentsByOwner.get(o);
      if (!deps) this.dependentsByOwner.set(o, (deps = new Set()));
      deps.add(key);
    }
  }

  /** The item keys of every object that has owners. */
  dependentKeys(): string[] {
    return [...this.ownersByKey.keys()];
  }

  /** The item keys of the objects naming `uid` as an owner. */
  dependents(uid: string): string[] {
    return [...(this.dependentsByOwner.get(uid) ?? [])];
  }
}

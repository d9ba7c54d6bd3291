// The watch cache's label index: for a resource's keys (a scope, e.g. `/registry/stable.example.com/crontabs/`),
// the keys carrying each label value, so that a LIST with a label selector visits only the objects that can
// match instead of reading the labels of every object of the resource (a million reads of ~1 µs for 62,500
// written). Labels are read from the stored bytes (storedLabelPairs: from the slab's bytes, else the text as
// labelsOfStored reads it); objects whose labels cannot be read so
// are kept apart and are candidates of every query, so the index only ever narrows what a scan would visit
// and the registry's own selector decides, as it does after a scan.
//
// Built lazily, per scope, on the first label-selected list of it, then kept up to date from the cache's
// events: a server that never lists by label pays no memory and no load time for it, and one that does pays
// only for the resources it lists so (one pass over their keys, as one scanning list cost before). Memory:
// an entry is the cache's own key string in an array (8 bytes) per label of an object; a label value only
// one object has (a name, a hash) is that key alone, not a set.
import { KeyPostings, mergedKeys } from './key-postings.js';
import type { LabelPairs } from '../util/stored-json-bytes.js';
import { storedLabelPairs } from './stored-labels.js';
import type { KeyValue, LabelRequirement } from './types.js';
import { sameValue } from './value-slabs.js';

/** Name, value, name, value, …: no object per set of labels read. */
type Labels = LabelPairs;

/** One value's keys: the key itself while it is the only one. */
type Entry = string | KeyPostings;

const sizeOf = (e: Entry | undefined): number => (e === undefined ? 0 : typeof e === 'string' ? 1 : e.size);

function asPostings(e: Entry): KeyPostings {
  if (typeof e !== 'string') return e;
  const p = new KeyPostings();
  p.add(e);
  return p;
}

/** The labels a selector would see, read from stored bytes; undefined when they cannot be read so. */
const labelsOf = (kv: KeyValue): Labels | undefined => storedLabelPairs(kv);

/** The value of label `name` in `labels`, or undefined (a handful of labels: a linear search). */
function valueOf(labels: Labels, name: string): string | undefined {
  for (let i = 0; i < labels.length; i += 2) if (labels[i] === name) return labels[i + 1];
  return undefined;
}

class ScopeIndex {
  /** Label name → value → keys. */
  private readonly byName = new Map<string, Map<string, Entry>>();
  /** Label name → every key with it: built by the first `exists` query of the name, kept since. */
  private readonly withName = new Map<string, KeyPostings>();
  /** Keys whose labels cannot be read from the stored bytes: candidates of every query. */
  private readonly unknown = new KeyPostings();

  add(key: string, labels: Labels | undefined): void {
    if (labels === undefined) return this.unknown.add(key);
    for (let i = 0; i < labels.length; i += 2) this.addLabel(key, labels[i]!, labels[i + 1]!);
  }

  remove(key: string, labels: Labels | undefined): void {
    if (labels === undefined) return this.unknown.remove(key);
    for (let i = 0; i < labels.length; i += 2) this.removeLabel(key, labels[i]!, labels[i + 1]!);
  }

  /** A key's labels changed from `before` to `after` (as read: undefined when unreadable). */
  change(key: string, before: Labels | undefined, after: Labels | undefined): void {
    if (before === after) return;
    if (before === undefined || after === undefined) {
      this.remove(key, before);
      this.add(key, after);
      return;
    }
    for (let i = 0; i < before.length; i += 2) if (valueOf(after, before[i]!) !== before[i + 1]) this.removeLabel(key, before[i]!, before[i + 1]!);
    for (let i = 0; i < after.length; i += 2) if (valueOf(before, after[i]!) !== after[i + 1]) this.addLabel(key, after[i]!, after[i + 1]!);
  }

  private addLabel(key: string, name: string, value: string): void {
    let values = this.byName.get(name);
    if (values === undefined) this.byName.set(name, (values = new Map()));
    const e = values.get(value);
    if (e === undefined) values.set(value, key);
    else if (typeof e === 'string') {
      const p = new KeyPostings();
      p.add(e);
      p.add(key);
      values.set(value, p);
    } else e.add(key);
    // A name's own set changes only where one was built; without one a key with a new name is a new set.
    this.withName.get(name)?.add(key);
  }

  private removeLabel(key: string, name: string, value: string): void {
    const values = this.byName.get(name);
    const e = values?.get(value);
    if (values === undefined || e === undefined) return;
    if (typeof e === 'string' || e.size <= 1) {
      values.delete(value);
      if (values.size === 0) {
        this.byName.delete(name);
        this.withName.delete(name);
        return;
      }
    } else e.remove(key);
    this.withName.get(name)?.remove(key);
  }

  /** Every key with label `name`, kept from now on. */
  private named(name: string): KeyPostings {
    let p = this.withName.get(name);
    if (p !== undefined) return p;
    p = new KeyPostings();
    for (const e of this.byName.get(name)?.values() ?? []) {
      if (typeof e === 'string') p.add(e);
      else for (const k of e.view()) p.add(k);
    }
    this.withName.set(name, p);
    return p;
  }

  /** How many keys meet the requirement (an estimate of its cost: the exact count). */
  private count(r: LabelRequirement): number {
    const values = this.byName.get(r.key);
    if (values === undefined) return 0;
    if (r.values === undefined) {
      const built = this.withName.get(r.key);
      if (built !== undefined) return built.size;
      let n = 0;
      for (const e of values.values()) n += sizeOf(e);
      return n;
    }
    let n = 0;
    for (const v of new Set(r.values)) n += sizeOf(values.get(v));
    return n;
  }

  /**
   * Keys under prefix (after `after`) that meet the most selective of the requirements, or whose labels are
   * unknown, in key order, at most limit (0: all).
   */
  candidates(prefix: string, after: string | undefined, limit: number, required: readonly LabelRequirement[]): Candidates {
    let best: LabelRequirement | undefined;
    let bestCount = Infinity;
    for (const r of required) {
      const n = this.count(r);
      if (n < bestCount) [best, bestCount] = [r, n];
    }
    const sets: KeyPostings[] = [this.unknown];
    if (best !== undefined && bestCount > 0) {
      if (best.values === undefined) sets.push(this.named(best.key));
      else {
        const values = this.byName.get(best.key)!;
        for (const v of new Set(best.values)) {
          const e = values.get(v);
          if (e !== undefined) sets.push(asPostings(e));
        }
      }
    }
    const found = mergedKeys(sets, prefix, after, limit);
    return { keys: found.keys, more: found.more, met: best ?? required[0]!, unread: found.fromFirst };
  }
}

/** Candidates of a list: every key meets `met` as its bytes read, except those at `unread`. */
export interface Candidates {
  keys: string[];
  more: boolean;
  met: LabelRequirement;
  unread: number[];
}

export class LabelIndex {
  private readonly scopes = new Map<string, ScopeIndex>();

  /** Whether any scope is indexed (events need applying). */
  get active(): boolean {
    return this.scopes.size > 0;
  }

  /**
   * Candidates of a label-selected list of the keys under prefix (within scope): every key that can meet
   * `required`, and maybe others, in key order. Builds the scope's index from `all` (its keys in order) first
   * when it has none. Undefined when the query cannot be answered (no requirement, prefix outside scope).
   */
  candidates(
    scope: string,
    prefix: string,
    after: string | undefined,
    limit: number,
    required: readonly LabelRequirement[],
    all: () => readonly KeyValue[],
  ): Candidates | undefined {
    if (required.length === 0 || !scope.endsWith('/') || !prefix.startsWith(scope)) return undefined;
    let s = this.scopes.get(scope);
    if (s === undefined) {
      s = new ScopeIndex();
      for (const kv of all()) s.add(kv.key, labelsOf(kv));
      this.scopes.set(scope, s);
    }
    return s.candidates(prefix, after, limit, required);
  }

  /** A key's value went from prev to next (either absent: created or deleted). */
  apply(key: string, prev: KeyValue | undefined, next: KeyValue | undefined): void {
    if (this.scopes.size === 0) return;
    // A scope ends with '/': look up the key's prefixes that end so (a handful), whatever the number of scopes.
    for (let i = key.indexOf('/'); i >= 0; i = key.indexOf('/', i + 1)) {
      const s = this.scopes.get(key.slice(0, i + 1));
      if (s === undefined) continue;
      if (prev === undefined) {
        if (next !== undefined) s.add(key, labelsOf(next));
      } else if (next === undefined) s.remove(key, labelsOf(prev));
      else if (!sameValue(prev, next)) s.change(key, labelsOf(prev), labelsOf(next));
    }
  }
}

// The in-memory keyspace of the cached store: a Map for point lookups plus the keys in order for
// prefix ranges. Keeping one array sorted under inserts would cost O(n) per new key, so new keys go
// to a small sorted side array and deleted keys stay in place as tombstones; both are folded into
// the main array once they pass about 4·√n, which keeps inserts, deletes and range reads
// sub-linear and a full rebuild rare. Updates of existing keys only touch the Map.
import { compareKeys, keyRange, lowerBound } from './key-range.js';
import type { KeyValue } from './types.js';

type Cmp = (a: string, b: string) => number;

/**
 * For strings without surrogates, UTF-16 code unit order (JS `<`) is code point order, which is
 * the UTF-8 byte order the backing store sorts by; only keys with astral characters need compareKeys.
 */
const nativeCmp: Cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const SURROGATE = /[\uD800-\uDFFF]/;
const hasSurrogate = (s: string | undefined): boolean => s !== undefined && SURROGATE.test(s);

interface RangeRead {
  items: KeyValue[];
  more: boolean;
  remaining?: number;
}

export class KeyIndex {
  private readonly map = new Map<string, KeyValue>();
  /** Keys in order, possibly including tombstones (keys in `dead`). */
  private sorted: string[] = [];
  /** Keys added since the last merge, in order; disjoint from `sorted`. */
  private added: string[] = [];
  /** Keys still in `sorted` or `added` that are no longer in the map. */
  private readonly dead = new Set<string>();
  /** Set once a key needs compareKeys; the arrays stay valid as non-astral keys order the same either way. */
  private exotic = false;

  /** @param minMergeAt pending inserts and tombstones tolerated before a merge, at least (tests lower it). */
  constructor(private readonly minMergeAt = 1024) {}

  get size(): number {
    return this.map.size;
  }

  get(key: string): KeyValue | undefined {
    return this.map.get(key);
  }

  /** Insert or replace the key's value. */
  put(kv: KeyValue): void {
    const key = kv.key;
    const isNew = !this.map.has(key);
    this.map.set(key, kv);
    if (!isNew) return;
    // A key deleted and created again since the last merge still has its place.
    if (this.dead.delete(key)) return;
    if (!this.exotic && hasSurrogate(key)) this.exotic = true;
    const cmp = this.exotic ? compareKeys : nativeCmp;
    this.added.splice(lowerBound(this.added, key, false, cmp), 0, key);
    this.maybeMerge();
  }

  remove(key: string): void {
    if (!this.map.delete(key)) return;
    this.dead.add(key);
    this.maybeMerge();
  }

  /**
   * Add key-values that arrive in key order (a store's list pages): appended without any sorting
   * while they extend the main array; anything else goes through put.
   */
  putInOrder(kvs: readonly KeyValue[]): void {
    for (const kv of kvs) {
      const last = this.sorted.length > 0 ? this.sorted[this.sorted.length - 1]! : undefined;
      const fresh = !this.map.has(kv.key) && this.added.length === 0 && this.dead.size === 0;
      if (fresh && !hasSurrogate(kv.key) && !this.exotic && (last === undefined || nativeCmp(last, kv.key) < 0)) {
        this.map.set(kv.key, kv);
        this.sorted.push(kv.key);
      } else {
        this.put(kv);
      }
    }
  }

  /** Drop everything (before a reload). */
  clear(): void {
    this.map.clear();
    this.sorted = [];
    this.added = [];
    this.dead.clear();
    this.exotic = false;
  }

  /** Keys starting with prefix (strictly after `after`, if given), in key order, at most limit (0: all). */
  range(prefix: string, after: string | undefined, limit: number): RangeRead {
    const r = keyRange(prefix, after);
    const cmp = this.comparator(prefix, after, r.upper);
    const { sorted, added, map } = this;
    let i = lowerBound(sorted, r.lower, r.lowerExclusive, cmp);
    let j = lowerBound(added, r.lower, r.lowerExclusive, cmp);
    const iEnd = r.upper === undefined ? sorted.length : lowerBound(sorted, r.upper, false, cmp);
    const jEnd = r.upper === undefined ? added.length : lowerBound(added, r.upper, false, cmp);
    const want = limit > 0 ? limit : Infinity;
    const items: KeyValue[] = [];
    while (items.length < want) {
      let key: string;
      if (j >= jEnd) {
        if (i >= iEnd) break;
        key = sorted[i++]!;
      } else if (i >= iEnd || cmp(sorted[i]!, added[j]!) > 0) {
        key = added[j++]!;
      } else {
        key = sorted[i++]!;
      }
      const kv = map.get(key);
      if (kv !== undefined) items.push(kv);
    }
    if (items.length < want) return { items, more: false };
    // Everything left in both index ranges, less the tombstones among it.
    const last = items[items.length - 1]!.key;
    const remaining = iEnd - i + (jEnd - j) - this.deadBetween(last, true, r.upper, cmp);
    return remaining > 0 ? { items, more: true, remaining } : { items, more: false };
  }

  /** Number of keys starting with prefix. */
  count(prefix: string): number {
    if (prefix === '') return this.map.size;
    const r = keyRange(prefix);
    const cmp = this.comparator(prefix, undefined, r.upper);
    const span = (a: string[]): number =>
      (r.upper === undefined ? a.length : lowerBound(a, r.upper, false, cmp)) - lowerBound(a, r.lower, false, cmp);
    return span(this.sorted) + span(this.added) - this.deadBetween(r.lower, false, r.upper, cmp);
  }

  /** Tombstones from `lower` (exclusive or not) to `upper` (exclusive; absent means unbounded). */
  private deadBetween(lower: string, lowerExclusive: boolean, upper: string | undefined, cmp: Cmp): number {
    if (this.dead.size === 0) return 0;
    let n = 0;
    for (const key of this.dead) {
      const c = cmp(key, lower);
      if ((c > 0 || (c === 0 && !lowerExclusive)) && (upper === undefined || cmp(key, upper) < 0)) n++;
    }
    return n;
  }

  private comparator(...bounds: (string | undefined)[]): Cmp {
    return this.exotic || bounds.some(hasSurrogate) ? compareKeys : nativeCmp;
  }

  private maybeMerge(): void {
    const threshold = Math.max(this.minMergeAt, 4 * Math.ceil(Math.sqrt(this.sorted.length)));
    if (this.added.length + this.dead.size > threshold) this.merge();
  }

  /**
   * Fold the side array into the main one and drop tombstones. Each new key's place is found by
   * binary search and the runs between are copied as slices, so the cost is k·log n comparisons
   * plus native copying, not n comparisons.
   */
  private merge(): void {
    const { sorted: a, added: b, dead } = this;
    const cmp = this.exotic ? compareKeys : nativeCmp;
    const chunks: string[][] = [];
    let i = 0;
    for (const key of b) {
      const at = lowerBound(a, key, false, cmp, i);
      if (at > i) chunks.push(a.slice(i, at));
      chunks.push([key]);
      i = at;
    }
    if (i < a.length) chunks.push(i === 0 ? a : a.slice(i));
    let out = chunks.length === 1 ? chunks[0]! : ([] as string[]).concat(...chunks);
    if (dead.size > 0) out = out.filter((key) => !dead.has(key));
    this.sorted = out === a ? a.slice() : out;
    this.added = [];
    dead.clear();
  }
}

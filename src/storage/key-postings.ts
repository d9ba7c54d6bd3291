// Sets of keys read in key order: the posting lists of the label index. A set is an array of the very key
// strings the cache holds (8 bytes an entry), kept in order lazily: keys added out of order or removed are
// folded in when the set is next read (a sort of an almost sorted array, which V8's TimSort does in about
// one pass) or once the pending changes pass half its size, so an update costs O(1) and a read of a set that
// changed O(n) at most, about what writing its objects out costs anyway.
import { compareKeys, keyRange, lowerBound } from './key-range.js';

type Cmp = (a: string, b: string) => number;

/** UTF-16 order is the stores' byte order for keys without surrogates (as in cache-index.ts). */
const nativeCmp: Cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
const SURROGATE = /[\uD800-\uDFFF]/;

export class KeyPostings {
  private keys: string[] = [];
  /** Whether `keys` is in order. */
  private ordered = true;
  /** Keys still in `keys` that were removed. */
  private dead: Set<string> | undefined;
  private exotic = false;

  /** How many keys are in the set. */
  get size(): number {
    return this.keys.length - (this.dead?.size ?? 0);
  }

  /** Add a key not in the set. */
  add(key: string): void {
    // Removed and added again since the last fold: still in place.
    if (this.dead?.delete(key)) return;
    const keys = this.keys;
    if (!this.exotic && SURROGATE.test(key)) this.exotic = true;
    if (this.ordered && keys.length > 0 && this.cmp(keys[keys.length - 1]!, key) >= 0) this.ordered = false;
    keys.push(key);
  }

  /** Remove a key in the set. */
  remove(key: string): void {
    (this.dead ??= new Set()).add(key);
    this.maybeFold();
  }

  /** The keys in order (read-only; valid until the next change). */
  view(): readonly string[] {
    if (!this.ordered || (this.dead !== undefined && this.dead.size > 0)) this.fold();
    return this.keys;
  }

  /** The keys starting with prefix, strictly after `after` if given, in order, as [from, to) of view(). */
  span(prefix: string, after: string | undefined): { keys: readonly string[]; from: number; to: number; cmp: Cmp } {
    const keys = this.view();
    const r = keyRange(prefix, after);
    const cmp = this.exotic || SURROGATE.test(prefix) || (after !== undefined && SURROGATE.test(after)) ? compareKeys : nativeCmp;
    const from = lowerBound(keys, r.lower, r.lowerExclusive, cmp);
    const to = r.upper === undefined ? keys.length : lowerBound(keys, r.upper, false, cmp);
    return { keys, from, to: Math.max(from, to), cmp };
  }

  private get cmp(): Cmp {
    return this.exotic ? compareKeys : nativeCmp;
  }

  private maybeFold(): void {
    const pending = this.dead?.size ?? 0;
    // Unordered keys cost nothing until read; the dead hold memory, and a set that is never read must not grow.
    if (pending > 32 && pending * 2 > this.keys.length) this.fold();
  }

  private fold(): void {
    let keys = this.keys;
    const dead = this.dead;
    if (dead !== undefined && dead.size > 0) {
      keys = keys.filter((k) => !dead.has(k));
      dead.clear();
    }
    if (!this.ordered) {
      keys.sort(this.cmp);
      this.ordered = true;
    }
    this.keys = keys;
  }
}

/**
 * Keys of disjoint sets under prefix (after `after`), merged in key order, at most limit (0: all); `more` when
 * keys were left; `fromFirst`: the places in `keys` of those from sets[0].
 */
export function mergedKeys(sets: readonly KeyPostings[], prefix: string, after: string | undefined, limit: number): { keys: string[]; more: boolean; fromFirst: number[] } {
  const all = sets.map((s) => s.span(prefix, after));
  const spans = all.filter((s) => s.to > s.from);
  const first = all[0]?.to !== all[0]?.from ? all[0] : undefined;
  const want = limit > 0 ? limit : Infinity;
  const out: string[] = [];
  const fromFirst: number[] = [];
  if (spans.length === 1) {
    const s = spans[0]!;
    const end = Math.min(s.to, s.from + want);
    for (let i = s.from; i < end; i++) out.push(s.keys[i]!);
    if (s === first) for (let i = 0; i < out.length; i++) fromFirst.push(i);
    return { keys: out, more: end < s.to, fromFirst };
  }
  const cmp = spans.some((s) => s.cmp === compareKeys) ? compareKeys : nativeCmp;
  const at = spans.map((s) => s.from);
  while (out.length < want) {
    let best = -1;
    for (let j = 0; j < spans.length; j++) {
      if (at[j]! >= spans[j]!.to) continue;
      if (best < 0 || cmp(spans[j]!.keys[at[j]!]!, spans[best]!.keys[at[best]!]!) < 0) best = j;
    }
    if (best < 0) break;
    if (spans[best] === first) fromFirst.push(out.length);
    out.push(spans[best]!.keys[at[best]!++]!);
  }
  return { keys: out, more: spans.some((s, j) => at[j]! < s.to), fromFirst };
}

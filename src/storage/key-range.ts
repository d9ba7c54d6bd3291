// Key ranges for prefix scans. SQLite orders TEXT by its UTF-8 bytes (BINARY collation), which is
// code point order; JS compares UTF-16 code units, which disagrees for astral characters. Everything
// that must agree with SQLite's order goes through these helpers.

/** The smallest string greater than every string starting with prefix; undefined when unbounded. */
export function prefixEnd(prefix: string): string | undefined {
  const points = Array.from(prefix);
  while (points.length > 0) {
    const last = points.pop()!.codePointAt(0)!;
    if (last < 0x10ffff) {
      // No valid string contains a surrogate code point, so jump over the surrogate block.
      const next = last + 1 === 0xd800 ? 0xe000 : last + 1;
      return points.join('') + String.fromCodePoint(next);
    }
  }
  return undefined;
}

/** Compare two keys in SQLite's order (UTF-8 bytes). */
export function compareKeys(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

interface KeyRange {
  /** Lower bound; inclusive unless lowerExclusive. */
  lower: string;
  lowerExclusive: boolean;
  /** Exclusive upper bound, absent when unbounded. */
  upper?: string;
}

/** The keys starting with prefix, optionally only those strictly after `after`. */
export function keyRange(prefix: string, after?: string): KeyRange {
  const upper = prefixEnd(prefix);
  if (after !== undefined && compareKeys(after, prefix) >= 0) {
    return { lower: after, lowerExclusive: true, upper };
  }
  return { lower: prefix, lowerExclusive: false, upper };
}

/** In a sorted array (from `from` on), the first index whose element is >= x (or > x when exclusive). */
export function lowerBound(arr: readonly string[], x: string, exclusive: boolean, cmp: (a: string, b: string) => number, from = 0): number {
  let lo = from;
  let hi = arr.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = cmp(arr[mid]!, x);
    if (c < 0 || (exclusive && c === 0)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

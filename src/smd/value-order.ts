// The total order and equality structured-merge-diff puts on JSON values (value.Compare): numbers, then
// strings, booleans, lists, maps, null; lists element by element then by length, maps by their keys in
// lexical order. Set keys and associative-list keys are ordered by it.
import { isObject } from '../util/json.js';

const rank = (v: unknown): number => {
  switch (typeof v) {
    case 'number':
    case 'bigint':
      return 0;
    case 'string':
      return 1;
    case 'boolean':
      return 2;
    default:
      return Array.isArray(v) ? 3 : isObject(v) ? 4 : 5;
  }
};

const sign = (n: number): number => (n < 0 ? -1 : n > 0 ? 1 : 0);

/**
 * Go's strings.Compare: byte order of the UTF-8 encodings. UTF-16 code units below the surrogates (U+D800)
 * order as their UTF-8 bytes do, so strings are compared unit by unit without encoding them; only where
 * surrogates decide (characters above the BMP sort after U+E000–U+FFFF in UTF-8) are the encodings compared.
 */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = a.length < b.length ? a.length : b.length;
  let i = 0;
  for (; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    if (x < 0xd800 && y < 0xd800) return x < y ? -1 : 1;
    return sign(Buffer.compare(Buffer.from(a), Buffer.from(b)));
  }
  // One is a prefix of the other; a surrogate just before the end may encode differently alone.
  const last = i > 0 ? a.charCodeAt(i - 1) : 0;
  if (last >= 0xd800 && last <= 0xdfff) return sign(Buffer.compare(Buffer.from(a), Buffer.from(b)));
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

export function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  switch (ra) {
    case 0:
      return a === b ? 0 : (a as number) < (b as number) ? -1 : 1;
    case 1:
      return compareStrings(a as string, b as string);
    case 2:
      return a === b ? 0 : a ? 1 : -1;
    case 3: {
      const la = a as unknown[];
      const lb = b as unknown[];
      for (let i = 0; i < la.length && i < lb.length; i++) {
        const c = compareValues(la[i], lb[i]);
        if (c !== 0) return c;
      }
      return sign(la.length - lb.length);
    }
    case 4:
      return compareMaps(a as Record<string, unknown>, b as Record<string, unknown>);
    default:
      return 0;
  }
}

/** MapCompare: walk the union of keys in lexical order; the first difference decides. */
function compareMaps(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length === 0 && kb.length === 0) return 0;
  const keys = [...new Set([...ka, ...kb])].sort(compareStrings);
  for (let i = 0; i < keys.length; i++) {
    const k = keys[i]!;
    let c: number;
    if (i === ka.length) c = -1;
    else if (i === kb.length) c = 1;
    else if (!(k in a)) c = 1;
    else if (!(k in b)) c = -1;
    else c = compareValues(a[k], b[k]);
    if (c !== 0) return c;
  }
  return 0;
}

export const valuesEqual = (a: unknown, b: unknown): boolean => compareValues(a, b) === 0;

// A stored object's managedFields list, kept once for the many cached values that have the same text (issue 19:
// one million objects in 2 GiB). The server writes managedFields: every object a client creates the same way in
// the same second gets byte-identical ones (the manager, the operation, the API version, the field set and the
// second all alike), and they are a quarter of a 1.5 KB stored CronTab. A value whose list is shared keeps the
// rest of its bytes in its slab and reads the list from here (value-slabs.ts).
//
// Only a list seen again is shared: a list that is unique to its object (updated at its own second) costs
// nothing extra. A few recent lists are remembered to notice the second one.

/** A list's text and bytes (ASCII), and how many cached values read it. */
export class SharedBytes {
  refs = 0;

  constructor(
    readonly text: string,
    readonly buf: Buffer,
  ) {}
}

const KEY = '"managedFields":[';

/** Lists shorter than this are left inline: sharing them would save less than it costs. */
export const MIN_SHARED = 64;

/** Recent lists remembered, to share one when it comes again. */
const CANDIDATES = 64;

/**
 * Where the managedFields list's text is in stored JSON: [start, end) from its `[` to the first `}]` after it,
 * which ends the list as the server writes it (entries are objects; fieldsV1 has no arrays); or undefined
 * (none, or shorter than MIN_SHARED). Found with two native searches, no scan of the JSON: any span is right,
 * since a value reads back as the bytes around the shared part with it in between; only the sharing needs the
 * span to be the same list in the values that have it alike.
 */
export function managedFieldsSpan(text: string): [number, number] | undefined {
  const key = text.indexOf(KEY);
  if (key < 0) return undefined;
  const start = key + KEY.length - 1;
  const close = text.indexOf('}]', start);
  if (close < 0) return undefined;
  const end = close + 2;
  return end - start >= MIN_SHARED ? [start, end] : undefined;
}

/** The lists shared now, by text. */
export class SharedBytesTable {
  private readonly byText = new Map<string, SharedBytes>();
  /** Lists seen once lately (slices of their values' texts), cleared when full. */
  private readonly seen = new Set<string>();

  /** Lists shared now (diagnostics, tests). */
  get size(): number {
    return this.byText.size;
  }

  /**
   * The shared list with text[from, to), one more reader counted, when it has been seen before; otherwise
   * undefined (the value keeps it inline), remembered as a candidate.
   */
  share(text: string, from: number, to: number): SharedBytes | undefined {
    const part = text.slice(from, to);
    let shared = this.byText.get(part);
    if (shared === undefined) {
      if (!this.seen.delete(part)) {
        if (this.seen.size >= CANDIDATES) this.seen.clear();
        this.seen.add(part);
        return undefined;
      }
      const buf = Buffer.from(part, 'latin1');
      // A string of its own: the slice would keep its whole value's text alive.
      shared = new SharedBytes(buf.toString('latin1'), buf);
      this.byText.set(shared.text, shared);
    }
    shared.refs++;
    return shared;
  }

  /** One reader of s is gone; at none it is forgotten (values still pointing at it read it still). */
  release(s: SharedBytes): void {
    if (--s.refs === 0 && this.byText.get(s.text) === s) this.byText.delete(s.text);
  }

  clear(): void {
    this.byText.clear();
    this.seen.clear();
  }
}

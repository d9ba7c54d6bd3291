// The watch cache's values, held as bytes in large Buffer slabs outside the V8 heap (issue 19). A million
// cached objects as strings are ~1.6 GiB of old-generation heap, and every young-generation scavenge costs in
// proportion to the old generation's pages: GET and create then ran at 2/3 of their speed with 10,000 objects.
// In slabs, the heap holds only a small object per value (SlabValue) with the slab and the place of its bytes;
// `value` decodes them into a fresh string on each access.
//
// Allocation appends to the current slab (SLAB_BYTES; a larger value gets a Buffer of its own). A slab counts
// the bytes of the values still held in it (held: by the cache's index, by its ring of recent events); a
// value let go of is garbage. A slab whose held share falls below half is compacted: its held values are
// copied to the current slab and their SlabValue objects repointed (the same objects: WeakMaps elsewhere are
// keyed on them), and the slab is let go of, to be freed by the garbage collector.
//
// Bytes are never overwritten (but for the holders and slot in a value's header, below): a slab is only ever
// written past its last value. So a SlabValue someone else still has (a list being written out over several
// turns, a watch's queued event) reads its value correctly however old it is: one let go of keeps pointing at
// its old slab, which that reference keeps alive. Repointing a held value is safe too: decoding copies the bytes
// into a new string synchronously, within one turn of the event loop, and compaction runs between such reads,
// never during one.
//
// An ASCII value whose managedFields list many values have alike (shared-bytes.ts) keeps only the rest of its
// bytes in the slab: its text is the slab's bytes with the shared list's inserted at `sharedAt`.
//
// A value's numbers other than its revisions (length, encoding, where the shared list goes, where its
// resourceVersion is, its slot and holders) are a header of int32s in the slab before its bytes, not members
// of its SlabValue: without pointer compression (Node's builds) each member takes 8 bytes of heap, and at a
// million values the heap's size decides how far V8 grows it ahead of what is live. Key and revisions stay
// members: a spread of a key-value (`{ ...kv, value }`) must have them.
import { resourceVersionAt } from '../util/stored-json.js';
import { SharedBytesTable, managedFieldsSpan, type SharedBytes } from './shared-bytes.js';
import type { KeyValue } from './types.js';

/** Bytes per slab: large enough that the slabs are few (a few hundred for a million objects of 1.5 KB). */
export const SLAB_BYTES = 4 * 1024 * 1024;

/** How a value's bytes encode its text. */
const LATIN1 = 0; // ASCII only: one byte per character, decoded without UTF-8 validation
const UTF8 = 1;
const UTF16 = 2; // text with a lone surrogate, which UTF-8 cannot carry exactly (never so for JSON text)

/** Buffer's encoding-specific methods, as Buffer.toString and write call them (not in Node's typings). */
interface FastBuffer extends Buffer {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
  ucs2Slice(start: number, end: number): string;
  latin1Write(text: string, offset: number, length: number): number;
  utf8Write(text: string, offset: number, length: number): number;
  ucs2Write(text: string, offset: number, length: number): number;
}

const isWellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed();

/** A value's header: int32s at its place in the slab (4-byte aligned), its bytes right after. */
const H_BYTES = 0; // how many bytes follow
const H_ENC = 1; // how they encode the text
const H_SHARED_AT = 2; // where the shared list goes (text offset), when there is one
const H_RV_AT = 3; // resourceVersionAt of the text
const H_SLOT = 4; // the slot in its slab's values (changes as compaction moves it)
const H_HOLDS = 5; // how many hold it (changes)
export const VALUE_HEADER_BYTES = 24;
const align4 = (n: number): number => (n + 3) & ~3;

export class Slab {
  readonly buf: FastBuffer;
  /** The same memory as int32s: the values' headers. */
  readonly i32: Int32Array;
  /** Bytes written: the next value goes here. */
  used = 0;
  /** Bytes of the values held in it. */
  live = 0;
  /** The values written here that are still held, by slot (a let-go-of value's slot is emptied). */
  readonly values: (SlabValue | undefined)[] = [];
  /** Held values among `values`. */
  held = 0;

  constructor(
    readonly owner: ValueSlabs,
    size: number,
  ) {
    // Unfilled memory: only what has been written is ever read. A buffer of its own starts its memory (aligned).
    this.buf = Buffer.allocUnsafeSlow(size) as FastBuffer;
    this.i32 = new Int32Array(this.buf.buffer, this.buf.byteOffset, size >> 2);
  }
}

/** The value read last and its text (a value's bytes never change, wherever compaction moves them). */
let lastRead: SlabValue | undefined;
let lastText = '';

/** A cached key-value whose value is bytes in a slab; the cache hands these out. Read-only. */
export class SlabValue implements KeyValue {
  declare stale?: boolean;
  /** The shared bytes inserted at `sharedAt` of the slab's (an ASCII value only), or none. */
  shared: SharedBytes | undefined = undefined;

  constructor(
    readonly key: string,
    readonly createRevision: number,
    readonly modRevision: number,
    /** Where its header is, its bytes after it (ValueSlabs' own: compaction moves them). */
    public slab: Slab,
    public at: number,
  ) {}

  /** Where the bytes start in the slab. */
  get start(): number {
    return this.at + VALUE_HEADER_BYTES;
  }

  /** A number of its header. */
  private header(field: number): number {
    return this.slab.i32[(this.at >> 2) + field]!;
  }

  private setHeader(field: number, n: number): void {
    this.slab.i32[(this.at >> 2) + field] = n;
  }

  /** How many bytes. */
  get bytes(): number {
    return this.header(H_BYTES);
  }

  /** How they encode the text. */
  get enc(): number {
    return this.header(H_ENC);
  }

  /** The text offset of the shared bytes (0 without). */
  get sharedAt(): number {
    return this.header(H_SHARED_AT);
  }

  /**
   * resourceVersionAt of the value, found while its text was at hand: every list writes the value around it,
   * and a table of it beside (a WeakMap) took ~40 B an entry and a decode of each value for the first list.
   */
  get rvAt(): number {
    return this.header(H_RV_AT);
  }

  /** The slot in slab.values (ValueSlabs' own). */
  get slot(): number {
    return this.header(H_SLOT);
  }

  set slot(n: number) {
    this.setHeader(H_SLOT, n);
  }

  /** How many hold it (the index, events of the ring): its bytes are garbage at 0 (ValueSlabs' own). */
  get holds(): number {
    return this.header(H_HOLDS);
  }

  set holds(n: number) {
    this.setHeader(H_HOLDS, n);
  }

  get value(): string {
    // The same value read again straight after (a watch event's by each of its watchers): decoded once.
    if (lastRead === this) return lastText;
    const { buf, i32 } = this.slab;
    const h = this.at >> 2;
    const start = this.at + VALUE_HEADER_BYTES;
    const end = start + i32[h + H_BYTES]!;
    const { shared } = this;
    if (shared !== undefined) {
      const at = start + i32[h + H_SHARED_AT]!;
      lastText = buf.latin1Slice(start, at) + shared.text + buf.latin1Slice(at, end);
    } else {
      const enc = i32[h + H_ENC];
      lastText = enc === LATIN1 ? buf.latin1Slice(start, end) : enc === UTF8 ? buf.utf8Slice(start, end) : buf.ucs2Slice(start, end);
    }
    lastRead = this;
    return lastText;
  }

  /** The length of `value` (UTF-16 code units), without making it for an ASCII value. */
  get valueLength(): number {
    return this.enc === LATIN1 ? this.bytes + (this.shared?.buf.length ?? 0) : this.enc === UTF16 ? this.bytes / 2 : this.value.length;
  }

  /** value.startsWith(prefix, at), reading only those bytes of an ASCII value. */
  valueStartsWith(prefix: string, at = 0): boolean {
    // UTF-8 text begins with ASCII text exactly when its bytes do (every byte of a longer sequence is ≥ 0x80):
    // a CRD whose descriptions hold a "’" is not decoded whole to read its apiVersion and kind.
    if (this.enc === UTF8 && at === 0 && Buffer.byteLength(prefix, 'utf8') === prefix.length) return prefix.length <= this.bytes && this.slab.buf.latin1Slice(this.start, this.start + prefix.length) === prefix;
    if (this.enc !== LATIN1 || (this.shared !== undefined && at + prefix.length > this.sharedAt)) return this.value.startsWith(prefix, at);
    if (at + prefix.length > this.bytes) return false;
    const from = this.start + at;
    return this.slab.buf.latin1Slice(from, from + prefix.length) === prefix;
  }

  /** False when `text` cannot be the value, told by its length in the value's encoding (nothing decoded). */
  mayBe(text: string): boolean {
    if (this.enc === LATIN1) return this.valueLength === text.length;
    // A lone surrogate counts as U+FFFD's three bytes: such text is never a UTF-8 value's anyway.
    return this.enc === UTF8 ? this.bytes === Buffer.byteLength(text, 'utf8') : this.bytes === text.length * 2;
  }

  /** Whether b's value is the same text, compared as bytes. */
  sameValue(b: SlabValue): boolean {
    // Shared alike or not at all: the slabs' bytes tell; otherwise (a list shared once it was seen again) the texts.
    if (this.shared !== b.shared || this.sharedAt !== b.sharedAt) return this.value === b.value;
    if (this.enc !== b.enc || this.bytes !== b.bytes) return false;
    return this.slab.buf.compare(b.slab.buf, b.start, b.start + b.bytes, this.start, this.start + this.bytes) === 0;
  }
}

/**
 * A key-value that reads the value of another (not a copy of its text, which would be a second, long-lived one),
 * under a key and revision of its own: a deletion's, as a watch event carries it (the deletion's revision, the
 * last value: deletedValue), or a stored one's seen under another key (a logical cluster's view, prefixed-store.ts).
 * Key and revisions are own members, as a SlabValue's: a spread of it (`{ ...kv, value }`) has them.
 */
export class ValueView implements KeyValue {
  readonly createRevision: number;

  constructor(
    readonly of: KeyValue,
    readonly key: string,
    readonly modRevision: number,
  ) {
    this.createRevision = of.createRevision;
  }

  get value(): string {
    return this.of.value;
  }

  get stale(): boolean | undefined {
    return this.of.stale;
  }
}

/** A deletion's key-value: the deletion's revision, the last value (whose bytes its holder keeps). */
export const deletedValue = (last: SlabValue, modRevision: number): ValueView => new ValueView(last, last.key, modRevision);

/** Whether kv's value is read from a slab (its class has a getter for it): a spread of it lacks `value`. */
export const inSlabs = (kv: KeyValue): boolean => kv instanceof SlabValue || kv instanceof ValueView;

/** The key-value whose value kv reads. */
const base = (kv: KeyValue): KeyValue => (kv instanceof ValueView ? base(kv.of) : kv);

/** The bytes a key-value's value takes in slabs (0 for one not in slabs). */
export function slabBytes(kv: KeyValue): number {
  const b = base(kv);
  return b instanceof SlabValue ? b.bytes : 0;
}

/** kv.value.length, without decoding an ASCII value held in a slab. */
export function valueLength(kv: KeyValue): number {
  const b = base(kv);
  return b instanceof SlabValue ? b.valueLength : kv.value.length;
}

/** kv.value.startsWith(prefix, at), without decoding all of a value held in a slab. */
export function valueStartsWith(kv: KeyValue, prefix: string, at = 0): boolean {
  const b = base(kv);
  return b instanceof SlabValue ? b.valueStartsWith(prefix, at) : kv.value.startsWith(prefix, at);
}

/** a.value === b.value, comparing bytes where both are in slabs. */
export function sameValue(a: KeyValue, b: KeyValue): boolean {
  const x = base(a);
  const y = base(b);
  return x instanceof SlabValue && y instanceof SlabValue ? x === y || x.sameValue(y) : a.value === b.value;
}

/** kv.value === text, without decoding a value held in a slab when its length tells them apart (a write's no-op check). */
export function valueIs(kv: KeyValue, text: string): boolean {
  const b = base(kv);
  return (!(b instanceof SlabValue) || b.mayBe(text)) && kv.value === text;
}

/** resourceVersionAt(kv.value), found when kv's value was put in a slab; undefined for other key-values. */
export function storedResourceVersionAt(kv: KeyValue): number | undefined {
  const b = base(kv);
  return b instanceof SlabValue ? b.rvAt : undefined;
}

/**
 * Where an ASCII value's bytes are now (its text's characters, one byte each): `length` of them, buf's from
 * `start`, with `shared`'s inserted at text offset `sharedAt` when there are such. Copy them with copyAscii.
 */
export interface AsciiBytes {
  buf: Buffer;
  start: number;
  length: number;
  shared?: Buffer;
  sharedAt?: number;
}

/** Where kv's value is as ASCII bytes in a slab now, or undefined (not in a slab, or not ASCII). */
export function asciiBytes(kv: KeyValue): AsciiBytes | undefined {
  const b = base(kv);
  if (!(b instanceof SlabValue) || b.enc !== LATIN1) return undefined;
  const { shared } = b;
  if (shared === undefined) return { buf: b.slab.buf, start: b.start, length: b.bytes };
  return { buf: b.slab.buf, start: b.start, length: b.bytes + shared.buf.length, shared: shared.buf, sharedAt: b.sharedAt };
}

/**
 * read(buf, start, length, shared, sharedAt) of where kv's value is as UTF-8 bytes in a slab now: an ASCII
 * value's (with `shared`'s bytes inserted at text offset `sharedAt` when there are such, as asciiBytes), a
 * UTF-8 one's (never shared); undefined when not in a slab or text with a lone surrogate. No object is made
 * for the place: the label index reads a million values so.
 */
export function readUtf8Bytes<T>(kv: KeyValue, read: (buf: Buffer, start: number, length: number, shared: Buffer | undefined, sharedAt: number) => T): T | undefined {
  const b = base(kv);
  if (!(b instanceof SlabValue) || b.enc === UTF16) return undefined;
  return read(b.slab.buf, b.start, b.bytes, b.shared?.buf, b.sharedAt);
}

/** Copies the value's text [from, to) as bytes to target at `off`; returns how many. */
export function copyAscii(b: AsciiBytes, target: Buffer, off: number, from: number, to: number): number {
  const { shared } = b;
  if (shared === undefined) return b.buf.copy(target, off, b.start + from, b.start + to);
  const at = b.sharedAt!;
  const end = at + shared.length;
  let n = 0;
  if (from < at) n += b.buf.copy(target, off, b.start + from, b.start + Math.min(to, at));
  if (to > at && from < end) n += shared.copy(target, off + n, Math.max(0, from - at), Math.min(to, end) - at);
  if (to > end) n += b.buf.copy(target, off + n, b.start + Math.max(from, end) - shared.length, b.start + to - shared.length);
  return n;
}

/** Hold a value for one more holder (its bytes stay until each has let go); no-op for other key-values. */
export function holdValue(kv: KeyValue): void {
  const b = base(kv);
  if (b instanceof SlabValue) b.holds++;
}

/** One holder lets go of a value (holdValue's or make's hold); no-op for other key-values. */
export function releaseValue(kv: KeyValue): void {
  const b = base(kv);
  if (b instanceof SlabValue) b.slab.owner.release(b);
}

export class ValueSlabs {
  /** Slabs holding values, the current one included. */
  private readonly slabs = new Set<Slab>();
  private current: Slab | undefined;
  private dropped = false;
  /** managedFields lists many values have alike, kept once. */
  private readonly shared = new SharedBytesTable();
  /** Bytes of held values, and bytes written and not yet let go of with their slabs (diagnostics, tests). */
  liveBytes = 0;
  /** Compactions run (diagnostics, tests). */
  compactions = 0;

  /** managedFields lists shared now (diagnostics, tests). */
  get sharedLists(): number {
    return this.shared.size;
  }

  constructor(
    private readonly slabSize = SLAB_BYTES,
    /** A slab is compacted when its held bytes fall below this share of its size. */
    private readonly compactBelow = 0.5,
  ) {}

  /** Slabs in use (diagnostics, tests). */
  get slabCount(): number {
    return this.slabs.size;
  }

  /** Bytes of the slabs in use (the memory this holds outside the heap). */
  get allocatedBytes(): number {
    let n = 0;
    for (const s of this.slabs) n += s.buf.length;
    return n;
  }

  /** A key-value with kv's key, revisions and value, its bytes in a slab, held once (by the caller). */
  make(kv: KeyValue): SlabValue {
    const text = kv.value;
    let n = Buffer.byteLength(text, 'utf8');
    // As many bytes as UTF-16 code units: every one is ASCII.
    let enc = n === text.length ? LATIN1 : UTF8;
    if (enc === UTF8 && !isWellFormed(text)) {
      enc = UTF16;
      n = text.length * 2;
    }
    const span = enc === LATIN1 ? managedFieldsSpan(text) : undefined;
    const shared = span === undefined ? undefined : this.shared.share(text, span[0], span[1]);
    if (shared !== undefined) n -= shared.buf.length;
    const slab = this.room(VALUE_HEADER_BYTES + n);
    const at = slab.used;
    const from = at + VALUE_HEADER_BYTES;
    if (shared !== undefined) {
      // The text around the shared list.
      const cut = span![0];
      slab.buf.latin1Write(text.slice(0, cut), from, cut);
      slab.buf.latin1Write(text.slice(span![1]), from + cut, n - cut);
    } else if (enc === LATIN1) slab.buf.latin1Write(text, from, n);
    else if (enc === UTF8) slab.buf.utf8Write(text, from, n);
    else slab.buf.ucs2Write(text, from, n);
    const h = at >> 2;
    const { i32 } = slab;
    i32[h + H_BYTES] = n;
    i32[h + H_ENC] = enc;
    i32[h + H_SHARED_AT] = shared !== undefined ? span![0] : 0;
    i32[h + H_RV_AT] = resourceVersionAt(text);
    i32[h + H_HOLDS] = 1;
    const v = new SlabValue(kv.key, kv.createRevision, kv.modRevision, slab, at);
    if (shared !== undefined) v.shared = shared;
    if (kv.stale) v.stale = true;
    this.place(v, slab, at);
    this.liveBytes += n;
    return v;
  }

  /**
   * Everything is let go of (the cache reloads into new slabs): later releases of these values are ignored.
   * The values stay readable, as every value let go of does.
   */
  drop(): void {
    this.dropped = true;
    this.slabs.clear();
    this.current = undefined;
    this.liveBytes = 0;
    this.shared.clear();
  }

  /** One holder of v lets go; at none its bytes are garbage, and its slab may be compacted or let go of. */
  release(v: SlabValue): void {
    const holds = v.holds - 1;
    v.holds = holds;
    if (holds > 0 || this.dropped) return;
    const slab = v.slab;
    const slot = v.slot;
    if (slab.values[slot] !== v) return;
    if (v.shared !== undefined) this.shared.release(v.shared);
    slab.values[slot] = undefined;
    const n = v.bytes;
    slab.live -= VALUE_HEADER_BYTES + n;
    slab.held--;
    this.liveBytes -= n;
    // The current slab is being filled (never written over: see the header); it is looked at once it is not.
    if (slab === this.current) return;
    if (slab.held === 0) this.slabs.delete(slab);
    else if (slab.live < slab.buf.length * this.compactBelow) this.compact(slab);
  }

  /** Copy the values held in slab to the current slab, repointing them, and let it go. */
  private compact(slab: Slab): void {
    this.slabs.delete(slab);
    this.compactions++;
    for (const v of slab.values) {
      if (v === undefined) continue;
      // Its header and bytes as they are, encoding, holders and all: no decoding.
      const size = VALUE_HEADER_BYTES + v.bytes;
      const target = this.room(size);
      slab.buf.copy(target.buf, target.used, v.at, v.at + size);
      this.place(v, target, target.used);
    }
  }

  /** Record v's header and bytes as written at `at` in slab. */
  private place(v: SlabValue, slab: Slab, at: number): void {
    v.slab = slab;
    v.at = at;
    v.slot = slab.values.length;
    slab.values.push(v);
    const size = VALUE_HEADER_BYTES + v.bytes;
    // The next header's place, aligned for its int32s.
    slab.used = align4(at + size);
    slab.live += size;
    slab.held++;
  }

  /** A slab with room for n more bytes (a header and bytes): the current one, a new one, or (larger than a slab) one of its own. */
  private room(n: number): Slab {
    if (n > this.slabSize) {
      const own = new Slab(this, align4(n));
      this.slabs.add(own);
      return own;
    }
    const cur = this.current;
    if (cur !== undefined && cur.used + n <= cur.buf.length) return cur;
    return this.newSlab();
  }

  private newSlab(): Slab {
    const old = this.current;
    const slab = new Slab(this, this.slabSize);
    this.slabs.add(slab);
    this.current = slab;
    // The slab it replaces was exempt from compaction while it was being filled.
    if (old !== undefined && old.held === 0) this.slabs.delete(old);
    else if (old !== undefined && old.live < old.buf.length * this.compactBelow) this.compact(old);
    return slab;
  }
}

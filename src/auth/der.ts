// Just enough ASN.1 DER to write and read X.509 certificates (X.690 §8 and §10): the
// universal types a certificate uses, SEQUENCE/SET, context tags, and a reader for walking
// one. Only single-byte tags and definite lengths, which is all DER certificates contain.

export const TAG = {
  BOOLEAN: 0x01,
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  NULL: 0x05,
  OID: 0x06,
  UTF8_STRING: 0x0c,
  PRINTABLE_STRING: 0x13,
  IA5_STRING: 0x16,
  UTC_TIME: 0x17,
  GENERALIZED_TIME: 0x18,
  SEQUENCE: 0x30,
  SET: 0x31,
} as const;

const CONSTRUCTED = 0x20;
const CONTEXT = 0x80;

/** One element: tag byte, minimal length, content. */
function tlv(tag: number, content: Uint8Array): Buffer {
  return Buffer.concat([Buffer.of(tag), encodeLength(content.length), content]);
}

function encodeLength(n: number): Buffer {
  if (n < 0x80) return Buffer.of(n);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}

export function boolean(value: boolean): Buffer {
  return tlv(TAG.BOOLEAN, Buffer.of(value ? 0xff : 0x00));
}

/**
 * A non-negative INTEGER. A Buffer is taken as an unsigned big-endian magnitude; the encoding
 * is made minimal (leading zeros dropped, one zero added when the high bit would read as a sign).
 */
export function integer(value: number | bigint | Uint8Array): Buffer {
  let bytes: Buffer;
  if (value instanceof Uint8Array) {
    bytes = Buffer.from(value);
  } else {
    let v = BigInt(value);
    if (v < 0n) throw new RangeError('negative INTEGER is not supported');
    const out: number[] = [];
    do {
      out.unshift(Number(v & 0xffn));
      v >>= 8n;
    } while (v > 0n);
    bytes = Buffer.from(out);
  }
  let start = 0;
  while (start < bytes.length - 1 && bytes[start] === 0) start++;
  bytes = bytes.subarray(start);
  if (bytes.length === 0) bytes = Buffer.of(0);
  if (bytes[0]! & 0x80) bytes = Buffer.concat([Buffer.of(0), bytes]);
  return tlv(TAG.INTEGER, bytes);
}

export function bitString(bytes: Uint8Array, unusedBits = 0): Buffer {
  return tlv(TAG.BIT_STRING, Buffer.concat([Buffer.of(unusedBits), bytes]));
}

/**
 * A named-bit BIT STRING (e.g. KeyUsage) with bit 0 the most significant: DER drops trailing
 * zero bits (X.690 §11.2.2), so the length and unused-bit count depend on the highest bit set.
 */
export function namedBits(bits: readonly number[]): Buffer {
  if (bits.length === 0) return bitString(Buffer.alloc(0));
  const highest = Math.max(...bits);
  const bytes = Buffer.alloc((highest >> 3) + 1);
  for (const bit of bits) bytes[bit >> 3]! |= 0x80 >> (bit & 7);
  return bitString(bytes, 7 - (highest & 7));
}

export function octetString(bytes: Uint8Array): Buffer {
  return tlv(TAG.OCTET_STRING, bytes);
}

export function nullValue(): Buffer {
  return Buffer.of(TAG.NULL, 0);
}

export function oid(dotted: string): Buffer {
  const arcs = dotted.split('.').map((a) => {
    if (!/^\d+$/.test(a)) throw new Error(`invalid OID ${dotted}`);
    return BigInt(a);
  });
  if (arcs.length < 2 || arcs[0]! > 2n || (arcs[0]! < 2n && arcs[1]! > 39n)) throw new Error(`invalid OID ${dotted}`);
  const out: number[] = [];
  for (const arc of [arcs[0]! * 40n + arcs[1]!, ...arcs.slice(2)]) {
    // Base-128, most significant group first, continuation bit on all but the last.
    const groups = [Number(arc & 0x7fn)];
    for (let v = arc >> 7n; v > 0n; v >>= 7n) groups.unshift(Number(v & 0x7fn) | 0x80);
    out.push(...groups);
  }
  return tlv(TAG.OID, Buffer.from(out));
}

export function utf8String(s: string): Buffer {
  return tlv(TAG.UTF8_STRING, Buffer.from(s, 'utf8'));
}

const PRINTABLE = /^[A-Za-z0-9 '()+,\-./:=?]*$/;

export function printableString(s: string): Buffer {
  if (!PRINTABLE.test(s)) throw new Error(`not a PrintableString: ${JSON.stringify(s)}`);
  return tlv(TAG.PRINTABLE_STRING, Buffer.from(s, 'latin1'));
}

/** A DirectoryString the way Go's x509 writes one: PrintableString when it fits, else UTF8String. */
export function directoryString(s: string): Buffer {
  return PRINTABLE.test(s) ? printableString(s) : utf8String(s);
}

export function ia5String(s: string): Buffer {
  if (!/^[\x00-\x7f]*$/.test(s)) throw new Error(`not an IA5String: ${JSON.stringify(s)}`);
  return tlv(TAG.IA5_STRING, Buffer.from(s, 'latin1'));
}

/** An X.509 Time (RFC 5280 §4.1.2.5): UTCTime for 1950–2049, GeneralizedTime otherwise; whole seconds, Z. */
export function time(date: Date): Buffer {
  const year = date.getUTCFullYear();
  const two = (n: number): string => String(n).padStart(2, '0');
  const rest =
    two(date.getUTCMonth() + 1) + two(date.getUTCDate()) + two(date.getUTCHours()) + two(date.getUTCMinutes()) + two(date.getUTCSeconds()) + 'Z';
  if (year >= 1950 && year < 2050) return tlv(TAG.UTC_TIME, Buffer.from(two(year % 100) + rest, 'latin1'));
  if (year < 0 || year > 9999) throw new RangeError(`year ${year} cannot be encoded`);
  return tlv(TAG.GENERALIZED_TIME, Buffer.from(String(year).padStart(4, '0') + rest, 'latin1'));
}

export function sequence(...items: Uint8Array[]): Buffer {
  return tlv(TAG.SEQUENCE, Buffer.concat(items));
}

/** SET OF: DER orders the elements by their encodings (X.690 §11.6). */
export function set(...items: Uint8Array[]): Buffer {
  return tlv(TAG.SET, Buffer.concat([...items].sort(Buffer.compare)));
}

/** [n] EXPLICIT: a constructed context tag wrapping a complete element. */
export function explicit(n: number, inner: Uint8Array): Buffer {
  return tlv(contextTag(n, true), inner);
}

/** [n] IMPLICIT: the content of a primitive (or, with constructed, a constructed) type under a context tag. */
export function implicit(n: number, content: Uint8Array, constructed = false): Buffer {
  return tlv(contextTag(n, constructed), content);
}

/** The tag byte of [n], also for matching a read Node's tag. */
export function contextTag(n: number, constructed: boolean): number {
  if (!Number.isInteger(n) || n < 0 || n > 30) throw new RangeError(`context tag [${n}] is not supported`);
  return CONTEXT | (constructed ? CONSTRUCTED : 0) | n;
}

// ---- reading ----

/** One element found in a buffer: its tag and where its header, content and end lie. */
export interface Node {
  tag: number;
  /** Offset of the tag byte. */
  offset: number;
  /** Offset of the first content byte. */
  start: number;
  /** Offset just past the content. */
  end: number;
}

/** Reads the element at offset, checking it lies within limit (default: the whole buffer). */
export function read(buf: Uint8Array, offset = 0, limit = buf.length): Node {
  const fail = (why: string): never => {
    throw new Error(`malformed DER at offset ${offset}: ${why}`);
  };
  if (offset + 2 > limit) fail('truncated header');
  const tag = buf[offset]!;
  if ((tag & 0x1f) === 0x1f) fail('multi-byte tags are not supported');
  let pos = offset + 1;
  const first = buf[pos++]!;
  let length = first;
  if (first === 0x80) fail('indefinite length');
  if (first > 0x80) {
    const n = first & 0x7f;
    if (n > 4) fail('length too large');
    if (pos + n > limit) fail('truncated length');
    length = 0;
    for (let i = 0; i < n; i++) length = length * 256 + buf[pos++]!;
    if (length < 0x80 || buf[pos - n] === 0) fail('non-minimal length');
  }
  if (pos + length > limit) fail('content runs past its container');
  return { tag, offset, start: pos, end: pos + length };
}

/** The elements directly inside a constructed element. */
export function children(buf: Uint8Array, node: Node): Node[] {
  const out: Node[] = [];
  for (let pos = node.start; pos < node.end; ) {
    const child = read(buf, pos, node.end);
    out.push(child);
    pos = child.end;
  }
  return out;
}

export function content(buf: Uint8Array, node: Node): Buffer {
  return Buffer.from(buf.buffer, buf.byteOffset + node.start, node.end - node.start);
}

/** The whole encoding of an element, header included. */
export function encoding(buf: Uint8Array, node: Node): Buffer {
  return Buffer.from(buf.buffer, buf.byteOffset + node.offset, node.end - node.offset);
}

/** Decodes an OBJECT IDENTIFIER's content to dotted form. */
export function readOid(bytes: Uint8Array): string {
  const arcs: bigint[] = [];
  let v = 0n;
  for (const [i, b] of bytes.entries()) {
    v = (v << 7n) | BigInt(b & 0x7f);
    if (b & 0x80) {
      if (i === bytes.length - 1) throw new Error('malformed OID: truncated arc');
      continue;
    }
    arcs.push(v);
    v = 0n;
  }
  if (arcs.length === 0) throw new Error('malformed OID: empty');
  const first = arcs[0]!;
  const head = first < 80n ? [first / 40n, first % 40n] : [2n, first - 80n];
  return [...head, ...arcs.slice(1)].join('.');
}

/** Insists that an element is there and has the given tag. */
export function expect(node: Node | undefined, tag: number, what: string): Node {
  if (!node || node.tag !== tag) {
    throw new Error(`malformed DER: expected ${what} (tag 0x${tag.toString(16)}), got ${node ? `0x${node.tag.toString(16)}` : 'nothing'}`);
  }
  return node;
}

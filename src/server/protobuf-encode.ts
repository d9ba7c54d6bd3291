// Table-driven encoding of objects (the JSON the server holds) into the bytes gogo's generated
// Marshal methods write for the same Go struct, so a protobuf response is byte for byte kube's:
// fields by ascending number; non-pointer scalars always written, zero or not; pointers (and
// []byte) when set; each element of a repeated field; map entries sorted by key, each {1: key,
// 2: value}; struct fields always written, as (possibly empty) messages, embedded structs too (their
// fields read from the embedding object, where JSON inlines them). metav1.Time is an empty
// message when zero, else Timestamp{seconds, nanos: 0}; MicroTime keeps its microseconds;
// FieldsV1 is {1: its raw JSON}.
import type { FieldKind, FieldSpec, MessageSchema } from './protobuf-message.js';
import { stringifyJSON } from '../util/json-int64.js';

/** A growable byte buffer with protobuf's primitives. */
export class ProtoWriter {
  buf = Buffer.allocUnsafe(1024);
  pos = 0;

  private ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  /** A non-negative integer below 2^53. */
  uvarint(v: number): void {
    this.ensure(10);
    while (v >= 0x80) {
      this.buf[this.pos++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.buf[this.pos++] = v;
  }

  /** Any int64 (or int32): negatives as their 64-bit two's complement, ten bytes, as Go's uint64(v). */
  varint(v: number | bigint): void {
    if (typeof v === 'number' && v >= 0 && Number.isSafeInteger(v)) return this.uvarint(v);
    let u = BigInt.asUintN(64, BigInt(v));
    this.ensure(10);
    while (u >= 0x80n) {
      this.buf[this.pos++] = Number(u & 0x7fn) | 0x80;
      u >>= 7n;
    }
    this.buf[this.pos++] = Number(u);
  }

  raw(data: Uint8Array): void {
    this.ensure(data.length);
    this.buf.set(data, this.pos);
    this.pos += data.length;
  }

  tag(no: number, wireType: number): void {
    this.uvarint(no * 8 + wireType);
  }

  bytes(no: number, data: Uint8Array): void {
    this.tag(no, 2);
    this.uvarint(data.length);
    this.ensure(data.length);
    this.buf.set(data, this.pos);
    this.pos += data.length;
  }

  string(no: number, s: string): void {
    this.tag(no, 2);
    // Short ASCII (names, keys, most values) is copied by hand: cheaper than a call into Buffer.write.
    if (s.length < 0x80) {
      this.ensure(s.length + 1);
      const start = this.pos;
      let i = 0;
      for (; i < s.length; i++) {
        const c = s.charCodeAt(i);
        if (c > 0x7f) break;
        this.buf[start + 1 + i] = c;
      }
      if (i === s.length) {
        this.buf[start] = s.length;
        this.pos = start + 1 + s.length;
        return;
      }
    }
    // Most strings are short ASCII: reserve one length byte and move the text if the length needs more.
    const max = s.length * 3;
    this.ensure(max + 10);
    const start = this.pos;
    const n = this.buf.write(s, start + 1, 'utf8');
    if (n < 0x80) {
      this.buf[start] = n;
      this.pos = start + 1 + n;
    } else {
      const size = uvarintSize(n);
      this.buf.copyWithin(start + size, start + 1, start + 1 + n);
      this.pos = start;
      this.uvarint(n);
      this.pos += n;
    }
  }

  /** A length-delimited field whose content `body` writes in place. */
  nested(no: number, body: () => void): void {
    this.tag(no, 2);
    this.ensure(1);
    const lenAt = this.pos++;
    body();
    const n = this.pos - lenAt - 1;
    if (n < 0x80) {
      this.buf[lenAt] = n;
      return;
    }
    const size = uvarintSize(n);
    this.ensure(size - 1);
    this.buf.copyWithin(lenAt + size, lenAt + 1, this.pos);
    const end = this.pos + size - 1;
    this.pos = lenAt;
    this.uvarint(n);
    this.pos = end;
  }

  finish(): Buffer {
    return this.buf.subarray(0, this.pos);
  }
}

function uvarintSize(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 0x80);
    size++;
  }
  return size;
}

const WIRE_VARINT = 0;

/** gogo writes fields in ascending number, whatever the Go struct's order. */
const byNumber = new WeakMap<MessageSchema, readonly FieldSpec[]>();
function sortedFields(schema: MessageSchema): readonly FieldSpec[] {
  let out = byNumber.get(schema);
  if (!out) {
    out = [...schema.fields].sort((a, b) => a.no - b.no);
    byNumber.set(schema, out);
  }
  return out;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Writes the fields of one message (no tag or length: the caller frames it). */
export function encodeFields(w: ProtoWriter, schema: MessageSchema, obj: unknown): void {
  const o = isObject(obj) ? obj : {};
  for (const f of sortedFields(schema)) {
    const v = o[f.json];
    if (f.inline) {
      // An embedded struct: always written (it is no pointer), its fields read from this same object.
      w.nested(f.no, () => encodeFields(w, f.kind as MessageSchema, o));
    } else if (f.repeated) {
      if (Array.isArray(v)) for (const x of v) writeValue(w, f.no, f.kind, x);
    } else if (f.kind === 'stringMap' || f.kind === 'bytesMap') {
      if (isObject(v)) writeMap(w, f.no, v, f.kind === 'bytesMap');
    } else if (f.kind === 'stringListMap') {
      if (isObject(v)) writeListMap(w, f.no, v);
    } else if (v === undefined || v === null) {
      // A nil pointer or []byte is left out; a non-pointer field is written as its zero value.
      if (!f.ptr && f.kind !== 'bytes') writeValue(w, f.no, f.kind, undefined);
    } else {
      writeValue(w, f.no, f.kind, v);
    }
  }
}

function writeValue(w: ProtoWriter, no: number, kind: FieldKind, v: unknown): void {
  switch (kind) {
    case 'string':
      return w.string(no, typeof v === 'string' ? v : '');
    case 'bytes':
      return w.bytes(no, typeof v === 'string' ? Buffer.from(v, 'base64') : new Uint8Array());
    case 'int64':
    case 'int32':
      w.tag(no, WIRE_VARINT);
      return w.varint(typeof v === 'number' || typeof v === 'bigint' ? v : 0);
    case 'bool':
      w.tag(no, WIRE_VARINT);
      return w.byte(v === true ? 1 : 0);
    case 'time':
    case 'microTime':
      return w.nested(no, () => writeTime(w, v, kind === 'microTime'));
    case 'fieldsV1':
      return w.nested(no, () => {
        if (v !== undefined && v !== null) w.bytes(1, Buffer.from(stringifyJSON(v), 'utf8'));
      });
    case 'stringMap':
    case 'bytesMap':
    case 'stringListMap':
      throw new Error('maps are written by writeMap');
    default:
      return w.nested(no, () => encodeFields(w, kind, v));
  }
}

/** Go's sortkeys.Strings: bytewise (code point) order, which UTF-16 order matches below U+D800. */
const HIGH = /[\ud800-\uffff]/;
const byteOrder = (a: string, b: string): number =>
  HIGH.test(a) || HIGH.test(b) ? Buffer.compare(Buffer.from(a), Buffer.from(b)) : a < b ? -1 : a > b ? 1 : 0;

function writeMap(w: ProtoWriter, no: number, m: Record<string, unknown>, bytes: boolean): void {
  const keys = Object.keys(m).sort(byteOrder);
  for (const k of keys) {
    const v = m[k];
    w.nested(no, () => {
      w.string(1, k);
      // A nil []byte value has no field 2; a map[string]string value is always written.
      if (bytes) {
        if (typeof v === 'string') w.bytes(2, Buffer.from(v, 'base64'));
      } else w.string(2, typeof v === 'string' ? v : '');
    });
  }
}

/** map<string, ExtraValue>: each entry's value a message of repeated strings (field 1). */
function writeListMap(w: ProtoWriter, no: number, m: Record<string, unknown>): void {
  for (const k of Object.keys(m).sort(byteOrder)) {
    const v = m[k];
    w.nested(no, () => {
      w.string(1, k);
      w.nested(2, () => {
        if (Array.isArray(v)) for (const x of v) w.string(1, typeof x === 'string' ? x : '');
      });
    });
  }
}

const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/;

/** Days from 1970-01-01 to a proleptic Gregorian date. */
function daysFromCivil(y: number, m: number, d: number): number {
  y -= m <= 2 ? 1 : 0;
  const era = Math.floor(y / 400);
  const yoe = y - era * 400;
  const doy = Math.floor((153 * (m + (m > 2 ? -3 : 9)) + 2) / 5) + d - 1;
  const doe = yoe * 365 + Math.floor(yoe / 4) - Math.floor(yoe / 100) + doy;
  return era * 146097 + doe - 719468;
}

/** Go's zero time.Time (0001-01-01T00:00:00Z) in Unix seconds. */
const GO_ZERO_TIME_SECONDS = -62135596800;

/** metav1.Time as Timestamp: seconds only (kube leaves nanos out); MicroTime: nanos truncated to microseconds. */
function writeTime(w: ProtoWriter, v: unknown, micro: boolean): void {
  const m = typeof v === 'string' ? RFC3339.exec(v) : null;
  if (!m) return; // null: Go's zero time, an empty message
  const [, y, mo, d, h, mi, s, frac, sign, oh, om] = m;
  let seconds = daysFromCivil(+y!, +mo!, +d!) * 86400 + +h! * 3600 + +mi! * 60 + +s!;
  if (sign) seconds -= (sign === '-' ? -1 : 1) * (+oh! * 3600 + +om! * 60);
  const nanos = micro && frac ? Number(frac.slice(0, 6).padEnd(6, '0')) * 1000 : 0;
  if (seconds === GO_ZERO_TIME_SECONDS && nanos === 0) return; // time.Time{}, IsZero
  w.tag(1, WIRE_VARINT);
  w.varint(seconds);
  w.tag(2, WIRE_VARINT);
  w.varint(nanos);
}

/** One message's bytes. */
export function encodeMessage(schema: MessageSchema, obj: unknown): Buffer {
  const w = new ProtoWriter();
  encodeFields(w, schema, obj);
  return w.finish();
}

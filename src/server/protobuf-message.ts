// Table-driven decoding of Kubernetes protobuf messages into the JSON that Go's encoding/json
// writes for the same Go struct: fields in struct order, omitempty scalars left out when zero,
// pointers written whenever they were on the wire, nil slices and maps as null unless
// omitempty (an empty []byte left out under omitempty), structs always written (embedded ones
// inline: their fields in the enclosing object), metav1.Time as RFC 3339 seconds and
// metav1.MicroTime with six fractional digits (null when zero), FieldsV1 as its raw JSON.
import { Cursor, WireError, WIRE_BYTES, WIRE_END_GROUP, WIRE_VARINT } from './protobuf-wire.js';
import { parseJSON } from '../util/json-int64.js';

type Scalar = 'string' | 'bytes' | 'int64' | 'int32' | 'bool';
/**
 * time: metav1.Time; microTime: metav1.MicroTime; fieldsV1: metav1.FieldsV1; stringMap: map<string,string>;
 * bytesMap: map<string,bytes> (values base64, as JSON has them); stringListMap: map<string, message{repeated string
 * items = 1}> (authentication's map[string]ExtraValue).
 */
export type FieldKind = Scalar | 'time' | 'microTime' | 'fieldsV1' | 'stringMap' | 'bytesMap' | 'stringListMap' | MessageSchema;

export interface FieldSpec {
  no: number;
  json: string;
  go: string; // Go field name, as gogo's "wrong wireType" error names it
  kind: FieldKind;
  repeated: boolean;
  ptr: boolean; // a Go pointer: written whenever it was present
  omitempty: boolean;
  /** An embedded struct (always a message): JSON has its fields in the enclosing object, not under `json`. */
  inline: boolean;
}

export interface MessageSchema {
  name: string; // Go type name, as gogo's wire errors name it
  fields: readonly FieldSpec[];
  byNo: ReadonlyMap<number, FieldSpec>;
}

export function message(name: string, fields: FieldSpec[]): MessageSchema {
  return { name, fields, byNo: new Map(fields.map((f) => [f.no, f])) };
}

const GO_INITIALISMS: Record<string, string> = { uid: 'UID', apiVersion: 'APIVersion', apiGroup: 'APIGroup', apiGroups: 'APIGroups', nonResourceURLs: 'NonResourceURLs' };

/**
 * One field. flags: "omit" (omitempty), "ptr" (Go pointer), "rep" (repeated), "inline" (an embedded struct),
 * space separated.
 * The Go name defaults to the JSON name capitalised.
 */
export function field(no: number, json: string, kind: FieldKind, flags = '', go?: string): FieldSpec {
  const fl = new Set(flags.split(' ').filter(Boolean));
  return {
    no,
    json,
    go: go ?? GO_INITIALISMS[json] ?? json[0]!.toUpperCase() + json.slice(1),
    kind,
    repeated: fl.has('rep'),
    ptr: fl.has('ptr'),
    omitempty: fl.has('omit'),
    inline: fl.has('inline'),
  };
}

// ------------------------------------------------------------------ decoding

/** A decoded time: the Unix seconds, or zero (Go's time.Time{}). */
type TimeValue = { zero: true } | { zero: false; seconds: bigint; nanos: number };
/** A decoded FieldsV1: its Raw bytes, or nil. */
type FieldsValue = { raw?: Uint8Array };
type Value = string | Uint8Array | bigint | boolean | TimeValue | FieldsValue | Map<string, string> | Map<string, string[]> | State | Value[];
/** What one message decoded to, by field; absent fields are not in the map. */
export type State = Map<FieldSpec, Value>;

const isVarint = (k: FieldKind): boolean => k === 'int64' || k === 'int32' || k === 'bool';

const TIMESTAMP = message('Timestamp', [field(1, 'seconds', 'int64'), field(2, 'nanos', 'int32')]);
const FIELDS_V1 = message('FieldsV1', [field(1, 'Raw', 'bytes', '', 'Raw')]);
/** Go's zero time.Time, as Unix seconds: a Time decoded to it marshals as null. */
const GO_ZERO_TIME_SECONDS = -62135596800n;

/** Decodes one message's bytes into state, merging as gogo does when a message repeats. */
export function decodeMessage(schema: MessageSchema, cur: Cursor, state: State = new Map()): State {
  while (!cur.done) {
    const start = cur.pos;
    const { field: no, wireType, wire } = cur.tag();
    if (wireType === WIRE_END_GROUP) throw new WireError(`proto: ${schema.name}: wiretype end group for non-group`);
    if (no <= 0) throw new WireError(`proto: ${schema.name}: illegal tag ${no} (wire type ${wire})`);
    const f = schema.byNo.get(no);
    if (!f) {
      cur.skipField(start);
      continue;
    }
    const want = isVarint(f.kind) ? WIRE_VARINT : WIRE_BYTES;
    if (wireType !== want) throw new WireError(`proto: wrong wireType = ${wireType} for field ${f.go}`);
    if (f.repeated) {
      const list = (state.get(f) as Value[] | undefined) ?? [];
      list.push(readValue(f.kind, cur, undefined));
      state.set(f, list);
    } else {
      state.set(f, readValue(f.kind, cur, state.get(f)));
    }
  }
  return state;
}

function readValue(kind: FieldKind, cur: Cursor, prev: Value | undefined): Value {
  switch (kind) {
    case 'string':
      return cur.string();
    case 'bytes':
      return Buffer.from(cur.bytes());
    case 'int64':
      return BigInt.asIntN(64, cur.varint());
    case 'int32':
      return BigInt.asIntN(32, cur.varint());
    case 'bool':
      return cur.varint() !== 0n;
    case 'time':
    case 'microTime':
      return readTime(cur.sub());
    case 'fieldsV1': {
      // A repeated FieldsV1 merges; its only field, Raw, is replaced.
      const st = decodeMessage(FIELDS_V1, cur.sub());
      const raw = st.get(FIELDS_V1.fields[0]!);
      const out: FieldsValue = { ...(prev as FieldsValue | undefined) };
      if (raw !== undefined) out.raw = raw as Uint8Array;
      return out;
    }
    case 'stringMap':
    case 'bytesMap':
      return readMapEntry(cur.sub(), (prev as Map<string, string> | undefined) ?? new Map(), kind === 'bytesMap');
    case 'stringListMap':
      return readListMapEntry(cur.sub(), (prev as Map<string, string[]> | undefined) ?? new Map());
    default:
      return decodeMessage(kind, cur.sub(), (prev as State | undefined) ?? new Map());
  }
}

/** metav1.Time.Unmarshal: empty bytes are the zero time; nanoseconds are dropped. */
function readTime(cur: Cursor): TimeValue {
  if (cur.done) return { zero: true };
  const st = decodeMessage(TIMESTAMP, cur);
  const seconds = (st.get(TIMESTAMP.fields[0]!) as bigint | undefined) ?? 0n;
  const nanos = Number((st.get(TIMESTAMP.fields[1]!) as bigint | undefined) ?? 0n);
  return seconds === GO_ZERO_TIME_SECONDS && nanos === 0 ? { zero: true } : { zero: false, seconds, nanos };
}

/** One map entry: key 1 and value 2 (a string, or bytes kept as base64), read whatever their wire type; others skipped. */
function readMapEntry(cur: Cursor, into: Map<string, string>, bytes: boolean): Map<string, string> {
  let key = '';
  let value = '';
  while (!cur.done) {
    const start = cur.pos;
    const { field: no } = cur.tag();
    if (no === 1) key = cur.string();
    else if (no === 2) value = bytes ? Buffer.from(cur.bytes()).toString('base64') : cur.string();
    else cur.skipField(start);
  }
  into.set(key, value);
  return into;
}

/** One map<string, ExtraValue> entry: key 1, value 2 a message whose field 1 repeats the strings. */
function readListMapEntry(cur: Cursor, into: Map<string, string[]>): Map<string, string[]> {
  let key = '';
  const items: string[] = [];
  while (!cur.done) {
    const start = cur.pos;
    const { field: no } = cur.tag();
    if (no === 1) key = cur.string();
    else if (no === 2) {
      const sub = cur.sub();
      while (!sub.done) {
        const s0 = sub.pos;
        const t = sub.tag();
        if (t.field === 1) items.push(sub.string());
        else sub.skipField(s0);
      }
    } else cur.skipField(start);
  }
  into.set(key, items);
  return into;
}

// ------------------------------------------------------------------ Go JSON rendering

/** FieldsV1 whose Raw is not a JSON object cannot be marshalled; the caller reports it. */
export class RenderError extends Error {}

export function render(schema: MessageSchema, state: State): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of schema.fields) {
    const v = state.get(f);
    if (f.inline) {
      // Embedded: its fields in this object, written even when the message was not on the wire.
      Object.assign(out, render(f.kind as MessageSchema, (v as State | undefined) ?? new Map()));
    } else if (f.repeated) {
      const list = v as Value[] | undefined;
      if (list?.length) out[f.json] = list.map((x) => renderValue(f.kind, x));
      else if (!f.omitempty) out[f.json] = null;
    } else if (f.kind === 'stringMap' || f.kind === 'bytesMap' || f.kind === 'stringListMap') {
      const m = v as Map<string, unknown> | undefined;
      if (m?.size) out[f.json] = renderMap(m);
      else if (!f.omitempty) out[f.json] = null;
    } else if (f.ptr || f.kind === 'bytes') {
      // omitempty leaves out an empty []byte, which gogo decodes as non-nil when its field is present.
      const emptyBytes = f.kind === 'bytes' && !f.ptr && (v as Uint8Array | undefined)?.length === 0;
      if (v !== undefined && !(f.omitempty && emptyBytes)) out[f.json] = renderValue(f.kind, v);
      else if (!f.omitempty) out[f.json] = null;
    } else if (f.kind === 'time' || f.kind === 'microTime' || typeof f.kind === 'object') {
      // A struct value: omitempty never leaves it out.
      out[f.json] = renderValue(f.kind, v ?? (typeof f.kind === 'object' ? new Map() : { zero: true }));
    } else {
      const val = v ?? zeroOf(f.kind as Scalar);
      if (f.omitempty && isZero(val)) continue;
      out[f.json] = renderValue(f.kind, val);
    }
  }
  return out;
}

const zeroOf = (k: Scalar): Value => (k === 'string' ? '' : k === 'bool' ? false : 0n);
const isZero = (v: Value): boolean => v === '' || v === false || v === 0n;

function renderValue(kind: FieldKind, v: Value): unknown {
  switch (kind) {
    case 'string':
    case 'bool':
      return v;
    case 'bytes':
      return Buffer.from(v as Uint8Array).toString('base64');
    case 'int64':
    case 'int32':
      return Number.isSafeInteger(Number(v)) ? Number(v) : v; // as parseJSON reads Go's digits: bigint beyond 2^53
    case 'time':
      return formatTime(v as TimeValue);
    case 'microTime':
      return formatTime(v as TimeValue, true);
    case 'fieldsV1':
      return renderFields(v as FieldsValue);
    case 'stringMap':
    case 'bytesMap':
    case 'stringListMap':
      return renderMap(v as Map<string, unknown>);
    default:
      return render(kind, v as State);
  }
}

/** encoding/json writes map keys sorted bytewise. */
function renderMap(m: Map<string, unknown>): Record<string, unknown> {
  const keys = [...m.keys()].sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)));
  const out: Record<string, unknown> = {};
  for (const k of keys) out[k] = m.get(k)!;
  return out;
}

function renderFields(v: FieldsValue): unknown {
  if (v.raw === undefined) return null;
  const text = Buffer.from(v.raw).toString('utf8');
  try {
    return parseJSON(text);
  } catch (e) {
    throw new RenderError(`metav1.FieldsV1 is not valid JSON: ${(e as Error).message}`);
  }
}

/** metav1.Time's JSON: RFC 3339 in UTC to the second, or null for the zero time. */
function formatTime(t: TimeValue, micro = false): string | null {
  if (t.zero) return null;
  const floorDiv = (a: bigint, b: bigint): bigint => (a >= 0n ? a / b : -((-a + b - 1n) / b));
  // time.Unix normalises nanoseconds outside [0, 1e9) into the seconds.
  const carry = floorDiv(BigInt(t.nanos), 1_000_000_000n);
  const seconds = t.seconds + carry;
  const nanos = t.nanos - Number(carry) * 1_000_000_000;
  const days = floorDiv(seconds, 86400n);
  const sod = Number(seconds - days * 86400n);
  // Civil date from days since 1970-01-01 (proleptic Gregorian), exact for any range.
  const z = days + 719468n;
  const era = floorDiv(z, 146097n);
  const doe = z - era * 146097n;
  const yoe = (doe - doe / 1460n + doe / 36524n - doe / 146096n) / 365n;
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n);
  const mp = (5n * doy + 2n) / 153n;
  const day = doy - (153n * mp + 2n) / 5n + 1n;
  const month = mp < 10n ? mp + 3n : mp - 9n;
  const year = yoe + era * 400n + (month <= 2n ? 1n : 0n);
  // Go's appendInt(year, 4): a sign, then at least four digits.
  const y = (year < 0n ? '-' : '') + String(year < 0n ? -year : year).padStart(4, '0');
  const p = (n: number | bigint): string => String(n).padStart(2, '0');
  // RFC3339Micro truncates to microseconds.
  const frac = micro ? `.${String(Math.floor(nanos / 1000)).padStart(6, '0')}` : '';
  return `${y}-${p(month)}-${p(day)}T${p(Math.floor(sod / 3600))}:${p(Math.floor(sod / 60) % 60)}:${p(sod % 60)}${frac}Z`;
}

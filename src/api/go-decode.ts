// Decoding a request body into a built-in kind's Go struct, as kube's JSON serializer does it
// (sigs.k8s.io/json over encoding/json): a value whose JSON type does not fit its Go field is the first
// UnmarshalTypeError (`json: cannot unmarshal string into Go struct field CustomResourceDefinitionVersion.
// spec.versions.served of type bool`: the innermost struct's name, the json field path from the top, the
// field's Go type); custom unmarshalers (metav1.Time, apiextensions' JSON and schema unions) decide for
// themselves and stop decoding on error. The value is left as Go would encode the struct again where that
// matters to what follows: a null leaves a field at its zero value (dropped here, an empty object for a
// struct), a struct member is never absent, fields the struct does not have are dropped, times are UTC.
import { TYPE_META_KEYS, type GoField, type GoFieldType, type GoStruct } from './go-struct.js';
import { elemTypeName, fieldTypeName, jsonKindOf, structTypeName, type GoTypeContext } from './go-type-names.js';
import { parseGoRfc3339 } from '../util/go-time-parse.js';
import { goBase64Error } from '../util/go-base64.js';

export type { GoTypeContext } from './go-type-names.js';

/** encoding/json's UnmarshalTypeError, or any other error a decoder or unmarshaler returns (message only). */
type DecodeError = { type: 'unmarshalType'; value: string; goType: string; struct?: string; field?: string } | { type: 'other'; message: string };

function decodeErrorMessage(e: DecodeError): string {
  if (e.type === 'other') return e.message;
  return e.struct !== undefined || e.field !== undefined
    ? `json: cannot unmarshal ${e.value} into Go struct field ${e.struct ?? ''}.${e.field ?? ''} of type ${e.goType}`
    : `json: cannot unmarshal ${e.value} into Go value of type ${e.goType}`;
}

/** An error an unmarshaler returned: it ends the decoding (where saved errors let it go on). */
class Abort {
  constructor(readonly error: DecodeError) {}
}

interface State {
  ctx: GoTypeContext;
  /** encoding/json's errorContext: the innermost struct and the struct fields leading here. */
  struct?: string;
  fields: string[];
  saved?: DecodeError;
  /**
   * sigs.k8s.io/json's strict field stack (keys and map keys as they are, [i] as numbers: written out by pathOf
   * only when a path is asked for), and the unknown fields found; none in nested decodes.
   */
  path: (string | number)[];
  unknown?: Set<string>;
  /** Non-integer number literals of a JSON body by path. */
  literals?: ReadonlyMap<string, string>;
  /** A nested decode's outer state, whose path (as it is while the nested decode runs) leads to this one's value. */
  parent?: State;
}

/** addErrorContext: a type error gets the current struct and field path (replacing any it had). */
function withContext(s: State, e: DecodeError): DecodeError {
  if (e.type !== 'unmarshalType' || (s.struct === undefined && s.fields.length === 0)) return e;
  return { ...e, struct: s.struct ?? '', field: s.fields.join('.') };
}

function save(s: State, e: DecodeError): void {
  s.saved ??= withContext(s, e);
}

const typeError = (value: string, goType: string): DecodeError => ({ type: 'unmarshalType', value, goType });

/** Marks a value that does not decode: its field is left at its zero value. */
const DROP = Symbol('drop');
type Decoded = unknown;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

const INT_RANGE: Record<'int64' | 'int32', readonly [number, number]> = { int64: [-(2 ** 63), 2 ** 63], int32: [-(2 ** 31), 2 ** 31] };

/** The path of the value being decoded, within the whole body: keys after the first of the whole path with a dot. */
function pathOf(s: State): string {
  let out = s.parent ? pathOf(s.parent) : '';
  for (let j = 0; j < s.path.length; j++) {
    const step = s.path[j]!;
    out += typeof step === 'number' ? `[${step}]` : j === 0 && out === '' ? step : `.${step}`;
  }
  return out;
}

function decodeInt(s: State, v: unknown, goType: string, bits: 'int64' | 'int32'): Decoded {
  if (typeof v !== 'number' && typeof v !== 'bigint') return mismatch(s, v, goType);
  // strconv.ParseInt of the literal: `1.0` and `1e3` are not integers to Go.
  const literal = s.literals?.get(pathOf(s));
  if (literal !== undefined) {
    save(s, typeError(`number ${literal}`, goType));
    return DROP;
  }
  const [lo, hi] = INT_RANGE[bits];
  const n = Number(v);
  if (typeof v === 'bigint' || (Number.isInteger(n) && n >= lo && n < hi)) return v;
  save(s, typeError(`number ${String(v)}`, goType));
  return DROP;
}

function mismatch(s: State, v: unknown, goType: string): typeof DROP {
  save(s, typeError(jsonKindOf(v), goType));
  return DROP;
}

/** A nested json.Unmarshal inside an UnmarshalJSON: its own context; its error, with ours, ends ours. */
function nested(s: State, run: (inner: State) => Decoded): Decoded {
  const inner: State = { ctx: s.ctx, fields: [], path: [], parent: s };
  if (s.literals) inner.literals = s.literals;
  let out: Decoded;
  try {
    out = run(inner);
  } catch (e) {
    if (!(e instanceof Abort)) throw e;
    throw new Abort(withContext(s, e.error));
  }
  if (inner.saved) throw new Abort(withContext(s, inner.saved));
  return out;
}

function schemaProps(s: State): GoStruct | undefined {
  return s.ctx.jsonSchemaProps;
}

function decodeUnion(s: State, v: unknown, t: 'jsonSchemaPropsOrArray' | 'jsonSchemaPropsOrBool' | 'jsonSchemaPropsOrStringArray'): Decoded {
  const props = schemaProps(s);
  if (isPlainObject(v)) return props ? nested(s, (inner) => decodeStruct(inner, v, props)) : v;
  if (t === 'jsonSchemaPropsOrBool') {
    if (typeof v === 'boolean') return v;
    throw new Abort({ type: 'other', message: 'boolean or JSON schema expected' });
  }
  if (Array.isArray(v)) {
    if (t === 'jsonSchemaPropsOrArray') {
      if (!props) return v;
      const elem: GoField = { json: '', type: props };
      return nested(s, (inner) => decodeSlice(inner, v, elem, props));
    }
    const elem: GoField = { json: '', type: 'string' };
    return nested(s, (inner) => decodeSlice(inner, v, elem, props ?? { name: '', fields: [] }));
  }
  // Anything else leaves the union empty.
  return DROP;
}

/** Decodes one value of a field's element type. */
function decodeElem(s: State, v: unknown, t: GoFieldType, f: GoField, owner: GoStruct): Decoded {
  const goType = (): string => elemTypeName(f, owner, s.ctx);
  if (typeof t === 'object') {
    if (!isPlainObject(v)) return mismatch(s, v, structTypeName(t, s.ctx));
    return decodeStruct(s, v, t);
  }
  switch (t) {
    case 'string':
      return typeof v === 'string' ? v : mismatch(s, v, goType());
    case 'bool':
      return typeof v === 'boolean' ? v : mismatch(s, v, goType());
    case 'int64':
    case 'int32':
      return decodeInt(s, v, goType(), t);
    case 'float64':
      if (typeof v === 'bigint') return Number(v); // an int64 literal read into a float64 rounds
      if (typeof v !== 'number') return mismatch(s, v, goType());
      // A literal beyond float64's range (JSON.parse made it an infinity).
      if (!Number.isFinite(v)) {
        save(s, typeError(`number ${s.literals?.get(pathOf(s)) ?? String(v)}`, goType()));
        return DROP;
      }
      return v;
    case 'bytes': {
      if (typeof v === 'string') {
        const err = goBase64Error(v);
        if (err === undefined) return v;
        save(s, { type: 'other', message: err });
        return DROP;
      }
      if (Array.isArray(v)) {
        // A []byte also decodes from an array of numbers; it encodes as base64 again.
        const before = s.saved;
        for (const b of v) if (b !== null) decodeByte(s, b);
        return s.saved === before ? Buffer.from(v.map((b) => (b === null ? 0 : Number(b)))).toString('base64') : DROP;
      }
      return mismatch(s, v, '[]uint8');
    }
    case 'time':
    case 'microTime': {
      // metav1.Time.UnmarshalJSON: json.Unmarshal into a string, then time.Parse(time.RFC3339, ...);
      // metav1.MicroTime's the same with RFC3339Micro.
      if (typeof v !== 'string') throw new Abort(withContext(s, typeError(jsonKindOf(v), 'string')));
      const parsed = parseGoRfc3339(v, t === 'microTime');
      if ('error' in parsed) throw new Abort({ type: 'other', message: parsed.error });
      return parsed.utc;
    }
    case 'fieldsV1':
    case 'json':
      return v;
    case 'stringList':
      if (!Array.isArray(v)) return mismatch(s, v, goType());
      return decodeSlice(s, v, { json: f.json, type: 'string' }, owner);
    case 'jsonSchemaProps': {
      const props = schemaProps(s);
      if (!props) return v;
      if (!isPlainObject(v)) return mismatch(s, v, structTypeName(props, s.ctx));
      return decodeStruct(s, v, props);
    }
    case 'jsonSchemaPropsOrArray':
    case 'jsonSchemaPropsOrBool':
    case 'jsonSchemaPropsOrStringArray':
      return decodeUnion(s, v, t);
  }
}

function decodeByte(s: State, b: unknown): void {
  if (typeof b !== 'number') mismatch(s, b, 'uint8');
  else if (!Number.isInteger(b) || b < 0 || b > 255) save(s, typeError(`number ${String(b)}`, 'uint8'));
}

/** The zero value Go leaves for a null element of a slice or map. */
function zeroOf(t: GoFieldType): unknown {
  if (typeof t === 'object') return {};
  switch (t) {
    case 'string':
      return '';
    case 'bool':
      return false;
    case 'int64':
    case 'int32':
    case 'float64':
      return 0;
    default:
      return null;
  }
}

function decodeSlice(s: State, v: unknown[], f: GoField, owner: GoStruct): Decoded {
  return v.map((x, i) => {
    if (x === null) return zeroOf(f.type);
    s.path.push(i);
    const out = decodeElem(s, x, f.type, f, owner);
    s.path.pop();
    return out === DROP ? zeroOf(f.type) : out;
  });
}

function decodeField(s: State, v: unknown, f: GoField, owner: GoStruct): Decoded {
  if (f.slice) {
    // A string into a []byte is base64; anything else but an array does not fit a slice.
    if (!Array.isArray(v)) return mismatch(s, v, fieldTypeName(f, owner, s.ctx));
    return decodeSlice(s, v, f, owner);
  }
  if (f.map) {
    if (!isPlainObject(v)) return mismatch(s, v, fieldTypeName(f, owner, s.ctx));
    for (const [k, x] of Object.entries(v)) {
      if (x === null) {
        v[k] = zeroOf(f.type);
        continue;
      }
      s.path.push(k);
      const out = decodeElem(s, x, f.type, f, owner);
      s.path.pop();
      v[k] = out === DROP ? zeroOf(f.type) : out;
    }
    return v;
  }
  return decodeElem(s, v, f.type, f, owner);
}

const TYPE_META_FIELDS: readonly GoField[] = TYPE_META_KEYS.map((json) => ({ json, type: 'string', omitempty: true }));
const fieldIndex = new WeakMap<GoStruct, Map<string, GoField>>();

function fieldsOf(st: GoStruct): Map<string, GoField> {
  let m = fieldIndex.get(st);
  if (!m) {
    m = new Map([...(st.typeMeta ? TYPE_META_FIELDS : []), ...st.fields].map((f) => [f.json, f]));
    fieldIndex.set(st, m);
  }
  return m;
}

function decodeStruct(s: State, obj: Record<string, unknown>, st: GoStruct): Decoded {
  const fields = fieldsOf(st);
  for (const key of Object.keys(obj)) {
    const f = fields.get(key);
    if (!f) {
      // Not in the Go struct: dropped, and reported by a strict decoder.
      if (s.unknown) s.unknown.add(`unknown field ${JSON.stringify(s.path.length > 0 ? `${pathOf(s)}.${key}` : key)}`);
      delete obj[key];
      continue;
    }
    const v = obj[key];
    // A null sets pointers, slices and maps to nil and leaves other types alone: the zero value either way,
    // which for a struct is an empty one.
    if (v === null) {
      if (typeof f.type === 'object' && !f.pointer && !f.slice && !f.map) obj[key] = {};
      else delete obj[key];
      continue;
    }
    const outerStruct = s.struct;
    const depth = s.fields.length;
    s.struct = st.name;
    s.fields.push(key);
    s.path.push(key);
    const out = decodeField(s, v, f, st);
    s.path.pop();
    s.struct = outerStruct;
    s.fields.length = depth;
    if (out === DROP) delete obj[key];
    else obj[key] = out;
  }
  // A struct member is never absent from a decoded Go struct: an empty one is there (and encoded) all the same.
  for (const f of st.fields) {
    if (typeof f.type === 'object' && !f.pointer && !f.slice && !f.map && !isPlainObject(obj[f.json])) obj[f.json] = {};
  }
  return obj;
}

export interface GoDecodeOptions {
  /** Collects the strict decoder's errors for fields the struct does not have (`unknown field "spec.x"`, in document order). */
  unknownFields?: string[];
  /** A JSON body's non-integer number literals by path (nonIntegerNumberLiterals), which integer fields refuse. */
  numberLiterals?: ReadonlyMap<string, string>;
}

/**
 * Decodes `obj` (a JSON object from a request body) into the Go struct `kind`, in place. Returns the decoder's
 * error message (without kube's `<Kind> in version ...` prefix) or undefined when every value fits. Fields the
 * struct does not have are dropped.
 */
export function goDecodeInto(obj: Record<string, unknown>, kind: GoStruct, ctx: GoTypeContext, opts: GoDecodeOptions = {}): string | undefined {
  const { unknownFields, numberLiterals } = opts;
  const s: State = { ctx, fields: [], path: [] };
  if (unknownFields) s.unknown = new Set();
  if (numberLiterals) s.literals = numberLiterals;
  try {
    decodeStruct(s, obj, kind);
  } catch (e) {
    if (e instanceof Abort) return decodeErrorMessage(e.error);
    throw e;
  }
  if (s.saved) return decodeErrorMessage(s.saved);
  unknownFields?.push(...(s.unknown ?? []));
  return undefined;
}

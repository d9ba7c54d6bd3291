// JSON decoding and encoding the way the apiserver's Go code does it: encoding/json's syntax
// error messages, sigs.k8s.io/json's strict mode (duplicate and unknown fields with their
// paths), type errors for the few Go targets patch decoding uses, and json.Marshal's output
// (sorted keys, HTML-safe escapes) where byte-exact comparisons depend on it.
import { jsonNumber } from './json-number.js';
import { jsonDepthOffset, maxDepthMessage } from './json-depth.js';
import { setOwn } from './json.js';

/** An error whose message is Go's err.Error() text. */
export class GoJsonError extends Error {
  constructor(
    message: string,
    readonly syntax = false,
  ) {
    super(message);
  }
}

// ------------------------------------------------------------------ syntax (scanner.go)

const MAX_NESTING_DEPTH = 10000;

/** quoteChar: the offending byte as Go prints it in a syntax error. */
function quoteChar(c: number): string {
  if (c === 0x27) return `'\\''`;
  if (c === 0x22) return `'"'`;
  // strconv.Quote(string(rune(c))) without its quotes; a byte >= 0x80 reads as U+0080..U+00FF.
  if (c === 0x07) return `'\\a'`;
  if (c === 0x08) return `'\\b'`;
  if (c === 0x0c) return `'\\f'`;
  if (c === 0x0a) return `'\\n'`;
  if (c === 0x0d) return `'\\r'`;
  if (c === 0x09) return `'\\t'`;
  if (c === 0x0b) return `'\\v'`;
  if (c === 0x5c) return `'\\\\'`;
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  // U+0080..U+00A0 and the soft hyphen are not printable for strconv.Quote.
  if ((c >= 0x80 && c <= 0xa0) || c === 0xad) return `'\\u${c.toString(16).padStart(4, '0')}'`;
  return `'${String.fromCharCode(c)}'`;
}

const enum PS {
  ObjectKey,
  ObjectValue,
  ArrayValue,
}

type Step = (c: number) => 'continue' | 'error';

/** encoding/json checkValid: the first syntax error's message, or undefined when the input is valid JSON. */
export function goJsonSyntaxError(data: Uint8Array): string | undefined {
  const stack: PS[] = [];
  let err: string | undefined;
  let endTop = false;
  const isSpace = (c: number): boolean => c === 0x20 || c === 0x09 || c === 0x0d || c === 0x0a;
  const isHex = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
  const isDigit = (c: number): boolean => c >= 0x30 && c <= 0x39;
  const fail = (c: number, context: string): 'error' => {
    err = `invalid character ${quoteChar(c)} ${context}`;
    step = () => 'error';
    return 'error';
  };
  const push = (c: number, ps: PS): 'continue' | 'error' => {
    stack.push(ps);
    return stack.length <= MAX_NESTING_DEPTH ? 'continue' : fail(c, 'exceeded max depth');
  };
  const pop = (): void => {
    stack.pop();
    if (stack.length === 0) {
      step = endTopState;
      endTop = true;
    } else step = endValue;
  };
  const literal =
    (expect: number, next: Step, context: string): Step =>
    (c) => {
      if (c === expect) {
        step = next;
        return 'continue';
      }
      return fail(c, context);
    };

  const endTopState: Step = (c) => {
    if (!isSpace(c)) fail(c, 'after top-level value');
    return 'continue';
  };
  const endValue: Step = (c) => {
    const n = stack.length;
    if (n === 0) {
      step = endTopState;
      endTop = true;
      return endTopState(c);
    }
    if (isSpace(c)) {
      step = endValue;
      return 'continue';
    }
    switch (stack[n - 1]) {
      case PS.ObjectKey:
        if (c === 0x3a) {
          stack[n - 1] = PS.ObjectValue;
          step = beginValue;
          return 'continue';
        }
        return fail(c, 'after object key');
      case PS.ObjectValue:
        if (c === 0x2c) {
          stack[n - 1] = PS.ObjectKey;
          step = beginString;
          return 'continue';
        }
        if (c === 0x7d) {
          pop();
          return 'continue';
        }
        return fail(c, 'after object key:value pair');
      default:
        if (c === 0x2c) {
          step = beginValue;
          return 'continue';
        }
        if (c === 0x5d) {
          pop();
          return 'continue';
        }
        return fail(c, 'after array element');
    }
  };
  const tru = literal(0x65, endValue, "in literal true (expecting 'e')");
  const tr = literal(0x75, tru, "in literal true (expecting 'u')");
  const t = literal(0x72, tr, "in literal true (expecting 'r')");
  const fals = literal(0x65, endValue, "in literal false (expecting 'e')");
  const fal = literal(0x73, fals, "in literal false (expecting 's')");
  const fa = literal(0x6c, fal, "in literal false (expecting 'l')");
  const f = literal(0x61, fa, "in literal false (expecting 'a')");
  const nul = literal(0x6c, endValue, "in literal null (expecting 'l')");
  const nu = literal(0x6c, nul, "in literal null (expecting 'l')");
  const n = literal(0x75, nu, "in literal null (expecting 'u')");

  const e0: Step = (c) => (isDigit(c) ? 'continue' : endValue(c));
  const eSign: Step = (c) => {
    if (isDigit(c)) {
      step = e0;
      return 'continue';
    }
    return fail(c, 'in exponent of numeric literal');
  };
  const e: Step = (c) => {
    if (c === 0x2b || c === 0x2d) {
      step = eSign;
      return 'continue';
    }
    return eSign(c);
  };
  const dot0: Step = (c) => {
    if (isDigit(c)) return 'continue';
    if (c === 0x65 || c === 0x45) {
      step = e;
      return 'continue';
    }
    return endValue(c);
  };
  const dot: Step = (c) => {
    if (isDigit(c)) {
      step = dot0;
      return 'continue';
    }
    return fail(c, 'after decimal point in numeric literal');
  };
  const zero: Step = (c) => {
    if (c === 0x2e) {
      step = dot;
      return 'continue';
    }
    if (c === 0x65 || c === 0x45) {
      step = e;
      return 'continue';
    }
    return endValue(c);
  };
  const one: Step = (c) => {
    if (isDigit(c)) {
      step = one;
      return 'continue';
    }
    return zero(c);
  };
  const neg: Step = (c) => {
    if (c === 0x30) {
      step = zero;
      return 'continue';
    }
    if (c >= 0x31 && c <= 0x39) {
      step = one;
      return 'continue';
    }
    return fail(c, 'in numeric literal');
  };

  const hex = (next: () => Step): Step => (c) => {
    if (isHex(c)) {
      step = next();
      return 'continue';
    }
    return fail(c, 'in \\u hexadecimal character escape');
  };
  const inString: Step = (c) => {
    if (c === 0x22) {
      step = endValue;
      return 'continue';
    }
    if (c === 0x5c) {
      step = inStringEsc;
      return 'continue';
    }
    if (c < 0x20) return fail(c, 'in string literal');
    return 'continue';
  };
  const u4 = hex(() => inString);
  const u3 = hex(() => u4);
  const u2 = hex(() => u3);
  const u1 = hex(() => u2);
  const inStringEsc: Step = (c) => {
    if ([0x62, 0x66, 0x6e, 0x72, 0x74, 0x5c, 0x2f, 0x22].includes(c)) {
      step = inString;
      return 'continue';
    }
    if (c === 0x75) {
      step = u1;
      return 'continue';
    }
    return fail(c, 'in string escape code');
  };

  const beginValue: Step = (c) => {
    if (isSpace(c)) return 'continue';
    switch (c) {
      case 0x7b:
        step = beginStringOrEmpty;
        return push(c, PS.ObjectKey);
      case 0x5b:
        step = beginValueOrEmpty;
        return push(c, PS.ArrayValue);
      case 0x22:
        step = inString;
        return 'continue';
      case 0x2d:
        step = neg;
        return 'continue';
      case 0x30:
        step = zero;
        return 'continue';
      case 0x74:
        step = t;
        return 'continue';
      case 0x66:
        step = f;
        return 'continue';
      case 0x6e:
        step = n;
        return 'continue';
    }
    if (c >= 0x31 && c <= 0x39) {
      step = one;
      return 'continue';
    }
    return fail(c, 'looking for beginning of value');
  };
  const beginValueOrEmpty: Step = (c) => {
    if (isSpace(c)) return 'continue';
    if (c === 0x5d) return endValue(c);
    return beginValue(c);
  };
  const beginString: Step = (c) => {
    if (isSpace(c)) return 'continue';
    if (c === 0x22) {
      step = inString;
      return 'continue';
    }
    return fail(c, 'looking for beginning of object key string');
  };
  const beginStringOrEmpty: Step = (c) => {
    if (isSpace(c)) return 'continue';
    if (c === 0x7d) {
      stack[stack.length - 1] = PS.ObjectValue;
      return endValue(c);
    }
    return beginString(c);
  };

  let step: Step = beginValue;
  for (const c of data) {
    if (step(c) === 'error' || err) return err;
  }
  // eof: a space completes a pending number.
  if (endTop) return undefined;
  step(0x20);
  if (err) return err;
  if (endTop) return undefined;
  return 'unexpected end of JSON input';
}

// ------------------------------------------------------------------ values with Go targets

/** The Go types patch decoding unmarshals into. */
export type GoType =
  | { kind: 'any' }
  | { kind: 'string' }
  | { kind: 'map'; name: string } // map[string]interface{}
  | { kind: 'rawMap'; name: string } // map[string]*json.RawMessage: values kept as RawJson (null as null)
  | { kind: 'slice'; name: string; elem: GoType }
  | { kind: 'struct'; name: string; short: string; fields: Record<string, GoType> };

export const goAny: GoType = { kind: 'any' };
export const goString: GoType = { kind: 'string' };
export const goMap: GoType = { kind: 'map', name: 'map[string]interface {}' };

const utf8Decoder = new TextDecoder('utf-8');

/** Raw text, as a json.RawMessage keeps it (compact whitespace is not applied). */
export class RawJson {
  constructor(readonly text: string) {}
}

interface DecodeState {
  text: string;
  pos: number;
  strict: boolean;
  strictErrors: string[];
  seenStrict: Set<string>;
  typeError?: string;
  stack: string[];
  /** The innermost struct's short name and the struct field names leading here. */
  ctx: { struct?: string; fields: string[] };
  keepRaw: boolean;
  float64Range: boolean;
}

function skipWs(s: DecodeState): void {
  while (s.pos < s.text.length) {
    const c = s.text.charCodeAt(s.pos);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) s.pos++;
    else break;
  }
}

function saveStrict(s: DecodeState, type: 'unknown field' | 'duplicate field', field: string): void {
  if (s.strictErrors.length >= 100) return;
  const path = s.stack.length > 0 ? `${s.stack.join('')}.${field}` : field;
  const msg = `${type} ${JSON.stringify(path)}`;
  if (s.seenStrict.has(msg)) return;
  s.seenStrict.add(msg);
  s.strictErrors.push(msg);
}

function saveTypeError(s: DecodeState, value: string, type: GoType | string): void {
  if (s.typeError !== undefined) return;
  const typeName = typeof type === 'string' ? type : goTypeName(type);
  s.typeError =
    s.ctx.struct !== undefined || s.ctx.fields.length > 0
      ? `json: cannot unmarshal ${value} into Go struct field ${s.ctx.struct ?? ''}.${s.ctx.fields.join('.')} of type ${typeName}`
      : `json: cannot unmarshal ${value} into Go value of type ${typeName}`;
}

const goTypeName = (t: GoType): string => (t.kind === 'any' ? 'interface {}' : t.kind === 'string' ? 'string' : t.name);

const pushKey = (s: DecodeState, key: string): void => void s.stack.push(s.stack.length > 0 ? `.${key}` : key);

/** Skip one (valid) value, returning its text. */
function skipValue(s: DecodeState): string {
  const start = s.pos;
  const first = s.text[s.pos];
  if (first === '"') {
    for (s.pos++; s.pos < s.text.length; s.pos++) {
      const c = s.text[s.pos];
      if (c === '\\') s.pos++;
      else if (c === '"') break;
    }
    s.pos++;
  } else if (first === '{' || first === '[') {
    let depth = 0;
    let inStr = false;
    for (; s.pos < s.text.length; s.pos++) {
      const c = s.text[s.pos];
      if (inStr) {
        if (c === '\\') s.pos++;
        else if (c === '"') inStr = false;
      } else if (c === '"') inStr = true;
      else if (c === '{' || c === '[') depth++;
      else if ((c === '}' || c === ']') && --depth === 0) {
        s.pos++;
        break;
      }
    }
  } else {
    while (s.pos < s.text.length && !',}] \t\n\r'.includes(s.text[s.pos]!)) s.pos++;
  }
  return s.text.slice(start, s.pos);
}

function readString(s: DecodeState): string {
  const raw = skipValue(s);
  return JSON.parse(raw) as string;
}

const kindOfNext = (s: DecodeState): 'object' | 'array' | 'string' | 'number' | 'bool' | 'null' => {
  const c = s.text[s.pos];
  if (c === '{') return 'object';
  if (c === '[') return 'array';
  if (c === '"') return 'string';
  if (c === 't' || c === 'f') return 'bool';
  if (c === 'n') return 'null';
  return 'number';
};

function decodeValue(s: DecodeState, t: GoType): unknown {
  skipWs(s);
  const kind = kindOfNext(s);
  if (t.kind === 'any') return decodeAny(s);
  if (kind === 'null') {
    skipValue(s);
    return null;
  }
  switch (t.kind) {
    case 'string':
      if (kind === 'string') return readString(s);
      break;
    case 'map':
      if (kind === 'object') return decodeObject(s, undefined);
      break;
    case 'rawMap':
      if (kind === 'object') return decodeObject(s, undefined, true);
      break;
    case 'slice':
      if (kind === 'array') return decodeArray(s, t.elem);
      break;
    case 'struct':
      if (kind === 'object') return decodeObject(s, t);
      break;
  }
  saveTypeError(s, kind, t);
  skipValue(s);
  return undefined;
}

function decodeAny(s: DecodeState): unknown {
  skipWs(s);
  const kind = kindOfNext(s);
  if (kind === 'object') return decodeObject(s, undefined);
  if (kind === 'array') return decodeArray(s, goAny);
  const raw = skipValue(s);
  if (kind !== 'number') return JSON.parse(raw) as unknown;
  const n = jsonNumber(raw);
  if (s.float64Range && typeof n === 'number' && !Number.isFinite(n)) saveTypeError(s, `number ${raw}`, 'float64');
  return n;
}

function decodeArray(s: DecodeState, elem: GoType): unknown[] {
  const out: unknown[] = [];
  const base = s.stack.length;
  s.pos++; // [
  skipWs(s);
  if (s.text[s.pos] === ']') {
    s.pos++;
    return out;
  }
  for (let i = 0; ; i++) {
    s.stack.push(`[${i}]`);
    out.push(decodeValue(s, elem));
    s.stack.length = base;
    skipWs(s);
    const c = s.text[s.pos++];
    if (c === ']') return out;
  }
}

function decodeObject(s: DecodeState, struct: Extract<GoType, { kind: 'struct' }> | undefined, raw = false): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const base = s.stack.length;
  s.pos++; // {
  skipWs(s);
  if (s.text[s.pos] === '}') {
    s.pos++;
    return out;
  }
  for (;;) {
    skipWs(s);
    const key = readString(s);
    skipWs(s);
    s.pos++; // :
    let fieldType: GoType | undefined = goAny;
    if (struct) {
      fieldType = Object.prototype.hasOwnProperty.call(struct.fields, key) ? struct.fields[key] : undefined;
      if (fieldType === undefined) {
        if (s.strict) saveStrict(s, 'unknown field', key);
      } else if (s.strict && Object.prototype.hasOwnProperty.call(out, key)) {
        saveStrict(s, 'duplicate field', key);
      }
    } else if (s.strict && Object.prototype.hasOwnProperty.call(out, key)) {
      saveStrict(s, 'duplicate field', key);
    }
    skipWs(s);
    if (fieldType === undefined) {
      skipValue(s);
    } else {
      pushKey(s, key);
      const saved = s.ctx;
      if (struct) s.ctx = { struct: struct.short, fields: [...saved.fields, key] };
      let v: unknown;
      if (raw) {
        const text = skipValue(s);
        v = text === 'null' ? null : new RawJson(text);
      } else v = s.keepRaw && struct && fieldType.kind === 'any' ? new RawJson(skipValue(s)) : decodeValue(s, fieldType);
      s.ctx = saved;
      s.stack.length = base;
      if (v !== undefined || !Object.prototype.hasOwnProperty.call(out, key)) setOwn(out, key, v === undefined ? null : v);
    }
    skipWs(s);
    const c = s.text[s.pos++];
    if (c === '}') return out;
  }
}

interface GoDecodeResult {
  value: unknown;
  /** sigs.k8s.io/json strict errors (`duplicate field "a.b"`, `unknown field "[0].x"`), strict mode only. */
  strictErrors: string[];
}

interface GoDecodeOptions {
  /** sigs.k8s.io/json UnmarshalStrict: report duplicate and unknown fields. */
  strict?: boolean;
  /** Keep struct fields of type interface{} as RawJson (json.RawMessage). */
  keepRaw?: boolean;
  /**
   * Refuse a number beyond float64 decoded into an interface{} (ParseFloat's ErrRange), as Go does; callers
   * whose Go counterpart keeps such values raw (json-patch's lazy nodes) leave it off.
   */
  float64Range?: boolean;
}

/**
 * Unmarshal `input` into a Go value of type `target`. Throws GoJsonError with Go's message for
 * syntax errors (checked over the whole input first) and for the first type mismatch.
 * A JSON null leaves the target at its zero value: `null` comes back.
 */
export function goUnmarshal(input: string | Uint8Array, target: GoType, opts: GoDecodeOptions = {}): GoDecodeResult {
  const text = typeof input === 'string' ? input : utf8Decoder.decode(input);
  // Go's checkValid, for its error message: text JSON.parse takes is valid to Go's scanner as well (the same
  // grammar; bytes that are not UTF-8 are valid inside strings to both), and the native parse is several times
  // faster than the scanner in JavaScript (test/util/go-json-syntax.test.ts compares the two over fuzzed input).
  if (hasUtf8Bom(input) || !parsesAsJson(text)) {
    const syntax = goJsonSyntaxError(typeof input === 'string' ? Buffer.from(input, 'utf8') : input);
    if (syntax !== undefined) throw new GoJsonError(syntax, true);
  }
  // The decoder recurses: input deeper than the server takes fails as Go's scanner fails beyond its limit.
  const deep = jsonDepthOffset(text);
  if (deep >= 0) throw new GoJsonError(maxDepthMessage(text, deep), true);
  const s: DecodeState = {
    text,
    pos: 0,
    strict: opts.strict ?? false,
    strictErrors: [],
    seenStrict: new Set(),
    stack: [],
    ctx: { fields: [] },
    keepRaw: opts.keepRaw ?? false,
    float64Range: opts.float64Range ?? false,
  };
  const value = decodeValue(s, target);
  if (s.typeError !== undefined) throw new GoJsonError(s.typeError);
  return { value: value === undefined ? null : value, strictErrors: s.strictErrors };
}

/** A byte order mark, which the UTF-8 decoder drops and Go's scanner refuses. */
const hasUtf8Bom = (input: string | Uint8Array): boolean => typeof input !== 'string' && input[0] === 0xef && input[1] === 0xbb && input[2] === 0xbf;

/** Whether JSON.parse takes `text` (then Go's scanner does too). */
export function parsesAsJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** Parse valid JSON text into plain values (Go's interface{} decoding). */
export function parseJsonText(text: string): unknown {
  return goUnmarshal(text, goAny).value;
}

// ------------------------------------------------------------------ encoding (json.Marshal)

// Characters json.Marshal escapes (or replaces); strings without any are written as they are.
const NEEDS_ESCAPE = /["\\\u0000-\u001f<>&\u2028\u2029\ud800-\udfff]/;

function goEscapeString(s: string): string {
  if (!NEEDS_ESCAPE.test(s)) return `"${s}"`;
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    switch (ch) {
      case '"':
        out += '\\"';
        continue;
      case '\\':
        out += '\\\\';
        continue;
      case '\n':
        out += '\\n';
        continue;
      case '\r':
        out += '\\r';
        continue;
      case '\t':
        out += '\\t';
        continue;
      case '\b':
        out += '\\b';
        continue;
      case '\f':
        out += '\\f';
        continue;
    }
    if (c < 0x20 || ch === '<' || ch === '>' || ch === '&' || c === 0x2028 || c === 0x2029) {
      out += '\\u' + c.toString(16).padStart(4, '0');
    } else if (c >= 0xd800 && c <= 0xdfff) {
      out += '\\ufffd'; // a lone surrogate is invalid UTF-8 to Go
    } else out += ch;
  }
  return out + '"';
}

/** Go's float64 formatting in encoding/json (ES formatting agrees except for exponent padding). */
function goNumber(n: number): string {
  if (!Number.isFinite(n)) throw new GoJsonError(`json: unsupported value: ${n}`);
  return String(n);
}

/** json.Marshal of a decoded JSON value: map keys sorted, HTML characters escaped. */
export function goJsonMarshal(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (v instanceof RawJson) return goJsonCompact(v.text);
  switch (typeof v) {
    case 'string':
      return goEscapeString(v);
    case 'number':
      return goNumber(v);
    case 'boolean':
      return v ? 'true' : 'false';
    case 'bigint':
      return v.toString();
    case 'object':
      if (Array.isArray(v)) return `[${v.map(goJsonMarshal).join(',')}]`;
      return `{${Object.keys(v)
        .sort((a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)))
        .map((k) => `${goEscapeString(k)}:${goJsonMarshal((v as Record<string, unknown>)[k])}`)
        .join(',')}}`;
    default:
      throw new GoJsonError(`json: unsupported type: ${typeof v}`);
  }
}

/** json.Compact: drop insignificant whitespace, keep everything else byte for byte. */
export function goJsonCompact(text: string): string {
  let out = '';
  let inStr = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inStr) {
      out += c;
      if (c === '\\') out += text[++i] ?? '';
      else if (c === '"') inStr = false;
    } else if (c === '"') {
      inStr = true;
      out += c;
    } else if (c !== ' ' && c !== '\t' && c !== '\n' && c !== '\r') out += c;
  }
  return out;
}

/** One level of a RawJson value, its children still raw (how a json-patch lazyNode unfolds). */
type RawShape =
  | { kind: 'object'; entries: Map<string, RawJson | null> }
  | { kind: 'array'; items: Array<RawJson | null> }
  | { kind: 'scalar' };

export function rawShape(raw: RawJson): RawShape {
  const s: DecodeState = {
    text: raw.text,
    pos: 0,
    strict: false,
    strictErrors: [],
    seenStrict: new Set(),
    stack: [],
    ctx: { fields: [] },
    keepRaw: false,
    float64Range: false,
  };
  const child = (): RawJson | null => {
    skipWs(s);
    const text = skipValue(s);
    return text === 'null' ? null : new RawJson(text);
  };
  skipWs(s);
  const first = s.text[s.pos];
  if (first !== '{' && first !== '[') return { kind: 'scalar' };
  s.pos++;
  skipWs(s);
  if (first === '{') {
    const entries = new Map<string, RawJson | null>();
    if (s.text[s.pos] === '}') return { kind: 'object', entries };
    for (;;) {
      skipWs(s);
      const key = readString(s);
      skipWs(s);
      s.pos++; // :
      entries.set(key, child());
      skipWs(s);
      if (s.text[s.pos++] === '}') return { kind: 'object', entries };
    }
  }
  const items: Array<RawJson | null> = [];
  if (s.text[s.pos] === ']') return { kind: 'array', items };
  for (;;) {
    items.push(child());
    skipWs(s);
    if (s.text[s.pos++] === ']') return { kind: 'array', items };
  }
}

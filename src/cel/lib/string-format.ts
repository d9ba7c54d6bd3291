// `<string>.format(<list>)` of cel-go ext.Strings (ext/formatting.go at v0.23.2) with the
// en_US locale cel-go defaults to, and the AST validator that checks constant format
// strings against list-literal arguments at compile time.
//
// Clauses: %s (strings, bools, bytes, numbers, null, types, timestamps, durations, lists,
// maps), %d, %f and %e (with precision), %b, %o, %x, %X; %% is a literal percent sign.
// %f and %e go through golang.org/x/text/message, so %f groups thousands ("1,234.500000")
// and %e prints "2.718280 × 10⁰⁰"; v0.23.2 passes the precision of %e as a width.

import type { CheckedAst, Expr } from '../ast.js';
import type { AstValidator } from '../ast-validator.js';
import type { CelType } from '../types.js';
import { formatDuration, formatTimestamp } from '../time.js';
import { CelError, CelMap, CelObject, Duration, Timestamp, TypeValue, Uint, type Val } from '../values.js';
import { isJsonBacked, runtimeTypeName, typeName } from '../value-ops.js';
import { exactDecimal, fmtF, goFixed, goShortestG, roundDecimal } from './go-float.js';
import { goQuote } from './support.js';

/** A formatting failure; `id` is the expression that caused it (compile time) or -1. */
class FormatError extends Error {
  constructor(readonly id: number, message: string) {
    super(message);
  }
}

/** parseFormatError: a message wrapping the underlying failure. */
class ClauseError extends Error {
  constructor(prefix: string, readonly inner: Error) {
    super(`${prefix}: ${inner.message}`);
  }
}

const RUNTIME_ID = -1;

const binaryError = (id: number, t: string) => new FormatError(id, `only integers and bools can be formatted as binary, was given ${t}`);
const decimalError = (id: number, t: string) => new FormatError(id, `decimal clause can only be used on integers, was given ${t}`);
const fixedError = (id: number, t: string) => new FormatError(id, `fixed-point clause can only be used on doubles, was given ${t}`);
const hexError = (id: number, t: string) => new FormatError(id, `only integers, byte buffers, and strings can be formatted as hex, was given ${t}`);
const octalError = (id: number, t: string) => new FormatError(id, `octal clause can only be used on integers, was given ${t}`);
const scientificError = (id: number, t: string) => new FormatError(id, `scientific clause can only be used on doubles, was given ${t}`);
const stringError = (id: number, t: string) =>
  new FormatError(id, `string clause can only be used on strings, bools, bytes, ints, doubles, maps, lists, types, durations, and timestamps, was given ${t}`);

type Clause<A> = (arg: A) => string;

/** What a clause does with its argument: format it (runtime) or check its type (validator). */
interface Interpolator<A> {
  string: Clause<A>;
  decimal: Clause<A>;
  fixed(precision: number | undefined): Clause<A>;
  scientific(precision: number | undefined): Clause<A>;
  binary: Clause<A>;
  hex(upper: boolean): Clause<A>;
  octal: Clause<A>;
}

interface ArgList<A> {
  arg(index: number): A;
  readonly size: number;
}

const isDigit = (c: string | undefined): boolean => c !== undefined && c >= '0' && c <= '9';

/** Go indexes format strings by byte: a non-ASCII character after % is reported as its first
 * UTF-8 byte read as a rune. */
function clauseChar(c: string): string {
  const cp = c.codePointAt(0)!;
  if (cp < 0x80) return c;
  const first = new TextEncoder().encode(c)[0]!;
  return String.fromCodePoint(first);
}

function parsePrecision(s: string, i: number): [next: number, precision: number | undefined] {
  if (s[i] !== '.') return [i, undefined];
  i++;
  let digits = '';
  for (;;) {
    if (i >= s.length) throw new Error('could not find end of precision specifier');
    if (!isDigit(s[i])) break;
    digits += s[i];
    i++;
  }
  if (digits === '') throw new Error('error while converting precision to integer: strconv.Atoi: parsing "": invalid syntax');
  const p = Number(digits);
  if (!Number.isSafeInteger(p) || p > 2147483647) {
    throw new Error(`error while converting precision to integer: strconv.Atoi: parsing ${goQuote(digits)}: value out of range`);
  }
  return [i, p];
}

function parseClause<A>(s: string, i: number, cb: Interpolator<A>): [next: number, clause: Clause<A>] {
  let precision: number | undefined;
  try {
    [i, precision] = parsePrecision(s, i);
  } catch (e) {
    throw new Error(`error while parsing precision: ${(e as Error).message}`);
  }
  const c = s[i]!;
  i++;
  switch (c) {
    case 's': return [i, cb.string];
    case 'd': return [i, cb.decimal];
    case 'f': return [i, cb.fixed(precision)];
    case 'e': return [i, cb.scientific(precision)];
    case 'b': return [i, cb.binary];
    case 'x': return [i, cb.hex(false)];
    case 'X': return [i, cb.hex(true)];
    case 'o': return [i, cb.octal];
    default: throw new Error(`unrecognized formatting clause "${clauseChar(String.fromCodePoint(s.codePointAt(i - 1)!))}"`);
  }
}

/** parseFormatString: throws FormatError, ClauseError or Error with cel-go's messages. */
function interpolate<A>(format: string, cb: Interpolator<A>, list: ArgList<A>): string {
  let out = '';
  let argIndex = 0;
  let i = 0;
  while (i < format.length) {
    const c = format[i]!;
    if (c !== '%') {
      out += c;
      i++;
      continue;
    }
    if (format[i + 1] === '%') {
      out += '%';
      i += 2;
      continue;
    }
    const arg = list.arg(argIndex);
    if (i + 1 >= format.length) throw new Error('unexpected end of string');
    if (argIndex >= list.size) throw new Error(`index ${argIndex} out of range`);
    let next: number;
    let clause: Clause<A>;
    try {
      [next, clause] = parseClause(format, i + 1, cb);
    } catch (e) {
      throw new ClauseError('could not parse formatting clause', e as Error);
    }
    try {
      out += clause(arg);
    } catch (e) {
      throw new ClauseError('error during formatting', e as Error);
    }
    i = next;
    argIndex++;
  }
  return out;
}

// --- runtime formatting ----------------------------------------------------------------------

function isMap(v: Val): v is CelMap | CelObject {
  return v instanceof CelMap || (v instanceof CelObject && isJsonBacked(v));
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

function bytesToString(b: Uint8Array): string {
  try {
    return UTF8.decode(b);
  } catch {
    throw new Error('could not convert argument "invalid UTF-8 in bytes, cannot convert to string" to string');
  }
}

/** FormatString: the %s rendering of a value. */
function formatStringClause(arg: Val): string {
  if (Array.isArray(arg)) return formatList(arg as readonly Val[]);
  if (isMap(arg)) return formatMap(arg);
  switch (typeof arg) {
    case 'string': return arg;
    case 'bigint': return arg.toString();
    case 'number': return goShortestG(arg);
    case 'boolean': return arg ? 'true' : 'false';
  }
  if (arg === null) return 'null';
  if (arg instanceof Uint) return arg.value.toString();
  if (arg instanceof Uint8Array) return bytesToString(arg);
  if (arg instanceof Timestamp) return formatTimestamp(arg);
  if (arg instanceof Duration) return formatDuration(arg);
  if (arg instanceof TypeValue) return typeName(arg.type);
  throw stringError(RUNTIME_ID, runtimeTypeName(arg));
}

function formatDecimalClause(arg: Val): string {
  if (typeof arg === 'bigint') return arg.toString();
  if (arg instanceof Uint) return arg.value.toString();
  throw decimalError(RUNTIME_ID, runtimeTypeName(arg));
}

/** clauseForType: how a list element or map value renders inside %s. */
function memberClause(v: Val): (v: Val) => string {
  if (typeof v === 'bigint' || v instanceof Uint) return formatDecimalClause;
  if (typeof v === 'string' || typeof v === 'boolean' || v === null || v instanceof Uint8Array || v instanceof TypeValue) return formatStringClause;
  if (v instanceof Timestamp) return (t) => `timestamp(${goQuote(formatTimestamp(t as Timestamp))})`;
  if (v instanceof Duration) return (d) => `duration(${goQuote(formatDuration(d as Duration))})`;
  if (Array.isArray(v)) return (l) => formatList(l as readonly Val[]);
  if (isMap(v)) return (m) => formatMap(m as CelMap | CelObject);
  // Doubles print as valid CEL literals: always with a period, never localized.
  if (typeof v === 'number') return (d) => goFixed(d as number, 6);
  throw new Error(`no formatting function for ${runtimeTypeName(v)}`);
}

/** quoteForCEL: strings, bytes and non-finite doubles in the form CEL reads back. */
function quoteForCEL(v: Val, s: string): string {
  if (typeof v === 'string') return goQuote(s);
  if (v instanceof Uint8Array) return 'b' + goQuote(s);
  if (typeof v === 'number' && !Number.isFinite(v)) return goQuote(s);
  return s;
}

function formatList(list: readonly Val[]): string {
  const parts = list.map((m) => quoteForCEL(m, memberClause(m)(m)));
  return `[${parts.join(', ')}]`;
}

function mapEntries(m: CelMap | CelObject): [Val, Val][] {
  if (m instanceof CelMap) return [...m.keys()].map((k) => [k, m.get(k) ?? null]);
  const json = m as CelObject & { raw: Record<string, unknown>; rawField(k: string): Val | undefined };
  return Object.keys(json.raw).map((k) => [k, json.rawField(k) ?? null]);
}

/** Go's string ordering: by UTF-8 bytes, i.e. by code points. */
function byCodePoints(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i]!.codePointAt(0)! - y[i]!.codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

function formatMap(m: CelMap | CelObject): string {
  const pairs: [string, string][] = [];
  for (const [k, v] of mapEntries(m)) {
    let key: string;
    if (typeof k === 'string' || typeof k === 'boolean') key = formatStringClause(k);
    else if (typeof k === 'bigint' || k instanceof Uint) key = formatDecimalClause(k);
    else throw new Error(`no formatting function for map key of type ${runtimeTypeName(k)}`);
    pairs.push([quoteForCEL(k, key), quoteForCEL(v, memberClause(v)(v))]);
  }
  // sort.SliceStable by the quoted key.
  pairs.sort((a, b) => byCodePoints(a[0], b[0]));
  return `{${pairs.map(([k, v]) => `${k}:${v}`).join(', ')}}`;
}

/** The strings "NaN", "Infinity" and "-Infinity" stand in for doubles in %f and %e. */
function doubleArg(arg: Val, error: (id: number, t: string) => FormatError): number {
  if (typeof arg === 'number') return arg;
  if (arg === 'NaN') return NaN;
  if (arg === 'Infinity') return Infinity;
  if (arg === '-Infinity') return -Infinity;
  throw error(RUNTIME_ID, runtimeTypeName(arg));
}

/** en_US number rendering of golang.org/x/text: grouped integer digits, ∞ for infinities. */
function localizedSpecial(x: number): string | undefined {
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return '∞';
  if (x === -Infinity) return '-∞';
  return undefined;
}

const group = (int: string): string => int.replace(/\B(?=(\d{3})+$)/g, ',');

function localizedFixed(x: number, precision: number): string {
  const s = localizedSpecial(x);
  if (s) return s;
  const exact = exactDecimal(x);
  const d = roundDecimal(exact, exact.dp + precision);
  const { int, frac } = fmtF(d, precision);
  return (x < 0 ? '-' : '') + group(int) + (precision > 0 ? '.' + frac : '');
}

const SUPERSCRIPT = ['⁰', '¹', '²', '³', '⁴', '⁵', '⁶', '⁷', '⁸', '⁹'];

/** x/text's scientific form with 6 fraction digits; cel-go's "%<precision>e" makes the
 * precision a minimum width, padded with spaces on the left. */
function localizedScientific(x: number, width: number): string {
  let out = localizedSpecial(x);
  if (out === undefined) {
    const exact = exactDecimal(x);
    const d = roundDecimal(exact, 7);
    const digits = d.digits.padEnd(7, '0');
    let exp = d.digits.length === 0 ? 0 : d.dp - 1;
    let e = '';
    if (exp < 0) {
      e = '⁻';
      exp = -exp;
    }
    e += String(exp).padStart(2, '0').split('').map((c) => SUPERSCRIPT[Number(c)]).join('');
    out = `${x < 0 ? '-' : ''}${digits[0]}.${digits.slice(1)}\u202f×\u202f10${e}`;
  }
  const len = Array.from(out).length;
  return len < width ? ' '.repeat(width - len) + out : out;
}

const RUNTIME: Interpolator<Val> = {
  string: formatStringClause,
  decimal: formatDecimalClause,
  fixed: (precision) => (arg) => localizedFixed(doubleArg(arg, fixedError), precision ?? 6),
  scientific: (precision) => (arg) => localizedScientific(doubleArg(arg, scientificError), precision ?? 6),
  binary(arg) {
    if (typeof arg === 'bigint') return arg.toString(2);
    if (arg instanceof Uint) return arg.value.toString(2);
    if (typeof arg === 'boolean') return arg ? '1' : '0';
    throw binaryError(RUNTIME_ID, runtimeTypeName(arg));
  },
  hex: (upper) => (arg) => {
    let s: string;
    if (typeof arg === 'string') s = Buffer.from(arg, 'utf8').toString('hex');
    else if (arg instanceof Uint8Array) s = Buffer.from(arg.buffer, arg.byteOffset, arg.byteLength).toString('hex');
    else if (typeof arg === 'bigint') s = arg.toString(16);
    else if (arg instanceof Uint) s = arg.value.toString(16);
    else throw hexError(RUNTIME_ID, runtimeTypeName(arg));
    return upper ? s.toUpperCase() : s;
  },
  octal(arg) {
    if (typeof arg === 'bigint') return arg.toString(8);
    if (arg instanceof Uint) return arg.value.toString(8);
    throw octalError(RUNTIME_ID, runtimeTypeName(arg));
  },
};

/** `format.format(args)`: the formatted string, or cel-go's error. */
export function formatString(format: string, args: readonly Val[]): string | CelError {
  const list: ArgList<Val> = {
    size: args.length,
    arg(index) {
      if (index >= args.length) throw new Error(`index ${index} out of range`);
      return args[index]!;
    },
  };
  try {
    return interpolate(format, RUNTIME, list);
  } catch (e) {
    return new CelError((e as Error).message);
  }
}

// --- compile-time validation ---------------------------------------------------------------

type Kind = 'list' | 'map' | 'int' | 'uint' | 'double' | 'bool' | 'string' | 'timestamp' | 'bytes' | 'duration' | 'type' | 'null';

function kindOf(t: CelType): Kind | 'dyn' | undefined {
  switch (t.kind) {
    case 'dyn': return 'dyn';
    case 'primitive': return t.name;
    case 'list': case 'map': case 'timestamp': case 'duration': case 'type': case 'null': return t.kind;
    default: return undefined;
  }
}

/** stringFormatChecker: checks each clause against the static type of its list element. */
class FormatChecker implements Interpolator<number> {
  argsRequested = 0;
  private current = 0;

  constructor(private readonly args: readonly Expr[], private readonly ast: CheckedAst) {}

  private typeOf(id: number): CelType {
    return this.ast.types.get(id) ?? { kind: 'dyn' };
  }

  private oneOf(id: number, ...kinds: Kind[]): boolean {
    const k = kindOf(this.typeOf(id));
    return k === 'dyn' || (k !== undefined && kinds.includes(k));
  }

  private check(id: number, error: (id: number, t: string) => FormatError, ...kinds: Kind[]): string {
    if (!this.oneOf(id, ...kinds)) throw error(id, typeName(this.typeOf(id)));
    return '';
  }

  /** The id of the first element (recursively) that %s cannot print, or undefined. */
  private badForString(e: Expr): number | undefined {
    const all: Kind[] = ['list', 'map', 'int', 'uint', 'double', 'bool', 'string', 'timestamp', 'bytes', 'duration', 'type', 'null'];
    if (!this.oneOf(e.id, ...all)) return e.id;
    if (e.kind === 'list') {
      for (const x of e.elements) {
        const bad = this.badForString(x);
        if (bad !== undefined) return bad;
      }
    } else if (e.kind === 'map') {
      for (const en of e.entries) {
        const bad = this.badForString(en.key) ?? this.badForString(en.value);
        if (bad !== undefined) return bad;
      }
    }
    return undefined;
  }

  private id(): number {
    return this.args[this.current]!.id;
  }

  readonly string = (): string => {
    const bad = this.badForString(this.args[this.current]!);
    if (bad !== undefined) throw stringError(bad, typeName(this.typeOf(bad)));
    return '';
  };
  readonly decimal = (): string => this.check(this.id(), decimalError, 'int', 'uint');
  // Strings are allowed for "NaN", "Infinity" and "-Infinity".
  readonly fixed = () => (): string => this.check(this.id(), fixedError, 'double', 'string');
  readonly scientific = () => (): string => this.check(this.id(), scientificError, 'double', 'string');
  readonly binary = (): string => this.check(this.id(), binaryError, 'int', 'uint', 'bool');
  readonly hex = () => (): string => this.check(this.id(), hexError, 'int', 'uint', 'string', 'bytes');
  readonly octal = (): string => this.check(this.id(), octalError, 'int', 'uint');

  get size(): number {
    return this.args.length;
  }

  arg(index: number): number {
    this.argsRequested++;
    this.current = index;
    return 0;
  }
}

/** The id an error is reported at: the offending argument, else the call. */
function errorId(callId: number, e: Error): number {
  if (e instanceof FormatError) return e.id;
  if (e instanceof ClauseError) return errorId(callId, e.inner);
  return callId;
}

/** cel-go's stringFormatValidator: `'<literal>'.format([<list literal>])` must have valid
 * clauses, arguments of the right types and no unused arguments. */
export const stringFormatValidator: AstValidator = (ast, _env, report) => {
  const visit = (e: Expr): void => {
    forEachChild(e, visit);
    if (e.kind !== 'call' || e.fn !== 'format' || !e.target) return;
    const ids = ast.references.get(e.id)?.overloadIds ?? [];
    if (ids.length > 0 && !ids.includes('string_format')) return;
    if (e.target.kind !== 'literal' || e.target.value.kind !== 'string') return;
    if (e.args.length !== 1 || e.args[0]!.kind !== 'list') return;
    const args = e.args[0].elements;
    const checker = new FormatChecker(args, ast);
    try {
      interpolate(e.target.value.value, checker, checker);
    } catch (err) {
      report(errorId(e.id, err as Error), (err as Error).message);
      return;
    }
    if (args.length > checker.argsRequested) {
      report(e.id, `too many arguments supplied to string.format (expected ${checker.argsRequested}, got ${args.length})`);
    }
  };
  visit(ast.expr);
};

function forEachChild(e: Expr, f: (e: Expr) => void): void {
  switch (e.kind) {
    case 'select': f(e.operand); break;
    case 'call':
      if (e.target) f(e.target);
      e.args.forEach(f);
      break;
    case 'list': e.elements.forEach(f); break;
    case 'map': for (const en of e.entries) { f(en.key); f(en.value); } break;
    case 'struct': for (const fl of e.fields) f(fl.value); break;
    case 'comprehension':
      f(e.iterRange); f(e.accuInit); f(e.loopCondition); f(e.loopStep); f(e.result);
      break;
    default: break;
  }
}

// The Go view of JSON values that client-go's JSONPath works on. Decoded JSON holds int64 for integral
// numbers and float64 for the rest; a template's literals are Go `int` and `float64`; wildcarding a
// string yields its bytes as uint8. Those distinctions decide comparisons (int against float is an
// error), printing (%v of a float64 is not its JSON text) and which table cells a value may fill.

/** A number that is not plain decoded JSON: a template literal or a byte of a string. */
export class GoNumber {
  constructor(
    readonly kind: 'int' | 'float64' | 'uint8',
    readonly value: number,
  ) {}
}

/**
 * How the apiserver's unstructured JSON decoding types a number: int64 for an integer literal in range.
 * Those beyond the safe integers are bigints (util/json-int64.ts), so an integral number beyond is a float64.
 */
export const isInt64 = (n: number): boolean => Number.isSafeInteger(n);

type GoKind = 'bool' | 'int' | 'uint' | 'float' | 'string' | 'map' | 'slice' | 'nil';

function goKind(v: unknown): GoKind {
  if (v === null || v === undefined) return 'nil';
  if (v instanceof GoNumber) return v.kind === 'float64' ? 'float' : v.kind === 'uint8' ? 'uint' : 'int';
  switch (typeof v) {
    case 'boolean':
      return 'bool';
    case 'string':
      return 'string';
    case 'number':
      return isInt64(v) ? 'int' : 'float';
    case 'bigint':
      return 'int';
    default:
      return Array.isArray(v) ? 'slice' : 'map';
  }
}

/** reflect.Type's String() for a value, as error messages show it. */
export function goTypeName(v: unknown): string {
  if (v instanceof GoNumber) return v.kind;
  switch (goKind(v)) {
    case 'bool':
      return 'bool';
    case 'string':
      return 'string';
    case 'int':
      return 'int64';
    case 'float':
      return 'float64';
    case 'slice':
      return '[]interface {}';
    case 'map':
      return 'map[string]interface {}';
    default:
      return 'interface {}';
  }
}

const numberOf = (v: unknown): number => (v instanceof GoNumber ? v.value : (v as number));

/** strconv.FormatFloat(f, 'g', -1, 64), which fmt's %v uses: shortest digits, exponent below 1e-4 and from 1e6 (Go's "1e+06"). */
export function goFormatFloat(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (!Number.isFinite(f)) return f > 0 ? '+Inf' : '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mant, expText] = Math.abs(f).toExponential().split('e') as [string, string];
  const digits = mant.replace('.', '');
  const exp = Number(expText);
  const sign = f < 0 ? '-' : '';
  if (exp < -4 || exp >= 6) {
    const m = digits.length > 1 ? `${digits[0]}.${digits.slice(1)}` : digits;
    const e = Math.abs(exp);
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' : ''}${e}`;
  }
  const dp = exp + 1; // digits before the decimal point
  if (dp <= 0) return `${sign}0.${'0'.repeat(-dp)}${digits}`;
  if (dp >= digits.length) return sign + digits + '0'.repeat(dp - digits.length);
  return `${sign}${digits.slice(0, dp)}.${digits.slice(dp)}`;
}

/** fmt.Sprint of a scalar (maps and slices print as JSON before they get here). */
export function goSprint(v: unknown): string {
  if (v === undefined) return '<no value>'; // an invalid reflect.Value
  if (v === null) return 'null'; // jsonpath prints a nil interface as null
  if (v instanceof GoNumber) return v.kind === 'float64' ? goFormatFloat(v.value) : String(v.value);
  switch (typeof v) {
    case 'number':
      return isInt64(v) ? BigInt(v).toString() : goFormatFloat(v);
    case 'bigint':
      return v.toString();
    case 'string':
      return v;
    case 'boolean':
      return v ? 'true' : 'false';
    default:
      return goSprintV(v);
  }
}

/** fmt's %v of any value (maps print with sorted keys), for error messages. */
export function goSprintV(v: unknown): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goSprintV).join(' ')}]`;
  if (typeof v === 'object' && !(v instanceof GoNumber)) {
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o).sort(compareGoStrings);
    return `map[${keys.map((k) => `${k}:${goSprintV(o[k])}`).join(' ')}]`;
  }
  return goSprint(v);
}

/** Go compares strings bytewise in UTF-8, which is code point order (not UTF-16 unit order). */
export function compareGoStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i)!;
    const y = b.codePointAt(i)!;
    if (x !== y) return x < y ? -1 : 1;
    if (x > 0xffff) i++;
  }
  return a.length === b.length ? 0 : a.length < b.length ? -1 : 1;
}

// text/template's comparison functions (client-go's fork), which JSONPath filters use.

const ERR_BAD_TYPE = 'invalid type for comparison';
const ERR_INCOMPATIBLE = 'incompatible types for comparison';

type Basic = Exclude<GoKind, 'map' | 'slice' | 'nil'>;

function basicKind(v: unknown): Basic {
  const k = goKind(v);
  if (k === 'map' || k === 'slice' || k === 'nil') throw new Error(ERR_BAD_TYPE);
  return k;
}

export function goEqual(a: unknown, b: unknown): boolean {
  const ka = basicKind(a);
  const kb = basicKind(b);
  if (ka !== kb) {
    // Signed and unsigned integers compare by value.
    if ((ka === 'int' && kb === 'uint') || (ka === 'uint' && kb === 'int')) return numberOf(a) === numberOf(b);
    throw new Error(ERR_INCOMPATIBLE);
  }
  if (ka === 'string' || ka === 'bool') return a === b;
  return numberOf(a) === numberOf(b);
}

function goLess(a: unknown, b: unknown): boolean {
  const ka = basicKind(a);
  const kb = basicKind(b);
  if (ka !== kb) {
    if ((ka === 'int' && kb === 'uint') || (ka === 'uint' && kb === 'int')) return numberOf(a) < numberOf(b);
    throw new Error(ERR_INCOMPATIBLE);
  }
  if (ka === 'bool') throw new Error(ERR_BAD_TYPE);
  if (ka === 'string') return compareGoStrings(a as string, b as string) < 0;
  return numberOf(a) < numberOf(b);
}

/** A filter's operator applied as text/template does: <=, > and >= are built from < and ==. */
export function goCompare(op: string, a: unknown, b: unknown): boolean {
  switch (op) {
    case '==':
      return goEqual(a, b);
    case '!=':
      return !goEqual(a, b);
    case '<':
      return goLess(a, b);
    case '<=':
      return goLess(a, b) || goEqual(a, b);
    case '>':
      return !(goLess(a, b) || goEqual(a, b));
    case '>=':
      return !goLess(a, b);
    default:
      throw new Error(`unrecognized filter operator ${op}`);
  }
}

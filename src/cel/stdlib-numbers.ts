// Go's strconv rules for the standard library's string conversions: what int(), uint(),
// double() and bool() accept, and how string(double) prints (fmt's %g).

const MAX_INT64 = 9223372036854775807n;
const MIN_INT64 = -9223372036854775808n;
const MAX_UINT64 = 18446744073709551615n;

/** strconv.ParseInt(s, 10, 64). */
export function parseGoInt(s: string): bigint | undefined {
  if (!/^[+-]?\d+$/.test(s)) return undefined;
  const v = BigInt(s);
  return v < MIN_INT64 || v > MAX_INT64 ? undefined : v;
}

/** strconv.ParseUint(s, 10, 64): digits only, no sign. */
export function parseGoUint(s: string): bigint | undefined {
  if (!/^\d+$/.test(s)) return undefined;
  const v = BigInt(s);
  return v > MAX_UINT64 ? undefined : v;
}

/** strconv.ParseBool. */
export function parseGoBool(s: string): boolean | undefined {
  switch (s) {
    case '1': case 't': case 'T': case 'TRUE': case 'true': case 'True':
      return true;
    case '0': case 'f': case 'F': case 'FALSE': case 'false': case 'False':
      return false;
  }
  return undefined;
}

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;
const HEX = /^([+-]?)0[xX]([0-9a-fA-F]*)(?:\.([0-9a-fA-F]*))?[pP]([+-]?\d+)$/;

/** strconv.ParseFloat(s, 64) where it succeeds (a value out of range is an error there). */
export function parseGoFloat(s: string): number | undefined {
  if (DECIMAL.test(s)) {
    const v = Number(s);
    return Number.isFinite(v) ? v : undefined;
  }
  const lower = s.toLowerCase();
  const unsigned = lower[0] === '+' || lower[0] === '-' ? lower.slice(1) : lower;
  if (unsigned === 'inf' || unsigned === 'infinity') return lower[0] === '-' ? -Infinity : Infinity;
  if (lower === 'nan') return NaN;
  const h = HEX.exec(s);
  if (h && (h[2] !== '' || (h[3] ?? '') !== '')) {
    const digits = h[2]! + (h[3] ?? '');
    const mant = digits === '' ? 0n : BigInt('0x' + digits);
    const exp = Number(h[4]) - 4 * (h[3] ?? '').length;
    let v = Number(mant) * 2 ** exp;
    if (!Number.isFinite(v)) {
      // Scale in two steps so that large mantissas with negative exponents stay finite.
      v = Number(mant) * 2 ** Math.floor(exp / 2) * 2 ** Math.ceil(exp / 2);
    }
    if (!Number.isFinite(v)) return undefined;
    return h[1] === '-' ? -v : v;
  }
  return undefined;
}

/** fmt.Sprintf("%g", f): the shortest round-trip digits, in exponent form when the decimal
 * exponent is below -4 or at least 6 (strconv's 'g' with shortest precision). */
export function formatGoG(f: number): string {
  if (Number.isNaN(f)) return 'NaN';
  if (f === Infinity) return '+Inf';
  if (f === -Infinity) return '-Inf';
  if (f === 0) return Object.is(f, -0) ? '-0' : '0';
  const [mant, expStr] = Math.abs(f).toExponential().split('e');
  const digits = mant!.replace('.', '');
  const exp = Number(expStr);
  const sign = f < 0 ? '-' : '';
  if (exp < -4 || exp >= 6) {
    const m = digits.length > 1 ? digits[0] + '.' + digits.slice(1) : digits;
    const e = Math.abs(exp);
    return `${sign}${m}e${exp < 0 ? '-' : '+'}${e < 10 ? '0' + e : e}`;
  }
  const dp = exp + 1;
  let out: string;
  if (dp <= 0) out = '0.' + '0'.repeat(-dp) + digits;
  else if (dp >= digits.length) out = digits + '0'.repeat(dp - digits.length);
  else out = digits.slice(0, dp) + '.' + digits.slice(dp);
  return sign + out;
}

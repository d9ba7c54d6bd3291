// Go's float64 formatting (strconv's %e, %f, %g) on exact decimal expansions, so that
// rounding is correct round-half-even on the binary value as Go's is (JavaScript's toFixed
// rounds exact ties up). Used by string.format.

/** A non-negative finite double as digits: value = 0.d1d2…dn × 10^dp; digits is empty for zero. */
interface Decimal {
  digits: string;
  dp: number;
}

const TWO_POW_52 = 2 ** 52;

/** The exact decimal expansion of |x| (every double has a finite one). */
export function exactDecimal(x: number): Decimal {
  x = Math.abs(x);
  if (x === 0) return { digits: '', dp: 0 };
  const buf = new DataView(new ArrayBuffer(8));
  buf.setFloat64(0, x);
  const hi = buf.getUint32(0);
  const lo = buf.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let mant = BigInt(hi & 0xfffff) * 4294967296n + BigInt(lo);
  let exp: number;
  if (biased === 0) exp = -1074; // subnormal
  else {
    mant += BigInt(TWO_POW_52);
    exp = biased - 1075;
  }
  let digits: string;
  let dp: number;
  if (exp >= 0) {
    digits = (mant << BigInt(exp)).toString();
    dp = digits.length;
  } else {
    digits = (mant * 5n ** BigInt(-exp)).toString();
    dp = digits.length + exp;
  }
  return trimZeros({ digits, dp });
}

function trimZeros(d: Decimal): Decimal {
  let n = d.digits.length;
  while (n > 0 && d.digits[n - 1] === '0') n--;
  return n === d.digits.length ? d : { digits: d.digits.slice(0, n), dp: n === 0 ? 0 : d.dp };
}

/** decimal.Round(nd): keep nd digits, rounding half to even (the digits are exact). */
export function roundDecimal(d: Decimal, nd: number): Decimal {
  if (nd < 0 || nd >= d.digits.length) return d;
  const next = d.digits.charCodeAt(nd) - 48;
  let up: boolean;
  if (next === 5 && nd + 1 === d.digits.length) up = nd > 0 && (d.digits.charCodeAt(nd - 1) - 48) % 2 === 1;
  else up = next >= 5;
  if (!up) return trimZeros({ digits: d.digits.slice(0, nd), dp: d.dp });
  let i = nd - 1;
  while (i >= 0 && d.digits[i] === '9') i--;
  if (i < 0) return { digits: '1', dp: d.dp + 1 };
  return trimZeros({ digits: d.digits.slice(0, i) + String.fromCharCode(d.digits.charCodeAt(i) + 1), dp: d.dp });
}

/** The shortest digits that round-trip (what %v, %g and 'f' with precision -1 print). */
function shortestDecimal(x: number): Decimal {
  x = Math.abs(x);
  if (x === 0) return { digits: '', dp: 0 };
  const [mant, e] = x.toExponential().split('e') as [string, string];
  return { digits: mant.replace('.', ''), dp: Number(e) + 1 };
}

/** strconv fmtF: integer digits, then prec fraction digits. */
export function fmtF(d: Decimal, prec: number): { int: string; frac: string } {
  let int = '';
  if (d.dp > 0) {
    int = d.digits.slice(0, Math.min(d.digits.length, d.dp));
    int += '0'.repeat(d.dp - int.length);
  } else int = '0';
  let frac = '';
  for (let i = 1; i <= prec; i++) {
    const j = d.dp + i - 1;
    frac += j >= 0 && j < d.digits.length ? d.digits[j] : '0';
  }
  return { int, frac };
}

/** strconv fmtE: d.ddd…e±XX with prec fraction digits and at least two exponent digits. */
function fmtE(d: Decimal, prec: number): string {
  const first = d.digits.length === 0 ? '0' : d.digits[0]!;
  let out = first;
  if (prec > 0) {
    out += '.';
    for (let i = 1; i <= prec; i++) out += i < d.digits.length ? d.digits[i] : '0';
  }
  let exp = d.digits.length === 0 ? 0 : d.dp - 1;
  const sign = exp < 0 ? '-' : '+';
  if (exp < 0) exp = -exp;
  return `${out}e${sign}${exp < 10 ? '0' : ''}${exp}`;
}

const special = (x: number, plusInf: string): string | undefined =>
  Number.isNaN(x) ? 'NaN' : x === Infinity ? plusInf : x === -Infinity ? '-Inf' : undefined;

const neg = (x: number): string => (x < 0 || Object.is(x, -0) ? '-' : '');

/** fmt's %.<prec>f. */
export function goFixed(x: number, prec: number): string {
  const s = special(x, '+Inf');
  if (s) return s;
  const exact = exactDecimal(x);
  const d = roundDecimal(exact, exact.dp + prec);
  const { int, frac } = fmtF(d, prec);
  return neg(x) + int + (prec > 0 ? '.' + frac : '');
}

/** fmt's %g with the shortest precision (cel-go's double to string conversion). */
export function goShortestG(x: number): string {
  const s = special(x, '+Inf');
  if (s) return s;
  const d = shortestDecimal(x);
  const exp = d.digits.length === 0 ? 0 : d.dp - 1;
  if (exp < -4 || exp >= 6) return neg(x) + fmtE(d, Math.max(d.digits.length - 1, 0));
  const { int, frac } = fmtF(d, Math.max(d.digits.length - d.dp, 0));
  return neg(x) + int + (frac ? '.' + frac : '');
}

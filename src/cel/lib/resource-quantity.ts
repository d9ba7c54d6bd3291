// k8s.io/apimachinery's resource.Quantity (pkg/api/resource at v0.33.0): parsing, exact
// comparison, arithmetic and the canonical string form. A quantity is held as Go holds it,
// either a scaled int64 (value × 10^scale) or an inf.Dec (unscaled × 10^-scale); which one
// decides asInteger/isInteger and asApproximateFloat, so the parser follows Go step by step.

const MAX_INT64 = (1n << 63n) - 1n;
const MIN_INT64 = -(1n << 63n);
const inInt64 = (v: bigint): boolean => v >= MIN_INT64 && v <= MAX_INT64;
const pow10 = (n: number): bigint => 10n ** BigInt(n);

export type QuantityFormat = 'DecimalExponent' | 'BinarySI' | 'DecimalSI';

/** int64Amount: value × 10^scale. */
interface IntAmount {
  value: bigint;
  scale: number;
}

/** inf.Dec: unscaled × 10^-scale. Mutable, and shared between copies as Go's *inf.Dec is. */
export class Dec {
  constructor(public unscaled: bigint, public scale: number) {}

  sign(): number {
    return this.unscaled > 0n ? 1 : this.unscaled < 0n ? -1 : 0;
  }
}

const NANO = -9;
const MAX_INT64_FACTORS = 18;
const SPLIT_RE = '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$';
const ERR_FORMAT_WRONG = `quantities must match the regular expression '${SPLIT_RE}'`;
const ERR_NUMERIC = 'unable to parse numeric part of quantity';
const ERR_SUFFIX = "unable to parse quantity's suffix";

// --- int64 helpers (math.go) ---------------------------------------------------------------

/** positiveScaleInt64: base × 10^scale, undefined on overflow. */
function positiveScale(base: bigint, scale: number): bigint | undefined {
  const v = base * pow10(scale);
  return inInt64(v) ? v : undefined;
}

/** negativeScaleInt64: base ÷ 10^scale rounded away from zero, and whether it was exact. */
function negativeScale(base: bigint, scale: number): [bigint, boolean] {
  if (scale === 0) return [base, true];
  const d = pow10(scale);
  let q = base / d;
  const exact = base % d === 0n;
  if (!exact) q += base > 0n ? 1n : -1n;
  return [q, exact];
}

// --- inf.Dec operations ----------------------------------------------------------------

/** The value of a decimal at a larger scale (exact). */
const rescaled = (d: Dec, scale: number): bigint => d.unscaled * pow10(scale - d.scale);

function decAdd(x: Dec, y: Dec): [bigint, number] {
  const s = Math.max(x.scale, y.scale);
  return [rescaled(x, s) + rescaled(y, s), s];
}

/** Dec.Round(x, s, RoundUp): to scale s, rounding away from zero. */
function decRoundUp(x: Dec, s: number): Dec {
  if (x.scale <= s) return new Dec(rescaled(x, s), s);
  const d = pow10(x.scale - s);
  let q = x.unscaled / d;
  if (x.unscaled % d !== 0n) q += x.unscaled > 0n ? 1n : -1n;
  return new Dec(q, s);
}

const intToDec = (a: IntAmount): Dec => new Dec(a.value, -a.scale);

/** Exact comparison of n1 × 10^e1 with n2 × 10^e2. */
function cmpScaled(n1: bigint, e1: number, n2: bigint, e2: number): number {
  const e = Math.min(e1, e2);
  const a = n1 * pow10(e1 - e);
  const b = n2 * pow10(e2 - e);
  return a < b ? -1 : a > b ? 1 : 0;
}

// --- the suffixer (suffix.go) -----------------------------------------------------------

const DEC_SUFFIXES: Record<string, number> = { n: -9, u: -6, m: -3, '': 0, k: 3, M: 6, G: 9, T: 12, P: 15, E: 18 };
const BIN_SUFFIXES: Record<string, number> = { Ki: 10, Mi: 20, Gi: 30, Ti: 40, Pi: 50, Ei: 60 };

function interpretSuffix(s: string): { base: 10 | 2; exponent: number; format: QuantityFormat } | undefined {
  if (Object.hasOwn(DEC_SUFFIXES, s)) return { base: 10, exponent: DEC_SUFFIXES[s]!, format: 'DecimalSI' };
  if (Object.hasOwn(BIN_SUFFIXES, s)) return { base: 2, exponent: BIN_SUFFIXES[s]!, format: 'BinarySI' };
  if (s.length > 1 && (s[0] === 'E' || s[0] === 'e')) {
    // strconv.ParseInt(…, 10, 64) then a conversion to int32.
    const digits = s.slice(1);
    if (!/^[+-]?[0-9]+$/.test(digits)) return undefined;
    const v = BigInt(digits);
    if (!inInt64(v)) return undefined;
    return { base: 10, exponent: Number(BigInt.asIntN(32, v)), format: 'DecimalExponent' };
  }
  return undefined;
}

function constructSuffix(base: number, exponent: number, format: QuantityFormat): string {
  switch (format) {
    case 'DecimalSI':
      if (base === 2 && exponent === 0) return '';
      for (const [s, e] of Object.entries(DEC_SUFFIXES)) if (base === 10 && e === exponent) return s;
      return '';
    case 'BinarySI':
      for (const [s, e] of Object.entries(BIN_SUFFIXES)) if (base === 2 && e === exponent) return s;
      return '';
    case 'DecimalExponent':
      return base !== 10 || exponent === 0 ? '' : `e${exponent}`;
  }
}

// --- parsing -------------------------------------------------------------------------

interface Parts {
  positive: boolean;
  value: string;
  num: string;
  denom: string;
  suffix: string;
}

const isDigitCode = (c: number): boolean => c >= 48 && c <= 57;

/** parseQuantityString: sign, digits (leading zeros dropped), fraction, suffix. */
function splitQuantity(str: string): Parts | undefined {
  let positive = true;
  let pos = 0;
  const end = str.length;
  if (pos < end) {
    if (str[0] === '-') {
      positive = false;
      pos++;
    } else if (str[0] === '+') pos++;
  }
  while (pos < end && str[pos] === '0') pos++;
  if (pos >= end) return { positive, value: '0', num: '0', denom: '', suffix: '' };
  let i = pos;
  while (i < end && isDigitCode(str.charCodeAt(i))) i++;
  if (i >= end) return { positive, value: str, num: str.slice(pos), denom: '', suffix: '' };
  const num = str.slice(pos, i) || '0';
  let denom = '';
  pos = i;
  if (str[pos] === '.') {
    pos++;
    i = pos;
    while (i < end && isDigitCode(str.charCodeAt(i))) i++;
    if (i >= end) return { positive, value: str, num, denom: str.slice(pos), suffix: '' };
    denom = str.slice(pos, i);
    pos = i;
  }
  const value = str.slice(0, pos);
  const suffixStart = pos;
  i = pos;
  while (i < end && 'eEinumkKMGTP'.includes(str[i]!)) i++;
  if (i >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart) };
  pos = i;
  if (str[pos] === '-' || str[pos] === '+') pos++;
  i = pos;
  while (i < end && isDigitCode(str.charCodeAt(i))) i++;
  if (i >= end) return { positive, value, num, denom, suffix: str.slice(suffixStart) };
  return undefined;
}

/** inf.Dec.SetString for [+-]digits[.digits]. */
function decFromString(s: string): Dec | undefined {
  const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/.exec(s);
  if (!m || (m[2] === '' && (m[3] ?? '') === '')) return undefined;
  const frac = m[3] ?? '';
  const unscaled = BigInt((m[2] || '0') + frac);
  return new Dec(m[1] === '-' ? -unscaled : unscaled, frac.length);
}

export class Quantity {
  /** The int64 form, meaningful while `d` is undefined. */
  i: IntAmount;
  d: Dec | undefined;
  format: QuantityFormat;
  /** The original string, kept when it is already canonical. */
  private s: string | undefined;

  constructor(i: IntAmount, d: Dec | undefined, format: QuantityFormat, s?: string) {
    this.i = i;
    this.d = d;
    this.format = format;
    this.s = s;
  }

  /** `copy := *q` in Go: the int64 part is copied, the inf.Dec pointer shared. */
  copy(): Quantity {
    return new Quantity({ ...this.i }, this.d, this.format, this.s);
  }

  isZero(): boolean {
    return this.d ? this.d.unscaled === 0n : this.i.value === 0n;
  }

  sign(): number {
    if (this.d) return this.d.sign();
    return this.i.value > 0n ? 1 : this.i.value < 0n ? -1 : 0;
  }

  /** AsDec: converts to the inf.Dec form in place. */
  private toDec(): Dec {
    if (!this.d) {
      this.d = intToDec(this.i);
      this.i = { value: 0n, scale: 0 };
    }
    return this.d;
  }

  /** A Dec view that does not change this quantity (Go calls AsDec on a value copy). */
  private asDecView(): Dec {
    return this.d ?? intToDec(this.i);
  }

  cmp(y: Quantity): number {
    const [n1, e1] = this.d ? [this.d.unscaled, -this.d.scale] : [this.i.value, this.i.scale];
    const [n2, e2] = y.d ? [y.d.unscaled, -y.d.scale] : [y.i.value, y.i.scale];
    return cmpScaled(n1, e1, n2, e2);
  }

  cmpInt64(v: bigint): number {
    return this.cmp(new Quantity({ value: v, scale: 0 }, undefined, 'DecimalSI'));
  }

  equal(y: Quantity): boolean {
    return this.cmp(y) === 0;
  }

  /** AsInt64: only the int64 form converts, and only without a fractional scale. */
  asInt64(): bigint | undefined {
    if (this.d) return undefined;
    if (this.i.scale === 0) return this.i.value;
    if (this.i.scale < 0) return undefined;
    return positiveScale(this.i.value, this.i.scale);
  }

  asApproximateFloat64(): number {
    let base: number;
    let exponent: number;
    if (this.d) {
      base = Number(this.d.unscaled);
      exponent = -this.d.scale;
    } else {
      base = Number(this.i.value);
      exponent = this.i.scale;
    }
    return exponent === 0 ? base : base * goPow10(exponent);
  }

  /** Quantity.Add, in place (Go's pointer receiver). */
  add(y: Quantity): void {
    this.s = undefined;
    if (!this.d && !y.d) {
      if (this.i.value === 0n) this.format = y.format;
      if (intAdd(this.i, y.i)) return;
    } else if (this.isZero()) this.format = y.format;
    const z = this.toDec();
    [z.unscaled, z.scale] = decAdd(z, y.asDecView());
  }

  /** Quantity.Sub, in place. */
  sub(y: Quantity): void {
    this.s = undefined;
    if (this.isZero()) this.format = y.format;
    if (!this.d && !y.d && intAdd(this.i, { value: BigInt.asIntN(64, -y.i.value), scale: y.i.scale })) return;
    const z = this.toDec();
    const neg = y.asDecView();
    [z.unscaled, z.scale] = decAdd(z, new Dec(-neg.unscaled, neg.scale));
  }

  /** The canonical form (Quantity.String). */
  toString(): string {
    return (this.s ??= this.canonicalize());
  }

  private canonicalize(): string {
    if (this.isZero()) return '0';
    let format = this.format;
    let rounded: Quantity | undefined;
    if (format === 'BinarySI') {
      if (this.cmpInt64(-1024n) > 0 && this.cmpInt64(1024n) < 0) format = 'DecimalSI';
      else {
        const [r, exact] = this.asScale0();
        rounded = r;
        if (!exact) format = 'DecimalSI';
      }
    }
    if (format !== 'BinarySI') {
      const [number, exponent] = this.canonicalDecimal();
      return number + constructSuffix(10, exponent, format);
    }
    const [number, exponent] = rounded!.canonicalBase1024();
    return number + constructSuffix(2, exponent * 10, format);
  }

  /** AsScale(0): rounded up to an integer, and whether that was exact. */
  private asScale0(): [Quantity, boolean] {
    if (this.d) {
      const r = decRoundUp(this.d, 0);
      return [new Quantity({ value: 0n, scale: 0 }, r, this.format), cmpScaled(r.unscaled, 0, this.d.unscaled, -this.d.scale) === 0];
    }
    if (this.i.scale >= 0) return [this, true];
    const [v, exact] = negativeScale(this.i.value, -this.i.scale);
    return [new Quantity({ value: v, scale: 0 }, undefined, this.format), exact];
  }

  /** AsCanonicalBytes: digits and a base-10 exponent that is a multiple of 3. */
  private canonicalDecimal(): [string, number] {
    if (!this.d) {
      let [amount, times] = removeFactors(this.i.value, 10n);
      let exponent = this.i.scale + times;
      const r = exponent % 3;
      if (r === 1 || r === -2) {
        amount *= 10n;
        exponent -= 1;
      } else if (r === 2 || r === -1) {
        amount *= 100n;
        exponent -= 2;
      }
      if (inInt64(amount)) return [amount.toString(), exponent];
      return decCanonical(intToDec(this.i));
    }
    return decCanonical(this.d);
  }

  /** AsCanonicalBase1024Bytes. */
  private canonicalBase1024(): [string, number] {
    if (!this.d) {
      const v = this.i.scale < 0 ? negativeScale(this.i.value, -this.i.scale)[0] : positiveScale(this.i.value, this.i.scale);
      if (v !== undefined) {
        const [amount, exponent] = removeFactors(v, 1024n);
        return [amount.toString(), exponent];
      }
    }
    const r = decRoundUp(this.asDecView(), 0);
    const [amount, exponent] = removeFactors(r.unscaled, 1024n);
    return [amount.toString(), exponent];
  }
}

/** int64Amount.Add, in place; false (and unchanged) when the result needs more than an int64. */
function intAdd(a: IntAmount, b: IntAmount): boolean {
  if (b.value === 0n) return true;
  if (a.value === 0n) {
    a.value = b.value;
    a.scale = b.scale;
    return true;
  }
  let c: bigint | undefined;
  if (a.scale === b.scale) c = a.value + b.value;
  else if (a.scale > b.scale) {
    const scaled = positiveScale(a.value, a.scale - b.scale);
    if (scaled === undefined) return false;
    c = scaled + b.value;
    if (!inInt64(c)) return false;
    a.scale = b.scale;
    a.value = c;
    return true;
  } else {
    const scaled = positiveScale(b.value, b.scale - a.scale);
    if (scaled === undefined) return false;
    c = a.value + scaled;
  }
  if (!inInt64(c)) return false;
  a.value = c;
  return true;
}

/** removeInt64Factors / removeBigIntFactors: value = result × base^times. */
function removeFactors(value: bigint, base: bigint): [bigint, number] {
  const negative = value < 0n;
  let r = negative ? -value : value;
  let times = 0;
  while (r >= base && r % base === 0n) {
    r /= base;
    times++;
  }
  return [negative ? -r : r, times];
}

function decCanonical(d: Dec): [string, number] {
  let amount = d.unscaled;
  let exponent = -d.scale;
  if (amount !== 0n) {
    let times = 0;
    while (amount % 10n === 0n) {
      amount /= 10n;
      times++;
    }
    exponent += times;
  }
  while (exponent % 3 !== 0) {
    amount *= 10n;
    exponent--;
  }
  return [amount.toString(), exponent];
}

// math.Pow10's tables, so products round exactly as Go's do.
const POW10 = Array.from({ length: 32 }, (_, i) => Number(`1e${i}`));
const POW10_POS32 = [1e0, 1e32, 1e64, 1e96, 1e128, 1e160, 1e192, 1e224, 1e256, 1e288];
const POW10_NEG32 = [1e-0, 1e-32, 1e-64, 1e-96, 1e-128, 1e-160, 1e-192, 1e-224, 1e-256, 1e-288, 1e-320];

function goPow10(n: number): number {
  if (n >= 0 && n <= 308) return POW10_POS32[Math.floor(n / 32)]! * POW10[n % 32]!;
  if (n >= -323 && n <= 0) return POW10_NEG32[Math.floor(-n / 32)]! / POW10[-n % 32]!;
  return n > 0 ? Infinity : 0;
}

/** resource.ParseQuantity: the quantity, or the error message. */
export function parseQuantity(str: string): Quantity | string {
  if (str.length === 0) return ERR_FORMAT_WRONG;
  if (str === '0') return new Quantity({ value: 0n, scale: 0 }, undefined, 'DecimalSI', str);
  const parts = splitQuantity(str);
  if (!parts) return ERR_FORMAT_WRONG;
  const { positive, value, num, denom } = parts;
  const suffix = interpretSuffix(parts.suffix);
  if (!suffix) return ERR_SUFFIX;
  const { base, exponent } = suffix;
  let format = suffix.format;

  // Small enough for the int64 form?
  let precision = 0;
  let scale = 0;
  let mantissa = 1n;
  if (format === 'BinarySI') {
    if (exponent >= 0 && denom.length === 0) {
      mantissa = BigInt.asIntN(64, 1n << BigInt(exponent));
      precision = 15 - num.length - Math.trunc((exponent * 3) / 10) - 1;
    } else precision = -1;
  } else {
    scale = exponent;
    precision = MAX_INT64_FACTORS - (num.length + denom.length);
  }
  if (precision >= 0) {
    scale -= denom.length;
    if (scale >= NANO) {
      const shifted = num + denom;
      const v = BigInt(shifted);
      if (!inInt64(v)) return ERR_NUMERIC;
      const product = v * mantissa;
      if (inInt64(product)) {
        const result = positive ? product : -product;
        const amount = { value: result, scale };
        const canonical = format === 'BinarySI'
          ? exponent % 10 === 0 && (v & 7n) !== 0n
          : scale % 3 === 0 && !shifted.endsWith('000') && shifted[0] !== '0';
        return new Quantity(amount, undefined, format, canonical ? str : undefined);
      }
    }
  }

  // The inf.Dec form, rounded up to nano units.
  const amount = decFromString(value);
  if (!amount) return ERR_NUMERIC;
  let d: Dec = amount;
  if (base === 10) d = new Dec(d.unscaled, d.scale - exponent);
  else d = new Dec(d.unscaled * (1n << BigInt(exponent)), d.scale);
  const sign = d.sign();
  if (sign === -1) d = new Dec(-d.unscaled, d.scale);
  if (d.unscaled !== 0n) d = decRoundUp(d, -NANO);
  if (format === 'BinarySI' && cmpScaled(d.unscaled, -d.scale, MAX_INT64, 0) > 0) d = new Dec(MAX_INT64, 0);
  if (format === 'BinarySI' && cmpScaled(d.unscaled, -d.scale, 1n, 0) < 0 && d.unscaled > 0n) format = 'DecimalSI';
  if (sign === -1) d = new Dec(-d.unscaled, d.scale);
  return new Quantity({ value: 0n, scale: 0 }, d, format);
}

/** resource.NewQuantity(value, DecimalExponent). */
export const quantityFromInt = (v: bigint): Quantity => new Quantity({ value: v, scale: 0 }, undefined, 'DecimalExponent');

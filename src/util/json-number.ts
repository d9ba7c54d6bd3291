// The value of a JSON number literal as Go's decoders hold it: an integer literal within int64 range is an
// int64 (exact; a bigint where JavaScript numbers cannot hold it), everything else a float64.

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** The int64 a JSON integer literal stands for, when JavaScript numbers cannot hold it exactly. */
export function bigIntOf(literal: string): bigint | undefined {
  if (!/^-?\d+$/.test(literal)) return undefined; // fractions and exponents are float64s
  const n = Number(literal);
  if (Number.isSafeInteger(n)) return undefined;
  const b = BigInt(literal);
  return b >= INT64_MIN && b <= INT64_MAX ? b : undefined;
}

/** The value of one valid JSON number literal, as parseJSON reads it. */
export const jsonNumber = (literal: string): number | bigint => bigIntOf(literal) ?? Number(literal);

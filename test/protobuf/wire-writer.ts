// A few lines of protobuf encoding, for building bodies the kubectl captures do not cover
// (every ObjectMeta field, malformed bytes). Each helper returns one field's bytes.

export type Bytes = number[];

export function varint(n: bigint | number): Bytes {
  let v = BigInt.asUintN(64, BigInt(n));
  const out: Bytes = [];
  do {
    const b = Number(v & 0x7fn);
    v >>= 7n;
    out.push(v ? b | 0x80 : b);
  } while (v);
  return out;
}

export const key = (no: number, wireType: number): Bytes => varint((BigInt(no) << 3n) | BigInt(wireType));

/** A varint field (int64, int32 sign-extended to ten bytes, bool). */
export const int = (no: number, n: bigint | number | boolean): Bytes => [...key(no, 0), ...varint(typeof n === 'boolean' ? (n ? 1 : 0) : n)];

export const bytes = (no: number, b: Bytes | Uint8Array): Bytes => [...key(no, 2), ...varint(b.length), ...b];

export const str = (no: number, s: string): Bytes => bytes(no, [...Buffer.from(s, 'utf8')]);

/** A nested message from its fields' bytes. */
export const msg = (no: number, ...fields: Bytes[]): Bytes => bytes(no, fields.flat());

/** map<string,string> entries, one field each, in the order given. */
export const map = (no: number, entries: Record<string, string>): Bytes =>
  Object.entries(entries).flatMap(([k, v]) => msg(no, str(1, k), str(2, v)));

/** metav1.Time as Timestamp{seconds}. */
export const time = (no: number, iso: string): Bytes => msg(no, int(1, BigInt(Date.parse(iso) / 1000)));

/** The k8s\x00 prefix and runtime.Unknown around an object's own message bytes. */
export function envelope(apiVersion: string, kind: string, raw: Bytes): Buffer {
  return Buffer.from([0x6b, 0x38, 0x73, 0x00, ...msg(1, str(1, apiVersion), str(2, kind)), ...bytes(2, raw), ...str(3, ''), ...str(4, '')]);
}

// An independent NaCl secretbox (XSalsa20-Poly1305) for tests, written from the Salsa20 and Poly1305
// specifications (BigInt Poly1305, plain Salsa20 rounds): slow and simple, to check the server's secretbox
// values against something that is not the library it uses.

const rotl = (v: number, c: number): number => ((v << c) | (v >>> (32 - c))) >>> 0;
const SIGMA = [0x61707865, 0x3320646e, 0x79622d32, 0x6b206574];

function words(b: Uint8Array, n: number): number[] {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push((b[4 * i]! | (b[4 * i + 1]! << 8) | (b[4 * i + 2]! << 16) | (b[4 * i + 3]! << 24)) >>> 0);
  return out;
}

function doubleRounds(x: number[]): number[] {
  const y = [...x];
  const qr = (a: number, b: number, c: number, d: number): void => {
    y[b] = (y[b]! ^ rotl((y[a]! + y[d]!) >>> 0, 7)) >>> 0;
    y[c] = (y[c]! ^ rotl((y[b]! + y[a]!) >>> 0, 9)) >>> 0;
    y[d] = (y[d]! ^ rotl((y[c]! + y[b]!) >>> 0, 13)) >>> 0;
    y[a] = (y[a]! ^ rotl((y[d]! + y[c]!) >>> 0, 18)) >>> 0;
  };
  for (let i = 0; i < 10; i++) {
    qr(0, 4, 8, 12), qr(5, 9, 13, 1), qr(10, 14, 2, 6), qr(15, 3, 7, 11); // columns
    qr(0, 1, 2, 3), qr(5, 6, 7, 4), qr(10, 11, 8, 9), qr(15, 12, 13, 14); // rows
  }
  return y;
}

/** The Salsa20 input block: constants, the key's eight words, four words of nonce/counter. */
const block = (k: number[], n: number[]): number[] => [SIGMA[0]!, k[0]!, k[1]!, k[2]!, k[3]!, SIGMA[1]!, n[0]!, n[1]!, n[2]!, n[3]!, SIGMA[2]!, k[4]!, k[5]!, k[6]!, k[7]!, SIGMA[3]!];

function xsalsa20Stream(key: Uint8Array, nonce: Uint8Array, length: number): Buffer {
  // HSalsa20 of the key and the nonce's first 16 bytes gives the subkey.
  const h = doubleRounds(block(words(key, 8), words(nonce, 4)));
  const sub = [h[0]!, h[5]!, h[10]!, h[15]!, h[6]!, h[7]!, h[8]!, h[9]!];
  const n2 = words(nonce.subarray(16), 2);
  const out = Buffer.alloc(Math.ceil(length / 64) * 64);
  for (let counter = 0; counter * 64 < length; counter++) {
    const input = block(sub, [n2[0]!, n2[1]!, counter >>> 0, Math.floor(counter / 2 ** 32)]);
    const z = doubleRounds(input);
    for (let i = 0; i < 16; i++) out.writeUInt32LE((z[i]! + input[i]!) >>> 0, counter * 64 + 4 * i);
  }
  return out.subarray(0, length);
}

const le = (b: Uint8Array): bigint => b.reduceRight((acc, x) => (acc << 8n) | BigInt(x), 0n);

function poly1305(key: Uint8Array, msg: Uint8Array): Buffer {
  const p = (1n << 130n) - 5n;
  const r = le(key.subarray(0, 16)) & 0x0ffffffc0ffffffc0ffffffc0fffffffn;
  const s = le(key.subarray(16, 32));
  let acc = 0n;
  for (let i = 0; i < msg.length; i += 16) {
    const chunk = msg.subarray(i, i + 16);
    acc = ((acc + le(chunk) + (1n << BigInt(8 * chunk.length))) * r) % p;
  }
  let tag = (acc + s) & ((1n << 128n) - 1n);
  const out = Buffer.alloc(16);
  for (let i = 0; i < 16; i++, tag >>= 8n) out[i] = Number(tag & 0xffn);
  return out;
}

/** secretbox.Seal: the Poly1305 tag, then the ciphertext. */
export function seal(msg: Uint8Array, nonce: Uint8Array, key: Uint8Array): Buffer {
  const stream = xsalsa20Stream(key, nonce, 32 + msg.length);
  const c = Buffer.from(msg.map((b, i) => b ^ stream[32 + i]!));
  return Buffer.concat([poly1305(stream.subarray(0, 32), c), c]);
}

/** secretbox.Open: the plaintext, or undefined when the tag does not match. */
export function open(box: Uint8Array, nonce: Uint8Array, key: Uint8Array): Buffer | undefined {
  if (box.length < 16) return undefined;
  const c = box.subarray(16);
  const stream = xsalsa20Stream(key, nonce, 32 + c.length);
  if (!poly1305(stream.subarray(0, 32), c).equals(box.subarray(0, 16))) return undefined;
  return Buffer.from(c.map((b, i) => b ^ stream[32 + i]!));
}

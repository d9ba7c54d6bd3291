// Go's net/netip (Go 1.24) as Kubernetes' IP and CIDR libraries use it: ParseAddr,
// ParsePrefix with their error texts, the address classifications, canonical formatting,
// prefix masking, containment and overlap. Addresses are 128-bit values; IPv4 ones are kept
// in their IPv4-mapped form with a family flag, as netip.Addr does.

import { goQuote } from './support.js';

export interface Addr {
  /** The 16-byte address (IPv4 as ::ffff:a.b.c.d) as a 128-bit integer. */
  readonly bits: bigint;
  readonly is4: boolean;
  /** IPv6 zone, '' when none. */
  readonly zone: string;
}

export interface Prefix {
  readonly addr: Addr;
  readonly bits: number;
}

const V4_MAPPED = 0xffffn << 32n;
const ALL_ONES = (1n << 128n) - 1n;

const addrFrom4 = (v: number): Addr => ({ bits: V4_MAPPED | BigInt(v >>> 0), is4: true, zone: '' });

export const bitLen = (a: Addr): number => (a.is4 ? 32 : 128);
export const is4In6 = (a: Addr): boolean => !a.is4 && a.bits >> 32n === 0xffffn;

class AddrError extends Error {}

function addrError(input: string, msg: string, at?: string): AddrError {
  return new AddrError(`ParseAddr(${goQuote(input)}): ${msg}${at ? ` (at ${goQuote(at)})` : ''}`);
}

/** parseIPv4Fields over in[off:end]. */
function parseIPv4Fields(input: string, off: number, end: number): number {
  const s = input.slice(off, end);
  const fields = [0, 0, 0, 0];
  let val = 0;
  let pos = 0;
  let digLen = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      if (digLen === 1 && val === 0) throw addrError(input, 'IPv4 field has octet with leading zero');
      val = val * 10 + (c - 48);
      digLen++;
      if (val > 255) throw addrError(input, 'IPv4 field has value >255');
    } else if (c === 0x2e) {
      if (i === 0 || i === s.length - 1 || s[i - 1] === '.') throw addrError(input, 'IPv4 field must have at least one digit', s.slice(i));
      if (pos === 3) throw addrError(input, 'IPv4 address too long');
      fields[pos++] = val;
      val = 0;
      digLen = 0;
    } else throw addrError(input, 'unexpected character', s.slice(i));
  }
  if (pos < 3) throw addrError(input, 'IPv4 address too short');
  fields[3] = val;
  return ((fields[0]! << 24) | (fields[1]! << 16) | (fields[2]! << 8) | fields[3]!) >>> 0;
}

function hexVal(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  if (c >= 97 && c <= 102) return c - 87;
  if (c >= 65 && c <= 70) return c - 55;
  return -1;
}

function parseIPv6(input: string): Addr {
  let s = input;
  let zone = '';
  const pct = s.indexOf('%');
  if (pct !== -1) {
    zone = s.slice(pct + 1);
    s = s.slice(0, pct);
    if (zone === '') throw addrError(input, 'zone must be a non-empty string');
  }
  const ip = new Array<number>(16).fill(0);
  let ellipsis = -1;
  if (s.length >= 2 && s[0] === ':' && s[1] === ':') {
    ellipsis = 0;
    s = s.slice(2);
    if (s.length === 0) return { bits: 0n, is4: false, zone };
  }
  let i = 0;
  while (i < 16) {
    let off = 0;
    let acc = 0;
    for (; off < s.length; off++) {
      const h = hexVal(s.charCodeAt(off));
      if (h < 0) break;
      acc = acc * 16 + h;
      if (acc > 0xffff) throw addrError(input, 'IPv6 field has value >=2^16', s);
    }
    if (off === 0) throw addrError(input, 'each colon-separated field must have at least one digit', s);
    if (off < s.length && s[off] === '.') {
      if (ellipsis < 0 && i !== 12) throw addrError(input, 'embedded IPv4 address must replace the final 2 fields of the address', s);
      if (i + 4 > 16) throw addrError(input, 'too many hex fields to fit an embedded IPv4 at the end of the address', s);
      let end = input.length;
      if (zone.length > 0) end -= zone.length + 1;
      const v4 = parseIPv4Fields(input, end - s.length, end);
      ip[i] = v4 >>> 24;
      ip[i + 1] = (v4 >>> 16) & 0xff;
      ip[i + 2] = (v4 >>> 8) & 0xff;
      ip[i + 3] = v4 & 0xff;
      s = '';
      i += 4;
      break;
    }
    ip[i] = acc >> 8;
    ip[i + 1] = acc & 0xff;
    i += 2;
    s = s.slice(off);
    if (s.length === 0) break;
    if (s[0] !== ':') throw addrError(input, 'unexpected character, want colon', s);
    if (s.length === 1) throw addrError(input, 'colon must be followed by more characters', s);
    s = s.slice(1);
    if (s[0] === ':') {
      if (ellipsis >= 0) throw addrError(input, 'multiple :: in address', s);
      ellipsis = i;
      s = s.slice(1);
      if (s.length === 0) break;
    }
  }
  if (s.length !== 0) throw addrError(input, 'trailing garbage after address', s);
  if (i < 16) {
    if (ellipsis < 0) throw addrError(input, 'address string too short');
    const n = 16 - i;
    for (let j = i - 1; j >= ellipsis; j--) ip[j + n] = ip[j]!;
    for (let j = ellipsis; j < ellipsis + n; j++) ip[j] = 0;
  } else if (ellipsis >= 0) throw addrError(input, 'the :: must expand to at least one field of zeros');
  let bits = 0n;
  for (const b of ip) bits = (bits << 8n) | BigInt(b);
  return { bits, is4: false, zone };
}

/** netip.ParseAddr: the address, or Go's error text. */
export function parseAddr(s: string): Addr | string {
  try {
    for (let i = 0; i < s.length; i++) {
      switch (s[i]) {
        case '.': return addrFrom4(parseIPv4Fields(s, 0, s.length));
        case ':': return parseIPv6(s);
        case '%': throw addrError(s, 'missing IPv6 address');
      }
    }
    throw addrError(s, 'unable to parse IP');
  } catch (e) {
    if (e instanceof AddrError) return e.message;
    throw e;
  }
}

/** netip.ParsePrefix: the (unmasked) prefix, or Go's error text. */
export function parsePrefix(s: string): Prefix | string {
  const err = (msg: string): string => `netip.ParsePrefix(${goQuote(s)}): ${msg}`;
  const slash = s.lastIndexOf('/');
  if (slash < 0) return err("no '/'");
  const addr = parseAddr(s.slice(0, slash));
  if (typeof addr === 'string') return err(addr);
  if (!addr.is4 && addr.zone !== '') return err('IPv6 zones cannot be present in a prefix');
  const bitsStr = s.slice(slash + 1);
  // strconv.Atoi would accept a sign and leading zeros; netip does not.
  if (!/^(0|[1-9][0-9]*)$/.test(bitsStr) || BigInt(bitsStr) > 9223372036854775807n) return err(`bad bits after slash: ${goQuote(bitsStr)}`);
  const bits = Number(bitsStr);
  if (bits > bitLen(addr)) return err('prefix length out of range');
  return { addr: { bits: addr.bits, is4: addr.is4, zone: '' }, bits };
}

// --- classification ------------------------------------------------------------------------

const v4 = (a: Addr): number => Number(a.bits & 0xffffffffn);
const u16 = (a: Addr, i: number): number => Number((a.bits >> BigInt((7 - i) * 16)) & 0xffffn);
/** Unmap: an IPv4-mapped IPv6 address as IPv4. */
const unmap = (a: Addr): Addr => (is4In6(a) ? { bits: a.bits, is4: true, zone: a.zone } : a);

export function isLoopback(a: Addr): boolean {
  a = unmap(a);
  return a.is4 ? v4(a) >>> 24 === 127 : a.bits === 1n;
}

function isMulticast(a: Addr): boolean {
  a = unmap(a);
  return a.is4 ? (v4(a) >>> 24 & 0xf0) === 0xe0 : a.bits >> 120n === 0xffn;
}

export function isLinkLocalUnicast(a: Addr): boolean {
  a = unmap(a);
  return a.is4 ? v4(a) >>> 16 === 0xa9fe : (u16(a, 0) & 0xffc0) === 0xfe80;
}

export function isLinkLocalMulticast(a: Addr): boolean {
  a = unmap(a);
  return a.is4 ? v4(a) >>> 8 === 0xe00000 : (u16(a, 0) & 0xff0f) === 0xff02;
}

/** Addr == IPv4Unspecified() || Addr == IPv6Unspecified() (zones included in the equality). */
export function isUnspecified(a: Addr): boolean {
  return a.is4 ? v4(a) === 0 : a.bits === 0n && a.zone === '';
}

export function isGlobalUnicast(a: Addr): boolean {
  a = unmap(a);
  if (a.is4 && (v4(a) === 0 || v4(a) === 0xffffffff)) return false;
  const unspecified6 = !a.is4 && a.bits === 0n && a.zone === '';
  return !unspecified6 && !isLoopback(a) && !isMulticast(a) && !isLinkLocalUnicast(a);
}

export const addrEqual = (a: Addr, b: Addr): boolean => a.bits === b.bits && a.is4 === b.is4 && a.zone === b.zone;

// --- formatting ----------------------------------------------------------------------------

function string4(a: Addr): string {
  const v = v4(a);
  return `${v >>> 24}.${(v >>> 16) & 0xff}.${(v >>> 8) & 0xff}.${v & 0xff}`;
}

/** RFC 5952: no leading zeros, the longest run (two or more) of zero groups as "::". */
function string6(a: Addr): string {
  let zeroStart = -1;
  let zeroEnd = -1;
  for (let i = 0; i < 8; i++) {
    let j = i;
    while (j < 8 && u16(a, j) === 0) j++;
    if (j - i >= 2 && j - i > zeroEnd - zeroStart) {
      zeroStart = i;
      zeroEnd = j;
    }
  }
  let out = '';
  for (let i = 0; i < 8; i++) {
    if (i === zeroStart) {
      out += '::';
      i = zeroEnd;
      if (i >= 8) break;
    } else if (i > 0) out += ':';
    out += u16(a, i).toString(16);
  }
  return a.zone ? `${out}%${a.zone}` : out;
}

/** Addr.String. */
export function addrString(a: Addr): string {
  if (a.is4) return string4(a);
  if (is4In6(a)) return `::ffff:${string4(a)}${a.zone ? `%${a.zone}` : ''}`;
  return string6(a);
}

export const prefixString = (p: Prefix): string => `${addrString(p.addr)}/${p.bits}`;

// --- prefixes ------------------------------------------------------------------------------

/** mask6: the top n of 128 bits. */
const mask6 = (n: number): bigint => (ALL_ONES << BigInt(128 - n)) & ALL_ONES;

/** Addr.Prefix(bits) / Prefix.Masked: host bits cleared. */
export function masked(p: Prefix): Prefix {
  const effective = p.addr.is4 ? p.bits + 96 : p.bits;
  return { addr: { bits: p.addr.bits & mask6(effective), is4: p.addr.is4, zone: '' }, bits: p.bits };
}

/** Prefix.Contains: same family, no zone, equal in the first `bits` bits. */
export function prefixContains(p: Prefix, a: Addr): boolean {
  if (a.zone !== '' || bitLen(p.addr) !== bitLen(a)) return false;
  const effective = a.is4 ? p.bits + 96 : p.bits;
  return ((a.bits ^ p.addr.bits) & mask6(effective)) === 0n;
}

/** Prefix.Overlaps. */
export function prefixOverlaps(p: Prefix, o: Prefix): boolean {
  if (prefixEqual(p, o)) return true;
  if (p.addr.is4 !== o.addr.is4) return false;
  const minBits = Math.min(p.bits, o.bits);
  if (minBits === 0) return true;
  return addrEqual(masked({ addr: p.addr, bits: minBits }).addr, masked({ addr: o.addr, bits: minBits }).addr);
}

export const prefixEqual = (p: Prefix, o: Prefix): boolean => p.bits === o.bits && addrEqual(p.addr, o.addr);

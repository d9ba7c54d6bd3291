// The string formats custom resources are validated against: apiextensions' formats.go keeps only
// this set (others, including int32/int64/float/double, are stripped and never checked), and
// kube-openapi's strfmt.Default registry decides what each one accepts.

/** apiextensions supportedVersionedFormats (1.0+), in go-openapi's normalized form (dashes removed). */
const SUPPORTED = new Set([
  'bsonobjectid', 'uri', 'email', 'hostname', 'ipv4', 'ipv6', 'cidr', 'mac', 'uuid', 'uuid3', 'uuid4', 'uuid5',
  'isbn', 'isbn10', 'isbn13', 'creditcard', 'ssn', 'hexcolor', 'rgbcolor', 'byte', 'password', 'date', 'duration',
  'datetime',
]);

/** strfmt.DefaultNameNormalizer. */
const normalizeFormat = (f: string): string => f.replace(/-/g, '');

/** The format kube validates for a schema's `format`: the name as written, or '' when stripped. */
export const effectiveFormat = (f: string | undefined): string => (f && SUPPORTED.has(normalizeFormat(f)) ? f : '');

/** The checker for a (supported) format, by any spelling that normalizes to it. */
export function formatChecker(format: string): ((s: string) => boolean) | undefined {
  return CHECKERS[normalizeFormat(format)];
}

// ---- IP addresses ----

/** Go's dtoi: leading decimal digits (at least one), failing from 0xFFFFFF on. */
function dtoi(s: string, i: number): [n: number, end: number] | undefined {
  let n = 0;
  let j = i;
  for (; j < s.length && s.charCodeAt(j) >= 48 && s.charCodeAt(j) <= 57; j++) {
    n = n * 10 + (s.charCodeAt(j) - 48);
    if (n >= 0xffffff) return undefined;
  }
  return j === i ? undefined : [n, j];
}

function xtoi(s: string, i: number): [n: number, end: number] | undefined {
  let n = 0;
  let j = i;
  for (; j < s.length; j++) {
    const d = parseInt(s[j]!, 16);
    if (Number.isNaN(d)) break;
    n = n * 16 + d;
    if (n >= 0xffffff) return undefined;
  }
  return j === i ? undefined : [n, j];
}

/** Go 1.16's parseIPv4 (k8s.io/utils/net ParseIPSloppy): leading zeros allowed. */
function parseIPv4Sloppy(s: string): boolean {
  let i = 0;
  for (let part = 0; part < 4; part++) {
    if (i >= s.length) return false;
    if (part > 0) {
      if (s[i] !== '.') return false;
      i++;
    }
    const r = dtoi(s, i);
    if (!r || r[0] > 0xff) return false;
    i = r[1];
  }
  return i === s.length;
}

/** Go 1.16's parseIPv6 (sloppy: embedded IPv4 may have leading zeros, groups any number of hex digits). */
function parseIPv6Sloppy(s: string): boolean {
  let i = 0;
  let ellipsis = -1;
  let pos = 0;
  if (s.length >= 2 && s[0] === ':' && s[1] === ':') {
    ellipsis = 0;
    pos = 2;
    if (pos === s.length) return true;
  }
  while (i < 16) {
    const r = xtoi(s, pos);
    if (!r || r[0] > 0xffff) return false;
    if (r[1] < s.length && s[r[1]] === '.') {
      if (ellipsis < 0 && i !== 12) return false;
      if (i + 4 > 16) return false;
      if (!parseIPv4Sloppy(s.slice(pos))) return false;
      pos = s.length;
      i += 4;
      break;
    }
    i += 2;
    pos = r[1];
    if (pos === s.length) break;
    if (s[pos] !== ':' || pos + 1 === s.length) return false;
    pos++;
    if (s[pos] === ':') {
      if (ellipsis >= 0) return false;
      ellipsis = i;
      pos++;
      if (pos === s.length) break;
    }
  }
  if (pos !== s.length) return false;
  if (i < 16) return ellipsis >= 0;
  return ellipsis < 0;
}

/** Go 1.16's net.ParseIP: the first '.' or ':' decides the family. */
function parseIPSloppy(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '.') return parseIPv4Sloppy(s);
    if (s[i] === ':') return parseIPv6Sloppy(s);
  }
  return false;
}

/** netip.ParseAddr's IPv4: exactly four decimal fields 0-255 without leading zeros. */
function parseIPv4Strict(s: string): boolean {
  const parts = s.split('.');
  if (parts.length !== 4) return false;
  for (const p of parts) {
    if (!/^(0|[1-9][0-9]{0,2})$/.test(p) || Number(p) > 255) return false;
  }
  return true;
}

/** netip.ParseAddr's IPv6 (no zone: net.ParseIP rejects zones). */
function parseIPv6Strict(s: string): boolean {
  if (s.includes('%')) return false;
  const dbl = s.indexOf('::');
  if (dbl >= 0 && s.indexOf('::', dbl + 1) >= 0) return false;
  const split = (part: string): string[] => (part === '' ? [] : part.split(':'));
  const head = split(dbl >= 0 ? s.slice(0, dbl) : s);
  const tail = dbl >= 0 ? split(s.slice(dbl + 2)) : [];
  const all = [...head, ...tail];
  let groups = 0;
  for (let i = 0; i < all.length; i++) {
    const g = all[i]!;
    if (g.includes('.')) {
      // An embedded IPv4 address only as the last 32 bits.
      if (i !== all.length - 1 || (dbl >= 0 && tail.length === 0) || !parseIPv4Strict(g)) return false;
      groups += 2;
    } else if (/^[0-9a-fA-F]{1,4}$/.test(g)) {
      groups++;
    } else {
      return false;
    }
  }
  // The :: must stand for at least one group of zeros.
  return dbl >= 0 ? groups < 8 : groups === 8;
}

const isIPv4 = (s: string): boolean => parseIPSloppy(s) && s.includes('.');
const isIPv6 = (s: string): boolean => (parseIPv4Strict(s) || parseIPv6Strict(s)) && s.includes(':');

/** k8s.io/utils/net ParseCIDRSloppy. */
function isCIDR(s: string): boolean {
  const i = s.indexOf('/');
  if (i < 0) return false;
  const addr = s.slice(0, i);
  const mask = s.slice(i + 1);
  let bits = 32;
  if (!parseIPv4Sloppy(addr)) {
    if (!parseIPv6Sloppy(addr)) return false;
    bits = 128;
  }
  const r = dtoi(mask, 0);
  return !!r && r[1] === mask.length && r[0] <= bits;
}

/** net.ParseMAC: 6, 8 or 20 octets as xx:xx.., xx-xx.. or xxxx.xxxx... */
function isMAC(s: string): boolean {
  if (s.length < 14) return false;
  const hex2 = /^[0-9a-fA-F]{2}$/;
  if (s[2] === ':' || s[2] === '-') {
    if ((s.length + 1) % 3 !== 0) return false;
    const n = (s.length + 1) / 3;
    if (n !== 6 && n !== 8 && n !== 20) return false;
    for (let x = 0; x < n; x++) {
      if (!hex2.test(s.slice(3 * x, 3 * x + 2))) return false;
      if (x < n - 1 && s[3 * x + 2] !== s[2]) return false;
    }
    return true;
  }
  if (s[4] === '.') {
    if ((s.length + 1) % 5 !== 0) return false;
    const n = (2 * (s.length + 1)) / 5;
    if (n !== 6 && n !== 8 && n !== 20) return false;
    for (let x = 0; x < n; x += 2) {
      const at = (5 * x) / 2;
      if (!/^[0-9a-fA-F]{4}$/.test(s.slice(at, at + 4))) return false;
      if (x < n - 2 && s[at + 4] !== '.') return false;
    }
    return true;
  }
  return false;
}

// ---- dates and durations ----

const daysIn = (month: number, year: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** time.Parse("2006-01-02", s). */
function isDate(s: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (!m) return false;
  const y = Number(m[1]);
  const mo = Number(m[2]);
  const d = Number(m[3]);
  return mo >= 1 && mo <= 12 && d >= 1 && d <= daysIn(mo, y);
}

/** strfmt.IsDateTime: a full-date, 't', then hh:mm:ss[.frac] and z or an offset (case-insensitive). */
function isDateTime(s: string): boolean {
  if (s.length < 4) return false;
  const parts = s.toLowerCase().split('t');
  if (parts.length < 2 || !isDate(parts[0]!)) return false;
  const m = /^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$/u.exec(parts[1]!);
  if (!m) return false;
  return m[1]! <= '23' && m[2]! <= '59' && m[3]! <= '59';
}

const DURATION_UNITS = new Map<string, bigint>([
  ['ns', 1n], ['us', 1000n], ['\u00b5s', 1000n], ['\u03bcs', 1000n], ['ms', 1000000n],
  ['s', 1000000000n], ['m', 60000000000n], ['h', 3600000000000n],
]);
const MAX_DURATION = 1n << 63n;

/** Go's time.ParseDuration. */
function goParseDuration(orig: string): boolean {
  let s = orig;
  let neg = false;
  if (s !== '' && (s[0] === '-' || s[0] === '+')) {
    neg = s[0] === '-';
    s = s.slice(1);
  }
  if (s === '0') return true;
  if (s === '') return false;
  let d = 0n;
  while (s !== '') {
    if (!/^[0-9.]/.test(s)) return false;
    const intPart = /^[0-9]*/.exec(s)![0];
    s = s.slice(intPart.length);
    let v = intPart === '' ? 0n : BigInt(intPart);
    if (v > MAX_DURATION) return false;
    let frac = '';
    let post = false;
    if (s[0] === '.') {
      frac = /^\.[0-9]*/.exec(s)![0].slice(1);
      s = s.slice(frac.length + 1);
      post = frac !== '';
    }
    if (intPart === '' && !post) return false;
    const unitM = /^[^0-9.]*/.exec(s)![0];
    if (unitM === '') return false;
    s = s.slice(unitM.length);
    const unit = DURATION_UNITS.get(unitM);
    if (unit === undefined) return false;
    if (v > MAX_DURATION / unit) return false;
    v *= unit;
    if (frac !== '') v += BigInt(Math.floor(Number(`0.${frac}`) * Number(unit)));
    if (v > MAX_DURATION) return false;
    d += v;
    if (d > MAX_DURATION) return false;
  }
  return neg || d <= MAX_DURATION - 1n;
}

const TIME_UNITS = [['ns', 'nano'], ['us', '\u00b5s', 'micro'], ['ms', 'milli'], ['s', 'sec'], ['m', 'min'], ['h', 'hr', 'hour'], ['d', 'day'], ['w', 'wk', 'week']];

/** strfmt.ParseDuration: Go durations, or "<n> <unit>" phrases such as "3 days". */
function isDuration(s: string): boolean {
  if (goParseDuration(s)) return true;
  let ok = false;
  for (const m of s.matchAll(/(\d+)[\t\n\f\r ]*([A-Za-z\u00b5]+)/g)) {
    if (BigInt(m[1]!) > 9223372036854775807n) return false; // strconv.Atoi overflow
    const unit = m[2]!.toLowerCase();
    for (const variants of TIME_UNITS) {
      const last = variants.length - 1;
      variants.forEach((variant, i) => {
        if ((i === last && unit.startsWith(variant)) || variant.toLowerCase() === unit) ok = true;
      });
    }
  }
  return ok;
}

// ---- URIs and e-mail addresses ----

const hexDigit = (c: string | undefined): boolean => c !== undefined && /^[0-9a-fA-F]$/.test(c);

/** url.shouldEscape in encodeHost mode, for ASCII bytes: true means the byte may not appear raw. */
function hostByteNeedsEscape(c: string): boolean {
  if (/^[A-Za-z0-9\-_.~]$/.test(c)) return false;
  return !"!$&'()*+,;=:[]<>\"".includes(c);
}

/** url.unescape(host, encodeHost) succeeding. */
function validHostChars(host: string): boolean {
  for (let i = 0; i < host.length; i++) {
    const c = host[i]!;
    if (c === '%') {
      if (!hexDigit(host[i + 1]) || !hexDigit(host[i + 2])) return false;
      if (parseInt(host[i + 1]!, 16) < 8 && host.slice(i, i + 3) !== '%25') return false;
      i += 2;
    } else if (c.charCodeAt(0) < 0x80 && hostByteNeedsEscape(c)) {
      return false;
    }
  }
  return true;
}

function validAuthority(authority: string): boolean {
  let host = authority;
  const at = authority.lastIndexOf('@');
  if (at >= 0) {
    const userinfo = authority.slice(0, at);
    if (!/^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(userinfo)) return false;
    if (/%(?![0-9a-fA-F]{2})/.test(userinfo)) return false;
    host = authority.slice(at + 1);
  }
  if (host.startsWith('[')) {
    const end = host.lastIndexOf(']');
    if (end < 0) return false;
    const port = host.slice(end + 1);
    if (port !== '' && !/^:[0-9]*$/.test(port)) return false;
    return validHostChars(host.slice(0, end + 1).replace(/%25.*(?=\]$)/, ''));
  }
  const colon = host.lastIndexOf(':');
  if (colon >= 0 && !/^:[0-9]*$/.test(host.slice(colon))) return false;
  return validHostChars(host);
}

/** url.ParseRequestURI succeeding: an absolute URI or an absolute path (no fragment splitting). */
function isRequestURI(raw: string): boolean {
  if (/[\x00-\x1f\x7f]/.test(raw) || raw === '') return false;
  if (raw === '*') return true;
  let rest = raw;
  let scheme = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i]!;
    if (/[a-zA-Z]/.test(c)) continue;
    if (/[0-9+\-.]/.test(c)) {
      if (i === 0) break;
      continue;
    }
    if (c === ':') {
      if (i === 0) return false; // missing protocol scheme
      scheme = raw.slice(0, i);
      rest = raw.slice(i + 1);
    }
    break;
  }
  const q = rest.indexOf('?');
  if (q >= 0) rest = rest.slice(0, q);
  if (!rest.startsWith('/')) return scheme !== '';
  if (scheme !== '' && rest.startsWith('//')) {
    const auth = rest.slice(2);
    const slash = auth.indexOf('/');
    if (!validAuthority(slash < 0 ? auth : auth.slice(0, slash))) return false;
    rest = slash < 0 ? '' : auth.slice(slash);
  }
  // url.unescape(path, encodePath): every '%' starts a valid escape.
  return !/%(?![0-9a-fA-F]{2})/.test(rest);
}

const isVchar = (c: number): boolean => (c >= 0x21 && c <= 0x7e) || c >= 0x80;
const isAtext = (c: number, dot: boolean): boolean =>
  c === 0x2e ? dot : isVchar(c) && !'()<>[]:;@\\,"'.includes(String.fromCodePoint(c));
const isWSP = (c: number): boolean => c === 0x20 || c === 0x09;

/** net/mail.ParseAddress succeeding (the address forms custom resources use; groups are not accepted). */
function isEmail(addr: string): boolean {
  const p = { s: addr, i: 0 };
  const peek = (): number => p.s.codePointAt(p.i) ?? -1;
  const skipSpace = (): void => {
    while (p.i < p.s.length && isWSP(p.s.charCodeAt(p.i))) p.i++;
  };
  const atom = (permissive: boolean): string | undefined => {
    const start = p.i;
    while (p.i < p.s.length) {
      const c = p.s.codePointAt(p.i)!;
      if (!isAtext(c, true)) break;
      p.i += c > 0xffff ? 2 : 1;
    }
    const a = p.s.slice(start, p.i);
    if (a === '') return undefined;
    if (!permissive && (a.startsWith('.') || a.includes('..') || a.endsWith('.'))) return undefined;
    return a;
  };
  const quoted = (): string | undefined => {
    let out = '';
    p.i++; // opening quote
    let escaped = false;
    for (;;) {
      if (p.i >= p.s.length) return undefined;
      const c = p.s.codePointAt(p.i)!;
      const ch = String.fromCodePoint(c);
      if (escaped) {
        if (!isVchar(c) && !isWSP(c)) return undefined;
        out += ch;
        escaped = false;
      } else if (c === 0x22) {
        p.i++;
        return out;
      } else if (c === 0x5c) {
        escaped = true;
      } else if ((isVchar(c) && c !== 0x5c) || isWSP(c)) {
        out += ch;
      } else {
        return undefined;
      }
      p.i += ch.length;
    }
  };
  const addrSpec = (): boolean => {
    const save = p.i;
    skipSpace();
    if (p.i >= p.s.length) return false;
    const local = peek() === 0x22 ? quoted() : atom(false);
    if (!local || p.s[p.i] !== '@') {
      p.i = save;
      return false;
    }
    p.i++;
    skipSpace();
    if (p.i >= p.s.length) {
      p.i = save;
      return false;
    }
    let ok: boolean;
    if (p.s[p.i] === '[') {
      const end = p.s.indexOf(']', p.i);
      const lit = end < 0 ? '' : p.s.slice(p.i + 1, end);
      ok = end >= 0 && (parseIPv4Strict(lit) || (lit.startsWith('IPv6:') && parseIPv6Strict(lit.slice(5))));
      if (ok) p.i = end + 1;
    } else {
      ok = atom(false) !== undefined;
    }
    if (!ok) p.i = save;
    return ok;
  };
  skipSpace();
  if (p.i >= p.s.length) return false;
  if (!addrSpec()) {
    // name-addr: [display-name] "<" addr-spec ">"
    if (peek() !== 0x3c) {
      let words = 0;
      for (;;) {
        skipSpace();
        if (p.i >= p.s.length) break;
        const w = peek() === 0x22 ? quoted() : atom(true);
        if (w === undefined) break;
        words++;
      }
      if (words === 0) return false;
    }
    skipSpace();
    if (p.s[p.i] !== '<') return false;
    p.i++;
    if (!addrSpec() || p.s[p.i] !== '>') return false;
    p.i++;
  }
  // Trailing comments (CFWS) are allowed; anything else is not.
  skipSpace();
  while (p.s[p.i] === '(') {
    const end = p.s.indexOf(')', p.i);
    if (end < 0) return false;
    p.i = end + 1;
    skipSpace();
  }
  return p.i === p.s.length;
}

// ---- the rest ----

// Built on first use: its Unicode property classes took V8 about 0.6 ms to build as the module loaded, at every start.
let hostname: RegExp | undefined;
const HOSTNAME = (): RegExp =>
  (hostname ??= /^([a-zA-Z0-9\p{S}\p{L}]((-?[a-zA-Z0-9\p{S}\p{L}]{0,62})?)|([a-zA-Z0-9\p{S}\p{L}](([a-zA-Z0-9\-\p{S}\p{L}]{0,61}[a-zA-Z0-9\p{S}\p{L}])?)(\.)){1,}([a-zA-Z\p{L}]){2,63})$/u);

function isHostname(s: string): boolean {
  if (!HOSTNAME().test(s) || Buffer.byteLength(s) > 255) return false;
  return s.split('.').every((p) => Buffer.byteLength(p) <= 63);
}

function isCreditCard(s: string): boolean {
  const digits = s.replace(/[^0-9]+/g, '');
  if (!/^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\d{3})\d{11})$/.test(digits)) {
    return false;
  }
  let sum = 0;
  let double = false;
  for (let i = digits.length - 1; i >= 0; i--) {
    let n = digits.charCodeAt(i) - 48;
    if (double) {
      n *= 2;
      sum += n >= 10 ? (n % 10) + 1 : n;
    } else {
      sum += n;
    }
    double = !double;
  }
  return sum % 10 === 0;
}

function isISBN(s: string, version: 10 | 13): boolean {
  const t = s.replace(/[\t\n\f\r \-]+/g, '');
  const d = (i: number): number => t.charCodeAt(i) - 48;
  if (version === 10) {
    if (!/^(?:[0-9]{9}X|[0-9]{10})$/.test(t)) return false;
    let sum = 0;
    for (let i = 0; i < 9; i++) sum += (i + 1) * d(i);
    sum += t[9] === 'X' ? 100 : 10 * d(9);
    return sum % 11 === 0;
  }
  if (!/^[0-9]{13}$/.test(t)) return false;
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * d(i);
  return d(12) - ((10 - (sum % 10)) % 10) === 0;
}

const rx = (re: RegExp) => (s: string): boolean => re.test(s);

const CHECKERS: Record<string, (s: string) => boolean> = {
  bsonobjectid: rx(/^[0-9a-fA-F]{24}$/),
  uri: isRequestURI,
  email: isEmail,
  hostname: isHostname,
  ipv4: isIPv4,
  ipv6: isIPv6,
  cidr: isCIDR,
  mac: isMAC,
  uuid: rx(/^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i),
  uuid3: rx(/^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$/i),
  uuid4: rx(/^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i),
  uuid5: rx(/^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$/i),
  isbn: (s) => isISBN(s, 10) || isISBN(s, 13),
  isbn10: (s) => isISBN(s, 10),
  isbn13: (s) => isISBN(s, 13),
  creditcard: isCreditCard,
  ssn: (s) => s.length === 11 && /^\d{3}[- ]?\d{2}[- ]?\d{4}$/.test(s),
  hexcolor: rx(/^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/),
  rgbcolor: rx(
    /^rgb\([\t\n\f\r ]*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])[\t\n\f\r ]*,[\t\n\f\r ]*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])[\t\n\f\r ]*,[\t\n\f\r ]*(0|[1-9]\d?|1\d\d?|2[0-4]\d|25[0-5])[\t\n\f\r ]*\)$/,
  ),
  byte: rx(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=|[A-Za-z0-9+/]{4})$/),
  password: () => true,
  date: isDate,
  duration: isDuration,
  datetime: isDateTime,
};

// String and bytes literal decoding, as cel-go's parser/unescape.go: quotes
// (single, double, triple, raw) are removed and escapes decoded. In bytes
// literals \x and octal escapes are raw bytes; in strings they are code points.

type Unescaped = { value: string | Uint8Array } | { error: string };

const SIMPLE: Record<string, number> = {
  a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92, "'": 39, '"': 34, '`': 96, '?': 63,
};

const utf8 = new TextEncoder();

/** Decodes a quoted literal (`text` still carries its quotes and any r prefix,
 * but not the b prefix of bytes). */
export function unescape(text: string, isBytes: boolean): Unescaped {
  let value = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
  if (value.length < 2) return { error: 'unable to unescape string' };
  let raw = false;
  if (value[0] === 'r' || value[0] === 'R') { value = value.slice(1); raw = true; }
  const n = value.length;
  const q = value[0];
  if (q !== value[n - 1] || (q !== '"' && q !== "'")) return { error: 'unable to unescape string' };
  let body: string;
  if (n >= 6 && (value.startsWith("'''") || value.startsWith('"""'))) {
    if (!value.endsWith(value.slice(0, 3))) return { error: 'unable to unescape string' };
    body = value.slice(3, n - 3);
  } else {
    body = value.slice(1, n - 1);
  }
  if (raw || !body.includes('\\')) return { value: isBytes ? utf8.encode(body) : body };
  return isBytes ? decodeBytes(body) : decodeString(body);
}

function decodeString(s: string): Unescaped {
  let out = '';
  let i = 0;
  while (i < s.length) {
    const j = s.indexOf('\\', i);
    if (j < 0) { out += s.slice(i); break; }
    out += s.slice(i, j);
    const r = escape(s, j, false);
    if ('error' in r) return r;
    out += String.fromCodePoint(r.code);
    i = r.end;
  }
  return { value: out };
}

function decodeBytes(s: string): Unescaped {
  const bytes: number[] = [];
  let i = 0;
  while (i < s.length) {
    const j = s.indexOf('\\', i);
    const plain = j < 0 ? s.slice(i) : s.slice(i, j);
    for (const b of utf8.encode(plain)) bytes.push(b);
    if (j < 0) break;
    const r = escape(s, j, true);
    if ('error' in r) return r;
    if (r.raw) bytes.push(r.code);
    else for (const b of utf8.encode(String.fromCodePoint(r.code))) bytes.push(b);
    i = r.end;
  }
  return { value: Uint8Array.from(bytes) };
}

/** Decodes the escape whose backslash is at s[j]. `raw` marks a byte value. */
function escape(s: string, j: number, isBytes: boolean): { code: number; end: number; raw: boolean } | { error: string } {
  if (j + 1 >= s.length) return { error: "unable to unescape string, found '\\' as last character" };
  const c = s[j + 1]!;
  const simple = SIMPLE[c];
  if (simple !== undefined) return { code: simple, end: j + 2, raw: false };
  if (c === 'x' || c === 'X' || c === 'u' || c === 'U') {
    if (isBytes && (c === 'u' || c === 'U')) return { error: 'unable to unescape string' };
    const len = c === 'u' ? 4 : c === 'U' ? 8 : 2;
    const digits = s.slice(j + 2, j + 2 + len);
    if (digits.length < len || !/^[0-9a-fA-F]+$/.test(digits)) return { error: 'unable to unescape string' };
    const v = parseInt(digits, 16);
    if (!isBytes && !validRune(v)) return { error: 'invalid unicode code point' };
    return { code: v, end: j + 2 + len, raw: isBytes };
  }
  if (c >= '0' && c <= '3') {
    const digits = s.slice(j + 2, j + 4);
    if (digits.length < 2 || !/^[0-7]{2}$/.test(digits)) return { error: 'unable to unescape octal sequence in string' };
    const v = parseInt(c + digits, 8);
    return { code: v, end: j + 4, raw: isBytes };
  }
  return { error: 'unable to unescape string' };
}

function validRune(v: number): boolean {
  return v <= 0x10ffff && !(v >= 0xd800 && v <= 0xdfff);
}

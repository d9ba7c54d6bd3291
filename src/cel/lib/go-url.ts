// The parts of Go's net/url (Go 1.24) that Kubernetes' URL library and the `uri` format use:
// Parse, ParseRequestURI, String, Hostname, Port, EscapedPath and Query, with Go's error
// texts. Go works on bytes; escaping and unescaping here do too (UTF-8).

import { goQuote } from './support.js';

export interface GoUrl {
  scheme: string;
  opaque: string;
  user?: { username: string; password?: string };
  host: string;
  path: string;
  rawPath: string;
  forceQuery: boolean;
  rawQuery: string;
  fragment: string;
  rawFragment: string;
}

type Mode = 'path' | 'pathSegment' | 'host' | 'zone' | 'userPassword' | 'queryComponent' | 'fragment';

class UrlError extends Error {}

const isAlnum = (c: number): boolean => (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);

/** shouldEscape (RFC 3986, with Go's deviations). */
function shouldEscape(c: number, mode: Mode): boolean {
  if (isAlnum(c)) return false;
  if (mode === 'host' || mode === 'zone') {
    // Sub-delims, ':' and '[ ]' for host:port and IPv6 literals, '< >' and '"' which Parse
    // would reject anyway.
    if ('!$&\'()*+,;=:[]<>"'.includes(String.fromCharCode(c))) return false;
  }
  switch (c) {
    case 0x2d: case 0x5f: case 0x2e: case 0x7e: // - _ . ~
      return false;
    case 0x24: case 0x26: case 0x2b: case 0x2c: case 0x2f: case 0x3a: case 0x3b: case 0x3d: case 0x3f: case 0x40: // $ & + , / : ; = ? @
      switch (mode) {
        case 'path': return c === 0x3f;
        case 'pathSegment': return c === 0x2f || c === 0x3b || c === 0x2c || c === 0x3f;
        case 'userPassword': return c === 0x40 || c === 0x2f || c === 0x3f || c === 0x3a;
        case 'queryComponent': return true;
        case 'fragment': return false;
      }
  }
  if (mode === 'fragment' && (c === 0x21 || c === 0x28 || c === 0x29 || c === 0x2a)) return false;
  return true;
}

const isHex = (c: number): boolean => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
const unhex = (c: number): number => (c <= 0x39 ? c - 0x30 : c <= 0x46 ? c - 0x41 + 10 : c - 0x61 + 10);
const latin1 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');

function escapeError(s: Uint8Array): UrlError {
  return new UrlError(`invalid URL escape ${goQuote(Buffer.from(s).toString('utf8'))}`);
}

/** unescape: percent-decoding for one part of a URL. */
function unescape(str: string, mode: Mode): string {
  const s = Buffer.from(str, 'utf8');
  let n = 0;
  let hasPlus = false;
  for (let i = 0; i < s.length;) {
    const c = s[i]!;
    if (c === 0x25) {
      n++;
      if (i + 2 >= s.length || !isHex(s[i + 1]!) || !isHex(s[i + 2]!)) {
        throw escapeError(s.subarray(i, Math.min(i + 3, s.length)));
      }
      const seq = latin1(s.subarray(i, i + 3));
      // In a host, %-escapes are only for non-ASCII bytes, except %25 (RFC 6874 zones).
      if (mode === 'host' && unhex(s[i + 1]!) < 8 && seq !== '%25') throw escapeError(s.subarray(i, i + 3));
      if (mode === 'zone') {
        const v = (unhex(s[i + 1]!) << 4) | unhex(s[i + 2]!);
        if (seq !== '%25' && v !== 0x20 && shouldEscape(v, 'host')) throw escapeError(s.subarray(i, i + 3));
      }
      i += 3;
    } else if (c === 0x2b) {
      hasPlus = mode === 'queryComponent';
      i++;
    } else {
      if ((mode === 'host' || mode === 'zone') && c < 0x80 && shouldEscape(c, mode)) {
        throw new UrlError(`invalid character ${goQuote(String.fromCharCode(c))} in host name`);
      }
      i++;
    }
  }
  if (n === 0 && !hasPlus) return str;
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === 0x25) {
      out.push((unhex(s[i + 1]!) << 4) | unhex(s[i + 2]!));
      i += 2;
    } else if (c === 0x2b) out.push(mode === 'queryComponent' ? 0x20 : 0x2b);
    else out.push(c);
  }
  return Buffer.from(out).toString('utf8');
}

const UPPER_HEX = '0123456789ABCDEF';

function escape(str: string, mode: Mode): string {
  const s = Buffer.from(str, 'utf8');
  let needed = false;
  for (const c of s) if (shouldEscape(c, mode)) needed = true;
  if (!needed) return str;
  let out = '';
  for (const c of s) {
    if (c === 0x20 && mode === 'queryComponent') out += '+';
    else if (shouldEscape(c, mode)) out += '%' + UPPER_HEX[c >> 4] + UPPER_HEX[c & 15];
    else out += String.fromCharCode(c);
  }
  return out;
}

function getScheme(raw: string): [scheme: string, rest: string] {
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if ((c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a)) continue;
    if ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e) {
      if (i === 0) return ['', raw];
      continue;
    }
    if (c === 0x3a) {
      if (i === 0) throw new UrlError('missing protocol scheme');
      return [raw.slice(0, i), raw.slice(i + 1)];
    }
    return ['', raw];
  }
  return ['', raw];
}

/** validOptionalPort: "" or ":" followed by digits. */
function validOptionalPort(port: string): boolean {
  if (port === '') return true;
  if (port[0] !== ':') return false;
  return /^[0-9]*$/.test(port.slice(1));
}

function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const i = host.lastIndexOf(']');
    if (i < 0) throw new UrlError("missing ']' in host");
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort)) throw new UrlError(`invalid port ${goQuote(colonPort)} after host`);
    const zone = host.slice(0, i).indexOf('%25');
    if (zone >= 0) {
      return unescape(host.slice(0, zone), 'host') + unescape(host.slice(zone, i), 'zone') + unescape(host.slice(i), 'host');
    }
  } else {
    const i = host.lastIndexOf(':');
    if (i !== -1) {
      const colonPort = host.slice(i);
      if (!validOptionalPort(colonPort)) throw new UrlError(`invalid port ${goQuote(colonPort)} after host`);
    }
  }
  return unescape(host, 'host');
}

const validUserinfo = (s: string): boolean => /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(s);

function parseAuthority(u: GoUrl, authority: string): void {
  const i = authority.lastIndexOf('@');
  u.host = parseHost(i < 0 ? authority : authority.slice(i + 1));
  if (i < 0) return;
  const userinfo = authority.slice(0, i);
  if (!validUserinfo(userinfo)) throw new UrlError('net/url: invalid userinfo');
  const colon = userinfo.indexOf(':');
  if (colon < 0) u.user = { username: unescape(userinfo, 'userPassword') };
  else u.user = { username: unescape(userinfo.slice(0, colon), 'userPassword'), password: unescape(userinfo.slice(colon + 1), 'userPassword') };
}

function setPath(u: GoUrl, p: string): void {
  u.path = unescape(p, 'path');
  u.rawPath = escape(u.path, 'path') === p ? '' : p;
}

function setFragment(u: GoUrl, f: string): void {
  u.fragment = unescape(f, 'fragment');
  u.rawFragment = escape(u.fragment, 'fragment') === f ? '' : f;
}

function parse(raw: string, viaRequest: boolean): GoUrl {
  if (/[\x00-\x1f\x7f]/.test(raw)) throw new UrlError('net/url: invalid control character in URL');
  if (raw === '' && viaRequest) throw new UrlError('empty url');
  const u: GoUrl = { scheme: '', opaque: '', host: '', path: '', rawPath: '', forceQuery: false, rawQuery: '', fragment: '', rawFragment: '' };
  if (raw === '*') {
    u.path = '*';
    return u;
  }
  let [scheme, rest] = getScheme(raw);
  u.scheme = scheme.toLowerCase();
  const q = rest.indexOf('?');
  if (rest.endsWith('?') && q === rest.length - 1) {
    u.forceQuery = true;
    rest = rest.slice(0, -1);
  } else if (q >= 0) {
    u.rawQuery = rest.slice(q + 1);
    rest = rest.slice(0, q);
  }
  if (!rest.startsWith('/')) {
    if (u.scheme !== '') {
      // Rootless paths are opaque (RFC 3986).
      u.opaque = rest;
      return u;
    }
    if (viaRequest) throw new UrlError('invalid URI for request');
    const slash = rest.indexOf('/');
    if ((slash < 0 ? rest : rest.slice(0, slash)).includes(':')) throw new UrlError('first path segment in URL cannot contain colon');
  }
  if ((u.scheme !== '' || (!viaRequest && !rest.startsWith('///'))) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    rest = '';
    const i = authority.indexOf('/');
    if (i >= 0) {
      rest = authority.slice(i);
      authority = authority.slice(0, i);
    }
    parseAuthority(u, authority);
  }
  setPath(u, rest);
  return u;
}

type UrlResult = GoUrl | { error: string };

const parseError = (raw: string, e: unknown): { error: string } => {
  if (!(e instanceof UrlError)) throw e;
  return { error: `parse ${goQuote(raw)}: ${e.message}` };
};

/** url.ParseRequestURI: an absolute URI or an absolute path, no fragment. */
export function parseRequestURI(raw: string): UrlResult {
  try {
    return parse(raw, true);
  } catch (e) {
    return parseError(raw, e);
  }
}

/** url.Parse: any URI reference; the fragment is split off first. */
export function parseUrl(raw: string): UrlResult {
  const hash = raw.indexOf('#');
  const base = hash < 0 ? raw : raw.slice(0, hash);
  let u: GoUrl;
  try {
    u = parse(base, false);
  } catch (e) {
    return parseError(base, e);
  }
  if (hash < 0 || hash === raw.length - 1) return u;
  try {
    setFragment(u, raw.slice(hash + 1));
  } catch (e) {
    return parseError(raw, e);
  }
  return u;
}

/** validEncoded: no byte that needs escaping (sub-delims, ':' '@' '[' ']' and '%' are fine). */
function validEncoded(s: string, mode: Mode): boolean {
  for (const c of Buffer.from(s, 'utf8')) {
    if ("!$&'()*+,;=:@[]%".includes(String.fromCharCode(c))) continue;
    if (shouldEscape(c, mode)) return false;
  }
  return true;
}

function tryUnescape(s: string, mode: Mode): string | undefined {
  try {
    return unescape(s, mode);
  } catch {
    return undefined;
  }
}

export function escapedPath(u: GoUrl): string {
  if (u.rawPath !== '' && validEncoded(u.rawPath, 'path') && tryUnescape(u.rawPath, 'path') === u.path) return u.rawPath;
  if (u.path === '*') return '*';
  return escape(u.path, 'path');
}

function escapedFragment(u: GoUrl): string {
  if (u.rawFragment !== '' && validEncoded(u.rawFragment, 'fragment') && tryUnescape(u.rawFragment, 'fragment') === u.fragment) {
    return u.rawFragment;
  }
  return escape(u.fragment, 'fragment');
}

/** URL.String: the URL reassembled. */
export function urlString(u: GoUrl): string {
  let out = '';
  if (u.scheme !== '') out += u.scheme + ':';
  if (u.opaque !== '') out += u.opaque;
  else {
    if (u.scheme !== '' || u.host !== '' || u.user) {
      if (u.host !== '' || u.path !== '' || u.user) out += '//';
      if (u.user) {
        out += escape(u.user.username, 'userPassword');
        if (u.user.password !== undefined) out += ':' + escape(u.user.password, 'userPassword');
        out += '@';
      }
      if (u.host !== '') out += escape(u.host, 'host');
    }
    const path = escapedPath(u);
    if (path !== '' && path[0] !== '/' && u.host !== '') out += '/';
    if (out === '') {
      // A first segment with a colon would read as a scheme.
      const slash = path.indexOf('/');
      if ((slash < 0 ? path : path.slice(0, slash)).includes(':')) out += './';
    }
    out += path;
  }
  if (u.forceQuery || u.rawQuery !== '') out += '?' + u.rawQuery;
  if (u.fragment !== '') out += '#' + escapedFragment(u);
  return out;
}

/** splitHostPort: a numeric port is split off; brackets around the host are dropped. */
function splitHostPort(hostPort: string): [host: string, port: string] {
  let host = hostPort;
  let port = '';
  const colon = host.lastIndexOf(':');
  if (colon !== -1 && validOptionalPort(host.slice(colon))) {
    port = host.slice(colon + 1);
    host = host.slice(0, colon);
  }
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  return [host, port];
}

export const hostname = (u: GoUrl): string => splitHostPort(u.host)[0];
export const port = (u: GoUrl): string => splitHostPort(u.host)[1];

/** URL.Query: ParseQuery of the raw query, silently dropping malformed pairs (including any
 * with a semicolon). Keys keep their first-seen order. */
export function query(u: GoUrl): Map<string, string[]> {
  const m = new Map<string, string[]>();
  let q = u.rawQuery;
  while (q !== '') {
    const amp = q.indexOf('&');
    let key = amp < 0 ? q : q.slice(0, amp);
    q = amp < 0 ? '' : q.slice(amp + 1);
    if (key.includes(';') || key === '') continue;
    const eq = key.indexOf('=');
    let value = '';
    if (eq >= 0) {
      value = key.slice(eq + 1);
      key = key.slice(0, eq);
    }
    const k = tryUnescape(key, 'queryComponent');
    if (k === undefined) continue;
    const v = tryUnescape(value, 'queryComponent');
    if (v === undefined) continue;
    const list = m.get(k);
    if (list) list.push(v);
    else m.set(k, [v]);
  }
  return m;
}

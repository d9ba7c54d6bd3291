// Webhook client config checks from k8s.io/apiserver/pkg/util/webhook/validation.go, and the
// parts of Go's net/url and crypto/x509 behaviour whose messages they surface.
import { X509Certificate } from 'node:crypto';
import { type FieldError, invalid, required } from '../api/field-error.js';
import { isDNS1123Subdomain } from '../schema/names.js';
import { ByteSliceType, goRepr, invalidGo } from './go-types.js';

/** validation.IsValidPortNum. */
const isValidPortNum = (port: number): string[] => (port >= 1 && port <= 65535 ? [] : ['must be between 1 and 65535, inclusive']);

interface GoURL {
  scheme: string;
  opaque: string;
  /** userinfo as url.Userinfo.String() prints it, when present. */
  user?: string;
  host: string;
  path: string;
  rawQuery: string;
  fragment: string;
}

const hasCTL = (s: string): boolean => /[\x00-\x1f\x7f]/.test(s);

/** Go's net/url unescape for the path/fragment (errors on malformed escapes only). */
function unescape(s: string): string {
  const bad = /%(?![0-9a-fA-F]{2})/.exec(s);
  if (bad) {
    let esc = s.slice(bad.index, bad.index + 3);
    if (esc.length > 3) esc = esc.slice(0, 3);
    throw new Error(`invalid URL escape ${JSON.stringify(esc)}`);
  }
  return s.replace(/%([0-9a-fA-F]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
}

// Characters Go allows unescaped in a host (RFC 3986 reg-name / sub-delims, plus ':' '[' ']' '%').
const hostOK = /^[A-Za-z0-9\-._~!$&'()*+,;=:\[\]%<>"{}|\\^`]$/;

function parseHost(host: string): string {
  if (host.startsWith('[')) {
    const i = host.lastIndexOf(']');
    if (i < 0) throw new Error("missing ']' in host");
    const colonPort = host.slice(i + 1);
    if (!validOptionalPort(colonPort)) throw new Error(`invalid port ${JSON.stringify(colonPort)} after host`);
  } else {
    const i = host.lastIndexOf(':');
    if (i >= 0) {
      const colonPort = host.slice(i);
      if (!validOptionalPort(colonPort)) throw new Error(`invalid port ${JSON.stringify(colonPort)} after host`);
    }
  }
  for (let i = 0; i < host.length; i++) {
    const c = host[i]!;
    if (c === '%') {
      if (!/^%[0-9a-fA-F]{2}/.test(host.slice(i))) throw new Error(`invalid URL escape ${JSON.stringify(host.slice(i, i + 3))}`);
      continue;
    }
    if (c.charCodeAt(0) < 0x80 && !hostOK.test(c)) throw new Error(`invalid character ${JSON.stringify(c)} in host name`);
  }
  return unescape(host);
}

function validOptionalPort(port: string): boolean {
  if (port === '') return true;
  return port[0] === ':' && /^[0-9]*$/.test(port.slice(1));
}

/** url.Parse, reduced to what ValidateWebhookURL looks at. Throws with Go's `parse "<url>": ...` text. */
function parseGoURL(raw: string): GoURL {
  const fail = (msg: string): never => {
    throw new Error(`parse ${JSON.stringify(raw)}: ${msg}`);
  };
  const hash = raw.indexOf('#');
  const main = hash >= 0 ? raw.slice(0, hash) : raw;
  const fragRaw = hash >= 0 ? raw.slice(hash + 1) : '';
  const u: GoURL = { scheme: '', opaque: '', host: '', path: '', rawQuery: '', fragment: '' };
  if (hasCTL(main)) fail('net/url: invalid control character in URL');
  let rest = main;
  const schemeMatch = /^([a-zA-Z][a-zA-Z0-9+\-.]*):/.exec(rest);
  if (rest.startsWith(':')) fail('missing protocol scheme');
  if (schemeMatch) {
    u.scheme = schemeMatch[1]!.toLowerCase();
    rest = rest.slice(schemeMatch[0].length);
  }
  if (rest.endsWith('?') && rest.split('?').length === 2) {
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      u.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (u.scheme !== '') {
      u.opaque = rest;
      return finishFragment(u, fragRaw, fail);
    }
    const seg = rest.split('/')[0]!;
    if (seg.includes(':')) fail('first path segment in URL cannot contain colon');
  }
  if ((u.scheme !== '' || !rest.startsWith('///')) && rest.startsWith('//')) {
    let authority = rest.slice(2);
    const slash = authority.indexOf('/');
    rest = slash >= 0 ? authority.slice(slash) : '';
    authority = slash >= 0 ? authority.slice(0, slash) : authority;
    const at = authority.lastIndexOf('@');
    let hostPart = authority;
    if (at >= 0) {
      const userinfo = authority.slice(0, at);
      if (!/^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/.test(userinfo)) fail('net/url: invalid userinfo');
      u.user = userinfo;
      hostPart = authority.slice(at + 1);
    }
    try {
      u.host = parseHost(hostPart);
    } catch (e) {
      fail((e as Error).message);
    }
  }
  try {
    u.path = unescape(rest);
  } catch (e) {
    fail((e as Error).message);
  }
  return finishFragment(u, fragRaw, fail);
}

function finishFragment(u: GoURL, frag: string, fail: (m: string) => never): GoURL {
  try {
    u.fragment = unescape(frag);
  } catch (e) {
    fail((e as Error).message);
  }
  return u;
}

const FORM = '; desired format: https://host[/path]';

/** webhook.ValidateWebhookURL. */
export function validateWebhookURL(path: string, url: string, forceHttps: boolean): FieldError[] {
  let u: GoURL;
  try {
    u = parseGoURL(url);
  } catch (e) {
    return [required(path, 'url must be a valid URL: ' + (e as Error).message + FORM)];
  }
  const errs: FieldError[] = [];
  if (forceHttps && u.scheme !== 'https') errs.push(invalid(path, u.scheme, "'https' is the only allowed URL scheme" + FORM));
  if (u.host.length === 0) errs.push(invalid(path, u.host, 'host must be specified' + FORM));
  if (u.user !== undefined) errs.push(invalid(path, u.user, 'user information is not permitted in the URL'));
  if (u.fragment.length !== 0) errs.push(invalid(path, u.fragment, 'fragments are not permitted in the URL'));
  if (u.rawQuery.length !== 0) errs.push(invalid(path, u.rawQuery, 'query parameters are not permitted in the URL'));
  return errs;
}

/**
 * webhook.ValidateWebhookService(fldPath, namespace, name, path, port). Note the parameter order:
 * the CRD validation passes (service.name, service.namespace), so a missing service name is reported
 * as `service.namespace: ... service namespace is required` and vice versa. kube does exactly that.
 */
export function validateWebhookService(fldPath: string, namespace: string, name: string, urlPath: string | undefined, port: number): FieldError[] {
  const errs: FieldError[] = [];
  if (!name) errs.push(required(`${fldPath}.name`, 'service name is required'));
  if (!namespace) errs.push(required(`${fldPath}.namespace`, 'service namespace is required'));
  const portErrs = isValidPortNum(port);
  if (portErrs.length > 0) errs.push(invalid(`${fldPath}.port`, port, 'port is not valid: ' + portErrs.join(', ')));
  if (urlPath === undefined) return errs;
  if (urlPath === '/' || urlPath.length === 0) return errs;
  if (urlPath === '//') {
    errs.push(invalid(`${fldPath}.path`, urlPath, 'segment[0] may not be empty'));
    return errs;
  }
  if (!urlPath.startsWith('/')) errs.push(invalid(`${fldPath}.path`, urlPath, "must start with a '/'"));
  let check = urlPath.slice(1);
  if (check.endsWith('/')) check = check.slice(0, -1);
  check.split('/').forEach((step, i) => {
    if (step.length === 0) {
      errs.push(invalid(`${fldPath}.path`, urlPath, `segment[${i}] may not be empty`));
      return;
    }
    for (const failure of isDNS1123Subdomain(step)) errs.push(invalid(`${fldPath}.path`, urlPath, `segment[${i}]: ${failure}`));
  });
  return errs;
}

/** The error transport.TLSConfigFor reports for CA data, or undefined when some certificate parses. */
export function caBundleError(pem: Buffer): string | undefined {
  if (pem.length === 0) return undefined;
  const text = pem.toString('latin1');
  const blockRe = /-----BEGIN ([^\n]*?)-----\r?\n([\s\S]*?)-----END \1-----/g;
  const blocks: Array<{ type: string; headers: boolean; der: Buffer }> = [];
  for (let m = blockRe.exec(text); m; m = blockRe.exec(text)) {
    const body = m[2]!;
    const headers = /^[^\n]*:[^\n]*\r?\n/.test(body);
    const b64 = body.replace(/^[^\n]*:[^\n]*\r?\n/gm, '').replace(/\s+/g, '');
    blocks.push({ type: m[1]!, headers, der: Buffer.from(b64, 'base64') });
  }
  let anyOK = false;
  let firstErr: string | undefined;
  for (const b of blocks) {
    if (b.type !== 'CERTIFICATE' || b.headers) continue;
    try {
      new X509Certificate(b.der);
      anyOK = true;
    } catch {
      firstErr ??= 'failed to parse certificate: x509: malformed certificate';
    }
  }
  if (anyOK) return undefined;
  const detail = blocks.length === 0 ? 'unable to parse bytes as PEM block' : (firstErr ?? 'no valid certificate authority data seen');
  return `unable to load root certificates: ${detail}`;
}

/** webhook.ValidateCABundle; caBundle is base64 as JSON carries it. */
export function validateCABundle(path: string, caBundle: string): FieldError[] {
  const err = caBundleError(Buffer.from(caBundle, 'base64'));
  return err ? [invalidGo(path, goRepr(caBundle, ByteSliceType), err)] : [];
}

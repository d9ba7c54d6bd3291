// Kubernetes' URL library (k8s.io/apiserver pkg/cel/library/urls.go, "kubernetes.urls"):
// url(), isURL() and the accessors of `kubernetes.URL`. A string is a URL when Go's
// url.ParseRequestURI accepts it (an absolute URI or an absolute path); the value kept is
// url.Parse's, so a #fragment is split off. URLs are equal when their String() forms are.

import type { Library } from '../decls.js';
import { BOOL, STRING, listOf, mapOf, opaque } from '../types.js';
import { CelError, OpaqueValue, type Val } from '../values.js';
import { LiteralMap } from '../value-ops.js';
import { escapedPath, hostname, parseRequestURI, parseUrl, port, query, urlString, type GoUrl } from './go-url.js';
import { badArg, global, maybeNoSuchOverload, member, traversal } from './support.js';

export const URL_TYPE = opaque('kubernetes.URL');

export class UrlValue extends OpaqueValue {
  readonly type = URL_TYPE;
  private str: string | undefined;

  constructor(readonly url: GoUrl) {
    super();
  }

  /** URL.String(). */
  override toString(): string {
    return (this.str ??= urlString(this.url));
  }

  equals(other: OpaqueValue): boolean {
    return other instanceof UrlValue && other.toString() === this.toString();
  }
}

/** url(): ParseRequestURI must accept the string; the value is url.Parse's. */
function toUrl(s: string): UrlValue | CelError {
  const checked = parseRequestURI(s);
  const parsed = 'error' in checked ? checked : parseUrl(s);
  if ('error' in parsed) return new CelError(`URL parse error during conversion from string: ${parsed.error}`);
  return new UrlValue(parsed);
}

const isUrl = (s: string): boolean => !('error' in parseRequestURI(s));

function accessor(id: string, get: (u: GoUrl) => Val, result = STRING) {
  return member(id, [URL_TYPE], result, (args) => (args[0] instanceof UrlValue ? get(args[0].url) : maybeNoSuchOverload(args[0]!)));
}

function queryMap(u: GoUrl): LiteralMap {
  const m = new LiteralMap();
  for (const [k, v] of query(u)) m.set(k, v);
  return m;
}

export const URLS_LIBRARY: Library = {
  name: 'kubernetes.urls',
  functions: [
    // Parsing is a string traversal.
    { name: 'url', overloads: [global('string_to_url', [STRING], URL_TYPE, (a) => badArg(a, 'string') ?? toUrl(a[0] as string), (a) => traversal(a[0]!))] },
    { name: 'getScheme', overloads: [accessor('url_get_scheme', (u) => u.scheme)] },
    { name: 'getHost', overloads: [accessor('url_get_host', (u) => u.host)] },
    { name: 'getHostname', overloads: [accessor('url_get_hostname', hostname)] },
    { name: 'getPort', overloads: [accessor('url_get_port', port)] },
    { name: 'getEscapedPath', overloads: [accessor('url_get_escaped_path', escapedPath)] },
    { name: 'getQuery', overloads: [accessor('url_get_query', queryMap, mapOf(STRING, listOf(STRING)))] },
    { name: 'isURL', overloads: [global('is_url_string', [STRING], BOOL, (a) => badArg(a, 'string') ?? isUrl(a[0] as string))] },
  ],
};

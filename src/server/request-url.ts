// A request's path and query from its request line, as kube-apiserver's handlers see them: Go's url.URL.Path
// (dot segments removed, percent escapes decoded) and its query parameters.

/** Characters that WHATWG URL parsing leaves as they are in a path (no escapes, no backslashes, no spaces). */
const PLAIN_PATH = /^\/(?!\/)[\w.~:@!$&'()*+,;=/-]*$/;
/** A `.` or `..` segment, which URL parsing would resolve. */
const DOT_SEGMENT = /\/\.\.?(?:\/|$)/;
/** What URL parsing strips or cuts from a query: white space and control characters, a fragment. */
const QUERY_CHANGED = /[\s\x00-\x1f\x7f#]/;

export interface RequestURL {
  path: string;
  query: URLSearchParams;
}

export function parseRequestURL(raw: string): RequestURL {
  const q = raw.indexOf('?');
  const rawPath = q < 0 ? raw : raw.slice(0, q);
  // Most request lines are plain: URL parsing (about a microsecond) would give them back unchanged.
  if (PLAIN_PATH.test(rawPath) && !DOT_SEGMENT.test(rawPath) && (q < 0 || !QUERY_CHANGED.test(raw.slice(q + 1)))) {
    // From the `?`, which the constructor drops (a second one would be dropped too if it came first).
    return { path: rawPath, query: new URLSearchParams(q < 0 ? '' : raw.slice(q)) };
  }
  // Parsing through URL normalises the path as Go's net/url does for percent-encoded segments.
  const url = new URL(raw, 'http://localhost');
  return { path: goUnescapePath(url.pathname), query: q < 0 ? new URLSearchParams() : url.searchParams };
}

/**
 * The path as Go's url.URL.Path holds it, which RequestInfoFactory splits: percent escapes decoded
 * (`/crontabs/%61bc` names "abc"; `%2F` is a slash there too). WHATWG URL keeps them encoded. A path
 * with a malformed escape (which Go's server refuses before any handler) is left as it is.
 */
export function goUnescapePath(path: string): string {
  if (!path.includes('%')) return path;
  if (/%(?![0-9a-fA-F]{2})/.test(path)) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    // Bytes that are not UTF-8: Go keeps them; the replacement character is as close as a JS string gets.
    return Buffer.from(path.replace(/%([0-9a-fA-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16))), 'latin1').toString('utf8');
  }
}

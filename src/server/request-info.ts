// Request info from the URL path and method, as k8s.io/apiserver's RequestInfoFactory derives it.

export interface RequestInfo {
  isResourceRequest: boolean;
  path: string;
  /** get, list, watch, create, update, patch, delete, deletecollection; or the lower-cased HTTP method for non-resource paths. */
  verb: string;
  apiPrefix: string; // 'api' | 'apis'
  apiGroup: string;
  apiVersion: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
  parts: string[];
}

const NAMESPACE_SUBRESOURCES = new Set(['status', 'finalize']);

/** A non-resource request for the path: what requestInfo gives a path outside /api and /apis. */
export const nonResourceInfo = (path: string, verb: string): RequestInfo => ({
  isResourceRequest: false,
  path,
  verb,
  apiPrefix: '',
  apiGroup: '',
  apiVersion: '',
  namespace: '',
  resource: '',
  subresource: '',
  name: '',
  parts: [],
});

export function requestInfo(method: string, path: string, query: URLSearchParams): RequestInfo {
  const info = nonResourceInfo(path, method.toLowerCase());
  const all = splitPath(path);
  if (all.length === 0 || (all[0] !== 'api' && all[0] !== 'apis')) return info;
  info.apiPrefix = all[0]!;
  // Indexes into all rather than slices of it: this runs on every request.
  let at = 1;
  if (info.apiPrefix === 'apis') {
    if (all.length - at < 3) return info; // discovery: /apis, /apis/<group>, /apis/<group>/<version>
    info.apiGroup = all[at++]!;
  } else if (all.length - at < 2) {
    return info; // /api, /api/v1
  }
  info.apiVersion = all[at++]!;
  info.isResourceRequest = true;

  let watchPrefix = false;
  if (all[at] === 'watch') {
    // The deprecated /watch/ prefix forces the watch verb.
    watchPrefix = true;
    at++;
  }
  info.verb = RESOURCE_VERBS.get(method) ?? '';
  if (all[at] === 'namespaces' && all.length - at > 1) {
    info.namespace = all[at + 1]!;
    if (all.length - at > 2 && !NAMESPACE_SUBRESOURCES.has(all[at + 2]!)) at += 2;
  }
  const n = all.length - at;
  info.parts = all.slice(at);
  if (n >= 3) info.subresource = all[at + 2]!;
  if (n >= 2) info.name = all[at + 1]!;
  if (n >= 1) info.resource = all[at]!;

  if (watchPrefix && info.verb === 'get') info.verb = 'watch';
  else if (info.name === '' && info.verb === 'get') {
    info.verb = watchParam(query.get('watch')) ? 'watch' : 'list';
  } else if (info.name === '' && info.verb === 'delete') info.verb = 'deletecollection';
  // A watch of a single object by name becomes a watch with a name field selector.
  if (info.verb === 'get' && info.name !== '' && info.subresource === '') {
    const w = query.get('watch');
    if (w !== null && (w === '1' || w.toLowerCase() === 'true')) info.verb = 'watch';
  }
  return info;
}

/** kube's splitPath: the path without its leading and trailing slashes, split at the rest (none for ""). */
function splitPath(path: string): string[] {
  let from = 0;
  let to = path.length;
  while (from < to && path.charCodeAt(from) === 47) from++;
  while (to > from && path.charCodeAt(to - 1) === 47) to--;
  const parts: string[] = [];
  if (from === to) return parts;
  // indexOf and slice rather than String.prototype.split, which V8 runs in its runtime: half the time.
  for (;;) {
    const slash = path.indexOf('/', from);
    if (slash < 0 || slash >= to) {
      parts.push(path.slice(from, to));
      return parts;
    }
    parts.push(path.slice(from, slash));
    from = slash + 1;
  }
}

const RESOURCE_VERBS: ReadonlyMap<string, string> = new Map([
  ['POST', 'create'],
  ['GET', 'get'],
  ['HEAD', 'get'],
  ['PUT', 'update'],
  ['PATCH', 'patch'],
  ['DELETE', 'delete'],
]);

/** Whether a `watch` query value asks for a watch, as kube's request info reads it (present and empty, 1, true). */
export function watchParam(w: string | null): boolean {
  return w !== null && (w === '' || w === '1' || w.toLowerCase() === 'true');
}

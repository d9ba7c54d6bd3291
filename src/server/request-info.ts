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
  let parts = path.replace(/^\/+|\/+$/g, '').split('/').filter((p, i, a) => p !== '' || i < a.length - 1);
  if (parts.length === 0 || (parts[0] !== 'api' && parts[0] !== 'apis')) return info;
  info.apiPrefix = parts[0]!;
  parts = parts.slice(1);
  if (info.apiPrefix === 'apis') {
    if (parts.length < 3) return info; // discovery: /apis, /apis/<group>, /apis/<group>/<version>
    info.apiGroup = parts[0]!;
    parts = parts.slice(1);
  } else if (parts.length < 2) {
    return info; // /api, /api/v1
  }
  info.apiVersion = parts[0]!;
  parts = parts.slice(1);
  info.isResourceRequest = true;

  let watchPrefix = false;
  if (parts[0] === 'watch') {
    // The deprecated /watch/ prefix forces the watch verb.
    watchPrefix = true;
    parts = parts.slice(1);
  }
  switch (method) {
    case 'POST':
      info.verb = 'create';
      break;
    case 'GET':
    case 'HEAD':
      info.verb = 'get';
      break;
    case 'PUT':
      info.verb = 'update';
      break;
    case 'PATCH':
      info.verb = 'patch';
      break;
    case 'DELETE':
      info.verb = 'delete';
      break;
    default:
      info.verb = '';
  }
  if (parts[0] === 'namespaces') {
    if (parts.length > 1) {
      info.namespace = parts[1]!;
      if (parts.length > 2 && !NAMESPACE_SUBRESOURCES.has(parts[2]!)) parts = parts.slice(2);
    }
  }
  info.parts = parts;
  if (parts.length >= 3) info.subresource = parts[2]!;
  if (parts.length >= 2) info.name = parts[1]!;
  if (parts.length >= 1) info.resource = parts[0]!;

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

/** Whether a `watch` query value asks for a watch, as kube's request info reads it (present and empty, 1, true). */
export function watchParam(w: string | null): boolean {
  return w !== null && (w === '' || w === '1' || w.toLowerCase() === 'true');
}

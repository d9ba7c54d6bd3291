// Discovery endpoints: /api, /apis (legacy or aggregated by Accept), /api/v1, /apis/<group>, /apis/<group>/<version>.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { notAcceptable } from '../api/status.js';
import type { ApiRegistry } from './api-registry.js';
import { apiGroup, apiResourceList, serveRootDiscovery, DISCOVERY_ACCEPTED_MEDIA_TYPES, groupVersions } from './discovery.js';
import { goJSON } from './discovery-json.js';
import { writeError, writeRaw } from './http.js';
import { negotiateOutput } from './negotiation.js';
import { goYaml } from '../util/go-yaml-encode.js';

/** Serves the path if it is a discovery document; returns false otherwise. */
export function serveDiscovery(registry: Pick<ApiRegistry, 'served'>, req: IncomingMessage, res: ServerResponse, path: string, serverAddress: string): boolean {
  const parts = path.replace(/^\/+|\/+$/g, '').split('/');
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const resources = registry.served();
  if ((parts[0] === 'api' || parts[0] === 'apis') && parts.length === 1) {
    const r = serveRootDiscovery({
      path: parts[0] === 'api' ? '/api' : '/apis',
      resources,
      accept: req.headers.accept,
      ifNoneMatch: req.headers['if-none-match'],
      serverAddress,
    });
    if (r.status === 406) {
      writeError(res, notAcceptable(DISCOVERY_ACCEPTED_MEDIA_TYPES), req.headers.accept);
      return true;
    }
    if (r.status === 304) {
      res.writeHead(304, r.headers);
      res.end();
      return true;
    }
    writeRaw(res, 200, r.headers['Content-Type'] ?? 'application/json', r.body ?? '', r.headers);
    return true;
  }
  let doc: unknown;
  if (parts[0] === 'api' && parts.length === 2) {
    if (parts[1] !== 'v1') return false;
    doc = apiResourceList('', 'v1', resources);
  } else if (parts[0] === 'apis' && parts.length === 2) {
    doc = apiGroup(parts[1]!, resources);
  } else if (parts[0] === 'apis' && parts.length === 3) {
    if (!groupVersions(parts[1]!, resources).includes(parts[2]!)) return false;
    doc = apiResourceList(parts[1]!, parts[2]!, resources);
  } else {
    return false;
  }
  if (doc === undefined) return false;
  const neg = negotiateOutput(req.headers.accept, false, 'object');
  if (neg instanceof Error) {
    writeError(res, neg, req.headers.accept);
    return true;
  }
  writeRaw(res, 200, neg.contentType, neg.format === 'yaml' ? goYaml(JSON.parse(goJSON(doc))) : goJSON(doc));
  return true;
}

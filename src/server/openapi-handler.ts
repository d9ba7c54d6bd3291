// /openapi/v3 (index and one document per group-version) and /openapi/v2, rebuilt only when the set of
// served resources changes; a v3 document only when its own inputs do, and not before it is asked for.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ApiRegistry } from './api-registry.js';
import { prebuildBuiltinOpenAPIV3, publishOpenAPIV3, serveOpenAPIV3, type PublishedOpenAPIV3 } from './openapi.js';
import { publishOpenAPIV2, serveOpenAPIV2, type PublishedOpenAPIV2 } from './openapi-v2.js';
import { writeNotFoundPage } from './http.js';

const v3Cache = new WeakMap<ApiRegistry, { generation: number; v3: PublishedOpenAPIV3 }>();
const v2Cache = new WeakMap<ApiRegistry, { generation: number; v2: PublishedOpenAPIV2 }>();

function publishedV3(registry: ApiRegistry): PublishedOpenAPIV3 {
  const gen = registry.generation();
  const hit = v3Cache.get(registry);
  if (hit && hit.generation === gen) return hit.v3;
  const v3 = publishOpenAPIV3(registry.served(), undefined, hit?.v3);
  v3Cache.set(registry, { generation: gen, v3 });
  return v3;
}

let prebuilding: Promise<void> | undefined;

/** The built-in /openapi/v3 documents built in the background, once per process (every server's are the same). */
export function prebuildOpenAPI(registry: ApiRegistry): Promise<void> {
  return (prebuilding ??= prebuildBuiltinOpenAPIV3(registry.served()).then(
    () => {},
    () => {},
  ));
}

/** Rebuilt, like the v3 documents, when a CRD is created, changed or deleted. */
function publishedV2(registry: ApiRegistry): PublishedOpenAPIV2 {
  const gen = registry.generation();
  const hit = v2Cache.get(registry);
  if (hit && hit.generation === gen) return hit.v2;
  const v2 = publishOpenAPIV2(registry.served());
  v2Cache.set(registry, { generation: gen, v2 });
  return v2;
}

export function serveOpenAPI(registry: ApiRegistry, req: IncomingMessage, res: ServerResponse, path: string, query: URLSearchParams): void {
  if (req.method !== 'GET' && req.method !== 'HEAD') return writeNotFoundPage(res);
  const ifNoneMatch = req.headers['if-none-match'];
  let r: { status: number; headers: Record<string, string>; body?: string | Uint8Array };
  if (path === '/openapi/v2' || path === '/openapi/v2/') {
    r = serveOpenAPIV2(publishedV2(registry), { accept: req.headers.accept, ifNoneMatch, acceptEncoding: req.headers['accept-encoding'] });
  } else if (path === '/openapi/v3' || path.startsWith('/openapi/v3/')) {
    r = serveOpenAPIV3(publishedV3(registry), path, { hash: query.get('hash') ?? undefined, accept: req.headers.accept, ifNoneMatch });
    // kube-aggregator's OpenAPI v3 proxy (specProxier.handleGroupVersion) answers a group-version nothing
    // serves with a bare WriteHeader(404): no body, no Content-Type.
    if (r.status === 404) {
      res.writeHead(404, { 'Content-Length': 0 });
      res.end();
      return;
    }
  } else {
    return writeNotFoundPage(res);
  }
  if (r.status === 404) return writeNotFoundPage(res);
  const body = r.body === undefined ? undefined : typeof r.body === 'string' ? r.body : Buffer.from(r.body);
  res.writeHead(r.status, body === undefined ? r.headers : { ...r.headers, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

// A tiny HTTP server that serves only what the publish builders produce (discovery, OpenAPI v3,
// /version) plus a recording POST/GET endpoint for custom resources, so real kubectl binaries can be
// pointed at it.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ServedResource } from '../../src/api/resource.js';
import { apiGroup, apiResourceList, serveRootDiscovery } from '../../src/server/discovery.js';
import { goJSON } from '../../src/server/discovery-json.js';
import { publishOpenAPIV3, serveOpenAPIV3 } from '../../src/server/openapi.js';
import { publishOpenAPIV2, serveOpenAPIV2 } from '../../src/server/openapi-v2.js';

export interface RecordedRequest {
  method: string;
  url: string;
  accept?: string;
  contentType?: string;
  body: string;
  status?: number;
  responseContentType?: string;
}

export interface FakeApiserver {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** RFC 7386 JSON merge patch. */
function mergePatch(target: unknown, patch: unknown): unknown {
  if (typeof patch !== 'object' || patch === null || Array.isArray(patch)) return patch;
  const out: Record<string, unknown> = typeof target === 'object' && target !== null && !Array.isArray(target) ? { ...(target as Record<string, unknown>) } : {};
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) delete out[k];
    else out[k] = mergePatch(out[k], v);
  }
  return out;
}

export async function startFakeApiserver(resources: ServedResource[]): Promise<FakeApiserver> {
  const published = publishOpenAPIV3(resources);
  const publishedV2 = publishOpenAPIV2(resources);
  const requests: RecordedRequest[] = [];
  const objects = new Map<string, unknown>();
  let address = '';
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const url = new URL(req.url ?? '/', 'http://localhost');
      const record: RecordedRequest = { method: req.method ?? '', url: req.url ?? '', accept: req.headers.accept, contentType: req.headers['content-type'], body };
      requests.push(record);
      const send = (status: number, headers: Record<string, string>, text?: string | Uint8Array): void => {
        record.status = status;
        record.responseContentType = headers['Content-Type'];
        res.writeHead(status, headers);
        res.end(text);
      };
      const json = (value: unknown, status = 200): void => send(status, { 'Content-Type': 'application/json' }, goJSON(value));
      const notFound = (): void =>
        json({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'the server could not find the requested resource', reason: 'NotFound', details: {}, code: 404 }, 404);
      const path = url.pathname.replace(/\/+$/, '') || '/';

      if (path === '/version') {
        return json({ major: '1', minor: '33', gitVersion: 'v1.33.0', gitCommit: '', gitTreeState: 'clean', buildDate: '', goVersion: 'go1.24.0', compiler: 'gc', platform: 'linux/amd64' });
      }
      if (path === '/api' || path === '/apis') {
        const r = serveRootDiscovery({ path, resources, accept: req.headers.accept, ifNoneMatch: req.headers['if-none-match'], serverAddress: address });
        return send(r.status, r.headers, r.body);
      }
      if (path === '/openapi/v2') {
        const r = serveOpenAPIV2(publishedV2, { accept: req.headers.accept, ifNoneMatch: req.headers['if-none-match'] });
        return send(r.status, r.headers, r.body);
      }
      if (path.startsWith('/openapi/v3')) {
        const r = serveOpenAPIV3(published, url.pathname, {
          hash: url.searchParams.get('hash') ?? undefined,
          accept: req.headers.accept,
          ifNoneMatch: req.headers['if-none-match'],
        });
        return send(r.status, r.headers, r.body);
      }
      const parts = path.split('/').filter(Boolean);
      // /api/v1, /apis/<g>, /apis/<g>/<v>
      if (parts[0] === 'api' && parts.length === 2) return json(apiResourceList('', parts[1]!, resources));
      if (parts[0] === 'apis' && parts.length === 2) {
        const g = apiGroup(parts[1]!, resources);
        return g ? json(g) : notFound();
      }
      if (parts[0] === 'apis' && parts.length === 3) {
        if (!resources.some((r) => r.group === parts[1] && r.version === parts[2])) return notFound();
        return json(apiResourceList(parts[1]!, parts[2]!, resources));
      }
      // Objects: create (kept unless dry-run), get, and JSON merge patch, enough for create and apply.
      if (req.method === 'POST') {
        const obj = JSON.parse(body) as { metadata?: Record<string, unknown> };
        obj.metadata = { ...obj.metadata, uid: '6f1e3c1a-0000-4000-8000-000000000001', resourceVersion: '1', creationTimestamp: '2025-01-01T00:00:00Z' };
        if (!url.searchParams.has('dryRun')) objects.set(`${path}/${String(obj.metadata['name'])}`, obj);
        return json(obj, 201);
      }
      const existing = objects.get(path);
      if (req.method === 'GET' && existing) return json(existing);
      if (req.method === 'PATCH' && existing && req.headers['content-type'] === 'application/merge-patch+json') {
        const patched = mergePatch(existing, JSON.parse(body));
        objects.set(path, patched);
        return json(patched);
      }
      return notFound();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  address = `127.0.0.1:${port}`;
  return {
    url: `http://${address}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

// A minimal Kubernetes API client from a kubeconfig (current context; embedded or file credentials, client
// certificates or a bearer token), for the command line's own tools.
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import { dirname, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { parseJSON, stringifyJSON } from '../util/json-int64.js';
import type { Connection } from '../api/connection.js';

export type { Connection };

interface ApiResponse {
  status: number;
  body: any;
}

const pick = (list: unknown, name: unknown): Record<string, any> | undefined =>
  Array.isArray(list) ? (list.find((e) => e?.name === name) as Record<string, any> | undefined) : undefined;

// A file named in a kubeconfig is relative to the kubeconfig's own folder, as client-go resolves it.
const material = (obj: Record<string, any> | undefined, field: string, base: string): string | undefined => {
  if (!obj) return undefined;
  if (typeof obj[`${field}-data`] === 'string') return Buffer.from(obj[`${field}-data`], 'base64').toString('utf8');
  if (typeof obj[field] === 'string') return readFileSync(resolve(base, obj[field]), 'utf8');
  return undefined;
};

export function connectionFromKubeconfig(path: string): Connection {
  const cfg = parseYaml(readFileSync(path, 'utf8')) as Record<string, any>;
  const ctx = pick(cfg['contexts'], cfg['current-context'])?.['context'];
  if (!ctx) throw new Error(`kubeconfig ${path}: no current context`);
  const cluster = pick(cfg['clusters'], ctx.cluster)?.['cluster'];
  if (!cluster?.server) throw new Error(`kubeconfig ${path}: no server for cluster ${String(ctx.cluster)}`);
  const user = pick(cfg['users'], ctx.user)?.['user'] as Record<string, any> | undefined;
  return {
    server: String(cluster.server),
    ca: material(cluster, 'certificate-authority', dirname(path)),
    cert: material(user, 'client-certificate', dirname(path)),
    key: material(user, 'client-key', dirname(path)),
    token: typeof user?.['token'] === 'string' ? user['token'] : undefined,
    insecureSkipTLSVerify: cluster['insecure-skip-tls-verify'] === true,
  };
}

export function request(conn: Connection, method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<ApiResponse> {
  const url = new URL(path, conn.server);
  const payload = body === undefined ? undefined : stringifyJSON(body);
  const headers: Record<string, string> = { Accept: 'application/json' };
  if (payload !== undefined) headers['Content-Type'] = contentType;
  if (conn.token) headers['Authorization'] = `Bearer ${conn.token}`;
  const secure = url.protocol === 'https:';
  return new Promise((resolve, reject) => {
    const req = (secure ? https : http).request(
      url,
      { method, headers, ...(secure ? { ca: conn.ca, cert: conn.cert, key: conn.key } : {}) },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = text;
          try {
            parsed = parseJSON(text);
          } catch {
            // Not JSON (a plain 404 page): keep the text.
          }
          resolve({ status: res.statusCode ?? 0, body: parsed });
        });
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

/** The error a response carries: the Status message, as kubectl prints it. */
export function responseError(r: ApiResponse): Error {
  const msg = typeof r.body === 'object' && r.body && typeof r.body.message === 'string' ? r.body.message : String(r.body).trim();
  return new Error(`Error from server (${typeof r.body?.reason === 'string' ? r.body.reason : r.status}): ${msg}`);
}

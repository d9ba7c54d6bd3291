// `crd-apiserver cluster create|delete|kubeconfig NAME`: logical clusters for people. create and delete go
// through root's API (LogicalClusters) and wait, as `kubectl wait` would, for Ready and for the object to go;
// kubeconfig writes a copy of a kubeconfig whose server URL ends in /clusters/NAME.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseDocument } from 'yaml';
import { connectionFromKubeconfig, request, responseError, type Connection } from './kube-client.js';
import { UsageError, type ParsedArgs } from './flags.js';
import { isObject } from '../util/json.js';
import { LOGICAL_CLUSTERS_PATH } from '../apis/tenancy/v1alpha1/logical-cluster.js';

const COLLECTION = LOGICAL_CLUSTERS_PATH;
const RESOURCE = 'logicalcluster.tenancy.crd-apiserver.io';
const POLL_MS = 20;

/** timeoutMs: how long create and delete wait (--timeout, default one minute). */
export async function runCluster(args: ParsedArgs, timeoutMs = 60_000): Promise<number> {
  const [verb, name, ...extra] = args.positional;
  if (!verb || !['create', 'delete', 'kubeconfig'].includes(verb)) throw new UsageError('expected "cluster create NAME", "cluster delete NAME" or "cluster kubeconfig NAME"');
  if (!name || extra.length > 0) throw new UsageError(`"crd-apiserver cluster ${verb}" takes exactly one cluster name`);
  const kubeconfig = args.flags.get('kubeconfig') ?? join(args.flags.get('data-dir') ?? './.crd-apiserver', 'kubeconfig');
  if (verb === 'kubeconfig') {
    const text = clusterKubeconfig(readFileSync(kubeconfig, 'utf8'), name);
    const out = args.flags.get('out');
    if (out) writeFileSync(out, text, { mode: 0o600 });
    else process.stdout.write(text);
    return 0;
  }
  const conn = connectionFromKubeconfig(kubeconfig);
  if (verb === 'create') {
    const r = await request(conn, 'POST', COLLECTION, { apiVersion: 'tenancy.crd-apiserver.io/v1alpha1', kind: 'LogicalCluster', metadata: { name } });
    if (r.status !== 201) throw responseError(r);
    await until(timeoutMs, `${RESOURCE}/${name} to become Ready`, async () => isReady(await get(conn, name)));
    process.stdout.write(`${RESOURCE}/${name} created\n`);
    return 0;
  }
  const r = await request(conn, 'DELETE', `${COLLECTION}/${encodeURIComponent(name)}`);
  if (r.status !== 200 && r.status !== 202) throw responseError(r);
  await until(timeoutMs, `${RESOURCE}/${name} to be deleted`, async () => (await get(conn, name)) === undefined);
  process.stdout.write(`${RESOURCE} "${name}" deleted\n`);
  return 0;
}

/** The kubeconfig with every cluster's server URL ending in /clusters/<name> (its other contents as they were). */
export function clusterKubeconfig(text: string, name: string): string {
  const doc = parseDocument(text);
  const clusters = doc.get('clusters');
  const list = (clusters as { items?: unknown[] } | undefined)?.items ?? [];
  for (const item of list) {
    const cluster = (item as { get?(k: string): unknown }).get?.('cluster') as { get(k: string): unknown; set(k: string, v: unknown): void } | undefined;
    const server = cluster?.get('server');
    if (typeof server === 'string') cluster!.set('server', `${server.replace(/\/clusters\/[^/]+\/?$/, '').replace(/\/$/, '')}/clusters/${name}`);
  }
  return doc.toString();
}

async function get(conn: Connection, name: string): Promise<Record<string, unknown> | undefined> {
  const r = await request(conn, 'GET', `${COLLECTION}/${encodeURIComponent(name)}`);
  if (r.status === 404) return undefined;
  if (r.status !== 200) throw responseError(r);
  return r.body as Record<string, unknown>;
}

function isReady(lc: Record<string, unknown> | undefined): boolean {
  const status = lc && isObject(lc['status']) ? lc['status'] : {};
  const conditions = Array.isArray(status['conditions']) ? status['conditions'] : [];
  return conditions.some((c) => isObject(c) && c['type'] === 'Ready' && c['status'] === 'True');
}

async function until(timeoutMs: number, what: string, done: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, POLL_MS));
  }
}

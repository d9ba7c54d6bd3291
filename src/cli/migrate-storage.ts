// `crd-apiserver migrate-storage <crd>`: the seed's "upgrade existing objects to a new stored version" done for
// the user, against any Kubernetes API server. Every object is listed at the storage version and written back
// unchanged, which makes the server store it at that version; then status.storedVersions is trimmed to it.
import { request, responseError, type Connection } from './kube-client.js';

interface MigrateOptions {
  conn: Connection;
  crdName: string;
  /** Objects per list page (default 500, as kubectl's chunk size). */
  chunkSize?: number;
  log?: (line: string) => void;
}

interface MigrateResult {
  storageVersion: string;
  migrated: number;
  /** Objects deleted while the migration ran. */
  skipped: number;
  storedVersions: string[];
}

const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions/';
const MAX_RETRIES = 10;

export async function migrateStorage(opts: MigrateOptions): Promise<MigrateResult> {
  const { conn, crdName } = opts;
  const log = opts.log ?? (() => {});
  const chunk = opts.chunkSize ?? 500;
  const got = await request(conn, 'GET', CRD_PATH + encodeURIComponent(crdName));
  if (got.status !== 200) throw responseError(got);
  const crd = got.body;
  const storage = (crd.spec.versions as Array<{ name: string; storage: boolean; served: boolean }>).find((v) => v.storage);
  if (!storage) throw new Error(`${crdName} has no storage version`);
  const base = `/apis/${crd.spec.group}/${storage.name}/${crd.spec.names.plural}`;
  log(`migrating ${crdName} to ${crd.spec.group}/${storage.name} (stored versions: ${(crd.status?.storedVersions ?? []).join(', ')})`);

  let migrated = 0;
  let skipped = 0;
  let cont: string | undefined;
  for (;;) {
    const q = new URLSearchParams({ limit: String(chunk) });
    if (cont) q.set('continue', cont);
    const page = await request(conn, 'GET', `${base}?${q}`);
    if (page.status === 410 && cont) {
      // The continue token expired: start over (rewriting twice is harmless).
      log('list continuation expired; listing again from the start');
      cont = undefined;
      continue;
    }
    if (page.status !== 200) throw responseError(page);
    for (const item of page.body.items as any[]) {
      if (await rewrite(conn, base, item)) migrated++;
      else skipped++;
    }
    const remaining = page.body.metadata?.remainingItemCount;
    log(`migrated ${migrated}${typeof remaining === 'number' ? `/${migrated + skipped + remaining}` : ''} ${crdName}`);
    cont = page.body.metadata?.continue || undefined;
    if (!cont) break;
  }

  const storedVersions = await trimStoredVersions(conn, crdName, storage.name);
  log(`done: ${migrated} objects rewritten${skipped ? `, ${skipped} deleted meanwhile` : ''}; storedVersions now ${storedVersions.join(', ')}`);
  return { storageVersion: storage.name, migrated, skipped, storedVersions };
}

/** PUT the object as read; on a conflict read it again. False when it went away meanwhile. */
async function rewrite(conn: Connection, base: string, item: any): Promise<boolean> {
  const ns = item.metadata.namespace;
  const path = `${ns ? base.replace(/\/([^/]+)$/, `/namespaces/${encodeURIComponent(ns)}/$1`) : base}/${encodeURIComponent(item.metadata.name)}`;
  let obj = item;
  for (let attempt = 0; attempt < MAX_RETRIES; attempt++) {
    const put = await request(conn, 'PUT', path, obj);
    if (put.status === 200 || put.status === 201) return true;
    if (put.status === 404) return false;
    if (put.status !== 409) throw responseError(put);
    const fresh = await request(conn, 'GET', path);
    if (fresh.status === 404) return false;
    if (fresh.status !== 200) throw responseError(fresh);
    obj = fresh.body;
  }
  throw new Error(`${path}: still conflicting after ${MAX_RETRIES} attempts`);
}

async function trimStoredVersions(conn: Connection, crdName: string, storage: string): Promise<string[]> {
  for (let attempt = 0; attempt < MAX_RETRIES; attempt++) {
    const cur = await request(conn, 'GET', CRD_PATH + encodeURIComponent(crdName));
    if (cur.status !== 200) throw responseError(cur);
    const patch = { metadata: { resourceVersion: cur.body.metadata.resourceVersion }, status: { storedVersions: [storage] } };
    const r = await request(conn, 'PATCH', `${CRD_PATH}${encodeURIComponent(crdName)}/status`, patch, 'application/merge-patch+json');
    if (r.status === 200) return r.body.status.storedVersions;
    if (r.status !== 409) throw responseError(r);
  }
  throw new Error(`${crdName}: storedVersions still conflicting after ${MAX_RETRIES} attempts`);
}

// A restart on a store whose watch cache has not loaded yet (kube's ResilientWatchCacheInitialization): the
// server starts and is ready without waiting for the load, answers from the store meanwhile (a write read
// back at once, a watch from a list's resourceVersion), and serves from memory once the cache has loaded, its
// garbage collector started then.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startServer } from '../../src/server/server.js';
import { createCachedStore, startCachedStore } from '../../src/storage/cache.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import { SlowLoadStore } from '../storage/slow-load-store.js';
import { tempDir, waitFor } from '../storage/helpers.js';
import { CRONTAB_CRD, cronTab, installCronTab, requester, type Api } from './helpers.js';
import { openWatch } from './watch-stream.js';

const base = '/apis/stable.example.com/v1/namespaces/default/crontabs';

/** An Api over a started server (the kv is closed by the caller). */
function apiOf(url: string, close: () => Promise<void>): Api {
  return {
    url,
    server: undefined as never,
    kv: undefined as never,
    req: requester(url),
    close,
  };
}

test('restarted on a store the cache has not loaded: ready at once, correct answers during the load, memory after', async () => {
  const tmp = tempDir();
  try {
    // First run: a CRD and 40 CronTabs stored.
    {
      const kv = await createCachedStore(openSqliteStore(tmp.file()));
      const server = await startServer({ kv, insecurePort: 0 });
      const api = apiOf(server.insecureUrl!, async () => {});
      await installCronTab(api, CRONTAB_CRD);
      for (let i = 0; i < 40; i++) assert.equal((await api.req('POST', base, cronTab(`c${i}`))).status, 201);
      await server.close();
      await kv.close();
    }
    // The restart: the load reads its first page, then waits until released.
    const slow = new SlowLoadStore(openSqliteStore(tmp.file()));
    const kv = startCachedStore(slow, { loadPageSize: 10 });
    const server = await startServer({ kv, insecurePort: 0 });
    const api = apiOf(server.insecureUrl!, async () => {});
    try {
      assert.equal(kv.serving, false, 'the cache has not loaded');
      assert.equal((await api.req('GET', '/readyz')).status, 200);
      const list = await api.req('GET', base);
      assert.equal(list.status, 200, list.text);
      assert.equal(list.json.items.length, 40);
      const got = await api.req('GET', `${base}/c7`);
      assert.equal(got.status, 200);
      assert.equal(got.json.metadata.name, 'c7');
      const paged = await api.req('GET', `${base}?limit=15`);
      assert.equal(paged.json.items.length, 15);
      const rest = await api.req('GET', `${base}?limit=100&continue=${encodeURIComponent(paged.json.metadata.continue)}`);
      assert.equal(rest.json.items.length, 25);

      // A watch from the list's resourceVersion, then a write read back at once.
      const w = await openWatch(api, `${base}?watch=true&resourceVersion=${list.json.metadata.resourceVersion}`);
      try {
        const patched = await api.req('PATCH', `${base}/c7`, { spec: { image: 'during-load' } }, { 'Content-Type': 'application/merge-patch+json' });
        assert.equal(patched.status, 200, patched.text);
        const after = await api.req('GET', `${base}/c7`);
        assert.equal(after.json.spec.image, 'during-load');
        assert.equal(after.json.metadata.resourceVersion, patched.json.metadata.resourceVersion);
        assert.equal((await api.req('GET', base)).json.items.find((o: any) => o.metadata.name === 'c7').spec.image, 'during-load');
        const ev = await w.next();
        assert.equal(ev.type, 'MODIFIED');
        assert.equal(ev.object.spec.image, 'during-load');
        assert.equal(kv.serving, false, 'all of it answered while the cache was still loading');

        // The load ends: the cache has the write made meanwhile and answers from memory.
        slow.release();
        await waitFor(() => kv.serving, 'the cache to serve');
        const reads = slow.reads;
        const cached = await api.req('GET', `${base}/c7`);
        assert.equal(cached.json.spec.image, 'during-load');
        assert.equal((await api.req('GET', base)).json.items.length, 40);
        assert.equal(slow.reads, reads, 'served from memory');
        // The watch opened during the load goes on.
        assert.equal((await api.req('DELETE', `${base}/c8`)).status, 200);
        const del = await w.next();
        assert.equal(del.type, 'DELETED');
        assert.equal(del.object.metadata.name, 'c8');
        assert.equal((await api.req('GET', `${base}/c8`)).status, 404);
        // The garbage collector, started once the load ended: a dependent goes with its owner.
        const owner = (await api.req('GET', `${base}/c1`)).json;
        const dependent = cronTab('dependent', { ownerReferences: [{ apiVersion: 'stable.example.com/v1', kind: 'CronTab', name: 'c1', uid: owner.metadata.uid }] });
        assert.equal((await api.req('POST', base, dependent)).status, 201);
        assert.equal((await api.req('DELETE', `${base}/c1`)).status, 200);
        for (let i = 0; i < 500 && (await api.req('GET', `${base}/dependent`)).status !== 404; i++) await new Promise((r) => setTimeout(r, 10));
        assert.equal((await api.req('GET', `${base}/dependent`)).status, 404, 'the dependent was collected');
      } finally {
        w.close();
      }
    } finally {
      slow.release();
      await server.close();
      await kv.close();
    }
  } finally {
    tmp.cleanup();
  }
});

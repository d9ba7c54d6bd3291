// What only the etcd backend does: --etcd-prefix key mapping, watches resumed across an etcd
// restart, compaction by another client (another replica, or kube-apiserver's compactor), and
// failing fast when etcd is not there.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Etcd3 } from 'etcd3';
import { openEtcdStore, StorageError } from '../../src/storage/index.js';
import { etcdRange, keyMapping, prefixRangeEnd, toEtcdKey } from '../../src/storage/etcd-keys.js';
import { startEtcd, type EtcdProcess } from './etcd-process.js';
import { record, waitFor } from './helpers.js';
import { rejectsWith } from './kv-suite-util.js';

describe('etcd key mapping', () => {
  it('replaces the /registry root with --etcd-prefix, as kube path.Joins it', () => {
    assert.equal(toEtcdKey(keyMapping(), '/registry/namespaces/a').toString(), '/registry/namespaces/a');
    assert.equal(toEtcdKey(keyMapping('/custom'), '/registry/namespaces/a').toString(), '/custom/namespaces/a');
    assert.equal(toEtcdKey(keyMapping('/custom//'), '/registry/x').toString(), '/custom/x');
    assert.throws(() => toEtcdKey(keyMapping(), '/elsewhere/x'), RangeError);
  });

  it('computes etcd prefix range ends, and keys strictly after a continue key', () => {
    assert.deepEqual(prefixRangeEnd(Buffer.from('/a/')), Buffer.from('/a0'));
    assert.deepEqual(prefixRangeEnd(Buffer.from([0x61, 0xff])), Buffer.from('b'));
    assert.deepEqual(prefixRangeEnd(Buffer.alloc(0)), Buffer.from([0]));
    const r = etcdRange(keyMapping('/p'), '/registry/x/', '/registry/x/b');
    assert.deepEqual(r.key, Buffer.from('/p/x/b\0'));
    assert.deepEqual(r.rangeEnd, Buffer.from('/p/x0'));
    // The whole keyspace of ours is the prefix's range.
    assert.deepEqual(etcdRange(keyMapping('/p'), '').key, Buffer.from('/p'));
  });
});

describe('etcd store', () => {
  let proc: EtcdProcess;
  let raw: Etcd3;
  before(async () => {
    proc = await startEtcd();
    raw = new Etcd3({ hosts: proc.url });
  });
  after(async () => {
    raw.close();
    await proc.destroy();
  });

  it('keeps to its prefix: keys land under it, keys outside it are invisible', async () => {
    const s = await openEtcdStore({ servers: [proc.url], prefix: '/custom' });
    try {
      await raw.put('/registry/things/outside').value('x');
      await raw.put('/customer/things/near-miss').value('x');
      assert.ok((await s.create('/registry/things/a', '{"a":1}')).ok);
      assert.equal(await raw.get('/custom/things/a').string(), '{"a":1}');
      assert.deepEqual(
        (await s.list('/registry/things/')).items.map((i) => i.key),
        ['/registry/things/a'],
      );
      assert.equal(await s.count('/registry/'), 1);
      const w = record(s, '/registry/things/', await s.currentRevision());
      await raw.put('/registry/things/outside').value('y');
      assert.ok((await s.create('/registry/things/b', 'b')).ok);
      await waitFor(() => w.events.length === 1, 'the event under the prefix');
      assert.equal(w.events[0]!.kv.key, '/registry/things/b');
      w.watcher.close();
    } finally {
      await s.close();
    }
  });

  it('lists and replays more than gRPC’s default 4 MiB in one answer', async () => {
    const s = await openEtcdStore({ servers: [proc.url], root: '' });
    try {
      const from = await s.currentRevision();
      const big = 'x'.repeat(1_200_000); // under etcd's 1.5 MiB request limit
      for (let i = 0; i < 5; i++) assert.ok((await s.create(`/big/${i}`, big)).ok);
      const listed = await s.list('/big/');
      assert.equal(listed.items.length, 5);
      assert.ok(listed.items.every((kv) => kv.value.length === big.length));
      const w = record(s, '/big/', from);
      await waitFor(() => w.events.length === 5, 'the replayed events', 10_000);
      assert.deepEqual(w.errors, []);
      w.watcher.close();
    } finally {
      await s.close();
    }
  });

  it('resumes watches across an etcd restart without gaps or duplicates', async () => {
    const s = await openEtcdStore({ servers: [proc.url], root: '' });
    try {
      const start = await s.currentRevision();
      const w = record(s, '/restart/', start);
      const revs: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await s.create(`/restart/a${i}`, 'x');
        assert.ok(res.ok);
        revs.push(res.revision);
      }
      await waitFor(() => w.events.length === 5, 'events before the restart');
      await proc.restart();
      // Writes go through once etcd is back (the client reconnects); the watch resumes after a5.
      for (let i = 0; i < 5; i++) {
        let res;
        for (let attempt = 0; ; attempt++) {
          try {
            res = await s.create(`/restart/b${i}`, 'x');
            break;
          } catch (err) {
            if (!(err instanceof StorageError) || attempt > 100) throw err;
            await new Promise((r) => setTimeout(r, 100));
          }
        }
        assert.ok(res.ok);
        revs.push(res.revision);
      }
      await waitFor(() => w.events.length === 10, 'events after the restart', 20_000);
      await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual(w.revs(), revs);
      assert.deepEqual(w.errors, []);
      w.watcher.close();
    } finally {
      await s.close();
    }
  });

  it('learns compactions made by another client, with etcd’s compact revision', async () => {
    const a = await openEtcdStore({ servers: [proc.url], root: '' });
    const b = await openEtcdStore({ servers: [proc.url], root: '' });
    try {
      const revs: number[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await a.create(`/compact/${i}`, 'x');
        assert.ok(res.ok);
        revs.push(res.revision);
      }
      await b.compact(revs[3]!);
      assert.equal(await a.compactedRevision(), 0);
      // A watch from below is refused by etcd with the compact revision.
      const w = record(a, '/compact/', revs[0]!);
      await waitFor(() => w.errors.length === 1, 'compacted error');
      assert.equal(w.errors[0]!.code, 'compacted');
      assert.equal(w.errors[0]!.revision, revs[3]);
      assert.deepEqual(w.events, []);
      assert.equal(await a.compactedRevision(), revs[3]);
      // So is a read: learned from etcd by a fresh store too.
      const c = await openEtcdStore({ servers: [proc.url], root: '' });
      try {
        const err = await rejectsWith(c.list('/compact/', { revision: revs[1]! }), 'compacted');
        assert.equal(err.revision, revs[3]);
        // Compacting at or below etcd's compacted revision is a no-op.
        await c.compact(revs[2]!);
        assert.equal((await c.list('/compact/', { revision: revs[4]! })).items.length, 5);
      } finally {
        await c.close();
      }
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('compacts periodically as kube-apiserver does: once per interval between all servers, what is one interval old', async () => {
    const interval = 300;
    const a = await openEtcdStore({ servers: [proc.url], root: '', compactionIntervalMs: interval });
    const b = await openEtcdStore({ servers: [proc.url], root: '', compactionIntervalMs: interval });
    try {
      const started = Date.now();
      let n = 0;
      // Writes keep the revision moving while the compactors run.
      while (Date.now() - started < interval * 6) {
        assert.ok((await a.create(`/periodic/${n++}`, 'x')).ok);
        await new Promise((r) => setTimeout(r, 20));
      }
      const elapsed = Date.now() - started;
      const key = await raw.get('compact_rev_key').exec();
      const version = Number(key.kvs[0]!.version);
      const compacted = Number(key.kvs[0]!.value.toString());
      // Two servers, about six intervals: about six compactions, not twelve.
      assert.ok(version >= 3 && version <= Math.ceil(elapsed / interval) + 1, `compact_rev_key version ${version} after ${elapsed} ms`);
      assert.ok(compacted > 0);
      // Both know a compacted revision: the one that compacted, and the one that lost the compare-and-swap.
      await new Promise((r) => setTimeout(r, interval * 2));
      assert.ok((await a.compactedRevision()) > 0);
      assert.ok((await b.compactedRevision()) > 0);
      // What is older than the compacted revision is gone from etcd itself.
      await rejectsWith(a.list('/periodic/', { revision: 2 }), 'compacted');
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('fails fast with an unavailable error when etcd is not there', async () => {
    await proc.stop();
    try {
      const started = Date.now();
      await assert.rejects(openEtcdStore({ servers: [proc.url], dialTimeoutMs: 1_000 }), (err: unknown) => {
        assert.ok(err instanceof StorageError);
        assert.equal(err.code, 'unavailable');
        assert.match(err.message, /cannot reach etcd at http:\/\/127\.0\.0\.1:\d+/);
        return true;
      });
      assert.ok(Date.now() - started < 5_000);
    } finally {
      await proc.restart();
    }
  });
});

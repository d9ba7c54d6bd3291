import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import Database from 'better-sqlite3';
import { openSqliteStore, StorageError } from '../../src/storage/index.js';
import { tempDir } from './helpers.js';

const child = fileURLToPath(new URL('./fixtures/durability-child.ts', import.meta.url));
const root = fileURLToPath(new URL('../../', import.meta.url));

describe('sqlite store: durability', () => {
  it('every acknowledged write survives kill -9 of the writing process', async () => {
    const tmp = tempDir();
    try {
      const path = tmp.file();
      const proc = spawn(process.execPath, ['--import', 'tsx', child, path], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      proc.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const exited = new Promise<NodeJS.Signals | null>((resolve) => proc.on('exit', (_code, signal) => resolve(signal)));
      await new Promise<void>((resolve, reject) => {
        proc.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          if (out.split('\n').length > 3_000) resolve();
        });
        proc.on('exit', () => reject(new Error(`child exited early: ${err}`)));
      });
      // While the child holds the file, nobody else may open it.
      assert.throws(
        () => openSqliteStore(path, { compactionIntervalMs: 0, busyTimeoutMs: 10 }),
        (e: unknown) => e instanceof StorageError && e.code === 'unavailable',
      );
      proc.kill('SIGKILL');
      assert.equal(await exited, 'SIGKILL');

      const acked = out
        .split('\n')
        .filter((l) => l.startsWith('acked '))
        .map((l) => {
          const [, key, rev] = l.split(' ');
          return { key: key!, rev: Number(rev) };
        });
      assert.ok(acked.length >= 3_000);
      const store = openSqliteStore(path, { compactionIntervalMs: 0 });
      const maxAcked = Math.max(...acked.map((a) => a.rev));
      assert.ok((await store.currentRevision()) >= maxAcked);
      for (const { key, rev } of acked) {
        const kv = await store.get(key);
        assert.ok(kv, `acknowledged ${key} lost`);
        assert.equal(kv.modRevision, rev);
        assert.equal(kv.value, JSON.stringify({ n: key }));
      }
      // Writing resumes after the newest durable revision.
      const next = await store.create('/registry/widgets/default/after-crash', '{}');
      assert.ok(next.ok && next.revision === (await store.currentRevision()) && next.revision > maxAcked);
      await store.close();
    } finally {
      tmp.cleanup();
    }
  });

  it('compaction removes superseded history from the file', async () => {
    const tmp = tempDir();
    try {
      const path = tmp.file();
      const s = openSqliteStore(path, { compactionIntervalMs: 0 });
      let rev = 0;
      const c = await s.create('/h/a', 'v0');
      assert.ok(c.ok);
      rev = c.revision;
      for (let i = 1; i <= 12_000; i++) {
        const u = await Promise.all([s.update('/h/a', `v${i}`, rev), s.create(`/h/tmp${i}`, 'x'), s.delete(`/h/tmp${i - 1}`)]);
        assert.ok(u[0].ok);
        rev = u[0].revision;
      }
      const head = await s.currentRevision();
      await s.compact(head - 10);
      await s.close();
      const db = new Database(path, { readonly: true });
      const count = (sql: string) => (db.prepare(sql).get(head - 10) as { n: number }).n;
      const above = count('SELECT count(*) AS n FROM log WHERE rev > ?');
      const kept = count('SELECT count(*) AS n FROM log WHERE rev <= ?');
      db.close();
      // All 10 revisions above the compacted one stay; of the ~36,000 at or below it, only the newest
      // value of the few keys that either still exist or are changed above it.
      assert.equal(above, 10);
      assert.ok(kept <= 6, `log still has ${kept} rows at or below the compacted revision`);
      const again = openSqliteStore(path, { compactionIntervalMs: 0 });
      assert.equal((await again.get('/h/a'))?.value, 'v12000');
      assert.equal(await again.count('/h/'), 2);
      await again.close();
    } finally {
      tmp.cleanup();
    }
  });

  it('an interrupted compaction is finished after reopening', async () => {
    const tmp = tempDir();
    try {
      const path = tmp.file();
      let s = openSqliteStore(path, { compactionIntervalMs: 0 });
      let rev = 0;
      const c = await s.create('/i/a', 'v0');
      assert.ok(c.ok);
      rev = c.revision;
      for (let i = 1; i <= 100; i++) {
        const u = await s.update('/i/a', `v${i}`, rev);
        assert.ok(u.ok);
        rev = u.revision;
      }
      await s.close();
      // As if the process died right after recording the compacted revision.
      const raw = new Database(path);
      raw.prepare(`UPDATE meta SET value = 90 WHERE name = 'compacted'`).run();
      raw.close();
      s = openSqliteStore(path, { compactionIntervalMs: 0 });
      assert.equal(await s.compactedRevision(), 90);
      await s.compact(90); // waits for the cleanup started at open
      assert.deepEqual(
        (await s.list('/i/', { revision: 91 })).items.map((i) => i.value),
        ['v90'],
      );
      await s.close();
      const check = new Database(path, { readonly: true });
      const left = (check.prepare('SELECT count(*) AS n FROM log WHERE rev <= 90').get() as { n: number }).n;
      check.close();
      assert.equal(left, 1);
    } finally {
      tmp.cleanup();
    }
  });
});

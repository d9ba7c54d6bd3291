import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { openSqliteStore } from '../../src/storage/index.js';
import { tempDir } from '../storage/helpers.js';

const mode = (p: string): number => statSync(p).mode & 0o777;

describe('storage file modes', () => {
  for (const umask of [0o000, 0o022]) {
    it(`state.db and its WAL are 0600, a created directory 0700 (umask ${umask.toString(8).padStart(3, '0')})`, async () => {
      const tmp = tempDir();
      const old = process.umask(umask);
      try {
        // A world-writable parent must not leak into what we create.
        const parent = join(tmp.dir, 'open');
        mkdirSync(parent);
        chmodSync(parent, 0o777);
        const dir = join(parent, 'data', 'nested');
        const path = join(dir, 'state.db');
        const s = openSqliteStore(path, { compactionIntervalMs: 0 });
        await s.create('/registry/secrets/default/s', '{}');
        assert.equal(mode(path), 0o600);
        assert.ok(existsSync(`${path}-wal`), 'the WAL exists while the store is open');
        assert.equal(mode(`${path}-wal`), 0o600);
        // EXCLUSIVE locking keeps the WAL index in memory: no -shm file to protect.
        assert.equal(existsSync(`${path}-shm`), false);
        assert.equal(mode(dir), 0o700);
        assert.equal(mode(join(parent, 'data')), 0o700);
        await s.close();
        // Reopening keeps the modes (and the data).
        const again = openSqliteStore(path, { compactionIntervalMs: 0 });
        assert.ok(await again.get('/registry/secrets/default/s'));
        assert.equal(mode(path), 0o600);
        await again.close();
      } finally {
        process.umask(old);
        tmp.cleanup();
      }
    });
  }
});

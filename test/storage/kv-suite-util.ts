// Helpers shared by the conformance suite's parts.
import assert from './kv-assert.js';
import { StorageError, type KVStore } from '../../src/storage/index.js';
import type { KVStoreFactory } from './kv-suite.js';

/**
 * Run body against a fresh store; `r(n)` is the store's n-th revision (r(0) is the empty store's),
 * so tests state revisions as on a store that starts at 0.
 */
export async function withStore(factory: KVStoreFactory, body: (kv: KVStore, r: (n: number) => number) => Promise<void>): Promise<void> {
  const s = await factory();
  const base = s.startRevision ?? 0;
  try {
    await body(s.kv, (n) => base + n);
  } finally {
    await s.close();
  }
}

export async function rejectsWith(p: Promise<unknown>, code: StorageError['code']): Promise<StorageError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof StorageError, `expected StorageError, got ${String(err)}`);
    assert.equal(err.code, code);
    return err;
  }
  assert.fail(`expected rejection with ${code}`);
}

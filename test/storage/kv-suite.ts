// One conformance suite for every KVStore, as k8s.io/apiserver's pkg/storage/testing/store_tests.go
// runs against etcd and the watch cache. A backend joins by adding a test file that calls
// runKVStoreSuite with a factory; what only one backend does stays in that backend's own tests.
import { describe } from 'node:test';
import type { KVStore } from '../../src/storage/index.js';
import { writeTests } from './kv-suite-writes.js';
import { readTests } from './kv-suite-reads.js';
import { watchTests } from './kv-suite-watch.js';
import { modelTests } from './kv-suite-model.js';

export interface StoreUnderTest {
  kv: KVStore;
  /**
   * currentRevision() of the fresh, empty store: 0 for SQLite (a fresh etcd answers 1). The suite
   * counts revisions from here, so it asserts exact revisions on any backend.
   */
  startRevision?: number;
  /** Close the store if the test has not, and release what the factory set up. */
  close(): Promise<void>;
}

/** A fresh, empty store per call. */
export type KVStoreFactory = () => Promise<StoreUnderTest>;

export function runKVStoreSuite(name: string, factory: KVStoreFactory): void {
  describe(`KVStore conformance: ${name}`, () => {
    writeTests(factory);
    readTests(factory);
    watchTests(factory);
    modelTests(factory);
  });
}

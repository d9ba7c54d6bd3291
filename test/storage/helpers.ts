import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { KVStore, StorageError, StoreEvent, Watcher } from '../../src/storage/index.js';
export { prng } from '../prng.js';

/** A fresh directory for database files, removed by the returned cleanup. */
export function tempDir(): { dir: string; file: (name?: string) => string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), 'crd-storage-'));
  return { dir, file: (name = 'store.db') => join(dir, name), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

export async function waitFor(cond: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 2));
  }
}

export interface Recorder {
  events: StoreEvent[];
  errors: StorageError[];
  watcher: Watcher;
  /** Revisions of the events received so far. */
  revs(): number[];
}

export function record(store: KVStore, prefix: string, fromRevision: number): Recorder {
  const events: StoreEvent[] = [];
  const errors: StorageError[] = [];
  const watcher = store.watch(prefix, {
    fromRevision,
    onEvent: (ev) => events.push(ev),
    onError: (err) => errors.push(err),
  });
  return { events, errors, watcher, revs: () => events.map((e) => e.kv.modRevision) };
}


// The memory figure, in its own process (run with --expose-gc): the V8 heap the cached store takes
// per custom resource. Opens SQLite in a file at `path`, wraps it in the cache, writes `count`
// CronTabs as the server stores them (the request body of the other figures plus the metadata the
// server adds), and compares heapUsed after a full GC before and after.
// With `template` (a stored object's JSON, e.g. one the server wrote for an apply), every object is a
// copy of it instead (fresh name, uid and timestamps, managedFields' times included); `stripManagedFields`
// drops its metadata.managedFields, so the two differ by exactly those entries.
// Receives { path, count, template?, stripManagedFields? }, replies { perObject, valueBytes, heapBefore, heapAfter, cached, ms },
// then exits on 'close'.
import { randomUUID } from 'node:crypto';
import { openSqliteStore } from '../dist/storage/sqlite-store.js';
import { createCachedStore } from '../dist/storage/cache.js';
import { crontabBody } from './fixtures.mjs';

process.on('disconnect', () => process.exit(1));

const NAMESPACE = 'bench-memory';
const KEY_PREFIX = `/registry/stable.example.com/crontabs/${NAMESPACE}/`;

/** One stored CronTab, as the server writes it: a fresh string per object, like a real create. */
function storedValue(body, name) {
  const obj = JSON.parse(body.replace('__NAME__', name));
  obj.metadata.uid = randomUUID();
  obj.metadata.creationTimestamp = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  obj.metadata.generation = 1;
  obj.metadata.resourceVersion = '';
  return JSON.stringify(obj);
}

/** One stored copy of `template` (see above), a fresh string per object. */
function fromTemplate(template, name, strip) {
  const obj = JSON.parse(template);
  const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
  obj.metadata.name = name;
  obj.metadata.uid = randomUUID();
  obj.metadata.creationTimestamp = now;
  if (strip) delete obj.metadata.managedFields;
  else for (const e of obj.metadata.managedFields ?? []) e.time = now;
  return JSON.stringify(obj);
}

function heapAfterGc() {
  // Twice: the first pass can leave garbage that only the second finds (weak references, finalizers).
  globalThis.gc();
  globalThis.gc();
  return process.memoryUsage().heapUsed;
}

process.once('message', async ({ path, count, template, stripManagedFields = false }) => {
  try {
    if (typeof globalThis.gc !== 'function') throw new Error('memory.mjs needs node --expose-gc');
    const cache = await createCachedStore(openSqliteStore(path, { compactionIntervalMs: 0 }));
    const body = crontabBody(NAMESPACE);
    const heapBefore = heapAfterGc();
    const t0 = performance.now();
    let valueBytes = 0;
    const BATCH = 1_000;
    for (let i = 0; i < count; i += BATCH) {
      const writes = [];
      for (let j = i; j < Math.min(count, i + BATCH); j++) {
        const name = `item-${String(j).padStart(7, '0')}`;
        const value = template ? fromTemplate(template, name, stripManagedFields) : storedValue(body, name);
        valueBytes += value.length;
        writes.push(cache.create(KEY_PREFIX + name, value));
      }
      for (const res of await Promise.all(writes)) if (!res.ok) throw new Error('create failed');
    }
    const ms = performance.now() - t0;
    const cached = await cache.count(KEY_PREFIX);
    if (cached !== count) throw new Error(`cache holds ${cached} objects, expected ${count}`);
    await new Promise((r) => setImmediate(r));
    const heapAfter = heapAfterGc();
    await cache.close();
    process.send({ perObject: (heapAfter - heapBefore) / count, valueBytes: valueBytes / count, heapBefore, heapAfter, cached, ms });
  } catch (err) {
    process.send({ error: String(err?.stack ?? err) });
  }
  // Exit when the benchmark says so (stopChild), like the other children.
  process.on('message', (m) => m === 'close' && process.exit(0));
});

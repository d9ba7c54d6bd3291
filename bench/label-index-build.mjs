// The watch cache's label index built on a resource's first label-selected LIST (issue 19), alone: COUNT
// (default 1,000,000) CronTabs as the scale bench stores them (~1.5 KB, four labels, the shard label 1/16,
// managedFields alike so that they are shared), put in slabs as the cache holds them, then the index built
// for `bench.example.com/shard=3`. Prints the CPU and wall time of the build, the heap it left garbage and
// the heap the index keeps. ROOT is a built worktree whose dist/ is measured (default: this one), so two
// builds can be compared in turn. Allocation during the build is counted from V8's heap before and after each
// collection (v8.GCProfiler): what was used at the end, less at the start, plus what each collection freed.
// Run: node --expose-gc bench/label-index-build.mjs [ROOT] [COUNT]
import { resolve } from 'node:path';
import { GCProfiler } from 'node:v8';
import { pathToFileURL } from 'node:url';

const root = resolve(process.argv[2] ?? new URL('..', import.meta.url).pathname);
const count = Number(process.argv[3] ?? 1_000_000);
const load = (path) => import(pathToFileURL(resolve(root, 'dist', path)).href);
const { ValueSlabs } = await load('storage/value-slabs.js');
const { LabelIndex } = await load('storage/label-index.js');

const SCOPE = '/registry/stable.example.com/crontabs/';
const SHARDS = 16;
const MANAGED =
  '[{"apiVersion":"stable.example.com/v1","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:annotations":{".":{},"f:bench.example.com/padding":{}},"f:labels":{".":{},"f:app":{},"f:bench.example.com/shard":{},"f:example.com/owner":{},"f:tier":{}}},"f:spec":{".":{},"f:cronSpec":{},"f:image":{},"f:replicas":{}}},"manager":"node","operation":"Update","time":"2026-11-27T17:57:36Z"}]';

/** A stored CronTab as the server writes it (members in order, resourceVersion left empty). */
function stored(i) {
  const uid = `96c0f2ca-58ef-4e6f-8ffd-${String(i).padStart(12, '0')}`;
  return `{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"annotations":{"bench.example.com/padding":"${'x'.repeat(660)}"},"creationTimestamp":"2026-11-27T17:57:36Z","generation":1,"labels":{"app":"bench","bench.example.com/shard":"${i % SHARDS}","example.com/owner":"team-a","tier":"backend"},"managedFields":${MANAGED},"name":"f${i}","namespace":"bench","resourceVersion":"","uid":"${uid}"},"spec":{"cronSpec":"*/5 * * * *","image":"registry.example.com/team/cron-image:v1.2.3","replicas":3}}`;
}

const slabs = new ValueSlabs();
const all = [];
for (let i = 0; i < count; i++) {
  const key = `${SCOPE}bench/f${String(i).padStart(7, '0')}`;
  all.push(slabs.make({ key, value: stored(i), createRevision: i + 2, modRevision: i + 2 }));
}
globalThis.gc();
globalThis.gc();
const heapBefore = process.memoryUsage().heapUsed;
const index = new LabelIndex();
const gcs = new GCProfiler();
gcs.start();
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const found = index.candidates(SCOPE, SCOPE, undefined, 0, [{ key: 'bench.example.com/shard', values: ['3'] }], () => all);
const wall = performance.now() - t0;
const cpu = process.cpuUsage(cpu0);
const heapAfter = process.memoryUsage().heapUsed;
const { statistics } = gcs.stop();
const used = (h) => h.heapStatistics.usedHeapSize;
const freed = statistics.reduce((n, g) => n + Math.max(0, used(g.beforeGC) - used(g.afterGC)), 0);
const gcMs = statistics.reduce((n, g) => n + g.cost / 1000, 0);
globalThis.gc();
globalThis.gc();
const kept = process.memoryUsage().heapUsed - heapBefore;
const out = {
  root,
  count,
  selected: found.keys.length,
  buildCpuMs: Math.round((cpu.user + cpu.system) / 1000),
  buildWallMs: Math.round(wall),
  allocatedMiB: +((heapAfter - heapBefore + freed) / 2 ** 20).toFixed(1),
  gcs: statistics.length,
  gcMs: Math.round(gcMs),
  indexKeptMiB: +(kept / 2 ** 20).toFixed(1),
  sharedLists: slabs.sharedLists,
};
console.log(JSON.stringify(out));
// Keep the index alive until measured.
if (index.active !== true) throw new Error('no index');

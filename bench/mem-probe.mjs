// Where the server's memory goes as it fills (issue 19's RSS goal): N CronTabs (N=300000 by default) created through
// the API in chunks of 100,000, then a label-selected LIST three times and a paged walk of the whole namespace,
// printing after each step the server's process.memoryUsage(), V8's old/new/large-object spaces and its peak RSS
// (`mem:gc` forces a full collection first, to tell live memory from garbage). Not part of `npm run bench`.
// Run: npm run build && N=1000000 node bench/mem-probe.mjs   (EXEC="--trace-gc-nvp" passes V8 flags to the server;
// SNAP=file.heapsnapshot writes a heap snapshot at the end)
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { crontabBody, crontabs, createNamespace, setupCrd } from './fixtures.mjs';
import { expectOk, load, request, resetPeakRss, rssOf, startChild, stopChild } from './util.mjs';
const N = Number(process.env.N ?? 300000);
const tmp = mkdtempSync(join(os.tmpdir(), 'memprobe-'));
const { proc, reply } = await startChild('./server-mem.mjs', { dataDir: join(tmp, 'd') }, ['--expose-gc', ...(process.env.EXEC ? process.env.EXEC.split(' ') : [])]);
const port = Number(new URL(reply.url).port);
const ask = (m) => new Promise((res) => { const h = (r) => { if (r.mem || r.snap) { proc.off('message', h); res(r); } }; proc.on('message', h); proc.send(m); });
const G = (x) => (x / 2 ** 20).toFixed(0) + 'M';
const show = async (tag, gc) => { const r = await ask(gc ? 'mem:gc' : 'mem'); const m = r.mem; const ps = rssOf(proc.pid); console.log(`${tag}: rss ${G(m.rss)} peak ${G(ps.peak)} heapTotal ${G(m.heapTotal)} heapUsed ${G(m.heapUsed)} external ${G(m.external)} arrayBuffers ${G(m.arrayBuffers)} native≈${G(m.rss - m.heapTotal - m.external)} old ${G(r.spaces.old_space[0])}/${G(r.spaces.old_space[1])} new ${G(r.spaces.new_space[0])} lo ${G(r.spaces.large_object_space[0])} code ${G(r.spaces.code_space[0])}`); };
await setupCrd(reply.url);
await createNamespace(reply.url, 'scale');
await show('start', true);
const o = JSON.parse(crontabBody('scale'));
o.metadata.labels['bench.example.com/shard'] = '__SHARD__';
const body = JSON.stringify(o);
let done = 0;
while (done < N) {
  const total = Math.min(100000, N - done);
  const r = await load({ connections: 50, warmupMs: 0, durationMs: 0, total, port, method: 'POST', path: crontabs('scale'), headers: { 'Content-Type': 'application/json' }, body, nameTemplate: `f${done}-`, shards: 16 });
  done += total;
  await show(`${done} (${Math.round(r.rps)}/s)`, false);
}
await show('after fill, gc', true);
const t0 = performance.now();
await expectOk(request(`${reply.url}${crontabs('scale')}?labelSelector=${encodeURIComponent('bench.example.com/shard=3')}`, 'GET', undefined, {}, { discard: true }), 'list');
console.log('label list ms', (performance.now() - t0).toFixed(0));
await show('after label list', false);
await show('after label list, gc', true);
for (let i = 0; i < 2; i++) { resetPeakRss(proc.pid); const t1 = performance.now(); await expectOk(request(`${reply.url}${crontabs('scale')}?labelSelector=${encodeURIComponent('bench.example.com/shard=3')}`, 'GET', undefined, {}, { discard: true }), 'list'); console.log('label list ms', (performance.now() - t1).toFixed(0)); await show('after label list ' + i, false); }
resetPeakRss(proc.pid);
let token = ''; let pages = 0;
for (;;) {
  const r = await expectOk(request(`${reply.url}${crontabs('scale')}?limit=500${token ? `&continue=${encodeURIComponent(token)}` : ''}`), 'page');
  const ends = r.text.slice(0, 4096) + r.text.slice(-4096);
  token = /"continue":"([^"]*)"/.exec(ends)?.[1] ?? '';
  if (++pages % 500 === 0) await show('page ' + pages, false);
  if (!token) break;
}
await show('after paged walk', false);
await show('after paged walk, gc', true);
if (process.env.SNAP) { await ask({ snapshot: process.env.SNAP }); console.log('snapshot', process.env.SNAP); }
await stopChild(proc);
rmSync(tmp, { recursive: true, force: true });

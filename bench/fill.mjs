// `node bench/fill.mjs DATA_DIR COUNT`: a data dir holding COUNT CronTabs of ~1 KB (namespace `scale`, names
// f0-0, f0-1, ...), created through the API (50 connections) by this build's server, which is then stopped:
// copy the directory (cp -r) for each restart experiment (bench/restart.mjs).
import { crontabBody, crontabs, createNamespace, setupCrd } from './fixtures.mjs';
import { closeAgent, load, startChild, stopChild } from './util.mjs';

const [dataDir, count] = [process.argv[2], Number(process.argv[3])];
if (!dataDir || !(count > 0)) {
  console.error('usage: node bench/fill.mjs DATA_DIR COUNT');
  process.exit(2);
}
const { proc, reply } = await startChild('./server.mjs', { dataDir });
const port = Number(new URL(reply.url).port);
await setupCrd(reply.url);
await createNamespace(reply.url, 'scale');
const body = crontabBody('scale');
const headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
const t0 = performance.now();
for (let done = 0; done < count; ) {
  const total = Math.min(100_000, count - done);
  const r = await load({ connections: 50, warmupMs: 0, durationMs: 0, total, port, method: 'POST', path: crontabs('scale'), headers, body, nameTemplate: `f${done}-` });
  if (r.errors) throw new Error(`fill: ${r.errors} failed creates ${JSON.stringify(r.statuses)}`);
  done += total;
  console.log(`${done} objects: ${Math.round(r.rps)} creates/s, ${((performance.now() - t0) / 1000).toFixed(0)} s`);
}
await stopChild(proc);
closeAgent();

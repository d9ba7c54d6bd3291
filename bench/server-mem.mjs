// bench/server.mjs answering 'mem' (and 'mem:gc', after a full collection: run it with --expose-gc) with its
// process.memoryUsage() and V8's heap spaces, and { snapshot: file } with a heap snapshot (bench/mem-probe.mjs).
import './server.mjs';
import v8 from 'node:v8';
process.on('message', (m) => {
  if (m === 'mem' || m === 'mem:gc') {
    if (m === 'mem:gc') { globalThis.gc?.(); globalThis.gc?.(); }
    const spaces = Object.fromEntries(v8.getHeapSpaceStatistics().map((s) => [s.space_name, [s.space_size, s.space_used_size]]));
    process.send({ mem: process.memoryUsage(), spaces });
  }
  if (typeof m === 'object' && m?.snapshot) { v8.writeHeapSnapshot(m.snapshot); process.send({ snap: m.snapshot }); }
});

// Why a GET at one million objects pays more for V8's young-generation collections (issue 19): a scavenge's cost
// grows with the number of old-generation pages, whatever they hold. This holds COUNT (default 1,000,000) values
// of about 1.4 KB the way the watch cache does (one string each, in V8's heap) or off the heap (in Buffers), makes
// short-lived garbage as requests do (the same 5 million small objects each time), and prints the time V8 spent in
// scavenges for each layout.
// Run: node --expose-gc --max-old-space-size=8192 bench/scavenge-old-space.mjs [COUNT]   (each layout in a process of its own)
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const LAYOUTS = {
  'strings in the heap (as the watch cache holds values)': 'strings',
  'one Buffer per value': 'buffers',
  'views into 4 MiB slabs': 'slabs',
  'offsets into 4 MiB slabs': 'offsets',
  'none (an empty heap)': 'none',
};

async function measure(layout, count) {
  const filler = 'x'.repeat(1400);
  const keep = [];
  let slab = Buffer.alloc(0);
  let off = 0;
  for (let i = 0; i < count && layout !== 'none'; i++) {
    const v = JSON.stringify({ i, v: filler }); // a flat string of its own, as a value read from SQLite is
    if (layout === 'strings') keep.push(v);
    else if (layout === 'buffers') keep.push(Buffer.from(v, 'latin1'));
    else {
      if (off + v.length > slab.length) {
        slab = Buffer.allocUnsafeSlow(4 << 20);
        off = 0;
        if (layout === 'offsets') keep.push(slab);
      }
      slab.latin1Write(v, off);
      if (layout === 'slabs') keep.push(slab.subarray(off, off + v.length));
      off += v.length;
    }
  }
  globalThis.gc();
  globalThis.gc();
  const { PerformanceObserver, performance } = await import('node:perf_hooks');
  let ms = 0;
  let n = 0;
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.detail?.kind === 1) (ms += e.duration), n++;
  });
  obs.observe({ entryTypes: ['gc'] });
  let sink = 0;
  for (let r = 0; r < 5_000_000; r++) {
    const o = { a: r, b: `k${r & 1023}`, c: [r, r + 1] };
    sink += o.c.length;
  }
  await new Promise((r) => setTimeout(r, 50));
  obs.disconnect();
  const m = process.memoryUsage();
  return { scavenges: n, meanMs: ms / Math.max(1, n), heapMiB: m.heapUsed / 2 ** 20, externalMiB: m.external / 2 ** 20, held: keep.length + (sink > 0 ? 0 : 1) };
}

const [, , count = '1000000', layout] = process.argv;
if (layout) {
  process.stdout.write(JSON.stringify(await measure(layout, Number(count))));
} else {
  for (const [name, id] of Object.entries(LAYOUTS)) {
    const out = execFileSync(process.execPath, ['--expose-gc', '--max-old-space-size=8192', fileURLToPath(import.meta.url), count, id], { encoding: 'utf8' });
    const r = JSON.parse(out);
    console.log(`${name.padEnd(56)} scavenges ${String(r.scavenges).padStart(3)}, ${(r.meanMs * r.scavenges).toFixed(1).padStart(5)} ms in all (mean ${r.meanMs.toFixed(2)} ms); heap ${r.heapMiB.toFixed(0)} MiB, off-heap ${r.externalMiB.toFixed(0)} MiB`);
  }
}

// V8's heap growth limit `crd-apiserver serve` sets (src/util/heap-growth.ts), seen by its effect: with the
// growth limited, a program that keeps a heap live and makes garbage beside it peaks far lower.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { checkHeapGrowingPercent } from '../../src/util/heap-growth.js';

const run = promisify(execFile);
const module = new URL('../../src/util/heap-growth.ts', import.meta.url).href;

/** In a fresh node (with `flags`): limitHeapGrowth(percent), ~30 MB kept live, garbage made; the peak heapTotal. */
async function churn(flags: string[], percent: number): Promise<{ set: boolean; peak: number }> {
  const program = `
    import { limitHeapGrowth } from ${JSON.stringify(module)};
    const set = limitHeapGrowth(${percent});
    const live = [];
    for (let i = 0; i < 400_000; i++) live.push({ a: i, b: 'x' + i });
    let peak = 0;
    let garbage = [];
    for (let r = 0; r < 150; r++) {
      for (let i = 0; i < 20_000; i++) garbage.push({ a: i, b: 'y' + i, c: [i, i] });
      if (garbage.length > 100_000) garbage = [];
      peak = Math.max(peak, process.memoryUsage().heapTotal);
    }
    console.log(JSON.stringify({ set, peak, kept: live.length }));`;
  const out = await run(process.execPath, [...flags, '--import', 'tsx', '--input-type=module', '-e', program]);
  const r = JSON.parse(out.stdout.trim()) as { set: boolean; peak: number; kept: number };
  assert.equal(r.kept, 400_000);
  return r;
}

test('limitHeapGrowth limits V8 heap growth, unless the process was started with a growth of its own', async () => {
  // 10%: the old generation grows to 1.1× what is live. Against a process started with 300% (4×), which keeps it.
  const limited = await churn([], 10);
  const own = await churn(['--heap-growing-percent=300'], 10);
  assert.equal(limited.set, true);
  assert.equal(own.set, false);
  assert.ok(limited.peak < 0.75 * own.peak, `peak heap ${limited.peak} limited against ${own.peak}`);
  // Underscores name the same flag.
  assert.equal((await churn(['--heap_growing_percent=0'], 10)).set, false);
});

test('a percent V8 cannot take is refused', () => {
  for (const bad of [0, -1, 1.5, Number.NaN, Infinity, 2 ** 31]) assert.throws(() => checkHeapGrowingPercent(bad), RangeError, String(bad));
  for (const good of [1, 100, 400]) checkHeapGrowingPercent(good);
});

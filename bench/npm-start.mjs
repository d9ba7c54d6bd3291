// `node bench/npm-start.mjs [runs]`: milliseconds from spawning `npm start` (the README's command) to the first
// 200 from /readyz, npm's own start-up included, on an installed checkout (dist/ built by npm install).
// Each run uses a fresh data dir and free ports, so it does not disturb a server on 6443.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { freePort, here, median, sleep } from './util.mjs';
import { probe } from './startup.mjs';

const runs = Number(process.argv[2] ?? 5);


async function once() {
  const dataDir = mkdtempSync(join(os.tmpdir(), 'crd-apiserver-npm-start-'));
  const port = await freePort();
  const t0 = performance.now();
  // detached: npm, its shell and node form a process group, stopped together below.
  const proc = spawn('npm', ['start', '--', '--data-dir', dataDir, '--secure-port', '0', '--insecure-port', String(port)], {
    cwd: here('..'),
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const exited = new Promise((r) => proc.once('exit', r));
  try {
    for (;;) {
      if ((await probe(port)) === 200) return performance.now() - t0;
      if (proc.exitCode !== null) throw new Error(`npm start exited with ${proc.exitCode} before it was ready`);
      await sleep(5);
    }
  } finally {
    process.kill(-proc.pid, 'SIGTERM');
    await exited;
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const results = [];
for (let i = 0; i < runs; i++) {
  const ms = await once();
  results.push(ms);
  process.stderr.write(`run ${i + 1}: /readyz 200 after ${ms.toFixed(0)} ms\n`);
}
console.log(`npm start to /readyz 200: median ${median(results).toFixed(0)} ms of ${runs} (min ${Math.min(...results).toFixed(0)} ms)`);

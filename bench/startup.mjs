// Start-up: from spawning `node dist/cli/crd-apiserver.cjs serve` (the bundled command line bin/ runs) to the first
// 200 from /readyz.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { freePort, here, sleep } from './util.mjs';

/** GET /readyz on a loopback port: its status, or 0 while nothing answers. */
export function probe(port) {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/readyz', agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode));
    });
    req.on('error', () => resolve(0));
  });
}

/** Milliseconds from spawning `crd-apiserver serve` to /readyz 200. */
export async function timeStart(dataDir) {
  const port = await freePort();
  return timeToReady([here('../dist/cli/crd-apiserver.cjs'), 'serve', '--data-dir', dataDir, '--secure-port', '0', '--insecure-port', String(port)], port);
}

/** The baseline: a bare node:http server in a new process, spawn to its first 200. */
export async function timeStartBare() {
  const port = await freePort();
  const code = `require('node:http').createServer((q, s) => s.end('ok')).listen(${port}, '127.0.0.1')`;
  return timeToReady(['-e', code], port);
}

/** Spawn node with args, poll /readyz on port until 200, stop it (SIGTERM); milliseconds to the 200. */
async function timeToReady(args, port) {
  const t0 = performance.now();
  const proc = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((r) => proc.once('exit', r));
  try {
    for (;;) {
      if ((await probe(port)) === 200) return performance.now() - t0;
      if (proc.exitCode !== null) throw new Error(`server exited with ${proc.exitCode} before it was ready`);
      await sleep(2);
    }
  } finally {
    proc.kill('SIGTERM');
    await exited;
  }
}

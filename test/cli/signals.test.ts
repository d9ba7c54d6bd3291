// `serve` stopped by a signal as soon as /readyz answers (as the benchmarks and test harnesses stop it): the
// listeners are open before serve() has returned (it still writes the kubeconfig), and a signal then must still
// close the server and exit 0, not end the process as Node's default would.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));

const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
    s.on('error', reject);
  });

/** GET /readyz: its status, or 0 while nothing answers. */
const readyz = (port: number): Promise<number> =>
  new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/readyz', agent: false }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', () => resolve(0));
  });

test('a signal right after the first /readyz 200 closes the server and exits 0', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'signals-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // A first start (bootstrap writes), then restarts; SIGTERM and SIGINT.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGTERM'] as const) {
    const port = await freePort();
    const proc = spawn(process.execPath, ['--import', 'tsx', MAIN, 'serve', '--data-dir', dir, '--secure-port', '0', '--insecure-port', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = once(proc, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    t.after(() => proc.kill('SIGKILL'));
    for (;;) {
      if ((await readyz(port)) === 200) break;
      assert.equal(proc.exitCode, null, `serve exited before it was ready: ${stderr}`);
      await new Promise((r) => setTimeout(r, 1));
    }
    proc.kill(signal);
    const [code, killedBy] = await exited;
    assert.deepEqual({ code, killedBy }, { code: 0, killedBy: null }, `${signal}: ${stderr}`);
  }
});

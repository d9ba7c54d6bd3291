// A throwaway single-member etcd for the etcd figures: Debian's `etcd` on free loopback ports, its data
// in the bench's temporary directory (on disk, as a real member's: etcd fsyncs its WAL per batch of writes).
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, sleep } from './util.mjs';

/** Whether an etcd binary is on PATH. */
export function haveEtcd() {
  try {
    execFileSync('etcd', ['--version'], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
}

/** Start etcd in dir; resolves { url, stop() } once /health answers. */
export async function startEtcd(dir) {
  mkdirSync(dir, { recursive: true });
  const [clientPort, peerPort] = [await freePort(), await freePort()];
  const url = `http://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  const proc = spawn(
    'etcd',
    ['--name', 'bench', '--data-dir', join(dir, 'member-data'), '--listen-client-urls', url, '--advertise-client-urls', url,
      '--listen-peer-urls', peer, '--initial-advertise-peer-urls', peer, '--initial-cluster', `bench=${peer}`,
      '--log-level', 'error', '--logger', 'zap', '--quota-backend-bytes', String(8 * 1024 ** 3)],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let output = '';
  proc.stderr.on('data', (d) => (output += d.toString()));
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (proc.exitCode !== null) throw new Error(`etcd exited with ${proc.exitCode}: ${output}`);
    try {
      const body = await (await fetch(`${url}/health`)).json();
      if (body.health === 'true') break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`etcd did not become healthy: ${output}`);
    await sleep(50);
  }
  return {
    url,
    stop: () =>
      new Promise((resolve) => {
        if (proc.exitCode !== null) return resolve();
        proc.once('exit', () => resolve());
        proc.kill('SIGTERM');
      }),
  };
}

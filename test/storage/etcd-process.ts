// Starts a throwaway single-member etcd on free loopback ports for a test, and stops it again.
// etcd comes from Debian's etcd-server (.ci/run installs it); a test that needs it fails loudly
// when it is missing.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { get as httpsGet } from 'node:https';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface EtcdProcess {
  /** The client URL, http://127.0.0.1:PORT. */
  url: string;
  dataDir: string;
  /** SIGTERM, wait for the exit, keep the data directory (for restart tests). */
  stop(): Promise<void>;
  /** SIGKILL, wait for the exit, keep the data directory. */
  kill(): Promise<void>;
  /** Start again on the same ports and data. */
  restart(): Promise<void>;
  /** Stop and remove the data directory. */
  destroy(): Promise<void>;
}

export function requireEtcd(): string {
  try {
    execFileSync('etcd', ['--version'], { stdio: 'pipe' });
  } catch (e) {
    throw new Error(`etcd is required by the etcd storage tests and was not found or failed (apt-get install etcd-server): ${(e as Error).message}`);
  }
  return 'etcd';
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as { port: number }).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Data on tmpfs when there is one: etcd fsyncs every write, which tests need not pay for. */
function tempBase(): string {
  return existsSync('/dev/shm') ? '/dev/shm' : tmpdir();
}

/** PEM files for serving etcd's client port over TLS, requiring client certificates signed by ca. */
export interface EtcdTls {
  ca: string;
  cert: string;
  key: string;
  /** A client certificate and key the health check presents. */
  clientCert: string;
  clientKey: string;
}

/** Start etcd; a few tries, since a free port found here can be taken before etcd binds it. */
export async function startEtcd(opts: { tls?: EtcdTls } = {}): Promise<EtcdProcess> {
  requireEtcd();
  for (let attempt = 1; ; attempt++) {
    try {
      return await startEtcdOnce(opts);
    } catch (err) {
      if (attempt >= 3) throw err;
    }
  }
}

async function startEtcdOnce(opts: { tls?: EtcdTls }): Promise<EtcdProcess> {
  const dataDir = mkdtempSync(join(tempBase(), 'crd-etcd-'));
  const [clientPort, peerPort] = [await freePort(), await freePort()];
  const url = `${opts.tls ? 'https' : 'http'}://127.0.0.1:${clientPort}`;
  const peer = `http://127.0.0.1:${peerPort}`;
  const args = [
    '--name', 'test',
    '--data-dir', dataDir,
    '--listen-client-urls', url,
    '--advertise-client-urls', url,
    '--listen-peer-urls', peer,
    '--initial-advertise-peer-urls', peer,
    '--initial-cluster', `test=${peer}`,
    '--log-level', 'error',
    '--logger', 'zap',
    ...(opts.tls
      ? ['--cert-file', opts.tls.cert, '--key-file', opts.tls.key, '--trusted-ca-file', opts.tls.ca, '--client-cert-auth']
      : []),
  ];
  const member = etcdMember('test', url, dataDir, args, opts.tls ? tlsHealth(url, opts.tls) : plainHealth(url), 15_000);
  try {
    member.launch();
    await member.waitHealthy();
  } catch (err) {
    await member.destroy();
    throw err;
  }
  return member;
}

/** One etcd process on fixed ports and data: launched, awaited until healthy, stopped, killed, restarted. */
function etcdMember(
  name: string,
  url: string,
  dataDir: string,
  args: string[],
  healthy: () => Promise<boolean>,
  timeoutMs: number,
): EtcdProcess & { launch(): void; waitHealthy(): Promise<void> } {
  let child: ChildProcess | undefined;
  let output = '';
  const launch = (): void => {
    output = '';
    const c = spawn('etcd', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    child = c;
    c.stdout!.on('data', (d: Buffer) => (output += d.toString()));
    c.stderr!.on('data', (d: Buffer) => (output += d.toString()));
  };
  const waitHealthy = async (): Promise<void> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (child && child.exitCode !== null) throw new Error(`etcd ${name} exited with ${child.exitCode}: ${output}`);
      if (await healthy()) return;
      if (Date.now() > deadline) throw new Error(`etcd ${name} did not become healthy: ${output}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  const stop = async (signal: NodeJS.Signals = 'SIGTERM'): Promise<void> => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      c.once('exit', () => resolve());
      c.kill(signal);
    });
  };
  return {
    url,
    dataDir,
    launch,
    waitHealthy,
    stop: () => stop(),
    kill: () => stop('SIGKILL'),
    restart: async () => {
      await stop();
      launch();
      await waitHealthy();
    },
    destroy: async () => {
      await stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function plainHealth(url: string): () => Promise<boolean> {
  return async () => {
    try {
      const body = (await (await fetch(`${url}/health`)).json()) as { health?: string };
      return body.health === 'true';
    } catch {
      return false; // Not listening yet.
    }
  };
}

function tlsHealth(url: string, tls: EtcdTls): () => Promise<boolean> {
  const [ca, cert, key] = [readFileSync(tls.ca), readFileSync(tls.clientCert), readFileSync(tls.clientKey)];
  return () =>
    new Promise((resolve) => {
      const req = httpsGet(`${url}/health`, { ca, cert, key }, (res) => {
        let body = '';
        res.on('data', (d: Buffer) => (body += d.toString()));
        res.on('end', () => resolve(body.includes('"health":"true"')));
      });
      req.on('error', () => resolve(false));
    });
}

/** A cluster of etcd members on loopback, all started together (each waits for the others' quorum). */
export async function startEtcdCluster(size: number): Promise<EtcdProcess[]> {
  requireEtcd();
  const members: Array<{ name: string; dataDir: string; client: string; peer: string }> = [];
  for (let i = 0; i < size; i++) {
    const [clientPort, peerPort] = [await freePort(), await freePort()];
    members.push({ name: `m${i}`, dataDir: mkdtempSync(join(tempBase(), 'crd-etcd-')), client: `http://127.0.0.1:${clientPort}`, peer: `http://127.0.0.1:${peerPort}` });
  }
  const initialCluster = members.map((m) => `${m.name}=${m.peer}`).join(',');
  const procs = members.map((m) =>
    etcdMember(
      m.name,
      m.client,
      m.dataDir,
      [
        '--name', m.name,
        '--data-dir', m.dataDir,
        '--listen-client-urls', m.client,
        '--advertise-client-urls', m.client,
        '--listen-peer-urls', m.peer,
        '--initial-advertise-peer-urls', m.peer,
        '--initial-cluster', initialCluster,
        '--initial-cluster-state', 'new',
        '--initial-cluster-token', `crd-test-${process.pid}-${members[0]!.peer}`,
        '--log-level', 'error',
        '--logger', 'zap',
      ],
      plainHealth(m.client),
      30_000,
    ),
  );
  try {
    procs.forEach((p) => p.launch());
    await Promise.all(procs.map((p) => p.waitHealthy()));
  } catch (err) {
    await Promise.all(procs.map((p) => p.destroy()));
    throw err;
  }
  return procs;
}

/** A CA, a serving certificate for 127.0.0.1 and a client certificate (EC P-256, openssl) in dir, for startEtcd({ tls }). */
export function makeEtcdTls(dir: string): EtcdTls {
  const openssl = (args: string[]): void => void execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const issue = (name: string, ext: string): void => {
    openssl(['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`]);
    writeFileSync(join(dir, `${name}.ext`), ext);
    openssl(['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.crt', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.crt`, '-days', '1', '-extfile', `${name}.ext`]);
  };
  openssl(['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '1', '-subj', '/CN=etcd-test-ca']);
  issue('server', 'subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n');
  issue('client', 'extendedKeyUsage=clientAuth\n');
  const f = (n: string): string => join(dir, n);
  return { ca: f('ca.crt'), cert: f('server.crt'), key: f('server.key'), clientCert: f('client.crt'), clientKey: f('client.key') };
}

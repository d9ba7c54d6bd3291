// Starts a real server with `serve` itself (TLS, generated certificates and kubeconfig, the watch cache over SQLite in a temporary data dir)
// in-process, and runs kubectl against it with a private HOME so discovery caches do not leak between tests.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve, type Served } from '../../src/cli/serve.js';
import type { KVStore } from '../../src/storage/types.js';
import type { ServiceResolver } from '../../src/conversion/types.js';
import type { ServeOptions } from '../../src/cli/serve.js';

export interface TestServer {
  served: Served;
  /** The server's storage, as `serve` assembles it (tests compact it to provoke 410 Gone). */
  kv: KVStore;
  dataDir: string;
  home: string;
  kubeconfig: string;
  url: string;
  kubectl(args: string[], opts?: { stdin?: string; bin?: string; timeoutMs?: number; env?: Record<string, string> }): Promise<KubectlResult>;
  /** Writes a file into the test's temporary directory and returns its path. */
  file(name: string, content: string): string;
  close(): Promise<void>;
}

export interface KubectlResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Fails loudly when kubectl is missing: these tests never skip. */
export function requireKubectl(bin = 'kubectl'): string {
  try {
    execFileSync(bin, ['version', '--client', '-o', 'json'], { stdio: 'pipe' });
  } catch (e) {
    throw new Error(`${bin} is required for the end-to-end tests and was not found or failed: ${(e as Error).message}`);
  }
  return bin;
}

export interface TestServerOptions {
  /** kube's --client-ca-file. */
  clientCaFile?: string;
  /** Watches end after this many seconds (to twice that); kube's --min-request-timeout. */
  minRequestTimeoutSeconds?: number;
  bookmarkIntervalMs?: number;
  /** Where conversion webhooks' service references are reached. */
  serviceResolver?: ServiceResolver;
  /** ServiceAccount token issuing and authentication (issuers, audiences, the success cache's TTL). */
  serviceAccountTokens?: ServeOptions['serviceAccountTokens'];
  /** Bearer tokens (--token-auth-file) and --authorization-mode. */
  tokens?: ServeOptions['tokens'];
  authorizationModes?: ServeOptions['authorizationModes'];
  /** Time between passes of the APF bootstrap configuration ensurer. */
  apfEnsureIntervalMs?: number;
  /** --audit-policy-file, --audit-log-path and the rotation flags. */
  audit?: ServeOptions['audit'];
}

export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(join(tmpdir(), 'crd-apiserver-test-'));
  const home = join(dataDir, 'home');
  // Exactly what `crd-apiserver serve` runs (the watch cache over SQLite included), with the tunables.
  const served = await serve({ dataDir, securePort: 0, bindAddress: '127.0.0.1', hosts: [], ...opts });
  const kubeconfig = served.kubeconfigPath;
  return {
    served,
    kv: served.kv,
    dataDir,
    home,
    kubeconfig,
    url: served.server.secureUrl!,
    kubectl: (args, opts = {}) =>
      new Promise((resolve) => {
        const child = execFile(
          opts.bin ?? 'kubectl',
          ['--kubeconfig', kubeconfig, ...args],
          { env: { ...process.env, HOME: home, KUBECONFIG: kubeconfig, ...opts.env }, timeout: opts.timeoutMs ?? 60_000, maxBuffer: 64 << 20 },
          (err, stdout, stderr) => {
            const code = err ? (typeof (err as NodeJS.ErrnoException).code === 'number' ? Number((err as NodeJS.ErrnoException).code) : 1) : 0;
            resolve({ code, stdout: String(stdout), stderr: String(stderr) });
          },
        );
        if (opts.stdin !== undefined) child.stdin?.end(opts.stdin);
        else child.stdin?.end();
      }),
    file: (name, content) => {
      const p = join(dataDir, name);
      writeFileSync(p, content);
      return p;
    },
    close: async () => {
      await served.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Collapses runs of spaces so kubectl's column padding does not matter in assertions. */
export const squeeze = (s: string): string =>
  s
    .split('\n')
    .map((l) => l.replace(/\s+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');

// The per-request log of a spawned `serve`: at -v=3 one line per request on stderr in the shape of kube's
// httplog, as klog text or (--logging-format=json) component-base's JSON; nothing below -v=3; never a body or
// a credential.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const MAIN = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const SECRET = 'sekret-value-9f3a';
const TOKEN = 'token-must-not-be-logged-77e1';

interface Serving {
  url: string;
  stderr(): string;
  stop(): Promise<void>;
}

async function serve(flags: string[]): Promise<Serving> {
  const dir = mkdtempSync(join(tmpdir(), 'request-logs-'));
  const proc: ChildProcess = spawn(process.execPath, ['--import', 'tsx', MAIN, 'serve', '--data-dir', dir, '--secure-port', '0', '--insecure-port', '0', ...flags], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  const url = await new Promise<string>((resolve, reject) => {
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /and (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m) resolve(m[1]!);
    });
    proc.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
  });
  return {
    url,
    stderr: () => err,
    stop: async () => {
      proc.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A create with a body and a bearer token, a get, a 404 and a list, each with its user agent. */
async function requests(url: string): Promise<void> {
  const headers = { 'User-Agent': 'logs-test/1.0 (linux/amd64)', Authorization: `Bearer ${TOKEN}` };
  const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'cm' }, data: { password: SECRET } };
  const created = await fetch(`${url}/api/v1/namespaces/default/configmaps`, { method: 'POST', headers: { ...headers, 'Content-Type': 'application/json' }, body: JSON.stringify(cm) });
  assert.equal(created.status, 201);
  assert.equal((await fetch(`${url}/api/v1/namespaces/default/configmaps/cm`, { headers })).status, 200);
  assert.equal((await fetch(`${url}/api/v1/namespaces/default/configmaps/missing`, { headers })).status, 404);
  assert.equal((await fetch(`${url}/api/v1/configmaps?limit=1`, { headers: { ...headers, 'Audit-ID': 'my-audit-id' } })).status, 200);
  // The line is written once the response is done.
  await new Promise((r) => setTimeout(r, 200));
}

const httpLines = (stderr: string, marker: string): string[] => stderr.split('\n').filter((l) => l.includes(marker) && l.includes('logs-test/1.0'));

test('-v=3: a klog line per request, as kube-apiserver\'s httplog writes it', async () => {
  const s = await serve(['-v=3']);
  try {
    await requests(s.url);
    const lines = httpLines(s.stderr(), '"HTTP"');
    assert.equal(lines.length, 4, s.stderr());
    const line = /^I\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ httplog\.go:\d+\] "HTTP" verb="([A-Z]+)" URI="([^"]*)" latency="([0-9.]+(?:ns|µs|ms|s))" userAgent="logs-test\/1\.0 \(linux\/amd64\)" audit-ID="([^"]*)" srcIP="127\.0\.0\.1:\d+" resp=(\d+)$/;
    const parsed = lines.map((l) => {
      const m = line.exec(l);
      assert.ok(m, `not httplog's shape: ${l}`);
      return { verb: m[1], uri: m[2], auditID: m[4], resp: Number(m[5]) };
    });
    assert.deepEqual(parsed.map(({ verb, uri, resp }) => ({ verb, uri, resp })), [
      { verb: 'POST', uri: '/api/v1/namespaces/default/configmaps', resp: 201 },
      { verb: 'GET', uri: '/api/v1/namespaces/default/configmaps/cm', resp: 200 },
      { verb: 'GET', uri: '/api/v1/namespaces/default/configmaps/missing', resp: 404 },
      { verb: 'LIST', uri: '/api/v1/configmaps?limit=1', resp: 200 },
    ]);
    assert.match(parsed[0]!.auditID!, /^[0-9a-f-]{36}$/);
    assert.equal(parsed[3]!.auditID, 'my-audit-id');
    assert.ok(!s.stderr().includes(SECRET), 'no request body in the log');
    assert.ok(!s.stderr().includes(TOKEN), 'no credential in the log');
  } finally {
    await s.stop();
  }
});

test('--logging-format=json: the same as component-base JSON lines', async () => {
  const s = await serve(['--v', '3', '--logging-format=json']);
  try {
    await requests(s.url);
    const lines = httpLines(s.stderr(), '"msg":"HTTP"');
    assert.equal(lines.length, 4, s.stderr());
    const entries = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    for (const e of entries) {
      assert.deepEqual(Object.keys(e), ['ts', 'caller', 'msg', 'v', 'verb', 'URI', 'latency', 'userAgent', 'audit-ID', 'srcIP', 'resp']);
      assert.equal(typeof e['ts'], 'number');
      assert.ok(Math.abs((e['ts'] as number) - Date.now()) < 60_000, 'ts: milliseconds since the epoch');
      assert.match(e['caller'] as string, /^httplog\/httplog\.go:\d+$/);
      assert.equal(e['v'], 3);
      assert.match(e['latency'] as string, /^[0-9.]+(ns|µs|ms|s)$/);
    }
    assert.deepEqual(entries.map((e) => [e['verb'], e['resp']]), [['POST', 201], ['GET', 200], ['GET', 404], ['LIST', 200]]);
    assert.ok(!s.stderr().includes(SECRET));
    assert.ok(!s.stderr().includes(TOKEN));
  } finally {
    await s.stop();
  }
});

test('below -v=3 requests are not logged', async () => {
  const s = await serve(['-v=2']);
  try {
    await requests(s.url);
    assert.deepEqual(httpLines(s.stderr(), 'HTTP'), []);
  } finally {
    await s.stop();
  }
});

// `crd-apiserver migrate-backend`: SQLite → etcd → SQLite with the command line itself, and after each move
// a server on the target shows, through kubectl, the CRD, its custom resources and built-in objects with the
// same uids, creation timestamps and generations; lists and watches work there. A source a server is
// serving, and a non-empty target without --force, are refused with a message.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Etcd3 } from 'etcd3';
import { requireKubectl, startTestServer, type TestServer } from './harness.js';
import { requireEtcd, startEtcd, type EtcdProcess } from '../storage/etcd-process.js';

const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const crdYaml = readFileSync(new URL('../fixtures/crontab-crd.yaml', import.meta.url), 'utf8');
const cron = (name: string, ns = 'default'): string =>
  `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: ${name}\n  namespace: ${ns}\nspec:\n  cronSpec: "* * * * */5"\n  image: img\n  replicas: 1\n`;

let etcd: EtcdProcess;
let dir: string;
before(async () => {
  requireKubectl();
  requireEtcd();
  dir = mkdtempSync(join(tmpdir(), 'crd-migrate-'));
  etcd = await startEtcd();
});
after(async () => {
  await etcd?.destroy();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** The CLI, asynchronously (an in-process server must keep answering meanwhile). */
function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', 'tsx', main, ...args], { timeout: 60_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? (typeof err.code === 'number' ? err.code : 1) : 0, stdout, stderr });
    });
  });
}

interface Identity {
  uid: string;
  creationTimestamp: string;
  generation?: number;
}

/** uid, creationTimestamp and generation of every object the test made, by kind/namespace/name. */
async function identities(s: TestServer): Promise<Map<string, Identity>> {
  const out = new Map<string, Identity>();
  const r = await s.kubectl(['get', 'crontabs,configmaps,secrets,namespaces,customresourcedefinitions', '-A', '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  for (const o of JSON.parse(r.stdout).items as Array<{ kind: string; metadata: Record<string, unknown> }>) {
    const m = o.metadata;
    const name = String(m.name);
    // The test's own objects: not those the server keeps in its namespaces (kube-system's tracking ConfigMap).
    if (o.kind === 'ConfigMap' && name === 'kube-root-ca.crt') continue;
    if (m.namespace !== undefined && m.namespace !== 'team') continue;
    if (o.kind === 'Namespace' && name !== 'team') continue;
    out.set(`${o.kind}/${String(m.namespace ?? '')}/${name}`, {
      uid: String(m.uid),
      creationTimestamp: String(m.creationTimestamp),
      ...(m.generation !== undefined && { generation: Number(m.generation) }),
    });
  }
  return out;
}

/** A watch through kubectl sees an object created after it started. */
async function watchSeesCreate(s: TestServer, name: string): Promise<void> {
  const child = spawn('kubectl', ['--kubeconfig', s.kubeconfig, 'get', 'crontabs', '-n', 'team', '-w', '--output-watch-events'], {
    env: { ...process.env, HOME: s.home },
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const waitFor = async (re: RegExp): Promise<void> => {
    for (let i = 0; i < 150 && !re.test(out); i++) await new Promise((res) => setTimeout(res, 100));
    assert.match(out, re);
  };
  try {
    await waitFor(/ADDED\s+b\s/);
    const r = await s.kubectl(['create', '-f', '-'], { stdin: cron(name, 'team') });
    assert.equal(r.code, 0, r.stderr);
    await waitFor(new RegExp(`ADDED\\s+${name}\\s`));
  } finally {
    child.kill();
  }
}

test('SQLite → etcd → SQLite keeps every object, its uid, creation time and generation', async () => {
  const dirA = join(dir, 'a');
  const dirB = join(dir, 'b');
  let s = await startTestServer({ dataDir: dirA });
  let before: Map<string, Identity>;
  try {
    let r = await s.kubectl(['apply', '-f', s.file('crd.yaml', crdYaml)]);
    assert.equal(r.code, 0, r.stderr);
    r = await s.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/crontabs.stable.example.com']);
    assert.equal(r.code, 0, r.stderr);
    r = await s.kubectl(['create', 'namespace', 'team']);
    assert.equal(r.code, 0, r.stderr);
    for (const name of ['a', 'b', 'c']) {
      r = await s.kubectl(['create', '-f', '-'], { stdin: cron(name, 'team') });
      assert.equal(r.code, 0, r.stderr);
    }
    // A spec change: generation 2 must survive the move.
    r = await s.kubectl(['patch', 'crontab', 'b', '-n', 'team', '--type=merge', '-p', '{"spec":{"replicas":4}}']);
    assert.equal(r.code, 0, r.stderr);
    r = await s.kubectl(['create', 'configmap', 'settings', '-n', 'team', '--from-literal=color=blue']);
    assert.equal(r.code, 0, r.stderr);
    r = await s.kubectl(['create', 'secret', 'generic', 'creds', '-n', 'team', '--from-literal=password=hunter2']);
    assert.equal(r.code, 0, r.stderr);
    before = await identities(s);
    assert.equal(before.get('CronTab/team/b')?.generation, 2);
    assert.equal(before.size, 7, JSON.stringify([...before.keys()]));

    // While the server holds the data directory, the copy is refused with what to do instead.
    r = await cli(['migrate-backend', '--from', dirA, '--to', etcd.url]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /state\.db is in use by another process: stop the server on it first/);
  } finally {
    await s.close();
  }

  // SQLite → etcd, under a prefix of its own.
  let r = await cli(['migrate-backend', '--from', dirA, '--to', etcd.url, '--etcd-prefix', '/moved', '--chunk-size', '10']);
  assert.equal(r.code, 0, r.stderr);
  const progress = r.stderr.split('\n').filter((l) => /^copied \d+\/\d+ keys/.test(l));
  assert.ok(progress.length > 1, r.stderr);
  const [, copied, total] = /^copied (\d+)\/(\d+)/.exec(progress[progress.length - 1]!)!;
  assert.equal(copied, total);
  const raw = new Etcd3({ hosts: etcd.url });
  try {
    const keys = await raw.getAll().prefix('/moved/').keys();
    assert.equal(keys.length, Number(total));
    assert.ok(keys.includes('/moved/stable.example.com/crontabs/team/b'));
    assert.ok(keys.includes('/moved/apiextensions.k8s.io/customresourcedefinitions/crontabs.stable.example.com'));
  } finally {
    raw.close();
  }
  // A second run into the now non-empty target is refused.
  r = await cli(['migrate-backend', '--from', dirA, '--to', etcd.url, '--etcd-prefix', '/moved']);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /already holds \d+ keys: migrate into empty storage, or pass --force to delete them first/);

  // The server on etcd (the same data directory: same CA and kubeconfig) shows everything as it was.
  s = await startTestServer({ dataDir: dirA, etcd: { servers: [etcd.url], prefix: '/moved' } });
  try {
    assert.deepEqual(await identities(s), before);
    await watchSeesCreate(s, 'on-etcd');
    r = await s.kubectl(['get', 'crontabs', '-n', 'team', '-o', 'name']);
    assert.equal(r.stdout.trim(), ['a', 'b', 'c', 'on-etcd'].map((n) => `crontab.stable.example.com/${n}`).join('\n'));
    before = await identities(s);
  } finally {
    await s.close();
  }

  // etcd → a new SQLite data directory (its server makes a new CA); --force replaces what a target holds.
  r = await cli(['migrate-backend', '--from', etcd.url, '--from-etcd-prefix', '/moved', '--to', dirB]);
  assert.equal(r.code, 0, r.stderr);
  r = await cli(['migrate-backend', '--from', etcd.url, '--from-etcd-prefix', '/moved', '--to', dirB, '--force']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /deleting the \d+ keys the target holds \(--force\)/);
  s = await startTestServer({ dataDir: dirB });
  try {
    assert.deepEqual(await identities(s), before);
    const secret = JSON.parse((await s.kubectl(['get', 'secret', 'creds', '-n', 'team', '-o', 'json'])).stdout);
    assert.equal(Buffer.from(secret.data.password, 'base64').toString(), 'hunter2');
    await watchSeesCreate(s, 'back-on-sqlite');
  } finally {
    await s.close();
  }
});

test('flags: --from and --to are required, bad URLs and the same storage twice are refused', async () => {
  let r = await cli(['migrate-backend', '--from', join(dir, 'x')]);
  assert.equal(r.code, 2);
  assert.match(r.stderr, /migrate-backend needs --from and --to/);
  r = await cli(['migrate-backend', '--from', 'http://127.0.0.1:1/x', '--to', join(dir, 'x')]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /invalid --from etcd URL http:\/\/127\.0\.0\.1:1\/x/);
  r = await cli(['migrate-backend', '--from', etcd.url, '--to', etcd.url]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /--from and --to name the same storage/);
  r = await cli(['migrate-backend', '--from', join(dir, 'nothing-here'), '--to', join(dir, 'y')]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /holds no state\.db: not a crd-apiserver data directory/);
});

test('encryption at rest: values copied as stored by default; decrypted and re-encrypted with the configuration', async () => {
  const KEY = Buffer.alloc(32, 7).toString('base64');
  const config = join(dir, 'enc.yaml');
  writeFileSync(
    config,
    `apiVersion: apiserver.config.k8s.io/v1\nkind: EncryptionConfiguration\nresources:\n  - resources: [secrets]\n    providers:\n      - aescbc:\n          keys:\n            - name: key1\n              secret: ${KEY}\n      - identity: {}\n`,
  );
  const src = join(dir, 'enc-src');
  let s = await startTestServer({ dataDir: src, encryptionProviderConfig: config });
  try {
    const r = await s.kubectl(['create', 'secret', 'generic', 'vault', '--from-literal=token=plain-words']);
    assert.equal(r.code, 0, r.stderr);
  } finally {
    await s.close();
  }
  const stored = async (prefix: string): Promise<string> => {
    const raw = new Etcd3({ hosts: etcd.url });
    try {
      return (await raw.get(`${prefix}/secrets/default/vault`).string()) ?? '';
    } finally {
      raw.close();
    }
  };
  // Default: the ciphertext as it was; a server with the same configuration reads it.
  let r = await cli(['migrate-backend', '--from', src, '--to', etcd.url, '--etcd-prefix', '/enc-asis']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(await stored('/enc-asis'), /^k8s:enc:aescbc:v1:key1:/);
  s = await startTestServer({ dataDir: src, etcd: { servers: [etcd.url], prefix: '/enc-asis' }, encryptionProviderConfig: config });
  try {
    const got = await s.kubectl(['get', 'secret', 'vault', '-o', 'jsonpath={.data.token}']);
    assert.equal(Buffer.from(got.stdout, 'base64').toString(), 'plain-words');
  } finally {
    await s.close();
  }
  // Decrypted on reading only: the target holds plaintext.
  r = await cli(['migrate-backend', '--from', src, '--to', etcd.url, '--to-etcd-prefix', '/enc-plain', '--from-encryption-provider-config', config]);
  assert.equal(r.code, 0, r.stderr);
  // Plaintext as kube stores a Secret in etcd: protobuf in the k8s\0 envelope.
  const plain = await stored('/enc-plain');
  assert.ok(plain.startsWith('k8s\u0000') && plain.includes('vault') && plain.includes('plain-words'), JSON.stringify(plain.slice(0, 40)));
  // A configuration that cannot read a value fails the copy and names the key. (Its key has another name: with
  // the same name and another secret, AES-CBC finds valid padding in about one decryption of 256 and yields
  // garbage rather than an error, as kube's does.)
  const wrong = join(dir, 'wrong.yaml');
  writeFileSync(wrong, readFileSync(config, 'utf8').replace(KEY, Buffer.alloc(32, 8).toString('base64')).replace('name: key1', 'name: key2'));
  r = await cli(['migrate-backend', '--from', src, '--to', etcd.url, '--to-etcd-prefix', '/enc-wrong', '--from-encryption-provider-config', wrong]);
  assert.equal(r.code, 1);
  assert.match(r.stderr, /crd-apiserver: \/registry\/secrets\/default\/vault: /);
  // Plaintext in, the configuration on both sides: encrypted again by its first provider.
  r = await cli(['migrate-backend', '--from', etcd.url, '--from-etcd-prefix', '/enc-plain', '--to', etcd.url, '--to-etcd-prefix', '/enc-again', '--encryption-provider-config', config]);
  assert.equal(r.code, 0, r.stderr);
  assert.match(await stored('/enc-again'), /^k8s:enc:aescbc:v1:key1:/);
});

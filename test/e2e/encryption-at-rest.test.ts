// Encryption at rest end to end: kubectl writes and reads Secrets through a server started with
// --encryption-provider-config; the SQLite file is read directly to see what is on disk; the server
// restarts with a rotated configuration and `kubectl replace` completes the rotation, as kube's
// documentation ("Encrypting Confidential Data at Rest") does it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { requireKubectl, startTestServer } from './harness.js';
import * as reference from '../storage/xsalsa20poly1305.js';

const KEY1 = Buffer.alloc(32, 1).toString('base64');
const KEY2 = Buffer.alloc(32, 2).toString('base64');
const PLAIN = 'topsecretvalue';

const configYaml = (providers: string) => `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources:
      - secrets
    providers:
${providers}`;
const aescbc = (...keys: [string, string][]) =>
  `      - aescbc:\n          keys:\n${keys.map(([n, s]) => `            - name: ${n}\n              secret: ${s}\n`).join('')}`;
const identity = '      - identity: {}\n';
const secretbox = (...keys: [string, string][]) =>
  `      - secretbox:\n          keys:\n${keys.map(([n, s]) => `            - name: ${n}\n              secret: ${s}\n`).join('')}`;

/** The newest stored value of a key, and every value the key ever had, straight from state.db. */
function onDisk(dataDir: string, key: string): { current: string; all: string[] } {
  const db = new Database(join(dataDir, 'state.db'), { readonly: true, fileMustExist: true });
  try {
    const current = db.prepare('SELECT l.value AS v FROM kv JOIN log l ON l.rev = kv.mod_rev WHERE kv.key = ?').get(key) as { v: string };
    const all = (db.prepare('SELECT value AS v FROM log WHERE key = ? AND value IS NOT NULL').all(key) as { v: string }[]).map((r) => r.v);
    return { current: current.v, all };
  } finally {
    db.close();
  }
}

test('kubectl against --encryption-provider-config: encrypted on disk, rotated by kubectl replace', async () => {
  requireKubectl();
  const dataDir = mkdtempSync(join(tmpdir(), 'crd-apiserver-enc-'));
  const cfg = (name: string, body: string) => {
    const p = join(dataDir, name);
    writeFileSync(p, body);
    return p;
  };
  const key = '/registry/secrets/default/s1';
  try {
    let s = await startTestServer({ dataDir, encryptionProviderConfig: cfg('enc1.yaml', configYaml(aescbc(['key1', KEY1]))) });
    try {
      const created = await s.kubectl(['create', 'secret', 'generic', 's1', `--from-literal=password=${PLAIN}`]);
      assert.equal(created.code, 0, created.stderr);
      await s.kubectl(['create', 'configmap', 'c1', `--from-literal=k=${PLAIN}`]);
      const got = await s.kubectl(['get', 'secret', 's1', '-o', 'jsonpath={.data.password}']);
      assert.equal(Buffer.from(got.stdout, 'base64').toString(), PLAIN);
    } finally {
      await s.close();
    }
    // The store holds SQLite's exclusive lock while it runs: the file is read between runs.
    const stored = onDisk(dataDir, key);
    assert.match(stored.current, /^k8s:enc:aescbc:v1:key1:/);
    const b64 = Buffer.from(PLAIN).toString('base64');
    for (const v of stored.all) assert.ok(!v.includes(PLAIN) && !v.includes(b64), 'plaintext on disk');
    // Resources the configuration does not name stay as they were.
    assert.ok(onDisk(dataDir, '/registry/configmaps/default/c1').current.includes(PLAIN));

    // Rotation, step 1: the new key first, the old one still listed: everything stays readable.
    s = await startTestServer({ dataDir, encryptionProviderConfig: cfg('enc2.yaml', configYaml(aescbc(['key2', KEY2], ['key1', KEY1]))) });
    try {
      const got = await s.kubectl(['get', 'secret', 's1', '-o', 'jsonpath={.data.password}']);
      assert.equal(Buffer.from(got.stdout, 'base64').toString(), PLAIN);
      // Step 2: rewrite every Secret (an unchanged object is still written: its value is stale).
      const all = await s.kubectl(['get', 'secrets', '-A', '-o', 'json']);
      assert.equal(all.code, 0, all.stderr);
      const replaced = await s.kubectl(['replace', '-f', '-'], { stdin: all.stdout });
      assert.equal(replaced.code, 0, replaced.stderr);
      assert.match(replaced.stdout, /secret\/s1 replaced/);
      // Written again only when stale: a second replace leaves the revision alone, as kube does.
      const rv = (await s.kubectl(['get', 'secret', 's1', '-o', 'jsonpath={.metadata.resourceVersion}'])).stdout;
      const again = await s.kubectl(['get', 'secret', 's1', '-o', 'json']);
      assert.equal((await s.kubectl(['replace', '-f', '-'], { stdin: again.stdout })).code, 0);
      assert.equal((await s.kubectl(['get', 'secret', 's1', '-o', 'jsonpath={.metadata.resourceVersion}'])).stdout, rv);
    } finally {
      await s.close();
    }
    assert.match(onDisk(dataDir, key).current, /^k8s:enc:aescbc:v1:key2:/);

    // Step 3: the old key removed; the rewritten Secret reads with key2 alone.
    s = await startTestServer({ dataDir, encryptionProviderConfig: cfg('enc3.yaml', configYaml(aescbc(['key2', KEY2]))) });
    try {
      const got = await s.kubectl(['get', 'secret', 's1', '-o', 'jsonpath={.data.password}']);
      assert.equal(Buffer.from(got.stdout, 'base64').toString(), PLAIN);
    } finally {
      await s.close();
    }

    // Decrypting: identity first, aescbc still listed: encrypted values read, new writes are plain.
    s = await startTestServer({ dataDir, encryptionProviderConfig: cfg('enc4.yaml', configYaml(identity + aescbc(['key2', KEY2]))) });
    try {
      const got = await s.kubectl(['get', 'secret', 's1', '-o', 'jsonpath={.data.password}']);
      assert.equal(Buffer.from(got.stdout, 'base64').toString(), PLAIN);
      assert.equal((await s.kubectl(['create', 'secret', 'generic', 's2', '--from-literal=a=b'])).code, 0);
      const all = await s.kubectl(['get', 'secrets', '-A', '-o', 'json']);
      assert.equal((await s.kubectl(['replace', '-f', '-'], { stdin: all.stdout })).code, 0);
    } finally {
      await s.close();
    }
    assert.match(onDisk(dataDir, '/registry/secrets/default/s2').current, /^\{/);
    assert.match(onDisk(dataDir, key).current, /^\{"kind":"Secret"/);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('secretbox: kubectl writes a Secret, on disk it is kube\'s secretbox value (opened here by an independent XSalsa20-Poly1305); aescbc rotated to secretbox', async () => {
  requireKubectl();
  const dataDir = mkdtempSync(join(tmpdir(), 'crd-apiserver-enc-'));
  const cfg = (name: string, body: string) => {
    const p = join(dataDir, name);
    writeFileSync(p, body);
    return p;
  };
  const prefix = 'k8s:enc:secretbox:v1:box1:';
  try {
    let s = await startTestServer({ dataDir, encryptionProviderConfig: cfg('enc1.yaml', configYaml(aescbc(['old', KEY1]))) });
    try {
      assert.equal((await s.kubectl(['create', 'secret', 'generic', 'before', `--from-literal=password=${PLAIN}`])).code, 0);
    } finally {
      await s.close();
    }
    s = await startTestServer({ dataDir, encryptionProviderConfig: cfg('enc2.yaml', configYaml(secretbox(['box1', KEY2]) + aescbc(['old', KEY1]))) });
    try {
      const r = await s.kubectl(['create', 'secret', 'generic', 's1', `--from-literal=password=${PLAIN}`]);
      assert.equal(r.code, 0, r.stderr);
      const got = await s.kubectl(['get', 'secret', 'before', '-o', 'jsonpath={.data.password}']);
      assert.equal(Buffer.from(got.stdout, 'base64').toString(), PLAIN);
      const all = await s.kubectl(['get', 'secrets', '-A', '-o', 'json']);
      assert.equal((await s.kubectl(['replace', '-f', '-'], { stdin: all.stdout })).code, 0);
    } finally {
      await s.close();
    }
    for (const name of ['s1', 'before']) {
      const stored = onDisk(dataDir, `/registry/secrets/default/${name}`).current;
      assert.ok(stored.startsWith(prefix), stored.slice(0, 40));
      const raw = Buffer.from(stored.slice(prefix.length), 'base64');
      const plain = reference.open(raw.subarray(24), raw.subarray(0, 24), Buffer.from(KEY2, 'base64'));
      assert.ok(plain, 'the value opens with the key');
      assert.equal(Buffer.from(JSON.parse(plain.toString()).data.password, 'base64').toString(), PLAIN);
    }
    // secretbox alone reads them back.
    s = await startTestServer({ dataDir, encryptionProviderConfig: cfg('enc3.yaml', configYaml(secretbox(['box1', KEY2]))) });
    try {
      const got = await s.kubectl(['get', 'secret', 'before', '-o', 'jsonpath={.data.password}']);
      assert.equal(Buffer.from(got.stdout, 'base64').toString(), PLAIN);
    } finally {
      await s.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('a custom resource named in the configuration (aesgcm) is stored encrypted; its CRD and other resources are not', async () => {
  requireKubectl();
  const dataDir = mkdtempSync(join(tmpdir(), 'crd-apiserver-enc-'));
  try {
    const p = join(dataDir, 'enc.yaml');
    writeFileSync(
      p,
      `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [crontabs.stable.example.com]
    providers:
      - aesgcm:
          keys: [{name: g1, secret: ${KEY1}}]
`,
    );
    const s = await startTestServer({ dataDir, encryptionProviderConfig: p });
    try {
      const crd = readFileSync(new URL('../fixtures/crontab-subresources-crd.yaml', import.meta.url), 'utf8');
      let r = await s.kubectl(['apply', '-f', s.file('crd.yaml', crd)]);
      assert.equal(r.code, 0, r.stderr);
      r = await s.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/crontabs.stable.example.com']);
      assert.equal(r.code, 0, r.stderr);
      const cr = `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: c1\nspec:\n  cronSpec: "${PLAIN}"\n  image: img\n  replicas: 1\n`;
      r = await s.kubectl(['apply', '-f', s.file('cr.yaml', cr)]);
      assert.equal(r.code, 0, r.stderr);
      r = await s.kubectl(['get', 'crontab', 'c1', '-o', 'jsonpath={.spec.cronSpec}']);
      assert.equal(r.stdout, PLAIN);
    } finally {
      await s.close();
    }
    const stored = onDisk(dataDir, '/registry/stable.example.com/crontabs/default/c1');
    assert.match(stored.current, /^k8s:enc:aesgcm:v1:g1:/);
    for (const v of stored.all) assert.ok(!v.includes(PLAIN), 'plaintext on disk');
    assert.match(onDisk(dataDir, '/registry/apiextensions.k8s.io/customresourcedefinitions/crontabs.stable.example.com').current, /^\{/);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('an invalid --encryption-provider-config stops the server with kube\'s message', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'crd-apiserver-enc-'));
  try {
    const p = join(dataDir, 'bad.yaml');
    writeFileSync(p, configYaml(aescbc(['key1', Buffer.alloc(10).toString('base64')])));
    await assert.rejects(startTestServer({ dataDir, encryptionProviderConfig: p }), {
      message: 'error while parsing file: resources[0].providers[0].aescbc.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 10, expected one of [16 24 32]',
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});

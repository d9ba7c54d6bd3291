// core/v1 ConfigMaps and Secrets through kubectl: its generators (sent as protobuf), the printers' columns,
// describe, jsonpath on base64 data, client- and server-side apply, and namespace deletion taking them along.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { requireKubectl, startTestServer, squeeze, type TestServer } from './harness.js';

let s: TestServer;
before(async () => {
  requireKubectl();
  s = await startTestServer();
});
after(async () => {
  await s?.close();
});

const ok = async (args: string[], stdin?: string): Promise<string> => {
  const r = await s.kubectl(args, stdin === undefined ? {} : { stdin });
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

test('kubectl create configmap --from-literal, get cm (NAME DATA AGE), describe', async () => {
  assert.equal((await ok(['create', 'configmap', 'x', '--from-literal=a=b', '--from-literal=c=d'])).trim(), 'configmap/x created');
  // With the kube-root-ca.crt kube-controller-manager publishes in every namespace.
  assert.match(squeeze(await ok(['get', 'cm'])), /^NAME DATA AGE\nkube-root-ca\.crt 1 \d+s\nx 2 \d+s$/);
  const obj = parseYaml(await ok(['get', 'configmap', 'x', '-o', 'yaml'])) as Record<string, any>;
  assert.deepEqual(obj['data'], { a: 'b', c: 'd' });
  assert.equal(obj['metadata'].namespace, 'default');
  // Events are not served here: describe without them.
  const described = await ok(['describe', 'configmap', 'x', '--show-events=false']);
  // kubectl describe ranges over the Data map, whose order Go randomises: either order is kube's output.
  assert.match(described, /^Name:\s+x\nNamespace:\s+default\nLabels:\s+<none>\nAnnotations:\s+<none>\n\nData\n====\n(a:\n----\nb\n\nc:\n----\nd|c:\n----\nd\n\na:\n----\nb)\n\n\nBinaryData\n====\n\n$/);
});

test('kubectl create secret generic and tls, get secrets (NAME TYPE DATA AGE), jsonpath of base64 data', async () => {
  assert.equal((await ok(['create', 'secret', 'generic', 's', '--from-literal=a=hello', '--from-literal=b=world'])).trim(), 'secret/s created');
  assert.equal(await ok(['get', 'secret', 's', '-o', 'jsonpath={.data.a}']), Buffer.from('hello').toString('base64'));
  const key = join(s.dataDir, 'tls.key');
  const crt = join(s.dataDir, 'tls.crt');
  execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', key, '-out', crt, '-subj', '/CN=example.com', '-days', '1'], { stdio: 'pipe' });
  const r = await s.kubectl(['create', 'secret', 'tls', 't', '--cert', crt, '--key', key]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'secret/t created');
  assert.equal(r.stderr, '', 'a matching key pair draws no warning');
  assert.match(squeeze(await ok(['get', 'secrets'])), /^NAME TYPE DATA AGE\ns Opaque 2 \d+s\nt kubernetes.io\/tls 2 \d+s$/);
  assert.match(squeeze(await ok(['get', 'secrets', '--field-selector', 'type=kubernetes.io/tls'])), /^NAME TYPE DATA AGE\nt kubernetes.io\/tls 2 \d+s$/);
  const described = await ok(['describe', 'secret', 't']);
  // describe prints the keys in Go's map order, which is random.
  assert.match(described, /^Name:\s+t\nNamespace:\s+default\nLabels:\s+<none>\nAnnotations:\s+<none>\n\nType:\s+kubernetes.io\/tls\n\nData\n====\n(tls.crt|tls.key):\s+\d+ bytes\n(tls.crt|tls.key):\s+\d+ bytes\n$/);
  assert.match(described, /tls.crt/);
  assert.match(described, /tls.key/);
  // A key that is not the certificate's (kubectl's generator checks the pair itself; a manifest is not
  // checked): created, with crypto/tls's complaint as a warning.
  const otherKey = join(s.dataDir, 'other.key');
  execFileSync('openssl', ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048', '-out', otherKey], { stdio: 'pipe' });
  const b64 = (p: string): string => readFileSync(p).toString('base64');
  const manifest = `apiVersion: v1\nkind: Secret\nmetadata:\n  name: mismatch\ntype: kubernetes.io/tls\ndata:\n  tls.crt: ${b64(crt)}\n  tls.key: ${b64(otherKey)}\n`;
  const w = await s.kubectl(['create', '-f', '-'], { stdin: manifest });
  assert.equal(w.code, 0, w.stderr);
  assert.equal(w.stdout.trim(), 'secret/mismatch created');
  assert.equal(w.stderr.trim(), 'Warning: tls: private key does not match public key');
});

const MANIFEST = `apiVersion: v1
kind: ConfigMap
metadata:
  name: applied
data:
  mode: fast
binaryData:
  blob: AAEC
---
apiVersion: v1
kind: Secret
metadata:
  name: applied
stringData:
  password: s3cret
`;

test('kubectl apply -f (client-side, then server-side): stringData lands in data, never comes back', async () => {
  assert.equal((await ok(['apply', '-f', '-'], MANIFEST)).trim(), 'configmap/applied created\nsecret/applied created');
  let secret = parseYaml(await ok(['get', 'secret', 'applied', '-o', 'yaml'])) as Record<string, any>;
  assert.deepEqual(secret['data'], { password: Buffer.from('s3cret').toString('base64') });
  assert.equal(secret['stringData'], undefined);
  assert.equal(secret['type'], 'Opaque');
  // Applying again changes nothing.
  assert.equal((await ok(['apply', '-f', '-'], MANIFEST)).trim(), 'configmap/applied unchanged\nsecret/applied configured');
  // Server-side apply takes the objects over (the last-applied annotation's owner conflicts otherwise).
  const ssa = MANIFEST.replace('mode: fast', 'mode: slow').replace('s3cret', 'other');
  assert.equal((await ok(['apply', '--server-side', '--force-conflicts', '-f', '-'], ssa)).trim(), 'configmap/applied serverside-applied\nsecret/applied serverside-applied');
  const cm = parseYaml(await ok(['get', 'cm', 'applied', '-o', 'yaml', '--show-managed-fields'])) as Record<string, any>;
  assert.deepEqual(cm['data'], { mode: 'slow' });
  assert.deepEqual(cm['binaryData'], { blob: 'AAEC' });
  assert.ok(cm['metadata'].managedFields.some((m: any) => m.manager === 'kubectl' && m.operation === 'Apply'));
  secret = parseYaml(await ok(['get', 'secret', 'applied', '-o', 'yaml'])) as Record<string, any>;
  assert.deepEqual(secret['data'], { password: Buffer.from('other').toString('base64') });
});

test('an immutable configmap refuses data changes with kube\'s message', async () => {
  await ok(['create', 'configmap', 'frozen', '--from-literal=a=b']);
  await ok(['patch', 'configmap', 'frozen', '-p', '{"immutable":true}']);
  const r = await s.kubectl(['patch', 'configmap', 'frozen', '-p', '{"data":{"a":"c"}}']);
  assert.equal(r.code, 1);
  assert.equal(r.stderr.trim(), 'The ConfigMap "frozen" is invalid: data: Forbidden: field is immutable when `immutable` is set');
  // Metadata may still change.
  assert.equal((await ok(['label', 'configmap', 'frozen', 'tier=x'])).trim(), 'configmap/frozen labeled');
});

test('kubectl delete ns removes its configmaps and secrets', async () => {
  await ok(['create', 'namespace', 'gone']);
  await ok(['create', 'configmap', 'c', '-n', 'gone', '--from-literal=a=b']);
  await ok(['create', 'secret', 'generic', 'p', '-n', 'gone', '--from-literal=a=b']);
  assert.equal((await ok(['delete', 'ns', 'gone', '--timeout=30s'])).trim(), 'namespace "gone" deleted');
  const r = await s.kubectl(['get', 'ns', 'gone']);
  assert.equal(r.code, 1);
  assert.equal(r.stderr.trim(), 'Error from server (NotFound): namespaces "gone" not found');
  // A namespace of the same name starts empty, but for the kube-root-ca.crt published in it anew.
  await ok(['create', 'namespace', 'gone']);
  let left = '';
  for (let i = 0; i < 100 && left === ''; i++) {
    left = (await ok(['get', 'cm,secrets', '-n', 'gone', '-o', 'name'])).trim();
    if (left === '') await new Promise((r) => setTimeout(r, 50));
  }
  assert.equal(left, 'configmap/kube-root-ca.crt');
});

// ServiceAccounts and Leases through kubectl: the generator, the printers' columns (SECRETS, HOLDER), the
// default account and kube-root-ca.crt kube-controller-manager keeps in every namespace, api-resources.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
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

/** Runs kubectl until its output matches (the controllers act a moment after a namespace appears). */
async function until(args: string[], re: RegExp): Promise<string> {
  let out = '';
  for (let i = 0; i < 100; i++) {
    out = squeeze((await s.kubectl(args)).stdout);
    if (re.test(out)) return out;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail(`kubectl ${args.join(' ')}: ${out} does not match ${re}`);
}

test('api-resources lists serviceaccounts (sa) and leases', async () => {
  const lines = squeeze(await ok(['api-resources'])).split('\n');
  assert.ok(lines.includes('serviceaccounts sa v1 true ServiceAccount'));
  assert.ok(lines.includes('leases coordination.k8s.io/v1 true Lease'));
  assert.equal((await ok(['api-resources', '--api-group=coordination.k8s.io', '-o', 'name'])).trim(), 'leases.coordination.k8s.io');
});

test('kubectl create serviceaccount, get sa (NAME SECRETS AGE) with the default account', async () => {
  assert.equal((await ok(['create', 'serviceaccount', 'x'])).trim(), 'serviceaccount/x created');
  await until(['get', 'sa'], /^NAME SECRETS AGE\ndefault 0 \d+[sm]\nx 0 \d+s$/);
  await ok(['patch', 'sa', 'x', '-p', '{"secrets":[{"name":"a"},{"name":"b","kind":"Secret"}]}']);
  assert.match(squeeze(await ok(['get', 'sa', 'x'])), /^NAME SECRETS AGE\nx 2 \d+s$/);
  assert.equal(await ok(['get', 'sa', 'x', '-o', 'jsonpath={.secrets}']), '[{"name":"a"},{"name":"b"}]');
});

test('kubectl get leases (NAME HOLDER AGE); MicroTimes as kube writes them', async () => {
  const none = await s.kubectl(['get', 'leases']);
  assert.equal(none.stderr.trim(), 'No resources found in default namespace.');
  const manifest = [
    'apiVersion: coordination.k8s.io/v1',
    'kind: Lease',
    'metadata:',
    '  name: lock',
    'spec:',
    '  holderIdentity: me',
    '  leaseDurationSeconds: 15',
    '  renewTime: "2026-11-26T12:00:00.000000Z"',
    '',
  ].join('\n');
  assert.equal((await ok(['apply', '-f', '-'], manifest)).trim(), 'lease.coordination.k8s.io/lock created');
  assert.match(squeeze(await ok(['get', 'leases'])), /^NAME HOLDER AGE\nlock me \d+s$/);
  assert.equal(await ok(['get', 'lease', 'lock', '-o', 'jsonpath={.spec.renewTime}']), '2026-11-26T12:00:00.000000Z');
  const bad = await s.kubectl(['apply', '-f', '-'], { stdin: manifest.replace('15', '0') });
  assert.equal(bad.code, 1);
  assert.match(bad.stderr, /The Lease "lock" is invalid: spec.leaseDurationSeconds: Invalid value: 0: must be greater than 0/);
});

test('kubectl create ns, then get cm shows kube-root-ca.crt and get sa the default account', async () => {
  assert.equal((await ok(['create', 'ns', 'n'])).trim(), 'namespace/n created');
  await until(['get', 'cm', '-n', 'n'], /^NAME DATA AGE\nkube-root-ca\.crt 1 \d+s$/);
  await until(['get', 'sa', '-n', 'n'], /^NAME SECRETS AGE\ndefault 0 \d+s$/);
  // The CA the kubeconfig trusts.
  const ca = await ok(['get', 'cm', 'kube-root-ca.crt', '-n', 'n', '-o', 'jsonpath={.data.ca\\.crt}']);
  const trusted = Buffer.from(await ok(['config', 'view', '--raw', '-o', 'jsonpath={.clusters[0].cluster.certificate-authority-data}']), 'base64').toString('utf8');
  assert.equal(ca, trusted);
  // Deleted, it comes back.
  await ok(['delete', 'cm', 'kube-root-ca.crt', '-n', 'n']);
  await ok(['delete', 'sa', 'default', '-n', 'n']);
  await until(['get', 'cm,sa', '-n', 'n', '-o', 'name'], /^configmap\/kube-root-ca\.crt\nserviceaccount\/default$/);
});

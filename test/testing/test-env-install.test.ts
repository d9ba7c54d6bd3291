// How startTestEnv installs CRDs: read on a worker thread and created as each file is parsed, yet with the
// errors of reading everything first: a file that does not parse before an object that is not a CRD, and that
// before a CRD the server refuses; a directory's files in name order, Lists flattened, all Established; the
// worker shared by environments started together, and by those that come after an error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestEnv } from '../../src/testing/index.js';

const crd = (plural: string, kind: string): string => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: ${plural}.kit.example.com}
spec:
  group: kit.example.com
  scope: Namespaced
  names: {plural: ${plural}, singular: ${kind.toLowerCase()}, kind: ${kind}}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
`;

function dirWith(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'crd-testenv-install-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

test('CRDs from several files, a multi-document file and a List are all created and Established', async (t) => {
  const dir = dirWith({
    'a.yaml': `${crd('apples', 'Apple')}---\n${crd('berries', 'Berry')}`,
    'b.json': JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [{ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name: 'cherries.kit.example.com' }, spec: { group: 'kit.example.com', scope: 'Cluster', names: { plural: 'cherries', singular: 'cherry', kind: 'Cherry' }, versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }] } }] }),
    'notes.txt': 'not a manifest',
  });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const env = await startTestEnv({ crds: [dir] });
  t.after(() => env.stop());
  const { ApiextensionsV1Api } = await import('@kubernetes/client-node');
  const api = (await env.kubeConfig()).makeApiClient(ApiextensionsV1Api);
  const list = await api.listCustomResourceDefinition();
  const established = list.items
    .filter((c) => c.status?.conditions?.some((k) => k.type === 'Established' && k.status === 'True'))
    .map((c) => c.metadata?.name)
    .sort();
  assert.deepEqual(established, ['apples.kit.example.com', 'berries.kit.example.com', 'cherries.kit.example.com']);
});

test('two environments started at once each get their own CRDs (one worker reads for both, in turn)', async (t) => {
  const a = dirWith({ 'a.yaml': crd('apples', 'Apple') });
  const b = dirWith({ 'b.yaml': crd('berries', 'Berry') });
  t.after(() => [a, b].forEach((d) => rmSync(d, { recursive: true, force: true })));
  const envs = await Promise.all([startTestEnv({ crds: [a] }), startTestEnv({ crds: [b] })]);
  t.after(() => Promise.all(envs.map((e) => e.stop())));
  const { ApiextensionsV1Api } = await import('@kubernetes/client-node');
  const names = await Promise.all(
    envs.map(async (e) => (await (await e.kubeConfig()).makeApiClient(ApiextensionsV1Api).listCustomResourceDefinition()).items.map((c) => c.metadata?.name)),
  );
  assert.deepEqual(names, [['apples.kit.example.com'], ['berries.kit.example.com']]);
});

test('a file that does not parse is the error, even after one holding something that is not a CRD', async (t) => {
  const dir = dirWith({ '1.yaml': crd('apples', 'Apple'), '2.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n', '3.yaml': 'a: [1, 2\n' });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  await assert.rejects(startTestEnv({ crds: [dir] }), (e: Error) => e.message.startsWith(`${join(dir, '3.yaml')}: document 1: `));
});

test('an object that is not a CRD is the error, even after a CRD the server refuses', async (t) => {
  const bad = crd('apples', 'Apple').replace('name: apples.kit.example.com', 'name: wrong.kit.example.com');
  const dir = dirWith({ '1.yaml': bad, '2.yaml': 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n' });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  await assert.rejects(startTestEnv({ crds: [dir] }), { message: `${join(dir, '2.yaml')}: ConfigMap is not a CustomResourceDefinition` });
});

test('a CRD the server refuses names its file and kube\'s message', async (t) => {
  const bad = crd('apples', 'Apple').replace('name: apples.kit.example.com', 'name: wrong.kit.example.com');
  const dir = dirWith({ '1.yaml': bad });
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  await assert.rejects(startTestEnv({ crds: [dir] }), (e: Error) => {
    assert.match(e.message, new RegExp(`^${join(dir, '1.yaml')}: installing CustomResourceDefinition failed: CustomResourceDefinition.apiextensions.k8s.io "wrong.kit.example.com" is invalid: metadata.name: Invalid value: "wrong.kit.example.com": must be spec.names.plural\\+"."\\+spec.group`));
    return true;
  });
});

test('a path that does not exist is the error', async () => {
  await assert.rejects(startTestEnv({ crds: ['/nonexistent/crds'] }), /ENOENT.*\/nonexistent\/crds/);
});

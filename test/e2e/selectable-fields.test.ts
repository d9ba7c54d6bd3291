// The Kubernetes docs' selectable fields example through kubectl: a Shirt CRD whose color and size are
// selectable, `kubectl get shirts --field-selector spec.color=blue`, the refusal of other fields, watches
// filtered by a selectable field, deletion by one, and watches ended when the CRD changes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { requireKubectl, startTestServer, squeeze, type TestServer } from './harness.js';

const shirtCrd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: shirts.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: shirts
    singular: shirt
    kind: Shirt
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              color:
                type: string
              size:
                type: string
    selectableFields:
    - jsonPath: .spec.color
    - jsonPath: .spec.size
    additionalPrinterColumns:
    - jsonPath: .spec.color
      name: Color
      type: string
    - jsonPath: .spec.size
      name: Size
      type: string
`;

const shirts = `apiVersion: stable.example.com/v1
kind: Shirt
metadata:
  name: example1
spec:
  color: blue
  size: S
---
apiVersion: stable.example.com/v1
kind: Shirt
metadata:
  name: example2
spec:
  color: blue
  size: M
---
apiVersion: stable.example.com/v1
kind: Shirt
metadata:
  name: example3
spec:
  color: green
  size: M
`;

let s: TestServer;
before(async () => {
  requireKubectl();
  s = await startTestServer();
  let r = await s.kubectl(['apply', '-f', s.file('shirt-crd.yaml', shirtCrd)]);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/shirts.stable.example.com']);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['apply', '-f', s.file('shirts.yaml', shirts)]);
  assert.equal(r.code, 0, r.stderr);
});
after(async () => {
  await s?.close();
});

/** `kubectl get -w` in the background, its output so far, and a way to wait for a line. */
function watchShirts(args: string[]): { out: () => string; waitFor(re: RegExp): Promise<void>; exited: Promise<number | null>; kill(): void } {
  const child = spawn('kubectl', ['--kubeconfig', s.kubeconfig, 'get', 'shirts', '-w', ...args], { env: { ...process.env, HOME: s.home } });
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  return {
    out: () => out,
    async waitFor(re) {
      for (let i = 0; i < 100 && !re.test(out); i++) await new Promise((r) => setTimeout(r, 100));
      assert.match(out, re);
    },
    exited,
    kill: () => child.kill(),
  };
}

test('kubectl get shirts --field-selector spec.color=blue (the docs example)', async () => {
  let r = await s.kubectl(['get', 'shirts', '--field-selector', 'spec.color=blue']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(squeeze(r.stdout), 'NAME COLOR SIZE\nexample1 blue S\nexample2 blue M');
  r = await s.kubectl(['get', 'shirts', '--field-selector', 'spec.color!=blue,spec.size=M', '-o', 'name']);
  assert.equal(r.stdout, 'shirt.stable.example.com/example3\n');
  r = await s.kubectl(['get', 'shirts', '--field-selector', 'spec.color==green']);
  assert.equal(squeeze(r.stdout), 'NAME COLOR SIZE\nexample3 green M');
});

test('a field that is not selectable is refused', async () => {
  const r = await s.kubectl(['get', 'shirts', '--field-selector', 'spec.collar=round']);
  assert.notEqual(r.code, 0);
  assert.equal(
    r.stderr.trim(),
    'Error from server (BadRequest): Unable to find "stable.example.com/v1, Resource=shirts" that match label selector "", field selector "spec.collar=round": field label not supported: spec.collar',
  );
});

test('get -w with a field selector: a shirt that changes color leaves as it was', async () => {
  const w = watchShirts(['--field-selector', 'spec.color=blue', '--output-watch-events']);
  try {
    await w.waitFor(/ADDED\s+example2\s+blue\s+M/);
    const r = await s.kubectl(['patch', 'shirt', 'example2', '--type=merge', '-p', '{"spec":{"color":"red"}}']);
    assert.equal(r.code, 0, r.stderr);
    await w.waitFor(/DELETED\s+example2\s+blue\s+M/);
    assert.doesNotMatch(w.out(), /red/);
  } finally {
    w.kill();
  }
});

test('kubectl delete shirts --field-selector deletes only those', async () => {
  await s.kubectl(['apply', '-f', s.file('shirts-again.yaml', shirts)]);
  let r = await s.kubectl(['delete', 'shirts', '--field-selector', 'spec.size=M']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'shirt.stable.example.com "example2" deleted\nshirt.stable.example.com "example3" deleted\n');
  r = await s.kubectl(['get', 'shirts', '-o', 'name']);
  assert.equal(r.stdout, 'shirt.stable.example.com/example1\n');
});

test('get -w ends when the CRD spec changes, so clients watch again with the new schema', async () => {
  const w = watchShirts([]);
  try {
    await w.waitFor(/example1\s+blue\s+S/);
    const r = await s.kubectl(['patch', 'crd', 'shirts.stable.example.com', '--type=json', '-p', '[{"op":"add","path":"/spec/versions/0/schema/openAPIV3Schema/properties/spec/properties/sleeves","value":{"type":"string"}}]']);
    assert.equal(r.code, 0, r.stderr);
    const code = await Promise.race([w.exited, new Promise<string>((res) => setTimeout(() => res('still running'), 10_000))]);
    assert.equal(code, 0, w.out());
  } finally {
    w.kill();
  }
});

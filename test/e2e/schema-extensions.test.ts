// The seed's "Controlling pruning", "IntOrString" and "RawExtension" sections through kubectl.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { requireKubectl, startTestServer, type TestServer } from './harness.js';

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: examples.ext.example.com
spec:
  group: ext.example.com
  scope: Namespaced
  names: { plural: examples, singular: example, kind: Example }
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            json:
              x-kubernetes-preserve-unknown-fields: true
              type: object
              properties:
                spec:
                  type: object
                  properties:
                    foo:
                      type: string
                    bar:
                      type: string
            anything:
              x-kubernetes-preserve-unknown-fields: true
            port:
              x-kubernetes-int-or-string: true
            unfolded:
              x-kubernetes-int-or-string: true
              anyOf:
                - type: integer
                - type: string
            foo:
              x-kubernetes-embedded-resource: true
              x-kubernetes-preserve-unknown-fields: true
              type: object
`;

let s: TestServer;
before(async () => {
  requireKubectl();
  s = await startTestServer();
  const r = await s.kubectl(['apply', '-f', '-'], { stdin: crd });
  assert.equal(r.code, 0, r.stderr);
  const w = await s.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/examples.ext.example.com']);
  assert.equal(w.code, 0, w.stderr);
});
after(async () => {
  await s?.close();
});

const create = (name: string, body: Record<string, unknown>) =>
  s.kubectl(['create', '--validate=false', '-o', 'json', '-f', '-'], {
    stdin: JSON.stringify({ apiVersion: 'ext.example.com/v1', kind: 'Example', metadata: { name }, ...body }),
  });

test('controlling pruning: preserve-unknown-fields keeps a subtree, nested properties prune again', async () => {
  const r = await create('pruning', {
    json: { spec: { foo: 'abc', bar: 'def', something: 'x' }, status: { something: 'x' } },
    anything: { a: [1, { b: true }] },
  });
  assert.equal(r.code, 0, r.stderr);
  const obj = JSON.parse(r.stdout);
  assert.deepEqual(obj.json, { spec: { bar: 'def', foo: 'abc' }, status: { something: 'x' } });
  assert.deepEqual(obj.anything, { a: [1, { b: true }] });
});

test('int-or-string: both an integer and a string validate; other types do not', async () => {
  let r = await create('int', { port: 8080, unfolded: 1 });
  assert.equal(r.code, 0, r.stderr);
  r = await create('string', { port: 'http', unfolded: 'x' });
  assert.equal(r.code, 0, r.stderr);
  r = await create('bool', { port: true });
  assert.notEqual(r.code, 0);
  assert.equal(r.stderr.trim(), 'The Example "bool" is invalid: port: Invalid value: "boolean": port in body must be of type integer,string: "boolean"');
});

test('embedded resources: apiVersion, kind and metadata are implied and validated; nothing else is pruned', async () => {
  let r = await create('embedded', { foo: { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c' }] } } });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).foo, { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [{ name: 'c' }] } });
  r = await create('embedded-bad', { foo: { spec: {} } });
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /foo\.apiVersion: Required value: must not be empty/);
  assert.match(r.stderr, /foo\.kind: Required value: must not be empty/);
});

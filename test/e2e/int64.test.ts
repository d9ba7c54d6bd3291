// kubectl round trips of integers beyond 2^53: kubectl (Go, unstructured JSON with int64s) sends and
// reads 9223372036854775807 exactly, through create, get -o json/yaml/jsonpath, the table, merge patch,
// and client-side apply's last-applied annotation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { requireKubectl, startTestServer, type TestServer } from './harness.js';

const MAX = '9223372036854775807';
const MIN = '-9223372036854775808';
const ODD = '9007199254740993';

const crd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: counters.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names: {plural: counters, singular: counter, kind: Counter}
  versions:
  - name: v1
    served: true
    storage: true
    additionalPrinterColumns:
    - {name: Big, type: integer, jsonPath: .spec.big}
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - rule: "!has(self.big) || self.big == 9223372036854775807 || self.big < 100"
            properties:
              big: {type: integer, format: int64}
              odd: {type: integer}
              free: {type: object, x-kubernetes-preserve-unknown-fields: true}
`;

let s: TestServer;
before(async () => {
  requireKubectl();
  s = await startTestServer();
  const r = await s.kubectl(['apply', '-f', s.file('crd.yaml', crd)]);
  assert.equal(r.code, 0, r.stderr);
  const w = await s.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/counters.stable.example.com']);
  assert.equal(w.code, 0, w.stderr);
});
after(async () => {
  await s?.close();
});

test('kubectl create -f, get -o json and -o yaml, patch and get keep int64s exact', async () => {
  const obj = `{"apiVersion":"stable.example.com/v1","kind":"Counter","metadata":{"name":"k1","namespace":"default"},"spec":{"big":${MAX},"odd":${ODD},"free":{"min":${MIN}}}}`;
  let r = await s.kubectl(['create', '-f', s.file('k1.json', obj)]);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['get', 'counter', 'k1', '-o', 'json']);
  assert.equal(r.code, 0, r.stderr);
  for (const frag of [`"big": ${MAX}`, `"odd": ${ODD}`, `"min": ${MIN}`]) assert.ok(r.stdout.includes(frag), `${frag} in ${r.stdout}`);
  r = await s.kubectl(['get', 'counter', 'k1', '-o', 'yaml']);
  for (const frag of [`big: ${MAX}`, `odd: ${ODD}`, `min: ${MIN}`]) assert.ok(r.stdout.includes(frag), `${frag} in ${r.stdout}`);
  r = await s.kubectl(['get', 'counter', 'k1']);
  assert.ok(r.stdout.includes(MAX), r.stdout);
  r = await s.kubectl(['patch', 'counter', 'k1', '--type', 'merge', '-p', `{"spec":{"odd":9007199254740995}}`]);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['get', 'counter', 'k1', '-o', 'jsonpath={.spec.big} {.spec.odd} {.spec.free.min}']);
  assert.equal(r.stdout, `${MAX} 9007199254740995 ${MIN}`);
  // The CEL rule sees the exact value: 2^63-2 is neither 2^63-1 nor below 100.
  r = await s.kubectl(['patch', 'counter', 'k1', '--type', 'merge', '-p', `{"spec":{"big":9223372036854775806}}`]);
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /failed rule/);
});

test('kubectl apply (client-side) keeps int64s exact, in the object and its last-applied annotation', async () => {
  const yaml = `apiVersion: stable.example.com/v1\nkind: Counter\nmetadata:\n  name: k2\n  namespace: default\nspec:\n  big: ${MAX}\n  odd: ${ODD}\n`;
  let r = await s.kubectl(['apply', '-f', s.file('k2.yaml', yaml)]);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['apply', '-f', s.file('k2b.yaml', yaml.replace(ODD, '9007199254740995'))]);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['get', 'counter', 'k2', '-o', 'json']);
  // kubectl's three-way JSON merge patch decodes into float64s itself: it sends (and we store) 9007199254740996.
  assert.ok(r.stdout.includes(`"big": ${MAX}`) && r.stdout.includes('"odd": 9007199254740996'), r.stdout);
  assert.ok(r.stdout.includes(`\\"big\\":${MAX}`), r.stdout);
});

// Typed decoding through kubectl: kubectl reads manifests with sigs.k8s.io/yaml (YAML 1.1, so `served: yes` is
// true) and sends JSON; a value of the wrong type reaches the server and comes back as kube's BadRequest,
// printed as kubectl prints it; a patched object that no longer decodes is the 422 of patch.go. The nested
// `properties.properties` is encoding/json's path: map keys are not part of it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { requireKubectl, startTestServer, type TestServer } from './harness.js';

let s: TestServer;
before(async () => {
  requireKubectl();
  s = await startTestServer();
});
after(() => s.close());

const crd = (served: string, maxLength: string): string => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: gadgets.typed.example.com
spec:
  group: typed.example.com
  scope: Namespaced
  names: {plural: gadgets, singular: gadget, kind: Gadget}
  versions:
  - name: v1
    served: ${served}
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              name: {type: string, maxLength: ${maxLength}}
`;

test('kubectl create -f: a string where the CRD has an int64 is refused with the decoder error', async () => {
  const r = await s.kubectl(['create', '-f', s.file('bad-crd.yaml', crd('true', '"5"'))]);
  assert.equal(r.code, 1);
  assert.equal(r.stdout, '');
  assert.equal(
    r.stderr,
    `Error from server (BadRequest): error when creating "${s.dataDir}/bad-crd.yaml": CustomResourceDefinition in version "v1" cannot be handled as a CustomResourceDefinition: json: cannot unmarshal string into Go struct field JSONSchemaProps.spec.versions.schema.openAPIV3Schema.properties.properties.maxLength of type int64\n`,
  );
  const g = await s.kubectl(['get', 'crd', 'gadgets.typed.example.com']);
  assert.equal(g.code, 1);
});

test('kubectl create -f: served: yes is a YAML 1.1 boolean', async () => {
  const r = await s.kubectl(['create', '-f', s.file('yes-crd.yaml', crd('yes', '5'))]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'customresourcedefinition.apiextensions.k8s.io/gadgets.typed.example.com created\n');
  const g = await s.kubectl(['get', 'crd', 'gadgets.typed.example.com', '-o', 'jsonpath={.spec.versions[0].served}']);
  assert.equal(g.stdout, 'true');
});

// kubectl decodes the kinds it knows itself (with the same Go types), so this one never reaches the server.
test('kubectl create -f: a Namespace label value of 1 is refused by kubectl\'s own typed decoding', async () => {
  const ns = 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: typed\n  labels:\n    a: 1\n';
  const r = await s.kubectl(['create', '-f', s.file('ns.yaml', ns)]);
  assert.equal(r.code, 1);
  assert.equal(
    r.stderr,
    `error: unable to decode "${s.dataDir}/ns.yaml": json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string\n`,
  );
});

test('kubectl patch: a strategic merge patch that does not fit the Go type', async () => {
  const r = await s.kubectl(['patch', 'namespace', 'default', '-p', '{"metadata":{"labels":{"a":1}}}']);
  assert.equal(r.code, 1);
  assert.equal(r.stderr, 'The request is invalid: patch: Invalid value: "map[metadata:map[labels:map[a:1]]]": cannot convert int64 to string\n');
});

test('kubectl create --raw: the body as written reaches the server, which refuses it as kube does', async () => {
  const body = '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"typed","labels":{"a":1}}}';
  const r = await s.kubectl(['create', '--raw', '/api/v1/namespaces', '-f', s.file('ns.json', body)]);
  assert.equal(r.code, 1);
  assert.equal(
    r.stderr,
    'Error from server (BadRequest): Namespace in version "v1" cannot be handled as a Namespace: json: cannot unmarshal number into Go struct field ObjectMeta.metadata.labels of type string\n',
  );
});

test('kubectl patch --type merge: the patched object quoted as json-patch writes it', async () => {
  const ns = JSON.parse((await s.kubectl(['get', 'namespace', 'kube-public', '-o', 'json', '--show-managed-fields'])).stdout);
  const m = ns.metadata;
  const r = await s.kubectl(['patch', 'namespace', 'kube-public', '--type', 'merge', '-p', '{"status":{"phase":1}}']);
  assert.equal(r.code, 1);
  const patched =
    `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"kube-public","uid":"${m.uid}","resourceVersion":"${m.resourceVersion}",` +
    `"creationTimestamp":"${m.creationTimestamp}","labels":{"kubernetes.io/metadata.name":"kube-public"},"managedFields":${JSON.stringify(m.managedFields.map((e: any) => ({ manager: e.manager, operation: e.operation, apiVersion: e.apiVersion, time: e.time, fieldsType: e.fieldsType, fieldsV1: e.fieldsV1 })))}},"spec":{"finalizers":["kubernetes"]},"status":{"phase":1}}`;
  assert.equal(
    r.stderr,
    `The request is invalid: patch: Invalid value: ${JSON.stringify(patched)}: json: cannot unmarshal number into Go struct field NamespaceStatus.status.phase of type v1.NamespacePhase\n`,
  );
});

// The CustomResourceDefinition kind's published definitions against kube-apiserver 1.33's (vendored in
// test/fixtures/kube-openapi, with where they came from): /openapi/v3/apis/apiextensions.k8s.io/v1's
// components.schemas and /openapi/v2's definitions, for every apiextensions.k8s.io/v1 type, deep-equal.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openapiV3GroupVersion } from '../../src/server/openapi.js';
import { openapiV2Document } from '../../src/server/openapi-v2.js';
import { allResources } from './seed.js';
import { builtinResourceType } from '../../src/apis/builtin-kinds.js';
import { crdV1beta1Kind } from '../../src/apis/apiextensions/v1beta1/custom-resource-definition.js';

const fixture = (name: string): Record<string, any> => JSON.parse(readFileSync(new URL(`../fixtures/kube-openapi/${name}`, import.meta.url), 'utf8'));
const KUBE_V3: Record<string, unknown> = fixture('apiextensions-v1.v3.json')['schemas'];
const KUBE_V2: Record<string, unknown> = fixture('apiextensions-v1.v2.json')['definitions'];
const APIEXTENSIONS_V1 = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1.';

const apiextensions = (defs: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(defs).filter(([name]) => name.startsWith(APIEXTENSIONS_V1)));

test('the fixtures hold kube definitions of the CRD kind, its list and every type they reach', () => {
  assert.equal(Object.keys(KUBE_V3).length, 24);
  assert.deepEqual(Object.keys(KUBE_V2).sort(), Object.keys(KUBE_V3).sort());
});

test('/openapi/v3/apis/apiextensions.k8s.io/v1: the apiextensions definitions are kube 1.33\'s', () => {
  const schemas = openapiV3GroupVersion('apiextensions.k8s.io', 'v1', allResources()).components.schemas;
  const ours = apiextensions(schemas);
  assert.deepEqual(Object.keys(ours).sort(), Object.keys(KUBE_V3).sort());
  for (const name of Object.keys(KUBE_V3)) assert.deepEqual(ours[name], KUBE_V3[name], name);
  // What they reference besides themselves comes with them.
  for (const name of ['ObjectMeta', 'ListMeta', 'Time']) assert.ok(schemas[`io.k8s.apimachinery.pkg.apis.meta.v1.${name}`], name);
});

test('/openapi/v2: the apiextensions.k8s.io/v1 definitions are kube 1.33\'s', () => {
  const ours = apiextensions(openapiV2Document(allResources()).definitions);
  assert.deepEqual(Object.keys(ours).sort(), Object.keys(KUBE_V2).sort());
  for (const name of Object.keys(KUBE_V2)) assert.deepEqual(ours[name], KUBE_V2[name], name);
});

// Deliberate: kube 1.33 serves no apiextensions.k8s.io/v1beta1, and release-1.21's spec (which does) was not
// at hand; our v1beta1 types are declared only in part (they reuse v1's, whose json tags differ in places), so
// its kind keeps the schema-less definitions it had, referring to none of v1's.
test('apiextensions.k8s.io/v1beta1 keeps its schema-less definitions', () => {
  const v1beta1 = builtinResourceType(crdV1beta1Kind).served;
  const name = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1beta1.CustomResourceDefinition';
  const gvk = [{ group: 'apiextensions.k8s.io', kind: 'CustomResourceDefinition', version: 'v1beta1' }];
  const v2 = openapiV2Document([...allResources(), v1beta1]).definitions;
  assert.deepEqual(v2[name], { type: 'object', 'x-kubernetes-group-version-kind': gvk });
  assert.deepEqual(Object.keys(v2).filter((n) => n.includes('.apiextensions.v1beta1.')).sort(), [name, `${name}List`]);
  const v3 = openapiV3GroupVersion('apiextensions.k8s.io', 'v1beta1', [...allResources(), v1beta1]).components.schemas;
  assert.equal(v3[name]!['x-kubernetes-preserve-unknown-fields'], true);
  assert.deepEqual(Object.keys(v3).filter((n) => n.includes('.apiextensions.')).sort(), [name, `${name}List`]);
});

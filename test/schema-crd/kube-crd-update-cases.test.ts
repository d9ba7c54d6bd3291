// kube's TestValidateCustomResourceDefinitionUpdate, transcribed (fixtures/validate-crd-update.json):
// the ratcheting cases, restricted to the errors under openAPIV3Schema, with old and new CRDs sent as v1
// (same exclusions as kube-crd-cases.test.ts, plus CEL-only expectations).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fieldErrorString } from '../../src/api/field-error.js';
import { defaultCRD } from '../../src/crd/defaults.js';
import { validateCRDUpdate } from '../../src/crd/validation.js';
import type { CustomResourceDefinition } from '../../src/crd/types.js';
import { createCRDSchemaValidator } from '../../src/crd/crd-schema-validate.js';
import { testDeps } from './helpers.js';
import { KUBE_ERROR_TYPES, type KubeCase, needsCEL, toV1 } from './kube-fixtures.js';

const fixture = JSON.parse(readFileSync(new URL('./fixtures/validate-crd-update.json', import.meta.url), 'utf8')) as { cases: KubeCase[] };
const hook = createCRDSchemaValidator(testDeps);

function stored(crd: CustomResourceDefinition): CustomResourceDefinition {
  const out = defaultCRD(crd);
  out.metadata = { ...out.metadata, resourceVersion: '1', uid: 'u' };
  return out;
}

const runnable = fixture.cases
  .filter((c) => !needsCEL(c.name, JSON.stringify(c.crd), c.errors))
  .map((c) => ({ c, crd: toV1(c.crd), old: c.old && toV1(c.old) }))
  .filter((x): x is { c: KubeCase; crd: CustomResourceDefinition; old: CustomResourceDefinition } => x.crd !== undefined && x.old !== undefined);

test('enough of the transcription runs', () => {
  assert.ok(runnable.length >= 15, `only ${runnable.length}`);
});

for (const { c, crd, old } of runnable) {
  test(`kube update case: ${c.name}`, () => {
    const errs = validateCRDUpdate(stored(crd), stored(old), { validateSchemaStructure: hook }).filter((e) => e.field.includes('openAPIV3Schema'));
    const got = errs.map((e) => `${e.field} ${e.type}`).sort();
    const want = c.errors.filter((e) => e.field.includes('openAPIV3Schema')).map((e) => `${e.field} ${KUBE_ERROR_TYPES[e.type]}`).sort();
    assert.deepEqual(got, want, errs.map(fieldErrorString).join('\n'));
  });
}

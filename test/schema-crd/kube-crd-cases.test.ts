// kube's TestValidateCustomResourceDefinition, transcribed (fixtures/validate-crd.json), restricted to
// the errors under openAPIV3Schema: each CRD, sent as v1, must yield exactly kube's (field, type) pairs there.
// Left out: CRDs with spec.preserveUnknownFields true (v1 forbids it), and internal-only
// shapes v1 cannot express (top-level plus per-version schemas, identical per-version schemas), and
// expectations only CEL compilation produces.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fieldErrorString } from '../../src/api/field-error.js';
import { defaultCRD } from '../../src/crd/defaults.js';
import { validateCRD } from '../../src/crd/validation.js';
import type { CustomResourceDefinition } from '../../src/crd/types.js';
import { createCRDSchemaValidator } from '../../src/crd/crd-schema-validate.js';
import { testDeps } from './helpers.js';
import { KUBE_ERROR_TYPES, type KubeCase, needsCEL, toV1 } from './kube-fixtures.js';

const fixture = JSON.parse(readFileSync(new URL('./fixtures/validate-crd.json', import.meta.url), 'utf8')) as { cases: KubeCase[] };
const hook = createCRDSchemaValidator(testDeps);

const runnable = fixture.cases
  .filter((c) => !needsCEL(c.name, JSON.stringify(c.crd), c.errors))
  .map((c) => [c, toV1(c.crd)] as const)
  .filter((x): x is readonly [KubeCase, CustomResourceDefinition] => x[1] !== undefined);

test('enough of the transcription runs', () => {
  assert.ok(runnable.length >= 35, `only ${runnable.length}`);
});

for (const [c, crd] of runnable) {
  test(`kube CRD case: ${c.name}`, () => {
    const errs = validateCRD(defaultCRD(crd), { validateSchemaStructure: hook }).filter((e) => e.field.includes('openAPIV3Schema'));
    const got = errs.map((e) => `${e.field} ${e.type}`).sort();
    const want = c.errors.filter((e) => e.field.includes('openAPIV3Schema')).map((e) => `${e.field} ${KUBE_ERROR_TYPES[e.type]}`).sort();
    assert.deepEqual(got, want, errs.map(fieldErrorString).join('\n'));
  });
}

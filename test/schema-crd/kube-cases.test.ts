// kube's TestValidateCustomResourceDefinitionValidation, transcribed (fixtures/validate-crd-validation.json):
// every case must yield exactly the expected (field, error type) pairs, and the expected substrings.
// Left out: cases that need CEL compilation or the status-subresource root check (src/crd/validation.ts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { type FieldError, fieldErrorString } from '../../src/api/field-error.js';
import type { JSONSchemaProps } from '../../src/crd/types.js';
import { checkCRDSchema } from '../../src/crd/crd-schema-validate.js';
import { testDeps } from './helpers.js';
import { needsCEL } from './kube-fixtures.js';

interface Case {
  name: string;
  schema: JSONSchemaProps;
  statusEnabled: boolean;
  opts: Record<string, boolean | string>;
  expectedErrors: Array<{ type: string; field: string; contains?: string }>;
}

const fixture = JSON.parse(readFileSync(new URL('./fixtures/validate-crd-validation.json', import.meta.url), 'utf8')) as { cases: Case[] };
const TYPES: Record<string, FieldError['type']> = {
  invalid: 'FieldValueInvalid',
  required: 'FieldValueRequired',
  forbidden: 'FieldValueForbidden',
  unsupported: 'FieldValueNotSupported',
  duplicate: 'FieldValueDuplicate',
  tooMany: 'FieldValueTooMany',
  invalidtypecode: 'FieldValueTypeInvalid',
};

const celOnly = (c: Case): boolean => needsCEL(c.name, JSON.stringify(c.schema), c.expectedErrors);

const runnable = fixture.cases.filter((c) => !c.statusEnabled && !celOnly(c));

test('the transcription is complete enough to matter', () => {
  assert.ok(fixture.cases.length >= 110);
  assert.ok(runnable.length >= 60, `only ${runnable.length} runnable`);
});

for (const c of runnable) {
  test(`kube case: ${c.name}`, () => {
    const path = 'spec.validation.openAPIV3Schema';
    const errs: FieldError[] = [];
    // The root check src/crd/validation.ts makes before the schema engine runs.
    if (c.schema['nullable'] === true) errs.push({ type: 'FieldValueForbidden', field: `${path}.nullable`, detail: 'nullable cannot be true at the root' });
    errs.push(
      ...checkCRDSchema(
        c.schema,
        path,
        {
          statusEnabled: false,
          requireStructuralSchema: c.opts['requireStructuralSchema'] === true,
          allowDefaults: c.opts['allowDefaults'] === true,
          requireValidPropertyType: c.opts['requireValidPropertyType'] === true,
          requirePrunedDefaults: c.opts['requirePrunedDefaults'] === true,
          requireAtomicSetType: c.opts['requireAtomicSetType'] === true,
          requireMapListKeysMapSetValidation: c.opts['requireMapListKeysMapSetValidation'] === true,
        },
        testDeps,
      ),
    );
    const got = errs.map((e) => `${e.field} ${e.type}`).sort();
    const want = c.expectedErrors.map((e) => `${e.field} ${TYPES[e.type]}`).sort();
    assert.deepEqual(got, want, errs.map(fieldErrorString).join('\n'));
    for (const e of c.expectedErrors) {
      if (e.contains) assert.ok(errs.some((x) => x.field === e.field && fieldErrorString(x).includes(e.contains!)), `${e.field} should contain ${e.contains}`);
    }
  });
}

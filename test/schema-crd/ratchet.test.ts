// Update-time ratcheting: rules an old CRD already broke do not block its updates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultCRD } from '../../src/crd/defaults.js';
import { toInternalSpec } from '../../src/crd/internal.js';
import { validateCRD, validateCRDUpdate } from '../../src/crd/validation.js';
import type { CustomResourceDefinition, JSONSchemaProps } from '../../src/crd/types.js';
import { createCRDSchemaValidator, ratchetedOptions } from '../../src/crd/crd-schema-validate.js';
import { crdWith, strings, testDeps } from './helpers.js';

const hook = createCRDSchemaValidator(testDeps);
const P = 'spec.validation.openAPIV3Schema';
const create = (crd: CustomResourceDefinition) => strings(validateCRD(defaultCRD(crd), { validateSchemaStructure: hook }));
const stored = (crd: CustomResourceDefinition): CustomResourceDefinition => {
  const out = defaultCRD(crd);
  out.metadata = { ...out.metadata, resourceVersion: '7', uid: 'u', generation: 1 };
  return out;
};
const update = (crd: CustomResourceDefinition, old: CustomResourceDefinition) =>
  strings(validateCRDUpdate(stored(crd), stored(old), { validateSchemaStructure: hook }));
const withA = (a: Record<string, unknown>, b: Record<string, unknown> = { type: 'string' }): JSONSchemaProps => ({ type: 'object', properties: { a, b } });

const cases: Array<{ name: string; bad: Record<string, unknown>; error: string }> = [
  {
    name: 'invalid property types',
    bad: { type: 'int' },
    error: `${P}.properties[a].type: Unsupported value: "int": supported values: "array", "boolean", "integer", "number", "object", "string"`,
  },
  {
    name: 'non-atomic set items',
    bad: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'object', properties: { x: { type: 'string' } } } },
    error: `${P}.properties[a].items.x-kubernetes-map-type: Invalid value: "null": must be atomic as item of a list with x-kubernetes-list-type=set`,
  },
  {
    name: 'map list keys neither required nor defaulted',
    bad: { type: 'array', 'x-kubernetes-list-type': 'map', 'x-kubernetes-list-map-keys': ['k'], items: { type: 'object', properties: { k: { type: 'string' } } } },
    error: `${P}.properties[a].items.properties[k].default: Required value: this property is in x-kubernetes-list-map-keys, so it must have a default or be a required property`,
  },
  {
    name: 'unpruned defaults',
    bad: { type: 'object', properties: { x: { type: 'string' } }, default: { x: 'a', y: 'b' } },
    error: `${P}.properties[a].default: Invalid value: map[string]interface {}{"x":"a", "y":"b"}: must not have unknown fields`,
  },
];

for (const c of cases) {
  test(`${c.name}: rejected on create, tolerated on update when the old CRD had them`, () => {
    const bad = crdWith(withA(c.bad));
    assert.deepEqual(create(bad), [c.error]);
    const good = crdWith(withA({ type: 'string' }));
    // Introducing the problem on update is rejected...
    assert.deepEqual(update(bad, good), [c.error]);
    // ...keeping it (and changing something else) is not.
    const changed = crdWith(withA(c.bad, { type: 'integer' }));
    assert.deepEqual(update(changed, bad), []);
  });
}

test('ratchets are computed from every schema of the old spec', () => {
  const old = crdWith(withA(cases[1]!.bad));
  old.spec.versions.push({ name: 'v2', served: true, storage: false, schema: { openAPIV3Schema: withA({ type: 'int' }) } });
  assert.deepEqual(ratchetedOptions(toInternalSpec(old.spec), testDeps), {
    requireValidPropertyType: false,
    requirePrunedDefaults: true,
    requireAtomicSetType: false,
    requireMapListKeysMapSetValidation: true,
  });
});

test('structural rules are never ratcheted for v1 CRDs', () => {
  const nonStructural = crdWith(withA({ description: 'no type' }));
  const err = `${P}.properties[a].type: Required value: must not be empty for specified object fields`;
  assert.deepEqual(update(nonStructural, nonStructural), [err]);
});

test('whether the old CRD had unpruned defaults is worked out only when a new default is unpruned, and once', () => {
  let asked = 0;
  const counting = createCRDSchemaValidator({ ...testDeps, valuePruner: (s, root) => (asked++, (v) => testDeps.pruneValue(s, v, root)) });
  const updateCounting = (crd: CustomResourceDefinition, old: CustomResourceDefinition) => strings(validateCRDUpdate(stored(crd), stored(old), { validateSchemaStructure: counting }));
  const clean = { type: 'object', properties: { x: { type: 'string' } }, default: { x: 'a' } };
  const unpruned = cases.find((c) => c.name === 'unpruned defaults')!;
  // Defaults that pruning leaves alone: the old CRD's defaults are not looked at.
  assert.deepEqual(updateCounting(crdWith(withA(clean, clean)), crdWith(withA(clean))), []);
  assert.equal(asked, 0);
  // Two unpruned defaults: asked once, and refused as the old CRD had none.
  assert.deepEqual(updateCounting(crdWith(withA(unpruned.bad, unpruned.bad)), crdWith(withA(clean))), [unpruned.error, unpruned.error.replace('properties[a]', 'properties[b]')]);
  assert.equal(asked, 1);
  // Kept from an old CRD that had it: tolerated.
  asked = 0;
  assert.deepEqual(updateCounting(crdWith(withA(unpruned.bad, { type: 'integer' })), crdWith(withA(unpruned.bad))), []);
  assert.equal(asked, 1);
});

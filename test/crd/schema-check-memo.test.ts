// passedByContent: a schema that passed the CRD schema checks is not checked again on a create with the same
// content and options (wherever it is in the CRD); failures, other inputs and updates are always checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { passedByContent, rememberPassedSchemas } from '../../src/crd/schema-check-memo.js';
import { schemaChecksFile } from '../../src/testing/schema-checks-file.js';
import { mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crdSchemaValidator } from '../../src/crd/schema-checks.js';
import { createCRDSchemaValidator } from '../../src/crd/crd-schema-validate.js';
import { checkValidationRules, withRuleCostTotal } from '../../src/crd/cel-crd-checks.js';
import type { SchemaCheckContext } from '../../src/crd/validation.js';
import type { JSONSchemaProps } from '../../src/crd/types.js';
import type { InternalSpec } from '../../src/crd/internal.js';

const CTX: SchemaCheckContext = { statusEnabled: true, requireStructuralSchema: true, allowDefaults: true };
const PATH = 'spec.versions[0].schema.openAPIV3Schema';
const schema = (): JSONSchemaProps => ({ type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.a > 1' }], properties: { a: { type: 'integer' } } } } });

test('passedByContent: the same passing schema is checked once, at any path; other content, options and failures again', () => {
  const seen: string[] = [];
  let fail = false;
  const check = passedByContent((s, path, ctx) => {
    seen.push(`${path} ${JSON.stringify(ctx)} ${JSON.stringify(s)}`);
    return fail ? [{ type: 'FieldValueInvalid', field: path, badValue: '', detail: 'bad' }] : [];
  });
  assert.deepEqual(check(schema(), PATH, CTX), []);
  assert.deepEqual(check(schema(), PATH, { ...CTX }), []);
  assert.equal(seen.length, 1, 'an equal schema (another object) is known');
  assert.deepEqual(check(schema(), 'spec.versions[1].schema.openAPIV3Schema', CTX), []);
  assert.equal(seen.length, 1, 'another version with the same schema is known');
  check(schema(), PATH, { ...CTX, statusEnabled: false });
  check({ ...schema(), description: 'x' }, PATH, CTX);
  assert.equal(seen.length, 3);
  check(schema(), PATH, { ...CTX, update: { oldSpec: {} as InternalSpec, schemaUnchanged: true } });
  assert.equal(seen.length, 4, 'updates are always checked');
  fail = true;
  const other = { ...schema(), description: 'y' };
  assert.equal(check(other, PATH, CTX).length, 1);
  assert.equal(check(other, 'spec.versions[1].schema.openAPIV3Schema', CTX)[0]?.field, 'spec.versions[1].schema.openAPIV3Schema', 'a failure is not remembered; its errors name its own path');
  assert.equal(seen.length, 6);
});

test('crdSchemaValidator remembers only passing schemas: a failing CEL rule fails every time', () => {
  const bad = (): JSONSchemaProps => ({ type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.nope > 1' }], properties: { a: { type: 'integer' } } } } });
  for (let i = 0; i < 2; i++) assert.match(JSON.stringify(crdSchemaValidator(bad(), PATH, CTX)), /undefined field 'nope'/);
  for (let i = 0; i < 2; i++) assert.deepEqual(crdSchemaValidator(schema(), PATH, CTX), []);
});

test('the checks unremembered pass or fail a schema alike at every path, naming the path in their errors', () => {
  // Why the memo's key leaves the path out: every check of a schema (structural, defaults, CEL rules and
  // their costs) answers the same at another path but for the path its errors begin with.
  const general = withRuleCostTotal(createCRDSchemaValidator({ validateValue: () => [], pruneValue: (_s, v) => v, checkRules: checkValidationRules }));
  const paths = [PATH, 'spec.versions[3].schema.openAPIV3Schema', 'spec.validation.openAPIV3Schema'];
  const failing: JSONSchemaProps[] = [
    { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.nope > 1' }], properties: { a: { type: 'integer' } } } } },
    { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'array', items: { type: 'string', 'x-kubernetes-validations': [{ rule: "self.matches('^[a-z]*$') && self.split(',').all(x, x.matches('^a+$'))" }] } } } } } },
    { type: 'object', properties: { spec: { 'x-kubernetes-preserve-unknown-fields': true }, status: { type: 'strange' } } },
    { type: 'object', properties: { spec: { type: 'object', properties: { a: { type: 'string', pattern: '(' } } } } },
  ];
  for (const s of [schema(), ...failing]) {
    const [first, ...rest] = paths.map((p) => JSON.stringify(general(s, p, CTX)));
    for (const [i, other] of rest.entries()) assert.equal(other, first!.replaceAll(PATH, paths[i + 1]!));
  }
  for (const s of failing) assert.notEqual(general(s, PATH, CTX).length, 0);
});

test('passedByContent with a store beyond the process: a key another process stored is not checked again; only passes are stored', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'schema-checks-'));
  t.after(() => {
    rememberPassedSchemas(undefined);
    rmSync(dir, { recursive: true, force: true });
  });
  let fail = false;
  const counted = (): { check: ReturnType<typeof passedByContent>; calls: () => number } => {
    let n = 0;
    return {
      check: passedByContent(() => {
        n++;
        return fail ? [{ type: 'FieldValueInvalid', field: PATH, badValue: '', detail: 'bad' }] : [];
      }),
      calls: () => n,
    };
  };
  // "Process" one checks and stores; "process" two (a memo of its own, the same file) does not check.
  rememberPassedSchemas(schemaChecksFile(dir, 'build-a'));
  const one = counted();
  one.check(schema(), PATH, CTX);
  assert.equal(one.calls(), 1);
  rememberPassedSchemas(schemaChecksFile(dir, 'build-a'));
  const two = counted();
  assert.deepEqual(two.check(schema(), PATH, CTX), []);
  assert.equal(two.calls(), 0, 'known from the file');
  fail = true;
  const other = { ...schema(), description: 'z' };
  two.check(other, PATH, CTX);
  rememberPassedSchemas(schemaChecksFile(dir, 'build-a'));
  const three = counted();
  assert.equal(three.check(other, PATH, CTX).length, 1, 'a failure was not stored');
  // Another build's file knows nothing of build-a's.
  rememberPassedSchemas(schemaChecksFile(dir, 'build-b'));
  fail = false;
  const four = counted();
  four.check(schema(), PATH, CTX);
  assert.equal(four.calls(), 1);
  assert.equal(readFileSync(join(dir, 'build-a'), 'latin1').split('\n').filter(Boolean).length, 1);
});

test('schemaChecksFile: an oversized file starts again; other builds beyond the last four are removed', (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'schema-checks-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'big'), 'k\n'.repeat(600_000));
  assert.equal(schemaChecksFile(dir, 'big')!.has('k'), false);
  for (let i = 0; i < 6; i++) {
    writeFileSync(join(dir, `old${i}`), 'x\n');
    utimesSync(join(dir, `old${i}`), 1000 + i, 1000 + i);
  }
  const store = schemaChecksFile(dir, 'new')!;
  store.add('a');
  store.add('a');
  assert.deepEqual(readdirSync(dir).sort(), ['new', 'old2', 'old3', 'old4', 'old5']);
  assert.equal(readFileSync(join(dir, 'new'), 'latin1'), 'a\n');
  assert.equal(schemaChecksFile(dir, 'new')!.has('a'), true);
});

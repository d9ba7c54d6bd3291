// passedByContent: a schema that passed the CRD schema checks is not checked again on a create with the same
// content, path and options; failures, other inputs and updates are always checked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { passedByContent, rememberPassedSchemas } from '../../src/crd/schema-check-memo.js';
import { schemaChecksFile } from '../../src/testing/schema-checks-file.js';
import { mkdtempSync, readFileSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crdSchemaValidator } from '../../src/crd/schema-checks.js';
import type { SchemaCheckContext } from '../../src/crd/validation.js';
import type { JSONSchemaProps } from '../../src/crd/types.js';
import type { InternalSpec } from '../../src/crd/internal.js';

const CTX: SchemaCheckContext = { statusEnabled: true, requireStructuralSchema: true, allowDefaults: true };
const PATH = 'spec.versions[0].schema.openAPIV3Schema';
const schema = (): JSONSchemaProps => ({ type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.a > 1' }], properties: { a: { type: 'integer' } } } } });

test('passedByContent: the same passing schema is checked once; other content, path, options and failures again', () => {
  const seen: string[] = [];
  let fail = false;
  const check = passedByContent((s, path, ctx) => {
    seen.push(`${path} ${JSON.stringify(ctx)} ${JSON.stringify(s)}`);
    return fail ? [{ type: 'FieldValueInvalid', field: path, badValue: '', detail: 'bad' }] : [];
  });
  assert.deepEqual(check(schema(), PATH, CTX), []);
  assert.deepEqual(check(schema(), PATH, { ...CTX }), []);
  assert.equal(seen.length, 1, 'an equal schema (another object) is known');
  check(schema(), 'spec.versions[1].schema.openAPIV3Schema', CTX);
  check(schema(), PATH, { ...CTX, statusEnabled: false });
  check({ ...schema(), description: 'x' }, PATH, CTX);
  assert.equal(seen.length, 4);
  check(schema(), PATH, { ...CTX, update: { oldSpec: {} as InternalSpec, schemaUnchanged: true } });
  assert.equal(seen.length, 5, 'updates are always checked');
  fail = true;
  const other = { ...schema(), description: 'y' };
  assert.equal(check(other, PATH, CTX).length, 1);
  assert.equal(check(other, PATH, CTX).length, 1, 'a failure is not remembered');
  assert.equal(seen.length, 7);
});

test('crdSchemaValidator remembers only passing schemas: a failing CEL rule fails every time', () => {
  const bad = (): JSONSchemaProps => ({ type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-validations': [{ rule: 'self.nope > 1' }], properties: { a: { type: 'integer' } } } } });
  for (let i = 0; i < 2; i++) assert.match(JSON.stringify(crdSchemaValidator(bad(), PATH, CTX)), /undefined field 'nope'/);
  for (let i = 0; i < 2; i++) assert.deepEqual(crdSchemaValidator(schema(), PATH, CTX), []);
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

// The usual Content-Type is taken as it is (a fast path); every spelling still reads as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isJsonBody, decodeBody } from '../../src/server/negotiation.js';

test('a JSON body is recognised in every spelling, the usual one taken as it is', () => {
  for (const ct of [undefined, '', 'application/json', 'Application/JSON', ' application/json ; charset=utf-8', 'application/json;charset=utf-8']) assert.equal(isJsonBody(ct), true, String(ct));
  for (const ct of ['application/yaml', 'application/vnd.kubernetes.protobuf', 'text/plain', 'application/json-patch+json']) assert.equal(isJsonBody(ct), false, ct);
  const body = Buffer.from('{"a":1}');
  assert.deepEqual(decodeBody('application/json', body), { a: 1 });
  assert.deepEqual(decodeBody('APPLICATION/JSON; charset=utf-8', body), { a: 1 });
});

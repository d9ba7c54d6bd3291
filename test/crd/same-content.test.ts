// sameContent decides a custom resource update's generation bump without copying either body: it must answer as
// deepEqual of the two bodies without metadata (and status when the status has its own endpoint) did, over random
// bodies that differ in metadata, status, spec, extra members, `__proto__` members and members holding undefined.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sameContent } from '../../src/crd/custom-resource.js';
import { deepEqual, type JSONObject } from '../../src/util/json.js';
import { parseJSON } from '../../src/util/json-int64.js';
import { prng } from '../prng.js';

/** The former way: copies without those members, compared. */
function content(obj: JSONObject, withStatus: boolean): JSONObject {
  const { metadata: _m, status, ...rest } = obj;
  return withStatus ? { ...rest, status } : rest;
}

const PARTS = ['"spec":{"a":1}', '"spec":{"a":2}', '"status":{"ok":true}', '"status":{"ok":false}', '"metadata":{"name":"x"}', '"metadata":{"name":"y"}', '"data":[1,2]', '"__proto__":{"p":1}', '"kind":"W"', '"extra":null'];

function body(rand: () => number): JSONObject {
  const parts = PARTS.filter(() => rand() < 0.45);
  const o = parseJSON(`{${parts.join(',')}}`) as JSONObject;
  if (rand() < 0.1) o['status'] = undefined;
  if (rand() < 0.05) o['spec'] = undefined;
  return o;
}

test('sameContent answers as deepEqual of the bodies without metadata (and status)', () => {
  const rand = prng(31);
  let same = 0;
  for (let i = 0; i < 20_000; i++) {
    const a = body(rand);
    const b = rand() < 0.3 ? { ...a, metadata: { name: 'other' } } : body(rand);
    for (const withStatus of [false, true]) {
      const want = deepEqual(content(a, withStatus), content(b, withStatus));
      assert.equal(sameContent(a, b, withStatus), want, `${JSON.stringify(a)} ${JSON.stringify(b)} ${withStatus}`);
      if (want) same++;
    }
  }
  assert.ok(same > 2_000, `${same} equal`);
});

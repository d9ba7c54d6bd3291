import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../src/api/status.js';
import {
  APPLY_PATCH,
  BUILT_IN_PATCH_TYPES,
  CUSTOM_RESOURCE_PATCH_TYPES,
  JSON_PATCH,
  MERGE_PATCH,
  STRATEGIC_MERGE_PATCH,
  type DecodedPatch,
  applyJsonPatch,
  applyMergePatch,
  decodePatch,
  patchInvalid,
  patchTypeFor,
  strictDecodingMessage,
} from '../../src/registry/patch.js';

function status(v: unknown): { code: number; reason?: string; message?: string; details?: unknown; cause?: unknown } {
  assert.ok(v instanceof StatusError, `expected a StatusError, got ${JSON.stringify(v)}`);
  return { code: v.code, reason: v.status.reason, message: v.status.message, details: v.status.details, cause: v.cause };
}

function decoded(type: Parameters<typeof decodePatch>[0], body: string, fv?: Parameters<typeof decodePatch>[2]): DecodedPatch {
  const d = decodePatch(type, body, fv);
  assert.ok(!(d instanceof StatusError), d instanceof StatusError ? d.message : '');
  return d;
}

const ops = (body: string): unknown[] => {
  const d = decoded(JSON_PATCH, body);
  assert.equal(d.type, JSON_PATCH);
  return d.type === JSON_PATCH ? d.operations : [];
};

// ---- content type

test('custom resources refuse strategic merge patch with the handler 415', () => {
  assert.deepEqual(status(patchTypeFor(STRATEGIC_MERGE_PATCH, { supported: CUSTOM_RESOURCE_PATCH_TYPES })), {
    code: 415,
    reason: 'UnsupportedMediaType',
    message:
      'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
    details: undefined,
    cause: undefined,
  });
  assert.equal(patchTypeFor('application/merge-patch+json; charset=utf-8', { supported: CUSTOM_RESOURCE_PATCH_TYPES }), MERGE_PATCH);
  assert.equal(patchTypeFor(APPLY_PATCH, { supported: CUSTOM_RESOURCE_PATCH_TYPES }), APPLY_PATCH);
  // Only "; ..." is cut, nothing trimmed, and the match is case-sensitive.
  assert.equal(status(patchTypeFor('application/merge-patch+json ; charset=utf-8', { supported: CUSTOM_RESOURCE_PATCH_TYPES })).code, 415);
  assert.equal(status(patchTypeFor('Application/Merge-Patch+json', { supported: CUSTOM_RESOURCE_PATCH_TYPES })).code, 415);
  assert.equal(status(patchTypeFor(undefined, { supported: CUSTOM_RESOURCE_PATCH_TYPES })).code, 415);
});

test('built-in resources answer an unknown patch type through go-restful', () => {
  assert.equal(patchTypeFor(STRATEGIC_MERGE_PATCH, { supported: BUILT_IN_PATCH_TYPES, builtIn: true }), STRATEGIC_MERGE_PATCH);
  assert.deepEqual(status(patchTypeFor('application/json', { supported: BUILT_IN_PATCH_TYPES, builtIn: true })), {
    code: 415,
    reason: 'UnsupportedMediaType',
    message: '415: Unsupported Media Type',
    details: {},
    cause: undefined,
  });
  assert.equal(
    status(patchTypeFor('application/json', { supported: BUILT_IN_PATCH_TYPES, builtIn: true, hasBody: false })).message,
    '415: Unsupported Media Type\n\nAvailable representations: ',
  );
  // go-restful trims and splits on commas; the handler's own check then sees the whole header.
  assert.equal(
    status(patchTypeFor('application/merge-patch+json , text/plain', { supported: BUILT_IN_PATCH_TYPES, builtIn: true })).message,
    'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/strategic-merge-patch+json, application/apply-patch+yaml',
  );
});

// ---- decoding

test('JSON patch decoding errors (default fieldValidation=Warn)', () => {
  assert.deepEqual(status(decodePatch(JSON_PATCH, '{"op":"add"}')), {
    code: 400,
    reason: 'BadRequest',
    message: 'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp',
    details: undefined,
    cause: undefined,
  });
  assert.equal(status(decodePatch(JSON_PATCH, '')).message, 'error decoding patch: unexpected end of JSON input');
  assert.equal(status(decodePatch(JSON_PATCH, '["x"]')).message, 'error decoding patch: json: cannot unmarshal string into Go value of type handlers.jsonPatchOp');
  assert.equal(
    status(decodePatch(JSON_PATCH, '[{"op":5}]')).message,
    'error decoding patch: json: cannot unmarshal number into Go struct field jsonPatchOp.op of type string',
  );
  assert.equal(status(decodePatch(JSON_PATCH, '[{"op":"add"')).message, 'error decoding patch: unexpected end of JSON input');
});

test('JSON patch decoding errors with fieldValidation=Ignore come from json-patch itself', () => {
  assert.equal(status(decodePatch(JSON_PATCH, '{"op":"add"}', 'Ignore')).message, 'json: cannot unmarshal object into Go value of type jsonpatch.Patch');
  assert.equal(status(decodePatch(JSON_PATCH, '["x"]', 'Ignore')).message, 'json: cannot unmarshal string into Go value of type jsonpatch.Operation');
  assert.equal(status(decodePatch(JSON_PATCH, '[', 'Ignore')).message, 'unexpected end of JSON input');
});

test('JSON patch strict problems are collected with the "json patch" prefix', () => {
  const d = decoded(JSON_PATCH, '[{"op":"add","path":"/a","value":{"b":1,"b":2},"foo":1,"op":"add"}]');
  assert.deepEqual(d.strictErrors, [
    'json patch duplicate field "[0].value.b"',
    'json patch unknown field "[0].foo"',
    'json patch duplicate field "[0].op"',
  ]);
  assert.deepEqual(decoded(JSON_PATCH, '[{"op":"add","foo":1}]', 'Ignore').strictErrors, []);
  assert.equal(strictDecodingMessage(d.strictErrors.slice(1)), 'strict decoding error: json patch unknown field "[0].foo", json patch duplicate field "[0].op"');
});

test('more than 10000 JSON patch operations is 413', () => {
  const body = JSON.stringify(Array.from({ length: 10001 }, () => ({ op: 'test', path: '/a', value: 1 })));
  assert.deepEqual(status(decodePatch(JSON_PATCH, body)), {
    code: 413,
    reason: 'RequestEntityTooLarge',
    message: 'Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001',
    details: undefined,
    cause: undefined,
  });
  assert.equal(ops(JSON.stringify(Array.from({ length: 10000 }, () => ({ op: 'test', path: '/a' })))).length, 10000);
  assert.deepEqual(ops('null'), []);
});

test('merge patch decoding', () => {
  assert.equal(status(decodePatch(MERGE_PATCH, '[1]')).message, 'error decoding patch: json: cannot unmarshal array into Go value of type map[string]interface {}');
  assert.equal(status(decodePatch(MERGE_PATCH, '{bad')).message, "error decoding patch: invalid character 'b' looking for beginning of object key string");
  assert.equal(status(decodePatch(MERGE_PATCH, '{bad', 'Ignore')).message, 'Invalid JSON Patch');
  assert.deepEqual(decoded(MERGE_PATCH, '[1]', 'Ignore'), { type: MERGE_PATCH, patch: [1], strictErrors: [] });
  assert.deepEqual(decoded(MERGE_PATCH, '{"a":{"x":1,"x":2}}'), { type: MERGE_PATCH, patch: { a: { x: 2 } }, strictErrors: ['duplicate field "a.x"'] });
  assert.deepEqual(decoded(MERGE_PATCH, 'null'), { type: MERGE_PATCH, patch: null, strictErrors: [] });
});

test('strategic merge patch decoding errors have no prefix', () => {
  assert.equal(status(decodePatch(STRATEGIC_MERGE_PATCH, '{bad')).message, "invalid character 'b' looking for beginning of object key string");
  assert.equal(status(decodePatch(STRATEGIC_MERGE_PATCH, '[]', 'Ignore')).message, 'json: cannot unmarshal array into Go value of type map[string]interface {}');
  assert.deepEqual(decoded(STRATEGIC_MERGE_PATCH, '{"metadata":{"labels":{"a":"b","a":"c"}}}'), {
    type: STRATEGIC_MERGE_PATCH,
    patch: { metadata: { labels: { a: 'c' } } },
    strictErrors: ['duplicate field "metadata.labels.a"'],
  });
});

test('apply patch YAML decoding', () => {
  assert.deepEqual(decoded(APPLY_PATCH, 'metadata:\n  name: x\n  creationTimestamp: 2024-01-01T00:00:00Z\n  labels: {on: yes}\n'), {
    type: APPLY_PATCH,
    patch: { metadata: { name: 'x', creationTimestamp: '2024-01-01T00:00:00Z', labels: { true: true } } },
    strictErrors: [],
  });
  assert.deepEqual(decoded(APPLY_PATCH, ''), { type: APPLY_PATCH, patch: {}, strictErrors: [] });
  assert.equal(
    status(decodePatch(APPLY_PATCH, '- a\n')).message,
    'error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal array into Go value of type map[string]interface {}',
  );
  const bad = status(decodePatch(APPLY_PATCH, 'a: [1\n'));
  assert.equal(bad.code, 400);
  assert.match(bad.message!, /^error decoding YAML: error converting YAML to JSON: yaml: line \d+: /);
});

// ---- merge patch

test('merge patch follows RFC 7386 (appendix A)', () => {
  const cases: Array<[unknown, unknown, unknown]> = [
    [{ a: 'b' }, { a: 'c' }, { a: 'c' }],
    [{ a: 'b' }, { b: 'c' }, { a: 'b', b: 'c' }],
    [{ a: 'b' }, { a: null }, {}],
    [{ a: 'b', b: 'c' }, { a: null }, { b: 'c' }],
    [{ a: ['b'] }, { a: 'c' }, { a: 'c' }],
    [{ a: 'c' }, { a: ['b'] }, { a: ['b'] }],
    [{ a: { b: 'c' } }, { a: { b: 'd', c: null } }, { a: { b: 'd' } }],
    [{ a: [{ b: 'c' }] }, { a: [1] }, { a: [1] }],
    [{ a: 'b' }, ['c'], ['c']],
    [{ e: null }, { a: 1 }, { e: null, a: 1 }],
    [{}, { a: { bb: { ccc: null } } }, { a: { bb: {} } }],
  ];
  for (const [doc, patch, want] of cases) assert.deepEqual(applyMergePatch(doc, patch), want, JSON.stringify([doc, patch]));
  // Given away (a custom resource's patch request): merged in place, the same result.
  for (const [doc, patch, want] of cases) assert.deepEqual(applyMergePatch(structuredClone(doc), structuredClone(patch), true), want, JSON.stringify([doc, patch]));
  const owned = { a: { b: 1 }, c: 1 };
  assert.equal(applyMergePatch(owned, { a: { b: 2 }, c: null }, true), owned, 'the document itself, patched');
  assert.deepEqual(owned, { a: { b: 2 } });
});

test('merge patch quirks of json-patch v4', () => {
  // Nulls inside arrays stay; objects inside a new array lose their null members.
  assert.deepEqual(applyMergePatch({ a: [{ b: 'c' }] }, { a: [null, 1] }), { a: [null, 1] });
  assert.deepEqual(applyMergePatch({}, { a: [{ x: null, y: 1 }] }), { a: [{ y: 1 }] });
  // Replacing an object by an array keeps the array verbatim.
  assert.deepEqual(applyMergePatch({ a: { x: 1 } }, { a: [{ x: null }] }), { a: [{ x: null }] });
  // A null in the document is replaced, with the patch's nulls pruned.
  assert.deepEqual(applyMergePatch({ title: null }, { title: { foo: 'bar', gone: null } }), { title: { foo: 'bar' } });
  // An array patch becomes the document.
  assert.deepEqual(applyMergePatch({ a: 1 }, [{ a: null }, null]), [{}, null]);
  assert.deepEqual(status(applyMergePatch({ a: 'foo' }, null)), { code: 400, reason: 'BadRequest', message: 'Invalid JSON Patch', details: undefined, cause: undefined });
  assert.equal(status(applyMergePatch({ a: 'foo' }, 'bar')).message, 'Invalid JSON Patch');
  const doc = { a: { b: 1 } };
  applyMergePatch(doc, { a: { b: 2 } });
  assert.deepEqual(doc, { a: { b: 1 } }, 'the input is not modified');
});

// ---- JSON patch

test('JSON patch operations with v4 semantics', () => {
  const doc = { spec: { list: [1, 2] } };
  const out = applyJsonPatch(
    doc,
    ops(
      JSON.stringify([
        { op: 'add', path: '/spec/list/-', value: 3 },
        { op: 'test', path: '/spec/list/2', value: 3 },
        { op: 'replace', path: '/spec/missing', value: 'x' },
        { op: 'copy', from: '/spec/list', path: '/spec/copy' },
        { op: 'move', from: '/spec/copy', path: '/spec/moved' },
        { op: 'add', path: '/spec/list/-1', value: 9 },
        { op: 'remove', path: '/spec/list/0' },
        { op: 'add', path: '/spec/a~1b', value: { 'x~y': null } },
        { op: 'test', path: '/spec/a~1b/x~0y', value: null },
        { op: 'add', path: '/spec/nothing' },
      ]),
    ),
  );
  assert.deepEqual(out, { spec: { list: [2, 3, 9], missing: 'x', moved: [1, 2, 3], 'a/b': { 'x~y': null }, nothing: null } });
  assert.deepEqual(doc, { spec: { list: [1, 2] } }, 'the input is not modified');
});

test('JSON patch path oddities: the first segment is never read, "" means the whole document', () => {
  assert.deepEqual(applyJsonPatch({ a: 1 }, [{ op: 'add', path: 'anything/b', value: 2 }]), { a: 1, b: 2 });
  assert.deepEqual(applyJsonPatch({ a: 1 }, [{ op: 'replace', path: '', value: { z: 1 } }]), { z: 1 });
  assert.deepEqual(applyJsonPatch({ a: 1 }, [{ op: 'test', path: '', value: { a: 1 } }]), { a: 1 });
  assert.equal(status(applyJsonPatch({ a: 1 }, [{ op: 'add', path: '', value: 1 }])).cause, 'add operation does not apply: doc is missing path: "": missing value');
  // Missing object keys read as null: a test for null passes, copy copies null.
  assert.deepEqual(applyJsonPatch({ a: {} }, [{ op: 'test', path: '/a/none', value: null }, { op: 'copy', from: '/a/none', path: '/b' }]), { a: {}, b: null });
});

test('a failing JSON patch is the generic 422, Go error kept as cause', () => {
  const failed = status(applyJsonPatch({ a: 'x' }, ops('[{"op":"test","path":"/a","value":"y"}]')));
  assert.deepEqual(failed, {
    code: 422,
    reason: 'Invalid',
    message: 'the server rejected our request due to an error in our request',
    details: {},
    cause: 'testing value /a failed: test failed',
  });
  const cause = (o: unknown[]): unknown => status(applyJsonPatch({ a: { b: [1] } }, o)).cause;
  assert.equal(cause([{ op: 'remove', path: '/a/zz' }]), 'Unable to remove nonexistent key: zz: missing value');
  assert.equal(cause([{ op: 'add', path: '/x/y', value: 1 }]), 'add operation does not apply: doc is missing path: "/x/y": missing value');
  assert.equal(cause([{ op: 'add', path: '/a/b/5', value: 1 }]), 'Unable to access invalid index: 5: invalid index referenced');
  assert.equal(cause([{ op: 'replace', path: '/a/b/1', value: 1 }]), 'replace operation does not apply: doc is missing key: /a/b/1: missing value');
  assert.equal(cause([{ op: 'move', from: '/a/zz', path: '/b' }]), 'Unable to remove nonexistent key: zz: missing value');
  assert.equal(cause([{ op: 'frob', path: '/a' }]), 'Unexpected kind: frob');
  assert.equal(cause([{ path: '/a' }]), 'Unexpected kind: unknown');
  assert.equal(cause([{ op: 'add', value: 1 }]), 'add operation failed to decode path: missing value');
  assert.equal(cause([{ op: 'replace', path: '', value: 'scalar' }]), 'replace operation value must be object or array');
  assert.equal(cause([{ op: 'test', path: '/a/b' }]), 'testing value /a/b failed: test failed');
});

test('JSON patch test compares raw JSON text against the stored object as Go encodes it', () => {
  const doc = { spec: { n: 1, s: 'a<b', o: { x: [1, 'y'] } } };
  const run = (body: string): boolean => !(applyJsonPatch(doc, ops(body)) instanceof StatusError);
  assert.ok(run('[{"op":"test","path":"/spec/n","value":1}]'));
  assert.ok(!run('[{"op":"test","path":"/spec/n","value":1.0}]'), '1.0 is not the text 1');
  assert.ok(!run('[{"op":"test","path":"/spec/s","value":"a<b"}]'), 'the stored string reads a\\u003cb');
  assert.ok(run('[{"op":"test","path":"/spec/s","value":"a\\u003cb"}]'));
  assert.ok(run('[{"op":"test","path":"/spec/o","value":{ "x" : [ 1, "y" ] }}]'), 'whitespace does not matter');
  assert.ok(!run('[{"op":"test","path":"/spec/o","value":{"x":[1,"y"],"z":null}}]'));
  // A value the patch itself wrote compares by the patch's own text.
  assert.ok(run('[{"op":"add","path":"/spec/f","value":1.0},{"op":"test","path":"/spec/f","value":1.0}]'));
});

test('JSON patch copy is limited to 3 MiB in total', () => {
  // Each copy counts the copied value's JSON: 1048574 characters and two quotes.
  const big = 'x'.repeat(1024 * 1024 - 2);
  const copies = [1, 2, 3, 4].map((i) => ({ op: 'copy', from: '/a', path: `/c${i}` }));
  assert.ok(!(applyJsonPatch({ a: big }, copies.slice(0, 3)) instanceof StatusError), '3 x 1 MiB is exactly the limit');
  assert.equal(status(applyJsonPatch({ a: big }, copies)).cause, 'Unable to complete the copy, the accumulated size increase of copy is 4194304, exceeding the limit 3145728');
});

test('patchInvalid is NewInvalid with an empty GroupKind and name', () => {
  const e = patchInvalid('{"a":1}', 'strict decoding error: unknown field "a"');
  assert.equal(e.code, 422);
  assert.equal(e.status.reason, 'Invalid');
  assert.equal(e.status.message, ' "" is invalid: patch: Invalid value: "{\\"a\\":1}": strict decoding error: unknown field "a"');
  assert.deepEqual(e.status.details, {
    causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "{\\"a\\":1}": strict decoding error: unknown field "a"', field: 'patch' }],
  });
});

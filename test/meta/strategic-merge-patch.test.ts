import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../../src/api/status.js';
import { type PatchMetaType, applyStrategicMergePatch, goV } from '../../src/registry/strategic-merge-patch.js';
import { patchMetaOf } from '../../src/registry/patch-meta.js';
import { Namespace } from '../../src/apis/core/v1/namespace.js';
import { CustomResourceDefinition } from '../../src/apis/apiextensions/v1/custom-resource-definition.js';

type Obj = Record<string, unknown>;

const namespacePatchMeta = patchMetaOf(Namespace);
const customResourceDefinitionPatchMeta = patchMetaOf(CustomResourceDefinition);

function ok(original: Obj, patch: Obj, schema: PatchMetaType = namespacePatchMeta): Obj {
  const out = applyStrategicMergePatch(original, patch, schema);
  assert.ok(!(out instanceof StatusError), out instanceof StatusError ? out.message : '');
  return out;
}

function fails(original: Obj, patch: Obj, schema: PatchMetaType = namespacePatchMeta): { code: number; reason?: string; message?: string } {
  const out = applyStrategicMergePatch(original, patch, schema);
  assert.ok(out instanceof StatusError, `expected an error, got ${JSON.stringify(out)}`);
  return { code: out.code, reason: out.status.reason, message: out.status.message };
}

// A test type shaped like apimachinery's own MergeItem test struct.
const str: PatchMetaType = { kind: 'scalar', name: 'string' };
const item: PatchMetaType = { kind: 'struct', name: 'Item', fields: {} };
Object.assign((item as { fields: object }).fields, {
  name: { type: str },
  value: { type: str },
  other: { type: str },
  mergingList: { type: { kind: 'slice', elem: item }, patchStrategy: 'merge', patchMergeKey: 'name' },
  nonMergingList: { type: { kind: 'slice', elem: item } },
  mergingIntList: { type: { kind: 'slice', elem: { kind: 'scalar', name: 'int' } }, patchStrategy: 'merge' },
  simpleMap: { type: { kind: 'map', elem: str } },
  replacingMap: { type: { kind: 'struct', name: 'Raw', fields: {} }, patchStrategy: 'replace' },
  retainMap: { type: item, patchStrategy: 'retainKeys' },
  listOfLists: { type: { kind: 'slice', elem: { kind: 'any' } }, patchStrategy: 'merge' },
  typedListOfLists: { type: { kind: 'slice', elem: { kind: 'slice', elem: str } }, patchStrategy: 'merge' },
});

const ns = (metadata: Obj, rest: Obj = {}): Obj => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'demo', ...metadata }, ...rest });

test('kubectl apply of a Namespace: labels, annotations, finalizers with ordering and deletion directives', () => {
  const live = ns(
    { labels: { team: 'a', old: 'x' }, annotations: { keep: '1' }, finalizers: ['example.com/a', 'example.com/b', 'example.com/c'] },
    { spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } },
  );
  const patch = {
    metadata: {
      labels: { old: null, team: 'b', env: 'prod' },
      annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' },
      '$setElementOrder/finalizers': ['example.com/c', 'example.com/new', 'example.com/a'],
      '$deleteFromPrimitiveList/finalizers': ['example.com/b'],
      finalizers: ['example.com/new'],
    },
  };
  assert.deepEqual(
    ok(live, patch),
    ns(
      {
        labels: { team: 'b', env: 'prod' },
        annotations: { keep: '1', 'kubectl.kubernetes.io/last-applied-configuration': '{}' },
        finalizers: ['example.com/c', 'example.com/new', 'example.com/a'],
      },
      { spec: { finalizers: ['kubernetes'] }, status: { phase: 'Active' } },
    ),
  );
  assert.deepEqual(live.metadata, { name: 'demo', labels: { team: 'a', old: 'x' }, annotations: { keep: '1' }, finalizers: ['example.com/a', 'example.com/b', 'example.com/c'] }, 'input untouched');
});

test('merge lists of scalars append and de-duplicate; non-merge lists are replaced', () => {
  assert.deepEqual(ok(ns({ finalizers: ['a/x', 'a/y'] }), { metadata: { finalizers: ['a/y', 'a/z'] } }).metadata, { name: 'demo', finalizers: ['a/x', 'a/y', 'a/z'] });
  assert.deepEqual(ok(ns({}, { spec: { finalizers: ['kubernetes'] } }), { spec: { finalizers: ['x/y'] } }).spec, { finalizers: ['x/y'] });
  // A delete list for a list that is not there adds nothing; a null deletes the list itself.
  assert.deepEqual(ok(ns({}), { metadata: { '$deleteFromPrimitiveList/finalizers': ['a/x'] } }).metadata, { name: 'demo' });
  assert.deepEqual(ok(ns({ finalizers: ['a/x'] }), { metadata: { '$deleteFromPrimitiveList/finalizers': null } }).metadata, { name: 'demo' });
});

test('ownerReferences merge by uid, with $patch delete and replace', () => {
  const live = ns({
    ownerReferences: [
      { apiVersion: 'v1', kind: 'A', name: 'a', uid: '1' },
      { apiVersion: 'v1', kind: 'B', name: 'b', uid: '2' },
    ],
  });
  assert.deepEqual(
    ok(live, { metadata: { ownerReferences: [{ uid: '2', controller: true }, { uid: '3', apiVersion: 'v1', kind: 'C', name: 'c' }] } }).metadata,
    {
      name: 'demo',
      ownerReferences: [
        { apiVersion: 'v1', kind: 'A', name: 'a', uid: '1' },
        { apiVersion: 'v1', kind: 'B', name: 'b', uid: '2', controller: true },
        { uid: '3', apiVersion: 'v1', kind: 'C', name: 'c' },
      ],
    },
  );
  assert.deepEqual(ok(live, { metadata: { ownerReferences: [{ uid: '1', $patch: 'delete' }] } }).metadata, {
    name: 'demo',
    ownerReferences: [{ apiVersion: 'v1', kind: 'B', name: 'b', uid: '2' }],
  });
  assert.deepEqual(ok(live, { metadata: { ownerReferences: [{ $patch: 'replace' }, { uid: '9', name: 'n' }] } }).metadata, {
    name: 'demo',
    ownerReferences: [{ uid: '9', name: 'n' }],
  });
});

test('status.conditions merge by type', () => {
  const live = ns({}, { status: { conditions: [{ type: 'A', status: 'True' }, { type: 'B', status: 'False' }] } });
  assert.deepEqual(ok(live, { status: { conditions: [{ type: 'B', status: 'True' }] } }).status, {
    conditions: [
      { type: 'A', status: 'True' },
      { type: 'B', status: 'True' },
    ],
  });
});

test('map directives: $patch replace and delete, replace strategy, $retainKeys', () => {
  assert.deepEqual(ok(ns({ labels: { a: '1', b: '2' } }), { metadata: { labels: { $patch: 'replace', c: '3' } } }).metadata, { name: 'demo', labels: { c: '3' } });
  assert.deepEqual(ok(ns({ labels: { a: '1' } }), { metadata: { labels: { $patch: 'delete' } } }).metadata, { name: 'demo', labels: {} });
  assert.deepEqual(ok({ replacingMap: { a: 1, b: 2 } }, { replacingMap: { c: 3 } }, item), { replacingMap: { c: 3 } });
  assert.deepEqual(ok({ retainMap: { name: 'n', value: 'v', other: 'o' } }, { retainMap: { $retainKeys: ['name', 'other'], other: 'p' } }, item), {
    retainMap: { name: 'n', other: 'p' },
  });
  // A new value is taken with its nulls dropped and $patch maps removed.
  assert.deepEqual(ok({}, { simpleMap: { a: 'b', c: null }, mergingList: [{ name: 'x', $patch: 'delete' }, { name: 'y' }] }, item), {
    simpleMap: { a: 'b' },
    mergingList: [{ name: 'y' }],
  });
});

test('merging list order: patch order, then server order, $setElementOrder first', () => {
  const live = { mergingList: [{ name: '1' }, { name: '2' }, { name: '3' }] };
  assert.deepEqual(ok(live, { mergingList: [{ name: '3', value: 'x' }, { name: '1', value: 'y' }] }, item), {
    // Server-only items go in front of patch items that come later in the server's order.
    mergingList: [{ name: '2' }, { name: '3', value: 'x' }, { name: '1', value: 'y' }],
  });
  assert.deepEqual(
    ok(live, { '$setElementOrder/mergingList': [{ name: '2' }, { name: '4' }, { name: '1' }], mergingList: [{ name: '4' }] }, item),
    // 3 is server-only and sorts after 1 in the server's order, so it lands last.
    { mergingList: [{ name: '2' }, { name: '4' }, { name: '1' }, { name: '3' }] },
  );
  assert.deepEqual(ok({ mergingIntList: [1, 3] }, { '$setElementOrder/mergingIntList': [3, 2, 1] }, item), { mergingIntList: [3, 1] });
});

test('CustomResourceDefinition: versions are replaced whole, names merged', () => {
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      names: { plural: 'crontabs', kind: 'CronTab', shortNames: ['ct'] },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object' } } }],
    },
  };
  const out = ok(crd, { spec: { names: { shortNames: ['cron'] }, versions: [{ name: 'v2', served: true, storage: true }] } }, customResourceDefinitionPatchMeta);
  assert.deepEqual(out.spec, {
    group: 'stable.example.com',
    names: { plural: 'crontabs', kind: 'CronTab', shortNames: ['cron'] },
    versions: [{ name: 'v2', served: true, storage: true }],
  });
});

test('malformed directives are 400 BadRequest with mergepatch messages', () => {
  assert.deepEqual(fails(ns({ finalizers: ['a/b'] }), { metadata: { '$deleteFromPrimitiveListX/finalizers': ['a/b'] } }), {
    code: 400,
    reason: 'BadRequest',
    message: 'invalid patch format of primitive list',
  });
  assert.equal(fails({ retainMap: { name: 'n' } }, { retainMap: { $retainKeys: ['name'], value: 'v' } }, item).message, 'invalid patch format of retainKeys');
  assert.equal(fails({ retainMap: { name: 'n' } }, { retainMap: { $retainKeys: 'name' } }, item).message, 'invalid patch format of retainKeys');
  assert.equal(fails({ mergingList: [] }, { '$setElementOrderX/mergingList': [] }, item).message, 'invalid patch format of setElementOrder list');
});

test('lists of lists are the generic 422; other Go errors a reason-less 500', () => {
  assert.deepEqual(fails({ listOfLists: [['a']] }, { listOfLists: [['b']] }, item), {
    code: 422,
    reason: 'Invalid',
    message: 'the server rejected our request due to an error in our request',
  });
  assert.deepEqual(fails({ typedListOfLists: [['a']] }, { typedListOfLists: [['b']] }, item), { code: 500, reason: undefined, message: 'unexpected slice of slice' });
  assert.deepEqual(fails({ mergingList: [{ name: '1', value: 'a' }] }, { mergingList: [{ value: 'b' }] }, item), {
    code: 500,
    reason: undefined,
    message: 'map: map[value:b] does not contain declared merge key: name',
  });
  assert.equal(fails({ mergingList: [{ name: '1' }] }, { mergingList: [{ name: '1', $patch: 'merge' }] }, item).message, 'merging lists cannot yet be specified in the patch');
  assert.equal(fails({ mergingList: [{ name: '1' }] }, { mergingList: [{ name: '1', $patch: 'frob' }] }, item).message, 'unknown patch type: frob in map: map[$patch:frob name:1]');
  assert.equal(fails({ simpleMap: {} }, { simpleMap: { $patch: 'frob' } }, item).message, 'unknown patch type: frob in map: map[$patch:frob]');
  assert.equal(fails({ mergingIntList: [1] }, { mergingIntList: ['a'] }, item).message, 'list element types are not identical: [[1] [a]]');
  assert.equal(
    fails({ mergingList: [{ name: '1' }, { name: '3' }, { name: '2' }] }, { '$setElementOrder/mergingList': [{ name: '1' }, { name: '2' }, { name: '3' }], mergingList: [{ name: '3', value: '3' }, { name: '1', value: '1' }] }, item)
      .message,
    "The order in patch list:\n[map[name:3 value:3] map[name:1 value:1]]\n doesn't match $setElementOrder list:\n[map[name:1] map[name:2] map[name:3]]\n",
  );
});

test('goV prints values as fmt %v does', () => {
  assert.equal(goV({ b: [1, 2.5, 'x'], a: null, c: true }), 'map[a:<nil> b:[1 2.5 x] c:true]');
  assert.equal(goV(1e21), '1e+21');
  assert.equal(goV(0.00001), '1e-05');
});

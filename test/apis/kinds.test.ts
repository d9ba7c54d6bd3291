// Every declared built-in kind and Go type is consistent, and the tables derived from the declarations
// (protobuf messages, patch metadata, key order, OpenAPI documents, resource types) agree with them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { GoStruct } from '../../src/api/go-struct.js';
import { gvString } from '../../src/api/resource.js';
import { BUILTIN_KINDS, PROTOBUF_TYPES, PUBLISHED_TYPES } from '../../src/apis/index.js';
import { ObjectMeta } from '../../src/apis/meta/v1/object-meta.js';
import { DeleteOptions } from '../../src/apis/meta/v1/delete-options.js';
import { patchMetaOf } from '../../src/registry/patch-meta.js';
import type { PatchMetaType } from '../../src/registry/strategic-merge-patch.js';
import { typedOrder } from '../../src/registry/typed-order.js';
import { protobufKind, messageOf } from '../../src/server/protobuf-types.js';
import { builtinResourceType } from '../../src/apis/builtin-kinds.js';
import { groupPriorityMinimum } from '../../src/server/discovery.js';
import { openapiDefinitions } from '../../src/server/openapi-definitions.js';
import { definitionName, openapiV3GroupVersion } from '../../src/server/openapi.js';
import { publishedStructs, structDefinitionName } from '../../src/server/openapi-struct.js';

/** Every struct reachable from s, s first. */
function structsOf(s: GoStruct, out = new Set<GoStruct>()): Set<GoStruct> {
  if (out.has(s)) return out;
  out.add(s);
  for (const f of s.fields) if (typeof f.type === 'object') structsOf(f.type, out);
  return out;
}

const declared = new Set<GoStruct>([...BUILTIN_KINDS.map((k) => k.object), ...PROTOBUF_TYPES.map((t) => t.object), DeleteOptions].flatMap((s) => [...structsOf(s)]));

test('declared structs: unique JSON names, merge keys that name a field of the merged elements', () => {
  for (const s of declared) {
    const names = s.fields.map((f) => f.json);
    assert.equal(new Set(names).size, names.length, `${s.name}: duplicate JSON names`);
    if (s.typeMeta) assert.ok(!names.includes('kind') && !names.includes('apiVersion'), `${s.name}: TypeMeta declared twice`);
    for (const f of s.fields) {
      assert.ok(!(f.slice && f.map), `${s.name}.${f.json}: both a slice and a map`);
      if (f.patchMergeKey !== undefined) {
        assert.ok(f.slice && f.patchStrategy?.split(',').includes('merge'), `${s.name}.${f.json}: a merge key without the merge strategy on a list`);
        if (typeof f.type === 'object') assert.ok(f.type.fields.some((g) => g.json === f.patchMergeKey), `${s.name}.${f.json}: merge key ${f.patchMergeKey} is not a field`);
      }
    }
  }
});

test('protobuf: every field of a protobuf type has a unique number, and the derived message decodes it', () => {
  const protobufRoots = PROTOBUF_TYPES.map((t) => t.object);
  for (const root of [...protobufRoots, DeleteOptions]) {
    for (const s of structsOf(root)) {
      // An embedded struct's fields are listed flat (JSON inlines them) and travel as one message field.
      const inner = new Set((s.embeds ?? []).flatMap((e) => e.struct.fields));
      const own = s.fields.filter((f) => !inner.has(f));
      const numbers = [...own.map((f) => f.proto), ...(s.embeds ?? []).map((e) => e.proto)];
      for (const f of s.fields) {
        assert.notEqual(f.proto, undefined, `${s.name}.${f.json}: no protobuf number`);
        assert.notEqual(f.type, 'json', `${s.name}.${f.json}: undescribed in a protobuf type`);
      }
      assert.equal(new Set(numbers).size, numbers.length, `${s.name}: duplicate protobuf numbers`);
      const m = messageOf(s);
      assert.equal(m.name, s.name);
      const expected = s.fields.flatMap((f) => {
        if (!inner.has(f)) return [[f.proto, f.json, false]];
        const e = s.embeds!.find((x) => x.struct.fields[0] === f);
        return e ? [[e.proto, e.go, true]] : [];
      });
      assert.deepEqual(
        m.fields.map((f) => [f.no, f.json, f.inline]),
        expected,
      );
      for (const e of s.embeds ?? []) structsOf(e.struct).forEach((x) => assert.ok(x.fields.every((f) => f.proto !== undefined), `${x.name}: no protobuf numbers`));
    }
  }
  for (const t of PROTOBUF_TYPES) assert.equal(protobufKind(t.apiVersion, t.object.name)?.schema, messageOf(t.object));
});

test('built-in kinds: declared once, their Go type a kind with metadata first, protobuf as declared', () => {
  const ids = BUILTIN_KINDS.map((k) => `${k.served.group}/${k.served.version}/${k.served.resource}`);
  assert.equal(new Set(ids).size, ids.length);
  for (const k of BUILTIN_KINDS) {
    const gv = gvString(k.served.group, k.served.version);
    assert.equal(k.object.name, k.served.kind);
    assert.equal(k.object.typeMeta, true);
    assert.equal(k.object.fields[0]?.json, 'metadata');
    assert.equal(k.object.fields[0]?.type, ObjectMeta);
    assert.equal(definitionName(k.served.group, k.served.version, k.served.listKind), `${k.object.openapi}.${k.served.listKind}`);
    assert.ok(k.keyPrefix.endsWith(`/${k.served.resource}/`), k.keyPrefix);
    assert.equal(k.subresources.includes('status'), k.served.subresources.status === true, `${gv} ${k.served.kind}: status subresource`);
    assert.equal(protobufKind(gv, k.served.kind) !== undefined, k.protobuf, `${gv} ${k.served.kind}: protobuf`);
    if (k.table) assert.ok(k.table.every((c) => !('field' in c) || c.field.length > 0));
  }
  // One APIService per group-version of a named group, its priority from kube-aggregator's table.
  for (const k of BUILTIN_KINDS) {
    if (k.served.group === '') assert.equal(k.groupPriorityMinimum, undefined);
    else assert.equal(groupPriorityMinimum(k.served.group), k.groupPriorityMinimum, k.served.group);
  }
});

/** The JSON keys of a patch metadata struct, in order. */
const patchKeys = (m: PatchMetaType): string[] => (m.kind === 'struct' ? Object.keys(m.fields) : []);

test('patch metadata and key order follow each kind\'s Go struct', () => {
  for (const k of BUILTIN_KINDS) {
    const meta = patchMetaOf(k.object);
    assert.deepEqual(patchKeys(meta), ['kind', 'apiVersion', ...k.object.fields.map((f) => f.json)]);
    for (const s of structsOf(k.object)) {
      const m = patchMetaOf(s);
      assert.ok(m.kind === 'struct');
      for (const f of s.fields) {
        assert.equal(m.fields[f.json]?.patchStrategy, f.patchStrategy, `${s.name}.${f.json}`);
        assert.equal(m.fields[f.json]?.patchMergeKey, f.patchMergeKey, `${s.name}.${f.json}`);
      }
    }
    // Keys written in reverse come back in Go order, kind and apiVersion first, and so do metadata's (maps
    // hold a key: empty omitempty maps are left out).
    const value = (f: (typeof k.object.fields)[number]): unknown =>
      f.json === 'metadata' ? Object.fromEntries(ObjectMeta.fields.map((g) => [g.json, 'x']).reverse()) : f.map ? { key: 'x' } : {};
    const obj = Object.fromEntries([...k.object.fields.map((f) => [f.json, value(f)]), ['apiVersion', 'a'], ['kind', 'k']].reverse());
    const out = typedOrder(k.object)(obj);
    assert.deepEqual(Object.keys(out), ['kind', 'apiVersion', ...k.object.fields.map((f) => f.json)]);
    assert.deepEqual(Object.keys(out['metadata'] as object), ObjectMeta.fields.map((f) => f.json));
    assert.equal(builtinResourceType(k).strategy.canonicalize(obj)['kind'], 'k');
  }
});

test('OpenAPI: each kind and its list (none for the create-only reviews) have a definition in their group-version document', () => {
  const served = BUILTIN_KINDS.map((k) => builtinResourceType(k).served);
  for (const r of served) {
    const doc = openapiV3GroupVersion(r.group, r.version, served);
    assert.ok(doc.components.schemas[definitionName(r.group, r.version, r.kind)], `${r.kind} at ${r.version}`);
    const list = doc.components.schemas[definitionName(r.group, r.version, r.listKind)];
    if (r.verbs.includes('list')) assert.ok(list, `${r.listKind} at ${r.version}`);
    else assert.equal(list, undefined, `no ${r.listKind} at ${r.version}`);
  }
});

test('OpenAPI: published Go types derive their definitions, and every reference resolves', () => {
  const structs = publishedStructs(PUBLISHED_TYPES);
  assert.deepEqual(structs.map((s) => s.name).sort(), [
    'BoundObjectReference',
    'DeleteOptions',
    'ExternalDocumentation',
    'JSONSchemaProps',
    'ListMeta',
    'ManagedFieldsEntry',
    'ObjectMeta',
    'OwnerReference',
    'Preconditions',
    'Scale',
    'ScaleSpec',
    'ScaleStatus',
    'TokenRequest',
    'TokenRequestSpec',
    'TokenRequestStatus',
    'ValidationRule',
  ]);
  for (const s of structs) {
    const def = openapiDefinitions()[structDefinitionName(s)!];
    assert.ok(def, s.name);
    const props = def.schema['properties'] as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(props), [...(s.typeMeta ? ['kind', 'apiVersion'] : []), ...s.fields.map((f) => f.json)], s.name);
    for (const f of s.fields) {
      assert.equal(props[f.json]!['x-kubernetes-patch-strategy'], f.patchStrategy, `${s.name}.${f.json}`);
      assert.equal(props[f.json]!['x-kubernetes-patch-merge-key'], f.patchMergeKey, `${s.name}.${f.json}`);
    }
  }
  for (const [name, def] of Object.entries(openapiDefinitions())) {
    for (const dep of def.deps) assert.ok(openapiDefinitions()[dep], `${name} references ${dep}`);
    const refs = JSON.stringify(def.schema).match(/#\/components\/schemas\/[^"]+/g) ?? [];
    assert.deepEqual([...new Set(refs.map((r) => r.slice('#/components/schemas/'.length)))].sort(), def.deps, name);
  }
  // As kube publishes ObjectMeta.ownerReferences (the +listType=map, +listMapKey=uid and patch tags).
  const owners = (openapiDefinitions()['io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta']!.schema['properties'] as Record<string, Record<string, unknown>>)['ownerReferences']!;
  assert.deepEqual(
    Object.fromEntries(Object.entries(owners).filter(([k]) => k.startsWith('x-'))),
    { 'x-kubernetes-list-map-keys': ['uid'], 'x-kubernetes-list-type': 'map', 'x-kubernetes-patch-merge-key': 'uid', 'x-kubernetes-patch-strategy': 'merge' },
  );
});

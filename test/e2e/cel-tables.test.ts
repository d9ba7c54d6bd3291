// The tables of the seed's "Validation rules", "Transition rules" and "Resource use by validation
// functions" sections through kubectl: every example rule is installed in a CRD of its own (scoped where
// the seed means it, with the bounds Kubernetes' cost budget asks for), then one object kubectl applies and
// one it refuses with kube-apiserver's message; transition rules on update; and the cost examples
// accepted or refused at CRD apply.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { requireKubectl, startTestServer, type TestServer } from './harness.js';

type Schema = Record<string, unknown>;
const str: Schema = { type: 'string', maxLength: 64 };
const int: Schema = { type: 'integer' };
const strList: Schema = { type: 'array', maxItems: 10, items: str };
const setOf = (items: Schema): Schema => ({ type: 'array', maxItems: 10, 'x-kubernetes-list-type': 'set', items });
const mapListOf = (key: string, props: Record<string, Schema>): Schema => ({
  type: 'array',
  maxItems: 10,
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': [key],
  items: { type: 'object', required: [key], properties: props },
});
const mapOf = (v: Schema): Schema => ({ type: 'object', maxProperties: 10, additionalProperties: v });

interface Case {
  name: string;
  /** The spec's properties; `rule` sits on spec unless `root` says the root. */
  props: Record<string, Schema>;
  rule: string;
  root?: boolean;
  valid: Record<string, unknown>;
  invalid: Record<string, unknown>;
  /** The refused object's error path and value as kube prints them. */
  at?: string;
}

// "Validation Rules Examples", in the seed's order. The envars row (`filter(...).all(e, e.value.matches(...))`)
// is refused for cost by Kubernetes as by us, since filter() results lose their size bounds: see
// test/cel-server/rules.test.ts.
const RULES: Case[] = [
  { name: 'ordered', props: { minReplicas: int, replicas: int, maxReplicas: int }, rule: 'self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas', valid: { minReplicas: 1, replicas: 2, maxReplicas: 3 }, invalid: { minReplicas: 1, replicas: 5, maxReplicas: 3 } },
  { name: 'mapkey', props: { stateCounts: mapOf(int) }, rule: "'Available' in self.stateCounts", valid: { stateCounts: { Available: 1 } }, invalid: { stateCounts: { Pending: 1 } } },
  { name: 'onelist', props: { list1: strList, list2: strList }, rule: '(size(self.list1) == 0) != (size(self.list2) == 0)', valid: { list1: ['a'], list2: [] }, invalid: { list1: ['a'], list2: ['b'] } },
  { name: 'mapvalue', props: { map1: mapOf(str) }, rule: "!('MY_KEY' in self.map1) || self.map1['MY_KEY'].matches('^[a-zA-Z]*$')", valid: { map1: { MY_KEY: 'abc' } }, invalid: { map1: { MY_KEY: 'a1' } } },
  { name: 'ttl', props: { created: { type: 'string', format: 'date-time' }, ttl: { type: 'string', format: 'duration' }, expired: { type: 'string', format: 'date-time' } }, rule: 'has(self.expired) && self.created + self.ttl < self.expired', valid: { created: '2023-01-01T00:00:00Z', ttl: '24h', expired: '2023-01-03T00:00:00Z' }, invalid: { created: '2023-01-01T00:00:00Z', ttl: '72h', expired: '2023-01-03T00:00:00Z' } },
  { name: 'health', props: { health: str }, rule: "self.health.startsWith('ok')", valid: { health: 'okay' }, invalid: { health: 'bad' } },
  { name: 'widgets', props: { widgets: mapListOf('key', { key: str, foo: int }) }, rule: "self.widgets.exists(w, w.key == 'x' && w.foo < 10)", valid: { widgets: [{ key: 'x', foo: 9 }] }, invalid: { widgets: [{ key: 'x', foo: 10 }] } },
  { name: 'prefix', props: { prefix: str }, root: true, rule: 'self.metadata.name.startsWith(self.spec.prefix)', valid: { prefix: 'ok' }, invalid: { prefix: 'nope' }, at: '<nil>: Invalid value: "object"' },
  { name: 'disjoint', props: { set1: setOf(str), set2: setOf(str) }, rule: 'self.set1.all(e, !(e in self.set2))', valid: { set1: ['a'], set2: ['b'] }, invalid: { set1: ['a', 'b'], set2: ['b'] } },
  { name: 'keyed', props: { names: setOf(str), details: mapOf(str) }, rule: 'size(self.names) == size(self.details) && self.names.all(n, n in self.details)', valid: { names: ['a', 'b'], details: { a: '1', b: '2' } }, invalid: { names: ['a', 'b'], details: { a: '1', c: '2' } } },
  { name: 'primary', props: { primary: str, clusters: mapListOf('name', { name: str }) }, rule: 'size(self.clusters.filter(c, c.name == self.primary)) == 1', valid: { primary: 'a', clusters: [{ name: 'a' }, { name: 'b' }] }, invalid: { primary: 'c', clusters: [{ name: 'a' }] } },
  // The scope examples: a map of objects, a list of integers, a string, and escaped property names.
  { name: 'components', props: { components: mapOf({ type: 'object', properties: { priority: int } }) }, rule: "self.components['Widget'].priority < 10", valid: { components: { Widget: { priority: 1 } } }, invalid: { components: { Widget: { priority: 10 } } } },
  { name: 'values', props: { values: { type: 'array', maxItems: 10, items: int } }, rule: 'self.values.all(value, value >= 0 && value < 100)', valid: { values: [0, 99] }, invalid: { values: [100] } },
  { name: 'escaped', props: { namespace: int, 'x-prop': int, redact__d: int }, rule: 'self.__namespace__ > 0 && self.x__dash__prop > 0 && self.redact__underscores__d > 0', valid: { namespace: 1, 'x-prop': 1, redact__d: 1 }, invalid: { namespace: 1, 'x-prop': 0, redact__d: 1 } },
  // Set and map lists compare without order and concatenate by union and merge.
  { name: 'setequal', props: { a: setOf(int), b: setOf(int) }, rule: 'self.a == self.b && self.a + self.b == self.a', valid: { a: [1, 2], b: [2, 1] }, invalid: { a: [1, 2], b: [1, 3] } },
];

// Rules scoped below spec: the int-or-string row and the string row of the scope table.
const FIELD_RULES: Array<Case & { field: string; fieldSchema: Schema; type: string }> = [
  { name: 'intorstring', field: 'v', fieldSchema: { 'x-kubernetes-int-or-string': true }, type: '', props: {}, rule: "type(self) == string ? self == '100%' : self == 1000", valid: { v: '100%' }, invalid: { v: 5 } },
  { name: 'kube', field: 's', fieldSchema: { type: 'string', maxLength: 64 }, type: 'string', props: {}, rule: "self.startsWith('kube')", valid: { s: 'kubelet' }, invalid: { s: 'docker' } },
];

// The transition table: [name, field schema, rule, old value, allowed new value, refused new value].
const TRANSITIONS: Array<[string, Schema, string, unknown, unknown, unknown]> = [
  ['immutable', { type: 'object', properties: { foo: str } }, 'self.foo == oldSelf.foo', { foo: 'a' }, { foo: 'a' }, { foo: 'b' }],
  ['keepbar', str, "oldSelf != 'bar' || self == 'bar'", 'bar', 'bar', 'baz'],
  ['keepfield', { type: 'object', properties: { field: str } }, '!has(oldSelf.field) || has(self.field)', { field: 'x' }, { field: 'y' }, {}],
  ['appendonly', setOf(str), 'self.all(element, element in oldSelf)', ['a', 'b'], ['a'], ['a', 'c']],
  ['fromx', str, "oldSelf != 'X' || self in ['A', 'B']", 'X', 'A', 'Y'],
  ['monotonic', int, 'self >= oldSelf', 5, 6, 4],
];

const crd = (name: string, spec: Schema, rootRules: unknown[] = []): Record<string, unknown> => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: `widgets.${name}.tables.example.com` },
  spec: {
    group: `${name}.tables.example.com`,
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', ...(rootRules.length ? { 'x-kubernetes-validations': rootRules } : {}), properties: { spec } } },
      },
    ],
  },
});
const widget = (group: string, name: string, spec: unknown): string =>
  JSON.stringify({ apiVersion: `${group}.tables.example.com/v1`, kind: 'Widget', metadata: { name }, spec });

let s: TestServer;
before(async () => {
  requireKubectl();
  s = await startTestServer();
  const items = [
    ...RULES.map((c) =>
      c.root
        ? crd(c.name, { type: 'object', properties: c.props }, [{ rule: c.rule }])
        : crd(c.name, { type: 'object', properties: c.props, 'x-kubernetes-validations': [{ rule: c.rule }] }),
    ),
    ...FIELD_RULES.map((c) => crd(c.name, { type: 'object', properties: { [c.field]: { ...c.fieldSchema, 'x-kubernetes-validations': [{ rule: c.rule }] } } })),
    ...TRANSITIONS.map(([name, schema, rule]) => crd(name, { type: 'object', properties: { f: { ...schema, 'x-kubernetes-validations': [{ rule }] } } })),
  ];
  const r = await s.kubectl(['apply', '-f', s.file('crds.json', JSON.stringify({ apiVersion: 'v1', kind: 'List', items }))]);
  assert.equal(r.code, 0, r.stderr);
  const w = await s.kubectl(['wait', '--for', 'condition=established', '--timeout=30s', 'crd', '--all']);
  assert.equal(w.code, 0, w.stderr);
});
after(async () => {
  await s?.close();
});

for (const c of RULES) {
  test(`validation rule: ${c.rule}`, async () => {
    const ok = await s.kubectl(['apply', '-f', '-'], { stdin: widget(c.name, c.root ? 'ok-1' : 'good', c.valid) });
    assert.equal(ok.code, 0, ok.stderr);
    const bad = await s.kubectl(['apply', '-f', '-'], { stdin: widget(c.name, 'bad', c.invalid) });
    assert.notEqual(bad.code, 0);
    assert.equal(bad.stderr.trim(), `The Widget "bad" is invalid: ${c.at ?? 'spec: Invalid value: "object"'}: failed rule: ${c.rule}`);
  });
}

for (const c of FIELD_RULES) {
  test(`validation rule on a field: ${c.rule}`, async () => {
    const ok = await s.kubectl(['apply', '-f', '-'], { stdin: widget(c.name, 'good', c.valid) });
    assert.equal(ok.code, 0, ok.stderr);
    const bad = await s.kubectl(['apply', '-f', '-'], { stdin: widget(c.name, 'bad', c.invalid) });
    assert.notEqual(bad.code, 0);
    assert.equal(bad.stderr.trim(), `The Widget "bad" is invalid: spec.${c.field}: Invalid value: "${c.type}": failed rule: ${c.rule}`);
  });
}

for (const [name, , rule, old, allowed, refused] of TRANSITIONS) {
  test(`transition rule: ${rule}`, async () => {
    // Transition rules never apply to creates, so any first value is accepted.
    let r = await s.kubectl(['apply', '-f', '-'], { stdin: widget(name, 'obj', { f: old }) });
    assert.equal(r.code, 0, r.stderr);
    r = await s.kubectl(['apply', '-f', '-'], { stdin: widget(name, 'obj', { f: refused }) });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, new RegExp(`^The Widget "obj" is invalid: spec\\.f: Invalid value: "[a-z]*": failed rule: ${rule.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*$`));
    r = await s.kubectl(['apply', '-f', '-'], { stdin: widget(name, 'obj', { f: allowed }) });
    assert.equal(r.code, 0, r.stderr);
  });
}

test('transition rules are refused where old and new values cannot be correlated (inside a set list)', async () => {
  const doc = crd('uncorrelatable', {
    type: 'object',
    properties: { l: { type: 'array', maxItems: 10, 'x-kubernetes-list-type': 'set', items: { type: 'string', maxLength: 10, 'x-kubernetes-validations': [{ rule: 'self == oldSelf' }] } } },
  });
  const r = await s.kubectl(['apply', '-f', '-'], { stdin: JSON.stringify(doc) });
  assert.notEqual(r.code, 0);
  assert.match(
    r.stderr,
    /spec\.validation\.openAPIV3Schema\.properties\[spec\]\.properties\[l\]\.items\.x-kubernetes-validations\[0\]\.rule: Invalid value: .*oldSelf cannot be used on the uncorrelatable portion of the schema within spec\.validation\.openAPIV3Schema\.properties\[spec\]\.properties\[l\]/,
  );
});

// "Resource use by validation functions". The seed quotes older wording; 1.33 says "estimated rule cost
// exceeds budget by factor of more than 100x (... where arrays, maps, and strings are declared)".
const COST_REFUSED = /x-kubernetes-validations\[0\]\.rule: Forbidden: estimated rule cost exceeds budget by factor of more than 100x \(try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared\)/;
const costCrd = (name: string, foo: Schema): string => JSON.stringify(crd(name, { type: 'object', properties: { foo } }));

test('cost: an unbounded list of strings with contains() on every item is refused', async () => {
  const r = await s.kubectl(['apply', '-f', '-'], { stdin: costCrd('cost1', { type: 'array', items: { type: 'string' }, 'x-kubernetes-validations': [{ rule: "self.all(x, x.contains('a string'))" }] }) });
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, COST_REFUSED);
});

test('cost: the same rule with maxItems and maxLength, on the list or on its items, is accepted', async () => {
  let r = await s.kubectl(['apply', '-f', '-'], { stdin: costCrd('cost2', { type: 'array', maxItems: 25, items: { type: 'string', maxLength: 10 }, 'x-kubernetes-validations': [{ rule: "self.all(x, x.contains('a string'))" }] }) });
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['apply', '-f', '-'], { stdin: costCrd('cost3', { type: 'array', maxItems: 25, items: { type: 'string', maxLength: 10, 'x-kubernetes-validations': [{ rule: "self.contains('a string')" }] } }) });
  assert.equal(r.code, 0, r.stderr);
});

test('cost: self.all(x, x == 5) is accepted on a list of integers and refused on a nested list', async () => {
  let r = await s.kubectl(['apply', '-f', '-'], { stdin: costCrd('cost4', { type: 'array', items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule: 'self.all(x, x == 5)' }] }) });
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['apply', '-f', '-'], { stdin: costCrd('cost5', { type: 'array', items: { type: 'array', items: { type: 'integer' }, 'x-kubernetes-validations': [{ rule: 'self.all(x, x == 5)' }] } }) });
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /properties\[foo\]\.items\.x-kubernetes-validations\[0\]\.rule: Forbidden: estimated rule cost exceeds budget/);
});

test('compile errors: no matching overload, no such field, invalid has() argument', async () => {
  const cases: Array<[string, Schema, RegExp]> = [
    ['self == true', { type: 'integer' }, /compilation failed: ERROR: <input>:1:6: found no matching overload for '_==_' applied to '\(int, bool\)'/],
    ['self.nonExistingField > 0', { type: 'object', properties: { a: int } }, /compilation failed: ERROR: <input>:1:5: undefined field 'nonExistingField'/],
    ['has(self)', { type: 'object', properties: { a: int } }, /compilation failed: ERROR: <input>:1:5: invalid argument to has\(\) macro/],
  ];
  for (const [i, [rule, schema, re]] of cases.entries()) {
    const r = await s.kubectl(['apply', '-f', '-'], { stdin: costCrd(`compile${i}`, { ...schema, 'x-kubernetes-validations': [{ rule }] }) });
    assert.notEqual(r.code, 0, rule);
    assert.match(r.stderr, /properties\[foo\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: apiextensions\.ValidationRule\{Rule:/);
    assert.match(r.stderr, re);
  }
});

// Every example of the seed's "Validation rules", "Transition rules" and "Resource use by validation
// functions" sections, through kubectl, with the exact stderr kubectl prints against kube-apiserver 1.33
// (cel-go v0.23.2). The examples share a few CRDs, each rule scoped where the seed means it, with the
// maxItems/maxLength/maxProperties bounds kube's cost budget asks for: a baseline object satisfies every
// rule of its CRD, and for each rule one variant is accepted and one, breaking that rule alone, refused.
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { requireKubectl, startTestServer, type KubectlResult, type TestServer } from './harness.js';

type Schema = Record<string, unknown>;
type Json = Record<string, unknown>;

const GROUP = 'seed.example.com';
const str: Schema = { type: 'string', maxLength: 64 };
const int: Schema = { type: 'integer' };
const list = (items: Schema): Schema => ({ type: 'array', maxItems: 10, items });
const setOf = (items: Schema): Schema => ({ ...list(items), 'x-kubernetes-list-type': 'set' });
const mapListOf = (key: string, properties: Record<string, Schema>): Schema => ({
  type: 'array',
  maxItems: 10,
  'x-kubernetes-list-type': 'map',
  'x-kubernetes-list-map-keys': [key],
  items: { type: 'object', required: [key], properties },
});
const mapOf = (values: Schema): Schema => ({ type: 'object', maxProperties: 10, additionalProperties: values });
const rules = (...rs: string[]): Schema => ({ 'x-kubernetes-validations': rs.map((rule) => ({ rule })) });

/** A namespaced CRD `<plural>.seed.example.com` (or under `group`) whose root schema is `root`. */
function crd(kind: string, root: Schema, group = GROUP): Json {
  const plural = `${kind.toLowerCase()}s`;
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind },
      versions: [{ name: 'v1', served: true, storage: true, schema: { openAPIV3Schema: { type: 'object', ...root } } }],
    },
  };
}
/** A CRD whose spec schema is `spec`, for the examples refused or accepted at CRD apply. */
const specCrd = (kind: string, spec: Schema, group = GROUP): Json => crd(kind, { properties: { spec: { type: 'object', ...spec } } }, group);

const obj = (kind: string, name: string, body: Json): Json => ({ apiVersion: `${GROUP}/v1`, kind, metadata: { name }, ...body });

/** kubectl's rendering of a 422 (cmdutil.checkErr): one cause on the line, several as a bulleted list. */
function invalid(kind: string, name: string, ...errors: string[]): string {
  const head = `The ${kind} "${name}" is invalid: `;
  return errors.length === 1 ? `${head}${errors[0]}\n` : `${head}\n${errors.map((e) => `* ${e}\n`).join('')}`;
}
const failed = (path: string, type: string, rule: string): string => `${path}: Invalid value: "${type}": failed rule: ${rule}`;

/** apiextensions.ValidationRule printed with %#v, as kube quotes a rule that does not compile. */
const ruleValue = (rule: string): string =>
  `apiextensions.ValidationRule{Rule:${JSON.stringify(rule)}, Message:"", MessageExpression:"", Reason:(*apiextensions.FieldValueErrorReason)(nil), FieldPath:"", OptionalOldSelf:(*bool)(nil)}`;
const SCHEMA = 'spec.validation.openAPIV3Schema';
// getCostErrorMessage in 1.33. The seed quotes older wording ("CEL rule exceeded budget by more than 100x
// (... where arrays, maps, and strings are used)").
const TOO_COSTLY = (what: string): string =>
  `${what} exceeds budget by factor of more than 100x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)`;
/** The three errors of a CRD whose only rule, at `at`, is more than 100x over both the per-rule and per-CRD budgets. */
const costRefused = (at: string): string[] => [
  `${SCHEMA}.${at}.x-kubernetes-validations[0].rule: Forbidden: ${TOO_COSTLY('estimated rule cost')}`,
  `${SCHEMA}.${at}.x-kubernetes-validations[0].rule: Forbidden: contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema`,
  `${SCHEMA}: Forbidden: ${TOO_COSTLY('x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema')}`,
];

let s: TestServer;
const apply = (doc: Json): Promise<KubectlResult> => s.kubectl(['apply', '-f', '-'], { stdin: JSON.stringify(doc) });
const patch = (resource: string, name: string, body: Json): Promise<KubectlResult> =>
  s.kubectl(['patch', resource, name, '--type=merge', '-p', JSON.stringify(body)]);

async function assertApplied(doc: Json, verb = 'created'): Promise<void> {
  const r = await apply(doc);
  assert.equal(r.stderr, '', `${JSON.stringify(doc)}\n${r.stderr}`);
  assert.equal(r.code, 0);
  const kind = String(doc['kind']).toLowerCase();
  const group = doc['kind'] === 'CustomResourceDefinition' ? 'apiextensions.k8s.io' : GROUP;
  assert.equal(r.stdout, `${kind}.${group}/${(doc['metadata'] as Json)['name']} ${verb}\n`);
}
async function assertRefused(r: Promise<KubectlResult>, stderr: string): Promise<void> {
  const out = await r;
  assert.equal(out.stderr, stderr);
  assert.equal(out.code, 1);
  assert.equal(out.stdout, '');
}

// ---- "Validation Rules Examples" -------------------------------------------------------------------

interface Row {
  rule: string;
  /** Where the rule sits: 'spec' (the default), '<nil>' for the root, or a field of spec. */
  at?: string;
  /** The schema type kube prints as the refused value ('' for int-or-string). */
  type?: string;
  /** Overrides of the baseline spec (or, for the root rule, of the whole object body). */
  ok: Json;
  bad: Json;
}

// One CRD holds every row: the fields each rule names sit in spec, and each spec-level rule reads them
// as `self.<field>`, as the seed writes them. Two rows differ from the seed's text, which does not
// compile as printed: the map1 row indexes `self['MY_KEY']` where `self.map1['MY_KEY']` is meant, and the
// envars row misses a closing parenthesis (that row is refused for cost anyway: see below).
const EXAMPLE_ROWS: Row[] = [
  { rule: 'self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas', ok: { minReplicas: 2, replicas: 2, maxReplicas: 2 }, bad: { replicas: 5 } },
  { rule: "'Available' in self.stateCounts", ok: { stateCounts: { Available: 0, Failed: 2 } }, bad: { stateCounts: { Pending: 1 } } },
  { rule: '(size(self.list1) == 0) != (size(self.list2) == 0)', ok: { list1: [], list2: ['b'] }, bad: { list1: ['a'], list2: ['b'] } },
  { rule: "!('MY_KEY' in self.map1) || self.map1['MY_KEY'].matches('^[a-zA-Z]*$')", ok: { map1: { OTHER: '123' } }, bad: { map1: { MY_KEY: 'a1' } } },
  { rule: 'has(self.expired) && self.created + self.ttl < self.expired', ok: { ttl: '47h59m' }, bad: { ttl: '48h' } },
  { rule: "self.health.startsWith('ok')", ok: { health: 'okay' }, bad: { health: 'not ok' } },
  { rule: "self.widgets.exists(w, w.key == 'x' && w.foo < 10)", ok: { widgets: [{ key: 'y', foo: 100 }, { key: 'x', foo: 9 }] }, bad: { widgets: [{ key: 'x', foo: 10 }] } },
  { rule: "type(self) == string ? self == '100%' : self == 1000", at: 'spec.intOrString', type: '', ok: { intOrString: 1000 }, bad: { intOrString: '50%' } },
  { rule: 'self.metadata.name.startsWith(self.prefix)', at: '<nil>', ok: { prefix: 'ok-' }, bad: { prefix: 'other' } },
  { rule: 'self.set1.all(e, !(e in self.set2))', ok: { set1: ['a', 'c'], set2: ['b', 'd'] }, bad: { set1: ['a', 'b'], set2: ['b'] } },
  { rule: 'size(self.names) == size(self.details) && self.names.all(n, n in self.details)', ok: { names: ['x'], details: { x: '1' } }, bad: { names: ['a', 'b'], details: { a: '1', c: '2' } } },
  { rule: 'size(self.clusters.filter(c, c.name == self.primary)) == 1', ok: { primary: 'west' }, bad: { primary: 'north' } },
];
const ENVARS_RULE = "self.envars.filter(e, e.name == 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*$'))";

const exampleCrd = crd('Example', {
  ...rules('self.metadata.name.startsWith(self.prefix)'),
  properties: {
    prefix: str,
    spec: {
      type: 'object',
      ...rules(...EXAMPLE_ROWS.filter((r) => !r.at).map((r) => r.rule)),
      properties: {
        minReplicas: int,
        replicas: int,
        maxReplicas: int,
        stateCounts: mapOf(int),
        list1: list(str),
        list2: list(str),
        map1: mapOf(str),
        created: { type: 'string', format: 'date-time' },
        ttl: { type: 'string', format: 'duration' },
        expired: { type: 'string', format: 'date-time' },
        health: str,
        widgets: mapListOf('key', { key: str, foo: int }),
        intOrString: { 'x-kubernetes-int-or-string': true, ...rules("type(self) == string ? self == '100%' : self == 1000") },
        set1: setOf(str),
        set2: setOf(str),
        names: setOf(str),
        details: mapOf(str),
        primary: str,
        clusters: mapListOf('name', { name: str }),
      },
    },
  },
});
const EXAMPLE_BASE: Json = {
  minReplicas: 1,
  replicas: 2,
  maxReplicas: 3,
  stateCounts: { Available: 1 },
  list1: ['a'],
  list2: [],
  map1: { MY_KEY: 'abc' },
  created: '2023-01-01T00:00:00Z',
  ttl: '24h',
  expired: '2023-01-03T00:00:00Z',
  health: 'ok',
  widgets: [{ key: 'x', foo: 1 }],
  intOrString: '100%',
  set1: ['a'],
  set2: ['b'],
  names: ['a', 'b'],
  details: { a: '1', b: '2' },
  primary: 'east',
  clusters: [{ name: 'east' }, { name: 'west' }],
};
/** An Example named `<prefix><suffix>` whose prefix field matches its name unless `body` overrides it. */
const example = (name: string, spec: Json, body: Json = {}): Json => obj('Example', name, { prefix: name.split('-')[0] + '-', spec: { ...EXAMPLE_BASE, ...spec }, ...body });

// ---- Scopes, escaping, list types ------------------------------------------------------------------

// The scope table's rows and the scope prose's examples (object, map, array, scalar), on one Scope kind.
const SCOPE_ROWS: Row[] = [
  { rule: 'self.status.actual <= self.spec.maxDesired', at: '<nil>', ok: { status: { actual: 5 } }, bad: { status: { actual: 6 } } },
  { rule: "self.components['Widget'].priority < 10", ok: { components: { Widget: { priority: 9 }, Other: { priority: 99 } } }, bad: { components: { Widget: { priority: 10 } } } },
  { rule: 'self.values.all(value, value >= 0 && value < 100)', ok: { values: [0, 99] }, bad: { values: [1, 100] } },
  { rule: "self.startsWith('kube')", at: 'spec.name', type: 'string', ok: { name: 'kubelet' }, bad: { name: 'docker' } },
  // A null is pruned from a field that is not nullable: has() then sees no field.
  { rule: 'has(self.foo)', ok: { foo: 2 }, bad: { foo: null } },
  { rule: 'self > 0', at: 'spec.foo', type: 'integer', ok: { foo: 7 }, bad: { foo: 0 } },
  { rule: "self['xyz'].foo > 0", at: 'spec.byKey', type: 'object', ok: { byKey: { xyz: { foo: 1 }, abc: { foo: -1 } } }, bad: { byKey: { xyz: { foo: 0 } } } },
  { rule: 'size(self) == 1', at: 'spec.tags', type: 'array', ok: { tags: ['b'] }, bad: { tags: ['a', 'b'] } },
];
const scopeCrd = crd('Scope', {
  ...rules('self.status.actual <= self.spec.maxDesired'),
  properties: {
    spec: {
      type: 'object',
      ...rules("self.components['Widget'].priority < 10", 'self.values.all(value, value >= 0 && value < 100)', 'has(self.foo)'),
      properties: {
        maxDesired: int,
        components: mapOf({ type: 'object', properties: { priority: int } }),
        values: list(int),
        name: { ...str, ...rules("self.startsWith('kube')") },
        foo: { ...int, ...rules('self > 0') },
        byKey: { type: 'object', ...rules("self['xyz'].foo > 0"), additionalProperties: { type: 'object', properties: { foo: int } } },
        tags: { type: 'array', ...rules('size(self) == 1'), items: { type: 'string' } },
      },
    },
    status: { type: 'object', properties: { actual: int } },
  },
});
const SCOPE_BASE: Json = { maxDesired: 5, components: { Widget: { priority: 1 } }, values: [50], name: 'kube', foo: 1, byKey: { xyz: { foo: 1 } }, tags: ['a'] };
const scope = (name: string, over: Json): Json => {
  const { status, ...spec } = over;
  return obj('Scope', name, { spec: { ...SCOPE_BASE, ...spec }, status: status ?? { actual: 0 } });
};

const ESCAPE_ROWS: Row[] = [
  { rule: 'self.__namespace__ > 0', ok: { namespace: 2 }, bad: { namespace: 0 } },
  { rule: 'self.x__dash__prop > 0', ok: { 'x-prop': 2 }, bad: { 'x-prop': 0 } },
  { rule: 'self.redact__underscores__d > 0', ok: { redact__d: 2 }, bad: { redact__d: 0 } },
];
const escapeCrd = specCrd('Escape', { ...rules(...ESCAPE_ROWS.map((r) => r.rule)), properties: { namespace: int, 'x-prop': int, redact__d: int } });
const ESCAPE_BASE: Json = { namespace: 1, 'x-prop': 1, redact__d: 1 };

// Equality of set and map lists ignores order (an atomic list's does not); + is a union for sets and a
// merge for maps, keeping the left operand's positions. map() turns the sum into a plain CEL list, whose
// equality is positional, so the rules see the order the seed describes. Two map-list fields are distinct
// object types in kube, which cannot be compared, so the map lists compared sit in one map of lists.
const LIST_ROWS: Row[] = [
  { rule: 'self.a == self.b', at: 'spec.setEquality', type: 'object', ok: { setEquality: { a: [1, 2], b: [2, 1] } }, bad: { setEquality: { a: [1, 2], b: [1, 3] } } },
  { rule: 'self.a != self.b', at: 'spec.atomicOrder', type: 'object', ok: { atomicOrder: { a: [1, 2], b: [2, 1] } }, bad: { atomicOrder: { a: [1, 2], b: [1, 2] } } },
  {
    rule: "self.lists['x'] == self.lists['y']",
    at: 'spec.mapEquality',
    type: 'object',
    ok: { mapEquality: { lists: { x: [{ k: 'a', v: 1 }, { k: 'b', v: 2 }], y: [{ k: 'b', v: 2 }, { k: 'a', v: 1 }] } } },
    bad: { mapEquality: { lists: { x: [{ k: 'a', v: 1 }, { k: 'b', v: 2 }], y: [{ k: 'b', v: 2 }, { k: 'a', v: 3 }] } } },
  },
  {
    rule: '(self.x + self.y).map(e, e) == self.want',
    at: 'spec.setUnion',
    type: 'object',
    ok: { setUnion: { x: [3, 1], y: [2, 1, 4], want: [3, 1, 2, 4] } },
    bad: { setUnion: { x: [3, 1], y: [2, 1, 4], want: [3, 1, 2, 1, 4] } },
  },
  {
    rule: "(self.lists['x'] + self.lists['y']).map(e, e.k) == self.keys && (self.lists['x'] + self.lists['y']).map(e, e.v) == self.values",
    at: 'spec.mapMerge',
    type: 'object',
    ok: { mapMerge: { lists: { x: [{ k: 'a', v: 1 }, { k: 'b', v: 2 }], y: [{ k: 'c', v: 3 }, { k: 'a', v: 9 }] }, keys: ['a', 'b', 'c'], values: [9, 2, 3] } },
    bad: { mapMerge: { lists: { x: [{ k: 'a', v: 1 }, { k: 'b', v: 2 }], y: [{ k: 'c', v: 3 }, { k: 'a', v: 9 }] }, keys: ['a', 'b', 'c', 'a'], values: [1, 2, 3, 9] } },
  },
];
const kvList = mapListOf('k', { k: { type: 'string', maxLength: 10 }, v: int });
const listTypeCrd = specCrd('ListType', {
  properties: {
    setEquality: { type: 'object', ...rules('self.a == self.b'), properties: { a: setOf(int), b: setOf(int) } },
    atomicOrder: { type: 'object', ...rules('self.a != self.b'), properties: { a: list(int), b: list(int) } },
    mapEquality: { type: 'object', ...rules("self.lists['x'] == self.lists['y']"), properties: { lists: { ...mapOf(kvList), maxProperties: 2 } } },
    setUnion: { type: 'object', ...rules('(self.x + self.y).map(e, e) == self.want'), properties: { x: setOf(int), y: setOf(int), want: { ...list(int), maxItems: 20 } } },
    mapMerge: {
      type: 'object',
      ...rules("(self.lists['x'] + self.lists['y']).map(e, e.k) == self.keys && (self.lists['x'] + self.lists['y']).map(e, e.v) == self.values"),
      properties: { lists: { ...mapOf(kvList), maxProperties: 2 }, keys: { ...list({ type: 'string', maxLength: 10 }), maxItems: 20 }, values: { ...list(int), maxItems: 20 } },
    },
  },
});

// ---- Transition rules ------------------------------------------------------------------------------

interface Transition {
  field: string;
  schema: Schema;
  rule: string;
  message?: string;
  /** The value created with, an update from it kube refuses, and one it accepts. */
  from: unknown;
  refused: unknown;
  allowed: unknown;
  type: string;
}
const TRANSITIONS: Transition[] = [
  {
    field: 'level',
    schema: { type: 'string', enum: ['low', 'medium', 'high'] },
    rule: "!(self == 'high' && oldSelf == 'low') && !(self == 'low' && oldSelf == 'high')",
    message: "cannot transition directly between 'low' and 'high'",
    from: 'low',
    refused: 'high',
    allowed: 'medium',
    type: 'string',
  },
  // Immutability.
  { field: 'immutable', schema: { type: 'object', properties: { foo: str, bar: str } }, rule: 'self.foo == oldSelf.foo', from: { foo: 'a', bar: 'b' }, refused: { foo: 'z', bar: 'b' }, allowed: { foo: 'a', bar: 'c' }, type: 'object' },
  // Prevent modification/removal once assigned, both forms.
  { field: 'keepBar', schema: str, rule: "oldSelf != 'bar' || self == 'bar'", from: 'bar', refused: 'baz', allowed: 'bar', type: 'string' },
  { field: 'keepField', schema: { type: 'object', properties: { field: str, other: str } }, rule: '!has(oldSelf.field) || has(self.field)', from: { field: 'f' }, refused: { other: 'o' }, allowed: { field: 'g' }, type: 'object' },
  // "Append-only set": as written, the rule lets elements go and refuses new ones (every element of the new
  // value must be in the old one), which is what kube does with it.
  { field: 'appendOnly', schema: setOf(str), rule: 'self.all(element, element in oldSelf)', from: ['a', 'b', 'c'], refused: ['c', 'a', 'd'], allowed: ['c', 'a'], type: 'array' },
  // If the previous value was X, the new one can only be A or B.
  { field: 'fromX', schema: str, rule: "oldSelf != 'X' || self in ['A', 'B']", from: 'X', refused: 'Y', allowed: 'B', type: 'string' },
  // Monotonic (non-decreasing) counters.
  { field: 'counter', schema: int, rule: 'self >= oldSelf', from: 5, refused: 4, allowed: 6, type: 'integer' },
];
const transitionCrd = specCrd('Transition', {
  properties: {
    ...Object.fromEntries(TRANSITIONS.map((t) => [t.field, { ...t.schema, 'x-kubernetes-validations': [{ rule: t.rule, ...(t.message ? { message: t.message } : {}) }] }])),
    // Items of a map list correlate by key, so a transition rule may sit inside them.
    entries: mapListOf('name', { name: str, value: { ...str, ...rules('self == oldSelf') } }),
  },
});

// ---- The server ------------------------------------------------------------------------------------

before(async () => {
  requireKubectl();
  s = await startTestServer();
  const items = [exampleCrd, scopeCrd, escapeCrd, listTypeCrd, transitionCrd];
  const r = await s.kubectl(['apply', '-f', s.file('crds.json', JSON.stringify({ apiVersion: 'v1', kind: 'List', items }))]);
  assert.equal(r.stderr, '');
  assert.equal(r.code, 0);
  const w = await s.kubectl(['wait', '--for', 'condition=established', '--timeout=30s', 'crd', '--all']);
  assert.equal(w.code, 0, w.stderr);
});
after(async () => {
  await s?.close();
});

// ---- Tests -----------------------------------------------------------------------------------------

// The tests use distinct objects, so they run side by side: kubectl's start-up dominates their time.
describe("the seed's CEL examples through kubectl", { concurrency: 4 }, () => {
  test('examples table: the baseline object satisfies every rule', async () => {
    await assertApplied(example('base-all', {}));
  });

  for (const [i, row] of EXAMPLE_ROWS.entries()) {
    test(`examples table: ${row.rule}`, async () => {
      const root = row.at === '<nil>';
      await assertApplied(root ? example(`ok-${i}`, {}, row.ok) : example(`ok-${i}`, row.ok));
      const bad = root ? example(`bad-${i}`, {}, row.bad) : example(`bad-${i}`, row.bad);
      await assertRefused(apply(bad), invalid('Example', `bad-${i}`, failed(row.at ?? 'spec', row.type ?? 'object', row.rule)));
    });
  }

  test("examples table: 'expired' missing fails has(self.expired) rather than erroring", async () => {
    const { expired: _, ...spec } = EXAMPLE_BASE;
    const r = await s.kubectl(['apply', '-f', '-'], { stdin: JSON.stringify({ ...example('noexp-1', {}), spec }) });
    assert.equal(r.stderr, invalid('Example', 'noexp-1', failed('spec', 'object', 'has(self.expired) && self.created + self.ttl < self.expired')));
    assert.equal(r.code, 1);
  });

  test('examples table: the int-or-string rule accepts its string case, refuses the other int', async () => {
    await assertApplied(example('ios-1', { intOrString: '100%' }));
    const rule = "type(self) == string ? self == '100%' : self == 1000";
    await assertRefused(apply(example('ios-2', { intOrString: 999 })), invalid('Example', 'ios-2', failed('spec.intOrString', '', rule)));
  });

  test('examples table: several rules failing at once are all listed, root first', async () => {
    const bad = example('many-1', { replicas: 9, health: 'bad' }, { prefix: 'x' });
    await assertRefused(
      apply(bad),
      invalid(
        'Example',
        'many-1',
        failed('<nil>', 'object', 'self.metadata.name.startsWith(self.prefix)'),
        failed('spec', 'object', EXAMPLE_ROWS[0]!.rule),
        failed('spec', 'object', "self.health.startsWith('ok')"),
      ),
    );
  });

  test('examples table: the envars filter().all(matches) row is refused for cost even with bounds', async () => {
    // The filter() result's items have no schema path, so kube cannot bound e.value's length for matches().
    const doc = specCrd('Envar', { ...rules(ENVARS_RULE), properties: { envars: mapListOf('name', { name: str, value: str }) } });
    await assertRefused(apply(doc), invalid('CustomResourceDefinition', `envars.${GROUP}`, ...costRefused('properties[spec]')));
  });

  test("examples table: the seed's literal map1 rule, self['MY_KEY'] on an object, does not compile", async () => {
    const rule = "!('MY_KEY' in self.map1) || self['MY_KEY'].matches('^[a-zA-Z]*$')";
    const r = await apply(specCrd('Literal', { ...rules(rule), properties: { map1: mapOf(str) } }));
    assert.equal(r.code, 1);
    // kube names self's type selfType<clock nanoseconds>, so the type is matched loosely.
    assert.match(
      r.stderr,
      new RegExp(
        `^The CustomResourceDefinition "literals\\.seed\\.example\\.com" is invalid: ${esc(`${SCHEMA}.properties[spec].x-kubernetes-validations[0].rule: Invalid value: ${ruleValue(rule)}: compilation failed: ERROR: <input>:1:33: found no matching overload for '_[_]' applied to '(`)}selfType\\d+${esc(`, string)'\n | ${rule}\n | ................................^\n`)}$`,
      ),
    );
  });

  for (const [i, row] of SCOPE_ROWS.entries()) {
    test(`scopes: ${row.rule}`, async () => {
      await assertApplied(scope(`ok-${i}`, row.ok));
      await assertRefused(apply(scope(`bad-${i}`, row.bad)), invalid('Scope', `bad-${i}`, failed(row.at ?? 'spec', row.type ?? 'object', row.rule)));
    });
  }

  for (const [i, row] of ESCAPE_ROWS.entries()) {
    test(`escaping: ${row.rule}`, async () => {
      await assertApplied(obj('Escape', `ok-${i}`, { spec: { ...ESCAPE_BASE, ...row.ok } }));
      await assertRefused(apply(obj('Escape', `bad-${i}`, { spec: { ...ESCAPE_BASE, ...row.bad } })), invalid('Escape', `bad-${i}`, failed('spec', 'object', row.rule)));
    });
  }

  for (const [i, row] of LIST_ROWS.entries()) {
    test(`list types: ${row.rule}`, async () => {
      await assertApplied(obj('ListType', `ok-${i}`, { spec: row.ok }));
      await assertRefused(apply(obj('ListType', `bad-${i}`, { spec: row.bad })), invalid('ListType', `bad-${i}`, failed(row.at!, row.type!, row.rule)));
    });
  }

  for (const t of TRANSITIONS) {
    test(`transition rules: ${t.rule}`, async () => {
      const name = t.field.toLowerCase();
      const put = (v: unknown): Json => obj('Transition', name, { spec: { [t.field]: v } });
      // Transition rules never apply to creates: the refused value is a fine first value.
      await assertApplied(obj('Transition', `${name}-new`, { spec: { [t.field]: t.refused } }));
      await assertApplied(put(t.from));
      const error = `spec.${t.field}: Invalid value: "${t.type}": ${t.message ?? `failed rule: ${t.rule}`}`;
      await assertRefused(apply(put(t.refused)), invalid('Transition', name, error));
      // The same through a JSON patch; the object is left as it was.
      const replace = [{ op: 'replace', path: `/spec/${t.field}`, value: t.refused }];
      await assertRefused(s.kubectl(['patch', `transitions.${GROUP}`, name, '--type=json', '-p', JSON.stringify(replace)]), invalid('Transition', name, error));
      const got = await s.kubectl(['get', `transitions.${GROUP}`, name, '-o', 'jsonpath={.spec}']);
      assert.deepEqual(JSON.parse(got.stdout), { [t.field]: t.from });
      await assertApplied(put(t.allowed), JSON.stringify(t.allowed) === JSON.stringify(t.from) ? 'unchanged' : 'configured');
    });
  }

  test('transition rules: on an optional field they do not apply when the field is set or unset', async () => {
    await assertApplied(obj('Transition', 'optional', { spec: { level: 'low' } }));
    // Setting counter, then removing it (it was 9: a lower value would be refused).
    let r = await patch(`transitions.${GROUP}`, 'optional', { spec: { counter: 9 } });
    assert.equal(r.stderr, '');
    r = await patch(`transitions.${GROUP}`, 'optional', { spec: { counter: 3 } });
    assert.equal(r.stderr, invalid('Transition', 'optional', failed('spec.counter', 'integer', 'self >= oldSelf')));
    r = await patch(`transitions.${GROUP}`, 'optional', { spec: { counter: null } });
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, `transition.${GROUP}/optional patched\n`);
    r = await patch(`transitions.${GROUP}`, 'optional', { spec: { counter: 1 } });
    assert.equal(r.stderr, '');
  });

  test('transition rules: items of a map list correlate by key', async () => {
    await assertApplied(obj('Transition', 'entries', { spec: { entries: [{ name: 'a', value: '1' }, { name: 'b', value: '2' }] } }));
    // Reordered, with a new key: every old key keeps its value.
    await assertApplied(obj('Transition', 'entries', { spec: { entries: [{ name: 'c', value: '3' }, { name: 'b', value: '2' }, { name: 'a', value: '1' }] } }), 'configured');
    await assertRefused(
      apply(obj('Transition', 'entries', { spec: { entries: [{ name: 'c', value: '3' }, { name: 'b', value: '9' }, { name: 'a', value: '1' }] } })),
      invalid('Transition', 'entries', failed('spec.entries[1].value', 'string', 'self == oldSelf')),
    );
  });

  test('transition rules: refused at CRD apply where old and new cannot be correlated', async () => {
    const cases: Array<[string, Schema, string, string]> = [
      // Inside a set list.
      ['Sets', { tags: { ...setOf({ ...str, ...rules('self == oldSelf') }) } }, 'properties[spec].properties[tags].items', 'properties[spec].properties[tags]'],
      // Inside an atomic list of objects, one level down.
      [
        'Atomics',
        { ports: list({ type: 'object', properties: { port: { ...int, ...rules('self == oldSelf') } } }) },
        'properties[spec].properties[ports].items.properties[port]',
        'properties[spec].properties[ports]',
      ],
    ];
    for (const [kind, properties, at, within] of cases) {
      await assertRefused(
        apply(specCrd(kind.slice(0, -1), { properties })),
        invalid(
          'CustomResourceDefinition',
          `${kind.toLowerCase()}.${GROUP}`,
          `${SCHEMA}.${at}.x-kubernetes-validations[0].rule: Invalid value: "self == oldSelf": oldSelf cannot be used on the uncorrelatable portion of the schema within ${SCHEMA}.${within}`,
        ),
      );
    }
    // Objects correlate whatever their x-kubernetes-map-type, atomic included (MapIsCorrelatable).
    await assertApplied(specCrd('Whole', { properties: { whole: { type: 'object', 'x-kubernetes-map-type': 'atomic', properties: { part: { ...str, ...rules('self == oldSelf') } } } } }));
  });

  test('compilation failures: no matching overload, no such field, invalid has() argument', async () => {
    // cel-go v0.23.2 places the has() error at the argument (1:5); the seed's older text says 1:4.
    const cases: Array<[string, string, Schema, string, string]> = [
      ['Overload', 'self == true', { properties: { replicas: { ...int, ...rules('self == true') } } }, 'properties[spec].properties[replicas]', "<input>:1:6: found no matching overload for '_==_' applied to '(int, bool)'\n | self == true\n | .....^"],
      ['Nofield', 'self.nonExistingField > 0', { ...rules('self.nonExistingField > 0'), properties: { replicas: int } }, 'properties[spec]', "<input>:1:5: undefined field 'nonExistingField'\n | self.nonExistingField > 0\n | ....^"],
      ['Hasself', 'has(self)', { ...rules('has(self)'), properties: { replicas: int } }, 'properties[spec]', '<input>:1:5: invalid argument to has() macro\n | has(self)\n | ....^'],
    ];
    for (const [kind, rule, spec, at, error] of cases) {
      await assertRefused(
        apply(specCrd(kind, spec)),
        invalid('CustomResourceDefinition', `${kind.toLowerCase()}s.${GROUP}`, `${SCHEMA}.${at}.x-kubernetes-validations[0].rule: Invalid value: ${ruleValue(rule)}: compilation failed: ERROR: ${error}`),
      );
    }
  });

  // ---- Resource use by validation functions ----------------------------------------------------------

  const CONTAINS = "self.all(x, x.contains('a string'))";

  test('cost: contains() on every item of an unbounded list of unbounded strings is refused', async () => {
    const doc = specCrd('Unbounded', { properties: { foo: { type: 'array', items: { type: 'string' }, ...rules(CONTAINS) } } });
    await assertRefused(apply(doc), invalid('CustomResourceDefinition', `unboundeds.${GROUP}`, ...costRefused('properties[spec].properties[foo]')));
  });

  test('cost: with maxItems and maxLength the rule is accepted, and runs', async () => {
    const doc = specCrd('Bounded', { properties: { foo: { type: 'array', maxItems: 25, items: { type: 'string', maxLength: 10 }, ...rules(CONTAINS) } } });
    await assertApplied(doc);
    const w = await s.kubectl(['wait', '--for', 'condition=established', '--timeout=30s', `crd/boundeds.${GROUP}`]);
    assert.equal(w.code, 0, w.stderr);
    await assertApplied(obj('Bounded', 'ok', { spec: { foo: ['a string', 'xa stringx'] } }));
    await assertRefused(apply(obj('Bounded', 'bad', { spec: { foo: ['a string', 'a strin'] } })), invalid('Bounded', 'bad', failed('spec.foo', 'array', CONTAINS)));
  });

  test('cost: the rule on the bounded items themselves is accepted, and runs per item', async () => {
    // The seed prints this rule with an extra closing parenthesis, which would not parse.
    const rule = "self.contains('a string')";
    const doc = specCrd('Peritem', { properties: { foo: { type: 'array', maxItems: 25, items: { type: 'string', maxLength: 10, ...rules(rule) } } } });
    await assertApplied(doc);
    const w = await s.kubectl(['wait', '--for', 'condition=established', '--timeout=30s', `crd/peritems.${GROUP}`]);
    assert.equal(w.code, 0, w.stderr);
    await assertApplied(obj('Peritem', 'ok', { spec: { foo: ['a string'] } }));
    await assertRefused(apply(obj('Peritem', 'bad', { spec: { foo: ['a string', 'nope', 'a string', 'no'] } })), invalid('Peritem', 'bad', failed('spec.foo[1]', 'string', rule), failed('spec.foo[3]', 'string', rule)));
  });

  test("cost: the seed's per-item rule as printed, with its extra parenthesis, is a syntax error", async () => {
    const rule = "self.contains('a string'))";
    const doc = specCrd('Typo', { properties: { foo: { type: 'array', maxItems: 25, items: { type: 'string', maxLength: 10, ...rules(rule) } } } });
    await assertRefused(
      apply(doc),
      invalid(
        'CustomResourceDefinition',
        `typos.${GROUP}`,
        `${SCHEMA}.properties[spec].properties[foo].items.x-kubernetes-validations[0].rule: Invalid value: ${ruleValue(rule)}: compilation failed: ERROR: <input>:1:26: Syntax error: extraneous input ')' expecting <EOF>\n | ${rule}\n | .........................^`,
      ),
    );
  });

  test('cost: self.all(x, x == 5) is accepted on an unbounded list of integers', async () => {
    await assertApplied(specCrd('Flat', { properties: { foo: { type: 'array', items: { type: 'integer' }, ...rules('self.all(x, x == 5)') } } }));
  });

  test('cost: the same rule on each list of an unbounded list of lists is refused', async () => {
    const doc = specCrd('Nested', { properties: { foo: { type: 'array', items: { type: 'array', items: { type: 'integer' }, ...rules('self.all(x, x == 5)') } } } });
    await assertRefused(apply(doc), invalid('CustomResourceDefinition', `nesteds.${GROUP}`, ...costRefused('properties[spec].properties[foo].items')));
  });
});

function esc(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

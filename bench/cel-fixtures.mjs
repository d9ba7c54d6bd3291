// The seed's validation rules ("Validation Rules Examples") with an object they all accept, and the
// declared CEL type Kubernetes derives for it: shared by bench/cel.mjs and bench/cel-rules.mjs.
import { INT, STRING, TIMESTAMP, DURATION, DYN, listOf, mapOf } from '../dist/cel/types.js';

const obj = (name, fields) => ({ kind: 'object', name, fields: new Map(Object.entries(fields).map(([k, type]) => [k, { type, jsonName: k }])) });
const set = (elem) => ({ ...listOf(elem), listType: 'set' });
const mapList = (elem, keys) => ({ ...listOf(elem), listType: 'map', mapKeys: keys });

export const SPEC_TYPE = obj('spec', {
  minReplicas: INT, replicas: INT, maxReplicas: INT,
  stateCounts: mapOf(STRING, INT),
  list1: listOf(STRING), list2: listOf(STRING),
  map1: mapOf(STRING, STRING),
  envars: mapList(obj('envar', { name: STRING, value: STRING }), ['name']),
  created: TIMESTAMP, ttl: DURATION, expired: TIMESTAMP,
  health: STRING,
  widgets: mapList(obj('widget', { key: STRING, foo: INT }), ['key']),
  percent: DYN,
  set1: set(STRING), set2: set(STRING),
  names: set(STRING), details: mapOf(STRING, STRING),
  clusters: mapList(obj('cluster', { name: STRING }), ['name']),
  primary: STRING,
});

export const SPEC = {
  minReplicas: 1, replicas: 3, maxReplicas: 10,
  stateCounts: { Available: 2, Pending: 1 },
  list1: ['a'], list2: [],
  map1: { MY_KEY: 'abc' },
  envars: [{ name: 'MY_ENV', value: 'abc' }, { name: 'OTHER', value: 'x1' }],
  created: '2024-01-01T00:00:00Z', ttl: '1h', expired: '2024-01-02T00:00:00Z',
  health: 'ok: all good',
  widgets: [{ key: 'x', foo: 5 }, { key: 'y', foo: 50 }],
  percent: '100%',
  set1: ['a', 'b'], set2: ['c', 'd'],
  names: ['n1', 'n2'], details: { n1: 'one', n2: 'two' },
  clusters: [{ name: 'east' }, { name: 'west' }],
  primary: 'east',
};

// [CEL rule as the seed writes it, the same for cel-js where its JSON input needs explicit types, plain JS]
export const RULES = [
  ['self.minReplicas <= self.replicas && self.replicas <= self.maxReplicas', null, (s) => s.minReplicas <= s.replicas && s.replicas <= s.maxReplicas],
  ["'Available' in self.stateCounts", null, (s) => Object.hasOwn(s.stateCounts, 'Available')],
  ['(size(self.list1) == 0) != (size(self.list2) == 0)', null, (s) => (s.list1.length === 0) !== (s.list2.length === 0)],
  ["!('MY_KEY' in self.map1) || self.map1['MY_KEY'].matches('^[a-zA-Z]*$')", null, (s) => !Object.hasOwn(s.map1, 'MY_KEY') || /^[a-zA-Z]*$/.test(s.map1.MY_KEY)],
  ["self.envars.filter(e, e.name == 'MY_ENV').all(e, e.value.matches('^[a-zA-Z]*$'))", null, (s) => s.envars.filter((e) => e.name === 'MY_ENV').every((e) => /^[a-zA-Z]*$/.test(e.value))],
  ['has(self.expired) && self.created + self.ttl < self.expired', 'has(self.expired) && timestamp(self.created) + duration(self.ttl) < timestamp(self.expired)', (s) => s.expired !== undefined && Date.parse(s.created) + 3600e3 < Date.parse(s.expired)],
  ["self.health.startsWith('ok')", null, (s) => s.health.startsWith('ok')],
  ["self.widgets.exists(w, w.key == 'x' && w.foo < 10)", null, (s) => s.widgets.some((w) => w.key === 'x' && w.foo < 10)],
  ["type(self.percent) == string ? self.percent == '100%' : self.percent == 1000", null, (s) => (typeof s.percent === 'string' ? s.percent === '100%' : s.percent === 1000)],
  ['self.set1.all(e, !(e in self.set2))', null, (s) => s.set1.every((e) => !s.set2.includes(e))],
  ['size(self.names) == size(self.details) && self.names.all(n, n in self.details)', null, (s) => s.names.length === Object.keys(s.details).length && s.names.every((n) => Object.hasOwn(s.details, n))],
  ['size(self.clusters.filter(c, c.name == self.primary)) == 1', null, (s) => s.clusters.filter((c) => c.name === s.primary).length === 1],
];

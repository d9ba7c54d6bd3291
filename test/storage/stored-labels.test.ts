// The label index reads labels from a cached value's bytes (labelPairsOfBytes, labelPairsInSlab) instead of
// decoding the value: whatever the stored text, what it reads must be what labelsOfStored reads from the text,
// or nothing (then the index reads the text). Generated objects: escapes, non-ASCII and lone surrogates, empty
// and null labels, no metadata, labels anywhere among metadata's members, nested objects and decoys before
// them, repeated names, values that are not strings, spaced and truncated text, and managedFields lists
// shared between values (a slab value's bytes then lack the list), in their usual place and in odd ones.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { jsonValueEnd, labelPairsOfBytes, type LabelPairs } from '../../src/util/stored-json-bytes.js';
import { labelsOfStored } from '../../src/util/stored-json.js';
import { managedFieldsSpan } from '../../src/storage/shared-bytes.js';
import { labelPairsInSlab, labelRecord, storedLabelPairs } from '../../src/storage/stored-labels.js';
import { ValueSlabs, asciiBytes } from '../../src/storage/value-slabs.js';
import { prng } from '../prng.js';

/** Text put in as it is (a repeated key, a value JSON.stringify would not write). */
class Raw {
  constructor(readonly text: string) {}
}
/** An object as its members in order (a name may come twice). */
class Obj {
  constructor(readonly members: [string, unknown][]) {}
}

function ser(v: unknown): string {
  if (v instanceof Raw) return v.text;
  if (v instanceof Obj) return `{${v.members.map(([k, x]) => `${JSON.stringify(k)}:${ser(x)}`).join(',')}}`;
  if (Array.isArray(v)) return `[${v.map(ser).join(',')}]`;
  return JSON.stringify(v);
}

const STRINGS = ['', 'web', 'db', 'bench', 'team-a', 'a/b', 'example.com/owner', 'x'.repeat(40), '1', '01', '__proto__', 'labels', 'say "hi"', 'back\\slash', 'tab\there', 'line\n', 'é', 'grüße', '東京', '😀', 'lone \ud800', '\u007f', '{"app":"web"}', '"labels":{"tier":"db"}', ']}'];
const MANAGED = [
  [{ manager: 'node', operation: 'Update', apiVersion: 'v1', time: '2026-11-27T17:57:36Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:app': {} } } } }],
  [{ manager: 'kubectl', operation: 'Apply', apiVersion: 'v1', time: '2026-11-27T17:57:37Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:x': {} } } }],
  // Not a whole value up to its first `}]`: the slab's bytes are put together to be read.
  [{ manager: 'odd', operation: 'Update', apiVersion: 'v1', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:list': [{ a: 1 }, { b: 2 }] } } }],
  [{ manager: 'esc', operation: 'Update', apiVersion: 'v1', time: 'a \\"quoted\\" }] time', fieldsType: 'FieldsV1', fieldsV1: {} }],
];

/** The same text spaced out (JSON.stringify's indenting), where it is valid JSON. */
function spaced(t: string): string {
  try {
    return JSON.stringify(JSON.parse(t), null, 1);
  } catch {
    return t.replace(/,/g, ', ');
  }
}

function generator(seed: number) {
  const rand = prng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const chance = (p: number): boolean => rand() < p;
  const shuffle = <T>(xs: T[]): T[] => {
    for (let i = xs.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [xs[i], xs[j]] = [xs[j]!, xs[i]!];
    }
    return xs;
  };
  // Mostly plain names and values, as real labels are.
  const labelString = (): string => (chance(0.85) ? pick(STRINGS.slice(0, 12)) : pick(STRINGS));

  function labels(): unknown {
    const r = rand();
    if (r < 0.05) return null;
    if (r < 0.1) return new Obj([]);
    if (r < 0.13) return pick([[], 'app', 3, true, new Raw('{"a":"b" }'), new Raw('{"a":"b",}'), new Raw('{"a":"b\u0001"}'), new Raw('{"a":"b"'), new Raw('nul')]);
    const members: [string, unknown][] = [];
    const n = Math.floor(rand() * 6);
    for (let i = 0; i < n; i++) {
      const name = labelString();
      if (members.some(([k]) => k === name) && chance(0.7)) continue;
      members.push([name, chance(0.04) ? pick([1, null, true, new Obj([['a', 'b']]), ['x']]) : labelString()]);
    }
    return new Obj(members);
  }

  function metadata(shareable: unknown[]): unknown {
    const r = rand();
    if (r < 0.03) return pick([null, [], 'meta', new Obj([])]);
    const members: [string, unknown][] = [['name', labelString()], ['uid', `u-${Math.floor(rand() * 1e6)}`], ['resourceVersion', '']];
    if (chance(0.5)) members.push(['annotations', new Obj([['labels', '{"app":"web"}'], ['x/labels', pick(STRINGS)], ['padding', 'p'.repeat(Math.floor(rand() * 100))]])]);
    if (chance(0.3)) members.push(['finalizers', ['labels', '{"labels":{}}', pick(STRINGS)]]);
    if (chance(0.3)) members.push(['generation', Math.floor(rand() * 10)], ['deletionGracePeriodSeconds', 0]);
    if (chance(0.03)) members.push(['odd', new Raw(pick(['1{', 'tru]e', '', '"a"b"', `{"x":"abc"managedFields":${ser(pick(shareable))},"y":"{"}`]))]);
    if (chance(0.2)) members.push(['ownerReferences', [new Obj([['name', 'labels'], ['controller', true], ['labels', new Obj([['app', 'web']])]])]]);
    if (chance(0.85)) members.push(['managedFields', pick(shareable)]);
    if (chance(0.85)) members.push(['labels', labels()]);
    if (chance(0.05)) members.push(['labels', labels()]);
    shuffle(members);
    // Mostly in the order the server writes (sorted, as a CR's are), else any.
    if (chance(0.6)) members.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return new Obj(members);
  }

  return function text(): string {
    const shareable = MANAGED;
    const top: [string, unknown][] = [['apiVersion', 'g.example.com/v1'], ['kind', 'Thing']];
    if (chance(0.95)) top.push(['metadata', metadata(shareable)]);
    if (chance(0.5)) top.push(['spec', new Obj([['labels', new Obj([['app', 'spec']])], ['managedFields', pick(shareable)], ['n', 1.5e-7], ['flag', false]])]);
    if (chance(0.2)) top.push(['data', new Obj([['labels', chance(0.5) ? '"labels":{' : new Obj([['app', 'data']])], ['x', [1, 2, { a: '}' }]]])]);
    // Not JSON: a scalar with a bracket, and a string closed just before a managedFields list (its quotes then
    // pair otherwise in the text than in the bytes without it).
    if (chance(0.05)) top.push(['odd', new Raw(pick(['1{', 'tru]e', '{"a":1}}', `{"x":"abc"managedFields":${ser(pick(shareable))},"y":"}{"}`]))]);
    if (chance(0.1)) top.push(['managedFields', pick(shareable)]);
    if (chance(0.4)) shuffle(top);
    const obj = new Obj(top);
    const r = rand();
    let t = ser(obj);
    if (r < 0.05) t = spaced(t);
    else if (r < 0.1) t = t.slice(0, Math.floor(rand() * t.length));
    else if (r < 0.12) t = `${t}garbage`;
    else if (r < 0.13) t = `not json ${t}`;
    return t;
  };
}

/** Text UTF-8 carries exactly (no lone surrogate). */
const wellFormed = (t: string): boolean => Buffer.from(t, 'utf8').toString('utf8') === t;

/** Labels as a map, with no name twice. */
function asMap(pairs: LabelPairs): Map<string, string> {
  const m = new Map<string, string>();
  for (let i = 0; i < pairs.length; i += 2) {
    assert.ok(!m.has(pairs[i]!), `name ${pairs[i]} twice`);
    m.set(pairs[i]!, pairs[i + 1]!);
  }
  assert.equal(pairs.length % 2, 0);
  return m;
}

/** labelsOfStored's reading of text as a map, or undefined. */
function slow(text: string): Map<string, string> | undefined {
  const l = labelsOfStored(text);
  return l === undefined ? undefined : new Map(Object.entries(l));
}

describe('labels read from stored bytes', () => {
  it('the byte reader gives labelsOfStored of the text, or declines', () => {
    let read = 0;
    let total = 0;
    for (const seed of [1, 2, 3, 4]) {
      const text = generator(seed);
      for (let n = 0; n < 3_000; n++) {
        const t = text();
        if (!wellFormed(t)) continue;
        // Bytes before and after the value's, as in a slab: the reader must stay within its own.
        const before = Buffer.from('{"metadata":{"labels":{"x":"y"}}}');
        const after = Buffer.from(',"labels":{"z":"w"}}}');
        const buf = Buffer.concat([before, Buffer.from(t, 'utf8'), after]);
        const fast = labelPairsOfBytes(buf, before.length, buf.length - after.length);
        total++;
        if (fast === undefined) continue;
        read++;
        assert.deepEqual(asMap(fast), slow(t), t);
      }
    }
    // Most generated objects are plain: the reader must not decline them all.
    assert.ok(read > total * 0.5, `read ${read} of ${total}`);
  });

  it('with a shared part missing from the bytes, reads as from the whole text, or declines', () => {
    let read = 0;
    let tried = 0;
    for (const seed of [11, 12, 13]) {
      const text = generator(seed);
      for (let n = 0; n < 3_000; n++) {
        const t = text();
        if (!wellFormed(t)) continue;
        const span = managedFieldsSpan(t);
        if (span === undefined) continue;
        // As ValueSlabs keeps it: the bytes around the part; as labelPairsInSlab, the gap only for a whole value.
        const part = Buffer.from(t.slice(span[0], span[1]), 'utf8');
        if (jsonValueEnd(part, 0, part.length) !== part.length) continue;
        const rest = Buffer.from(t.slice(0, span[0]) + t.slice(span[1]) + '}]"', 'utf8');
        const gap = Buffer.byteLength(t.slice(0, span[0]), 'utf8');
        tried++;
        const fast = labelPairsOfBytes(rest, 0, rest.length - 3, gap);
        if (fast === undefined) continue;
        read++;
        assert.deepEqual(asMap(fast), slow(t), t);
      }
    }
    assert.ok(read > tried * 0.3, `read ${read} of ${tried}`);
  });

  it('declines when the walk steps over the gap other than as a member value', () => {
    // Not JSON: the quote before managedFields closes a string, so the text's walk pairs the list's quotes
    // otherwise, meets its `}` outside a string and fails; the bytes without the list walk on to the labels.
    const list = `[{"m":"}","pad":"${'p'.repeat(60)}"}]`;
    const t = `{"odd":{"x":"abc"managedFields":${list}x"},"metadata":{"labels":{"k":"v"}}}`;
    assert.equal(labelsOfStored(t), undefined);
    const span = managedFieldsSpan(t)!;
    assert.equal(t.slice(span[0], span[1]), list);
    const rest = Buffer.from(t.slice(0, span[0]) + t.slice(span[1]));
    assert.equal(jsonValueEnd(Buffer.from(list), 0, list.length), list.length);
    assert.equal(labelPairsOfBytes(rest, 0, rest.length, span[0]), undefined);
    // As a member's value, the list is stepped over.
    const u = `{"metadata":{"managedFields":${list},"labels":{"k":"v"}}}`;
    const at = managedFieldsSpan(u)!;
    const bytes = Buffer.from(u.slice(0, at[0]) + u.slice(at[1]));
    assert.deepEqual(labelPairsOfBytes(bytes, 0, bytes.length, at[0]), ['k', 'v']);
  });

  it('cached values, managedFields shared or not, read as labelsOfStored reads their text', () => {
    const slabs = new ValueSlabs(64 * 1024);
    let fast = 0;
    let sharedRead = 0;
    let shared = 0;
    let n = 0;
    for (const seed of [21, 22, 23, 24, 25]) {
      const text = generator(seed);
      for (let i = 0; i < 2_000; i++) {
        const t = text();
        const kv = slabs.make({ key: `/k/${n++}`, value: t, createRevision: 1, modRevision: 1 });
        const isShared = asciiBytes(kv)?.shared !== undefined;
        if (isShared) shared++;
        const expected = slow(t);
        const inSlab = labelPairsInSlab(kv);
        if (inSlab !== undefined) {
          fast++;
          if (isShared) sharedRead++;
          assert.deepEqual(asMap(inSlab), expected, t);
        }
        // With the text's reading where the bytes' declines: always labelsOfStored's.
        const either = storedLabelPairs(kv);
        assert.deepEqual(either === undefined ? undefined : asMap(either), expected, t);
      }
    }
    assert.ok(shared > 1_000, `only ${shared} values shared a list`);
    assert.ok(sharedRead > shared * 0.5, `read ${sharedRead} of ${shared} shared values from their bytes`);
    assert.ok(fast > n * 0.5, `read ${fast} of ${n} from their bytes`);
  });

  it('reads names and values in their order, wherever the object is in the buffer', () => {
    const a = Buffer.from('{"metadata":{"labels":{"app":"web","tier":"db"}}}');
    const b = Buffer.from('xx{"kind":"K","metadata":{"name":"n","labels":{"tier":"web","app":"web"}}}');
    const x = labelPairsOfBytes(a, 0, a.length)!;
    const y = labelPairsOfBytes(b, 2, b.length)!;
    assert.deepEqual([...x], ['app', 'web', 'tier', 'db']);
    assert.deepEqual([...y], ['tier', 'web', 'app', 'web']);
  });

  it('a set read from bytes is one frozen record for a selector, __proto__ an own label as JSON.parse has it', () => {
    const text = '{"metadata":{"labels":{"__proto__":"x","app":"web"}}}';
    const a = Buffer.from(text);
    const b = Buffer.from(`  ${text}`);
    const x = labelPairsOfBytes(a, 0, a.length)!;
    const y = labelPairsOfBytes(b, 2, b.length)!;
    assert.equal(x, y, 'the same set shares its array');
    const rec = labelRecord(x);
    assert.equal(labelRecord(y), rec);
    assert.ok(Object.isFrozen(rec));
    assert.deepEqual(rec, labelsOfStored(text));
    assert.ok(Object.hasOwn(rec, '__proto__'));
    assert.equal(Object.getPrototypeOf(rec), Object.prototype);
  });
});

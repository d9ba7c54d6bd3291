// The watch cache's label index against a model: random creates, updates (labels changed, removed, made
// unreadable), deletes and label-selected lists, through the cache as the registry uses it (and through a
// logical cluster's prefixed view). A list by labels must give every key in range that meets the
// requirements, every key whose labels cannot be read from its bytes, nothing outside the range, in key
// order, pages that join up to the whole, and `more` exactly when any key of the range follows a page.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeyPostings, mergedKeys } from '../../src/storage/key-postings.js';
import { createCachedStore } from '../../src/storage/cache.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import { clusterStore } from '../../src/storage/prefixed-store.js';
import { compareKeys, prefixEnd } from '../../src/storage/key-range.js';
import type { KVStore, LabelRequirement } from '../../src/storage/types.js';
import { prng } from './helpers.js';

const SCOPE = '/registry/g.example.com/things/';
const NAMESPACES = ['a', 'b', 'bb', '\u{1F600}', '\uffff'];
const NAMES = ['x', 'y', 'z', 'é', '\ue000', 'x1', 'x/'];
const LABEL_NAMES = ['app', 'tier', 'n', 'example.com/owner'];
const LABEL_VALUES = ['', 'web', 'db', '1', '2', 'labels'];

const MANAGED = [
  [{ manager: 'm', operation: 'Update', apiVersion: 'g.example.com/v1', time: '2026-11-27T00:00:00Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:metadata': { 'f:labels': { 'f:app': {} } } } }],
  [{ manager: 'n', operation: 'Apply', apiVersion: 'g.example.com/v1', time: '2026-11-27T00:00:01Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': { 'f:labels': {} } } }],
  [],
];

/** A stored object's text as the registry writes it; `unreadable` ones need decoding to know their labels. */
function objectText(name: string, labels: Record<string, unknown> | null | undefined, shape: string): string {
  const metadata: Record<string, unknown> = {
    // Decoys: text that reads like labels, elsewhere in the object.
    annotations: { labels: '{"app":"web"}', 'x/labels': '"labels":{"tier":"db"}' },
    name,
  };
  // Lists many objects have alike, which the cache keeps once (shared-bytes.ts): the labels are then read
  // from a value's bytes with the list missing, before or after them.
  const managed = MANAGED[name.length % MANAGED.length]!;
  if (name.length % 2 === 0) metadata['managedFields'] = managed;
  if (labels !== undefined) metadata['labels'] = labels;
  if (name.length % 2 === 1) metadata['managedFields'] = managed;
  if (shape === 'garbage') return `not json ${name}`;
  if (shape === 'spaced') return JSON.stringify({ apiVersion: 'g.example.com/v1', kind: 'Thing', metadata }, null, 1);
  if (shape === 'late') return JSON.stringify({ apiVersion: 'g.example.com/v1', data: { labels: { app: 'web' } }, kind: 'Thing', metadata });
  return JSON.stringify({ apiVersion: 'g.example.com/v1', kind: 'Thing', metadata, spec: { labels: { app: 'web' } } });
}

interface Obj {
  /** Labels as a selector sees them; undefined when the text cannot be read without decoding. */
  labels: Record<string, string> | undefined;
}

const meets = (r: LabelRequirement, labels: Record<string, string>): boolean =>
  Object.hasOwn(labels, r.key) && (r.values === undefined || r.values.includes(labels[r.key]!));

function inRange(key: string, prefix: string, after: string | undefined): boolean {
  const upper = prefixEnd(prefix);
  if (compareKeys(key, prefix) < 0 || (upper !== undefined && compareKeys(key, upper) >= 0)) return false;
  return after === undefined || compareKeys(key, after) > 0;
}

describe('label index', () => {
  it('key postings keep a set in key order under random adds and removes', () => {
    const rand = prng(7);
    const keys = Array.from({ length: 300 }, (_, i) => `/k/${String.fromCodePoint(0x61 + (i % 26))}${i % 3 === 0 ? '\u{1F600}' : '\uffff'}${i}`);
    const p = new KeyPostings();
    const q = new KeyPostings();
    const model = new Set<string>();
    for (let step = 0; step < 5_000; step++) {
      const k = keys[Math.floor(rand() * keys.length)]!;
      if (model.has(k)) {
        p.remove(k);
        model.delete(k);
      } else {
        p.add(k);
        model.add(k);
      }
      if (step % 37 === 0) {
        const want = [...model].sort(compareKeys);
        assert.deepEqual([...p.view()], want, `step ${step}`);
        assert.equal(p.size, model.size);
        // Merging with a disjoint set: every key once, in order, from any start.
        q.add(`/k/${step}`);
        const after = rand() < 0.5 ? undefined : keys[Math.floor(rand() * keys.length)];
        const limit = [0, 1, 7][step % 3]!;
        const all = [...want, ...q.view()].sort(compareKeys).filter((key) => inRange(key, '/k/', after));
        const merged = mergedKeys([p, q], '/k/', after, limit);
        assert.deepEqual(merged.keys, limit ? all.slice(0, limit) : all);
        assert.equal(merged.more, limit > 0 && all.length > limit);
      }
    }
  });

  it('a label-selected list through the cache gives what a scan of the model selects', async () => {
    for (const seed of [1, 2, 3]) {
      const rand = prng(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
      const cache = await createCachedStore(openSqliteStore(':memory:'), { indexMergeAt: 8 });
      const views: { store: KVStore; root: string }[] = [
        { store: cache, root: '' },
        { store: clusterStore(cache, 'c1'), root: '/registry/clusters/c1' },
      ];
      // Keys by the full key the cache holds.
      const model = new Map<string, Obj>();
      const fullKey = (root: string, ns: string, name: string): string => `${root || '/registry'}${SCOPE.slice('/registry'.length)}${ns}/${name}`;
      try {
        for (let step = 1; step <= 1_500; step++) {
          const view = pick(views);
          const key = fullKey(view.root, pick(NAMESPACES), pick(NAMES));
          const current = await cache.get(key);
          if (current && rand() < 0.25) {
            assert.ok((await cache.delete(key)).ok);
            model.delete(key);
          } else {
            const shape = pick(['plain', 'plain', 'plain', 'late', 'spaced', 'garbage', 'number', 'null', 'none']);
            const labels: Record<string, string> = {};
            for (const n of LABEL_NAMES) if (rand() < 0.5) labels[n] = pick(LABEL_VALUES);
            const stored = shape === 'number' ? { ...labels, n: 1 } : shape === 'null' ? null : shape === 'none' ? undefined : labels;
            const text = objectText(key, stored, shape);
            const res = current ? await cache.update(key, text, current.modRevision) : await cache.create(key, text);
            assert.ok(res.ok);
            const readable = shape === 'plain' || shape === 'late' || shape === 'null' || shape === 'none';
            model.set(key, { labels: readable ? ((stored as Record<string, string> | null | undefined) ?? {}) : undefined });
          }
          // Keys of another resource beside the scope, which the index must not mix in.
          if (step % 50 === 0) await cache.create(`/registry/g.example.com/thingsx/a/${step}`, objectText('o', { app: 'web' }, 'plain'));
          // The first lists come after many writes (the lazy build), the rest follow the events.
          if (step < 300 || step % 5 !== 0) continue;
          const required: LabelRequirement[] = [];
          for (let i = 0, n = 1 + Math.floor(rand() * 2); i < n; i++) {
            const r = rand();
            required.push(r < 0.4 ? { key: pick(LABEL_NAMES), values: [pick(LABEL_VALUES)] } : r < 0.7 ? { key: pick(LABEL_NAMES), values: [pick(LABEL_VALUES), pick(LABEL_VALUES)] } : { key: pick(r < 0.9 ? LABEL_NAMES : ['missing']) });
          }
          const q = pick(views);
          const prefix = pick([SCOPE, `${SCOPE}${pick(NAMESPACES)}/`]);
          const after = rand() < 0.3 ? `${prefix}${pick(NAMES)}` : undefined;
          const full = (k: string): string => (q.root ? q.root + k.slice('/registry'.length) : k);
          const inScope = [...model.keys()].filter((k) => inRange(k, full(prefix), after === undefined ? undefined : full(after))).sort(compareKeys);
          const whole = await q.store.listByLabels!(prefix, { scope: SCOPE, required }, after === undefined ? {} : { after });
          assert.ok(whole, 'the cache answers from its index');
          const got = whole.items.map((kv) => full(kv.key));
          const ctx = `seed ${seed} step ${step} ${JSON.stringify({ root: q.root, prefix, after, required })}`;
          for (let i = 1; i < got.length; i++) assert.ok(compareKeys(got[i - 1]!, got[i]!) < 0, `${ctx}: in key order`);
          const gotSet = new Set(got);
          const unread = new Set(whole.unread);
          assert.ok(required.includes(whole.met), `${ctx}: met is one of the requirements`);
          got.forEach((k, i) => {
            assert.ok(inScope.includes(k), `${ctx}: ${k} is in range`);
            const labels = model.get(k)!.labels;
            // Every item meets the requirement it was taken by, but those whose labels are unreadable, marked so.
            assert.equal(unread.has(i), labels === undefined, `${ctx}: ${k} unread`);
            if (labels !== undefined) assert.ok(meets(whole.met, labels), `${ctx}: ${k} meets ${JSON.stringify(whole.met)}`);
          });
          for (const k of inScope) {
            const labels = model.get(k)!.labels;
            if (labels === undefined || required.every((r) => meets(r, labels))) assert.ok(gotSet.has(k), `${ctx}: ${k} is listed`);
          }
          // Pages of every size join up to the whole; `more` says whether any key of the range follows.
          const limit = pick([1, 2, 3, 10]);
          const pages: string[] = [];
          let from = after;
          for (let n = 0; ; n++) {
            assert.ok(n < 1_000);
            const page = (await q.store.listByLabels!(prefix, { scope: SCOPE, required }, { limit, ...(from === undefined ? {} : { after: from }) }))!;
            assert.ok(page.items.length <= limit);
            pages.push(...page.items.map((kv) => full(kv.key)));
            const last = page.items.at(-1)?.key;
            const follows = last !== undefined && inScope.some((k) => compareKeys(k, full(last)) > 0);
            assert.equal(page.more, follows, `${ctx}: more after ${last}`);
            if (page.items.length < limit || !page.more) break;
            from = last;
          }
          assert.deepEqual(pages, got, `${ctx}: pages of ${limit}`);
        }
        // An older revision is not the index's: the caller lists instead.
        const rev = await cache.currentRevision();
        await cache.create(`${SCOPE}a/late`, objectText('late', { app: 'web' }, 'plain'));
        assert.equal(await cache.listByLabels!(SCOPE, { scope: SCOPE, required: [{ key: 'app' }] }, { revision: rev }), undefined);
        assert.equal(await cache.listByLabels!(SCOPE, { scope: SCOPE, required: [] }), undefined);
        assert.equal(await cache.listByLabels!('/registry/other/', { scope: SCOPE, required: [{ key: 'app' }] }), undefined);
      } finally {
        await cache.close();
      }
    }
  });
});

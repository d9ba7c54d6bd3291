import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeyIndex } from '../../src/storage/cache-index.js';
import { compareKeys, prefixEnd } from '../../src/storage/key-range.js';
import type { KeyValue } from '../../src/storage/types.js';
import { prng } from './helpers.js';

const kv = (key: string, rev: number): KeyValue => ({ key, value: `v${rev}`, createRevision: rev, modRevision: rev });

/** The obvious implementation: filter and sort everything, in SQLite's key order. */
function reference(model: Map<string, KeyValue>, prefix: string, after: string | undefined, limit: number) {
  const upper = prefixEnd(prefix);
  const lowerExclusive = after !== undefined && compareKeys(after, prefix) >= 0;
  const lower = lowerExclusive ? after! : prefix;
  const keys = [...model.keys()]
    .filter((k) => (lowerExclusive ? compareKeys(k, lower) > 0 : compareKeys(k, lower) >= 0) && (upper === undefined || compareKeys(k, upper) < 0))
    .sort(compareKeys);
  const take = limit > 0 ? keys.slice(0, limit) : keys;
  const items = take.map((k) => model.get(k)!);
  const rest = keys.length - take.length;
  return rest > 0 ? { items, more: true, remaining: rest } : { items, more: false };
}

// Keys that disagree between UTF-16 and UTF-8 order (U+FFFF vs astral), and prefixes of each other.
const SEGMENTS = ['a', 'b', 'ab', 'a/', 'z', '\uffff', '\u{1F600}', '\ue000', 'é', ''];

describe('key index', () => {
  it('matches a sorted reference under random puts, deletes and range reads', () => {
    for (const seed of [1, 2, 3]) {
      const rand = prng(seed);
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
      const randomKey = (): string => `/${pick(SEGMENTS)}/${pick(SEGMENTS)}${Math.floor(rand() * 20)}`;
      // A low merge threshold so merges and tombstones are exercised often.
      const index = new KeyIndex(8);
      const model = new Map<string, KeyValue>();
      // Exotic keys only after a while, so the switch to compareKeys happens with keys already in place.
      for (let step = 1; step <= 3_000; step++) {
        let key = randomKey();
        if (step < 1_000) key = key.replace(/[\uffff\ue000\u{1F600}é]/gu, 'q');
        if (rand() < 0.3 && model.size > 0) {
          const victim = pick([...model.keys()]);
          index.remove(victim);
          model.delete(victim);
        } else {
          const value = kv(key, step);
          index.put(value);
          model.set(key, value);
        }
        if (step % 7 === 0) {
          const prefix = pick(['', '/', `/${pick(SEGMENTS)}`, `/${pick(SEGMENTS)}/`, Array.from(randomKey()).slice(0, 4).join('')]);
          const after = rand() < 0.5 ? undefined : rand() < 0.7 ? randomKey() : pick(['', '/', '0', '\u{10FFFF}']);
          const limit = pick([0, 1, 2, 5, 50]);
          assert.deepEqual(index.range(prefix, after, limit), reference(model, prefix, after, limit), `seed ${seed} step ${step} ${JSON.stringify({ prefix, after, limit })}`);
          assert.equal(index.count(prefix), reference(model, prefix, undefined, 0).items.length);
          assert.equal(index.size, model.size);
        }
      }
      for (const k of model.keys()) assert.equal(index.get(k), model.get(k));
    }
  });

  it('keeps the place of a key deleted and created again, and replaces values in place', () => {
    const index = new KeyIndex(1_000);
    for (const k of ['/a/1', '/a/2', '/a/3']) index.put(kv(k, 1));
    index.remove('/a/2');
    assert.deepEqual(index.range('/a/', undefined, 1), { items: [kv('/a/1', 1)], more: true, remaining: 1 });
    assert.equal(index.count('/a/'), 2);
    index.put(kv('/a/2', 5));
    index.put(kv('/a/3', 6));
    assert.deepEqual(
      index.range('/a/', '/a/1', 0).items.map((x) => [x.key, x.modRevision]),
      [
        ['/a/2', 5],
        ['/a/3', 6],
      ],
    );
    index.remove('/a/3');
    // Only a tombstone follows: no more.
    assert.deepEqual(index.range('/a/', undefined, 2), { items: [kv('/a/1', 1), kv('/a/2', 5)], more: false });
  });

  it('loads key-ordered pages without sorting and accepts out-of-order ones', () => {
    const index = new KeyIndex();
    index.putInOrder([kv('/a', 1), kv('/b', 2), kv('/c', 3)]);
    index.putInOrder([kv('/ab', 4), kv('/\u{1F600}', 5), kv('/\uffff', 6)]);
    assert.deepEqual(
      index.range('/', undefined, 0).items.map((x) => x.key),
      ['/a', '/ab', '/b', '/c', '/\uffff', '/\u{1F600}'],
    );
  });

  it('handles 100,000 sequential creates, then lists, without quadratic cost', () => {
    const index = new KeyIndex();
    const n = 100_000;
    const t0 = performance.now();
    // Interleave small range reads with the creates, as a server does (each must stay cheap).
    for (let i = 0; i < n; i++) {
      const key = `/registry/stable.example.com/crontabs/ns-${i % 100}/item-${i}`;
      index.put(kv(key, i + 1));
      if (i % 10 === 0) index.range(`/registry/stable.example.com/crontabs/ns-${i % 100}/`, undefined, 10);
    }
    const creates = performance.now() - t0;
    const t1 = performance.now();
    const all = index.range('/registry/stable.example.com/crontabs/', undefined, 0);
    const one = index.range('/registry/stable.example.com/crontabs/ns-7/', undefined, 0);
    const page = index.range('/registry/stable.example.com/crontabs/', '/registry/stable.example.com/crontabs/ns-5/item-5', 500);
    const lists = performance.now() - t1;
    assert.equal(all.items.length, n);
    assert.equal(one.items.length, n / 100);
    assert.equal(page.items.length, 500);
    assert.equal(page.more, true);
    assert.equal(index.count('/registry/stable.example.com/crontabs/ns-42/'), n / 100);
    for (let i = 1; i < all.items.length; i++) assert.ok(all.items[i - 1]!.key < all.items[i]!.key);
    // Generous bounds for a shared machine; quadratic behaviour would take minutes.
    assert.ok(creates < 5_000, `100k creates took ${creates.toFixed(0)} ms`);
    assert.ok(lists < 1_000, `lists took ${lists.toFixed(0)} ms`);
    // Then deletes of most keys, with lists in between.
    const t2 = performance.now();
    for (let i = 0; i < n; i += 2) {
      index.remove(`/registry/stable.example.com/crontabs/ns-${i % 100}/item-${i}`);
      if (i % 20 === 0) index.count(`/registry/stable.example.com/crontabs/ns-${i % 100}/`);
    }
    const deletes = performance.now() - t2;
    assert.equal(index.count('/registry/'), n / 2);
    assert.equal(index.range('/registry/', undefined, 0).items.length, n / 2);
    assert.ok(deletes < 5_000, `50k deletes took ${deletes.toFixed(0)} ms`);
  });
});

// Conformance: a randomized history checked against a model of every revision's state.
import assert from './kv-assert.js';
import { describe, it } from 'node:test';
import type { KVStore } from '../../src/storage/index.js';
import type { KVStoreFactory } from './kv-suite.js';
import { withStore } from './kv-suite-util.js';
import { prng } from './helpers.js';

export function modelTests(factory: KVStoreFactory): void {
  describe('randomized history against a model', () => {
    it('lists at every revision and replays every watch exactly as the model says, across compactions', () =>
      withStore(factory, (s, r) => randomHistory(s, r)));
  });
}

/** Shared with backend tests that run it over differently configured stores. */
export async function randomHistory(s: KVStore, r: (n: number) => number): Promise<void> {
  const rand = prng(42);
  const keys = ['/m/a/1', '/m/a/2', '/m/a/3', '/m/ab/1', '/m/b/1', '/m/b/2'];
  // The model: the full state after every revision (relative to the empty store's), and every event.
  const states: Map<string, { value: string; c: number; m: number }>[] = [new Map()];
  type Ev = { type: string; key: string; value: string; m: number; prev?: string };
  const log: Ev[] = [];
  let compacted = 0;
  for (let step = 0; step < 400; step++) {
    const key = keys[Math.floor(rand() * keys.length)]!;
    const cur = states[states.length - 1]!;
    const existing = cur.get(key);
    const rev = r(states.length);
    const value = `v${step}`;
    const next = new Map(cur);
    if (!existing) {
      const res = await s.create(key, value);
      assert.ok(res.ok && res.revision === rev);
      next.set(key, { value, c: rev, m: rev });
      log.push({ type: 'put', key, value, m: rev });
    } else if (rand() < 0.6) {
      const res = await s.update(key, value, existing.m);
      assert.ok(res.ok && res.revision === rev);
      next.set(key, { value, c: existing.c, m: rev });
      log.push({ type: 'put', key, value, m: rev, prev: existing.value });
    } else {
      const res = await s.delete(key, existing.m);
      assert.ok(res.ok && res.revision === rev);
      next.delete(key);
      log.push({ type: 'delete', key, value: existing.value, m: rev, prev: existing.value });
    }
    states.push(next);
    if (step % 97 === 96) {
      compacted = rev - 20;
      await s.compact(compacted);
    }
  }
  const head = r(states.length - 1);
  for (const prefix of ['/m/a/', '/m/', '/m/b/']) {
    for (let rev = compacted + 1; rev <= head; rev++) {
      const expected = [...states[rev - r(0)]!.entries()]
        .filter(([k]) => k.startsWith(prefix))
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([k, v]) => `${k}=${v.value}@${v.c}/${v.m}`);
      const got = (await s.list(prefix, { revision: rev })).items.map((i) => `${i.key}=${i.value}@${i.createRevision}/${i.modRevision}`);
      assert.deepEqual(got, expected, `list ${prefix} at ${rev}`);
      // Two-item pages add up to the same list.
      const paged: string[] = [];
      let afterKey: string | undefined;
      for (;;) {
        const page = await s.list(prefix, { revision: rev, limit: 2, ...(afterKey !== undefined && { after: afterKey }) });
        paged.push(...page.items.map((i) => `${i.key}=${i.value}@${i.createRevision}/${i.modRevision}`));
        if (page.more) assert.equal(page.remaining, expected.length - paged.length);
        if (!page.more) break;
        afterKey = page.items[page.items.length - 1]!.key;
      }
      assert.deepEqual(paged, expected, `paged list ${prefix} at ${rev}`);
    }
    for (const from of [compacted + 1, compacted + 7, head - 1]) {
      const got: Ev[] = [];
      let done = false;
      const w = s.watch(prefix, {
        fromRevision: from,
        onEvent: (e) => {
          got.push({ type: e.type, key: e.kv.key, value: e.kv.value, m: e.kv.modRevision, ...(e.prev && { prev: e.prev.value }) });
          if (e.kv.modRevision === head) done = true;
        },
      });
      const expected = log.filter((e) => e.m > from && e.key.startsWith(prefix));
      const deadline = Date.now() + 2000;
      while (!done && got.length < expected.length && Date.now() < deadline) await new Promise((res) => setTimeout(res, 1));
      await new Promise((res) => setTimeout(res, 5));
      w.close();
      assert.deepEqual(got, expected, `watch ${prefix} from ${from}`);
    }
  }
}

import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asciiBytes, copyAscii, deletedValue, storedResourceVersionAt, SLAB_BYTES, VALUE_HEADER_BYTES, ValueSlabs, holdValue, releaseValue, sameValue, valueIs, valueLength, valueStartsWith, type SlabValue } from '../../src/storage/value-slabs.js';
import { MIN_SHARED, managedFieldsSpan } from '../../src/storage/shared-bytes.js';
import { resourceVersionAt } from '../../src/util/stored-json.js';
import type { KeyValue } from '../../src/storage/types.js';
import { createCachedStore } from '../../src/storage/cache.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import { clusterStore } from '../../src/storage/prefixed-store.js';
import { prng as rng } from '../prng.js';

const kv = (key: string, value: string, rev = 1): KeyValue => ({ key, value, createRevision: rev, modRevision: rev });


describe('value slabs', () => {
  it('round-trips ASCII, non-ASCII UTF-8, empty, lone surrogates and values larger than a slab', () => {
    const slabs = new ValueSlabs(1024);
    const values = ['{"a":1}', '', 'grüße, 東京 🚀', 'x'.repeat(5000), 'é'.repeat(700), 'lone \ud800 surrogate', '\udc00'];
    const made = values.map((v, i) => slabs.make(kv(`/k/${i}`, v, i + 1)));
    made.forEach((m, i) => {
      assert.equal(m.value, values[i]);
      assert.equal(m.key, `/k/${i}`);
      assert.equal(m.createRevision, i + 1);
      assert.equal(m.modRevision, i + 1);
      assert.equal(valueLength(m), values[i]!.length);
    });
    // The large ones have slabs of their own; the rest share.
    assert.equal(made[3]!.slab.buf.length, VALUE_HEADER_BYTES + 5000);
    assert.equal(made[4]!.slab.buf.length, VALUE_HEADER_BYTES + 1400);
    assert.equal(made[0]!.slab, made[1]!.slab);
    assert.equal(slabs.liveBytes, made.reduce((n, m) => n + m.bytes, 0));
  });

  it('keeps stale, and the value as one string per read', () => {
    const slabs = new ValueSlabs();
    const v = slabs.make({ ...kv('/a', 'text'), stale: true });
    assert.equal(v.stale, true);
    assert.equal(slabs.make(kv('/b', 'x')).stale, undefined);
    assert.equal(storedResourceVersionAt(v), -1, 'no placeholder');
    assert.equal(storedResourceVersionAt(kv('/c', '{"resourceVersion":""}')), undefined, 'not in a slab');
    assert.equal(v.value, 'text');
    assert.equal(typeof v.value, 'string');
  });

  it('reads a prefix and compares values without decoding, as the strings would', () => {
    const slabs = new ValueSlabs();
    const a = slabs.make(kv('/a', '{"apiVersion":"v1","kind":"X"}'));
    const b = slabs.make(kv('/b', '{"apiVersion":"v1","kind":"X"}'));
    const c = slabs.make(kv('/c', '{"apiVersion":"v1","kind":"Y"}'));
    const u = slabs.make(kv('/u', '{"apiVersion":"v1","kind":"Ü"}'));
    for (const [prefix, at] of [['{"apiVersion":"v1"', 0], ['"kind"', 19], ['', 0], ['{"apiVersion":"v1","kind":"X"}+', 0], ['X', 40]] as const) {
      for (const v of [a, c, u]) assert.equal(valueStartsWith(v, prefix, at), v.value.startsWith(prefix, at), `${v.key} ${prefix}@${at}`);
    }
    // UTF-8 values: an ASCII prefix at 0 is read from the bytes, anything else from the text.
    const w = slabs.make(kv('/w', '{"k":"Ü’x"}'));
    for (const [prefix, at] of [['{"k":"', 0], ['{"k":"Ü', 0], ['{"k":"U', 0], ['{"k":"\u00c3', 0], ['{"k":"Ü’x"}', 0], ['{"k":"Ü’x"}}', 0], ['’', 7], ['x', 8], ['', 0]] as const) {
      assert.equal(valueStartsWith(w, prefix, at), w.value.startsWith(prefix, at), `${prefix}@${at}`);
    }
    for (const v of [a, u, w]) {
      for (const text of [v.value, v.value.slice(1), `${v.value} `, v.value.replace('"', 'Ü'), v.value.replace('"k"', '"\ud800"'), '']) assert.equal(valueIs(v, text), v.value === text, `${v.key} ${text}`);
    }
    assert.ok(sameValue(a, b));
    assert.ok(!sameValue(a, c));
    assert.ok(!sameValue(c, u));
    assert.ok(sameValue(a, kv('/p', a.value)), 'with a plain key-value, by its text');
  });

  it('counts live bytes per slab, lets go of values and of slabs left empty', () => {
    // Compacted only when empty: what is counted is seen alone.
    // Room for three values of 30 bytes (each with its header, at a place aligned to 4).
    const slabs = new ValueSlabs(3 * (VALUE_HEADER_BYTES + 32), 0.01);
    const vs = Array.from({ length: 10 }, (_, i) => slabs.make(kv(`/k/${i}`, String(i).padStart(30, '-'))));
    // Three per slab.
    assert.equal(slabs.slabCount, 4);
    assert.equal(slabs.liveBytes, 300);
    releaseValue(vs[0]!);
    assert.equal(slabs.liveBytes, 270);
    // Held twice (the ring too): its bytes stay until both let go.
    holdValue(vs[1]!);
    releaseValue(vs[1]!);
    assert.equal(slabs.liveBytes, 270);
    releaseValue(vs[1]!);
    releaseValue(vs[2]!);
    assert.equal(slabs.liveBytes, 210);
    assert.equal(slabs.slabCount, 3, 'the first slab, empty, is let go of');
    assert.equal(slabs.compactions, 0);
    // Values let go of still read (never overwritten).
    assert.equal(vs[0]!.value, '-----------------------------0');
  });

  it('compacts a slab under half held: its values move, the same objects, and read as before', () => {
    const slabs = new ValueSlabs(5 * (VALUE_HEADER_BYTES + 20));
    const vs = Array.from({ length: 12 }, (_, i) => slabs.make(kv(`/k/${i}`, String(i).padStart(20, '-'))));
    // Five per slab (headers and bytes counted).
    const first = vs[0]!.slab;
    releaseValue(vs[0]!);
    releaseValue(vs[1]!);
    assert.equal(slabs.compactions, 0, '3 of 5 held');
    releaseValue(vs[2]!);
    assert.equal(slabs.compactions, 1);
    for (const v of vs.slice(3, 5)) assert.notEqual(v.slab, first);
    for (const [i, v] of vs.entries()) assert.equal(v.value, String(i).padStart(20, '-'));
    assert.equal(slabs.liveBytes, 9 * 20);
  });

  it('moves a value with its header: its holders, encoding and resourceVersion place come along', () => {
    const texts = ['{"metadata":{"resourceVersion":""}}', '{"k":"Ü’x"}', 'lone \ud800', '{"a":1}'];
    const slabs = new ValueSlabs(8 * (VALUE_HEADER_BYTES + 40));
    const vs = texts.map((t, i) => slabs.make(kv(`/k/${i}`, t, i + 1)));
    const filler = Array.from({ length: 6 }, (_, i) => slabs.make(kv(`/f/${i}`, 'x'.repeat(40))));
    // The first and third are held twice (the ring too), the rest once.
    holdValue(vs[0]!);
    holdValue(vs[2]!);
    const before = vs.map((v) => [v.slab, v.bytes, v.enc, v.rvAt, v.holds]);
    // Letting go of most of the values beside them compacts their slab.
    releaseValue(vs[3]!);
    for (const f of filler.slice(0, 5)) releaseValue(f);
    assert.ok(slabs.compactions > 0);
    for (const [i, v] of vs.slice(0, 3).entries()) {
      assert.notEqual(v.slab, before[i]![0], `${v.key} moved`);
      assert.deepEqual([v.bytes, v.enc, v.rvAt, v.holds], before[i]!.slice(1), v.key);
      assert.equal(v.value, texts[i]);
      assert.equal(v.slab.values[v.slot], v, 'its slot in its new slab');
    }
    assert.equal(vs[0]!.rvAt, resourceVersionAt(texts[0]!));
    // Both holders of the first let go: only then are its bytes garbage.
    const live = slabs.liveBytes;
    releaseValue(vs[0]!);
    assert.equal(slabs.liveBytes, live);
    releaseValue(vs[0]!);
    assert.equal(slabs.liveBytes, live - vs[0]!.bytes);
  });

  it('a deletion reads the deleted value and holds it', () => {
    const slabs = new ValueSlabs(100);
    const v = slabs.make(kv('/d', 'last', 3));
    holdValue(v);
    const d = deletedValue(v, 7);
    assert.deepEqual([d.key, d.value, d.createRevision, d.modRevision], ['/d', 'last', 3, 7]);
    releaseValue(v);
    assert.equal(slabs.liveBytes, 4);
    releaseValue(d);
    assert.equal(slabs.liveBytes, 0);
  });

  it('keeps every held value and its identity under random puts, replacements and deletes', () => {
    const next = rng(19);
    const slabs = new ValueSlabs(4096);
    const held = new Map<string, { v: SlabValue; text: string }>();
    const texts = (n: number): string => {
      const kind = next();
      const base = kind < 0.1 ? 'ü∂' : kind < 0.15 ? '\ud83d\ude80' : 'abcdefgh';
      return base.repeat(Math.floor(next() * n)).slice(0, n);
    };
    const everHeld: { v: SlabValue; text: string }[] = [];
    for (let step = 0; step < 20_000; step++) {
      const key = `/k/${Math.floor(next() * 300)}`;
      const old = held.get(key);
      if (next() < 0.2) {
        if (old) {
          releaseValue(old.v);
          held.delete(key);
        }
        continue;
      }
      const text = texts(next() < 0.01 ? 6000 : 300);
      const v = slabs.make(kv(key, text, step));
      held.set(key, { v, text });
      if (step % 97 === 0) everHeld.push({ v, text });
      if (old) releaseValue(old.v);
    }
    assert.ok(slabs.compactions > 10, `compactions ${slabs.compactions}`);
    let live = 0;
    for (const [key, { v, text }] of held) {
      assert.equal(v.key, key);
      assert.equal(v.value, text);
      live += v.bytes;
    }
    assert.equal(slabs.liveBytes, live);
    // Let go of long ago or not, a value someone still has reads as written.
    for (const { v, text } of everHeld) assert.equal(v.value, text);
    // Every slab in use is at least half held, but the one being filled.
    assert.ok(slabs.allocatedBytes <= 2 * live + 4096 + 6000 * 4, `${slabs.allocatedBytes} allocated for ${live} held`);
  });

  it('a slab is 4 MiB', () => {
    assert.equal(SLAB_BYTES, 4 * 1024 * 1024);
  });
});

describe('managedFields lists shared among values', () => {
  const fields = (time: string, extra = ''): string =>
    `[{"apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:data":{".":{},"f:a\\"]}":{}${extra}}},"manager":"kubectl","operation":"Update","time":"${time}"}]`;
  const stored = (name: string, mf: string, data = 'x'): string =>
    `{"apiVersion":"v1","data":{"a\\"]}":"${data}"},"kind":"ConfigMap","metadata":{"creationTimestamp":"t","managedFields":${mf},"name":"${name}","resourceVersion":""}}`;

  it('finds the list by its key, past strings holding brackets and quotes, and leaves short lists', () => {
    const mf = fields('2026-11-27T10:00:00Z');
    const text = stored('a', mf);
    const span = managedFieldsSpan(text)!;
    assert.equal(text.slice(span[0], span[1]), mf);
    assert.equal(managedFieldsSpan(stored('a', '[{"manager":"m"}]')), undefined, `shorter than ${MIN_SHARED}`);
    assert.equal(managedFieldsSpan('{"metadata":{"name":"a"}}'), undefined);
    assert.equal(managedFieldsSpan(`{"metadata":{"managedFields":${mf.slice(0, -2)}`), undefined, 'unclosed');
  });

  it('shares a list seen again, and the values read back as they were written, in whole and in part', () => {
    const slabs = new ValueSlabs(4096);
    const mf = fields('2026-11-27T10:00:00Z');
    const texts = ['a', 'b', 'c'].map((n) => stored(n, mf));
    const vs = texts.map((t, i) => slabs.make(kv(`/k/${i}`, t)));
    assert.equal(vs[0]!.shared, undefined, 'the first is kept inline');
    assert.ok(vs[1]!.shared !== undefined && vs[1]!.shared === vs[2]!.shared, 'the second and third share');
    assert.equal(slabs.sharedLists, 1);
    assert.equal(vs[2]!.bytes, texts[2]!.length - mf.length, 'the slab holds the rest');
    assert.equal(slabs.liveBytes, texts[0]!.length + 2 * (texts[0]!.length - mf.length));
    vs.forEach((v, i) => {
      const t = texts[i]!;
      assert.equal(v.value, t);
      assert.equal(valueLength(v), t.length);
      assert.ok(resourceVersionAt(t) > 0);
      assert.equal(storedResourceVersionAt(v), resourceVersionAt(t), 'the placeholder found as the value was cached');
      const b = asciiBytes(v)!;
      assert.equal(b.length, t.length);
      // Every [from, to) a writer may copy, across the shared part's edges.
      const out = Buffer.alloc(t.length);
      for (let from = 0; from <= t.length; from += 7) {
        for (let to = from; to <= t.length; to += 5) {
          const n = copyAscii(b, out, 0, from, to);
          assert.equal(out.toString('latin1', 0, n), t.slice(from, to), `[${from}, ${to})`);
        }
      }
      for (const at of [0, 60, Math.max(0, v.sharedAt - 3), v.sharedAt, v.sharedAt + 10, t.length - 4]) {
        for (const len of [0, 1, 8, 40]) assert.equal(valueStartsWith(v, t.slice(at, at + len), at), true, `${at}+${len}`);
        assert.equal(valueStartsWith(v, 'nope', at), t.startsWith('nope', at));
      }
    });
    assert.ok(sameValue(vs[1]!, vs[2]!) === false, 'names differ');
    const again = slabs.make(kv('/k/9', texts[0]!));
    assert.ok(sameValue(vs[0]!, again), 'inline and shared, the same text');
    assert.ok(!sameValue(vs[0]!, slabs.make(kv('/k/8', stored('a', mf, 'y')))));
    assert.ok(!sameValue(vs[0]!, slabs.make(kv('/k/7', stored('a', fields('2026-11-27T10:00:01Z'))))));
  });

  it('forgets a list when the last value reading it is let go of, and keeps shared values right through compaction', () => {
    const slabs = new ValueSlabs(2048, 0.5);
    const lists = [fields('2026-11-27T10:00:00Z'), fields('2026-11-27T10:00:01Z', ',"f:b":{}')];
    const made: { v: SlabValue; text: string }[] = [];
    for (let i = 0; i < 40; i++) {
      const text = stored(`n${i}`, lists[i % 2]!, 'v'.repeat(i));
      made.push({ v: slabs.make(kv(`/k/${i}`, text)), text });
    }
    assert.equal(slabs.sharedLists, 2);
    // Let go of most: slabs fall below half held and are compacted.
    for (const m of made.filter((_, i) => i % 5 !== 0)) releaseValue(m.v);
    assert.ok(slabs.compactions > 0);
    for (const m of made.filter((_, i) => i % 5 === 0)) assert.equal(m.v.value, m.text);
    for (const m of made.filter((_, i) => i % 5 === 0)) releaseValue(m.v);
    assert.equal(slabs.sharedLists, 0);
    assert.equal(slabs.liveBytes, 0);
  });

  it('leaves non-ASCII values whole', () => {
    const slabs = new ValueSlabs();
    const mf = fields('2026-11-27T10:00:00Z');
    const vs = ['ü', 'é'].map((d, i) => slabs.make(kv(`/k/${i}`, stored('a', mf, d))));
    vs.forEach((v, i) => assert.equal(v.value, stored('a', mf, ['ü', 'é'][i])));
    assert.equal(slabs.sharedLists, 0);
  });
});

describe('value slabs in the watch cache', () => {
  for (const serveWatches of [false, true]) {
    it(`keeps each current key-value the same object and its value right across compactions${serveWatches ? ', watches served from memory' : ''}`, async () => {
      const cache = await createCachedStore(openSqliteStore(':memory:', { sync: 'normal' }), serveWatches ? { serveWatches: true, watchCacheEvents: 100 } : {});
      const text = (i: number, gen: number): string => `{"i":${i},"gen":${gen},"pad":"${(i % 7 === 0 ? 'ü' : 'x').repeat(2000)}"}`;
      // About 6 MiB: two slabs.
      const n = 3_000;
      for (let i = 0; i < n; i++) assert.ok((await cache.create(`/v/${String(i).padStart(5, '0')}`, text(i, 0))).ok);
      const before = new Map((await cache.list('/v/')).items.map((kv) => [kv.key, kv]));
      const seen: { key: string; prev: string | undefined }[] = [];
      const w = cache.watch('/v/', { fromRevision: await cache.currentRevision(), onEvent: (ev) => seen.push({ key: ev.kv.key, prev: ev.prev?.value }) });
      // Most of the first slab's values replaced or deleted: it is compacted, and what stays moves.
      for (let i = 0; i < 2_000; i++) {
        const key = `/v/${String(i).padStart(5, '0')}`;
        const cur = before.get(key)!;
        if (i % 3 === 0) continue;
        const res = i % 3 === 1 ? await cache.update(key, text(i, 1), cur.modRevision) : await cache.delete(key, cur.modRevision);
        assert.ok(res.ok);
      }
      assert.ok(cache.valueSlabs.compactions > 0, 'compacted');
      const after = await cache.list('/v/');
      assert.equal(after.items.length, n - Math.floor(2_000 / 3));
      for (const kv of after.items) {
        const i = Number(kv.key.slice(3));
        const same = i >= 2_000 || i % 3 === 0;
        if (same) assert.equal(kv, before.get(kv.key), `${kv.key} the same object`);
        assert.equal(kv.value, text(i, same ? 0 : 1));
      }
      // Values let go of read as they were.
      for (const [key, kv] of before) assert.equal(kv.value, text(Number(key.slice(3)), 0));
      await new Promise((r) => setTimeout(r, 20));
      assert.equal(seen.length, 2_000 - Math.ceil(2_000 / 3));
      for (const ev of seen) assert.equal(ev.prev, text(Number(ev.key.slice(3)), 0));
      w.close();
      await cache.close();
    });
  }
});

describe('value slabs through a logical cluster view', () => {
  it('reads the value and revisions of the cached key-value it shows, the same view while it is current', async () => {
    const cache = await createCachedStore(openSqliteStore(':memory:', { sync: 'normal' }));
    const view = clusterStore(cache, 'team-a');
    const res = await view.create('/registry/things/a', '{"a":"ü"}');
    assert.ok(res.ok);
    const got = (await view.get('/registry/things/a'))!;
    assert.deepEqual([got.key, got.value, got.createRevision, got.modRevision], ['/registry/things/a', '{"a":"ü"}', res.revision, res.revision]);
    assert.equal(await view.get('/registry/things/a'), got);
    assert.equal((await view.list('/registry/things/')).items[0], got);
    // As the registry copies one with another value (a dry run's answer).
    const copy = { ...got, value: 'x' };
    assert.deepEqual([copy.key, copy.value, copy.createRevision, copy.modRevision], ['/registry/things/a', 'x', res.revision, res.revision]);
    await cache.close();
  });
});

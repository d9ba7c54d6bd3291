import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CompactionPolicy } from '../../src/storage/compaction-policy.js';
import { EventRing } from '../../src/storage/event-ring.js';
import { compareKeys, keyRange, prefixEnd } from '../../src/storage/key-range.js';
import type { StoreEvent } from '../../src/storage/index.js';

describe('key ranges', () => {
  it('prefixEnd is the first string past every extension of the prefix', () => {
    assert.equal(prefixEnd('/a/b/'), '/a/b0');
    assert.equal(prefixEnd('a'), 'b');
    assert.equal(prefixEnd(''), undefined);
    assert.equal(prefixEnd('\u{10FFFF}'), undefined);
    assert.equal(prefixEnd('x\u{10FFFF}'), 'y');
    assert.equal(prefixEnd('\uD7FF'), '\uE000');
    assert.equal(prefixEnd('a😀'), 'a😁');
    for (const k of ['/a/b/', '/a/b/x', '/a/b/\u{10FFFF}', '/a/b/😀zz']) assert.ok(compareKeys(k, prefixEnd('/a/b/')!) < 0);
    assert.ok(compareKeys('/a/b0', prefixEnd('/a/b/')!) === 0);
  });

  it('compares keys in UTF-8 byte order, as SQLite does', () => {
    // In UTF-16 an astral character (a surrogate pair) sorts before U+FFFD; in UTF-8, after it.
    assert.ok('\uFFFD' > '😀');
    assert.ok(compareKeys('\uFFFD', '😀') < 0);
    assert.ok(compareKeys('/a', '/b') < 0);
    assert.equal(compareKeys('/a', '/a'), 0);
  });

  it('keyRange starts after `after` only when it lies inside or past the prefix', () => {
    assert.deepEqual(keyRange('/a/'), { lower: '/a/', lowerExclusive: false, upper: '/a0' });
    assert.deepEqual(keyRange('/a/', '/a/x'), { lower: '/a/x', lowerExclusive: true, upper: '/a0' });
    assert.deepEqual(keyRange('/a/', '/0'), { lower: '/a/', lowerExclusive: false, upper: '/a0' });
    assert.deepEqual(keyRange('', 'k'), { lower: 'k', lowerExclusive: true, upper: undefined });
  });
});

const ev = (rev: number, key = `/k/${rev}`): StoreEvent => ({ type: 'put', kv: { key, value: '', createRevision: rev, modRevision: rev } });

describe('event ring', () => {
  it('keeps the newest events and knows which resumptions it can serve', () => {
    const ring = new EventRing(3, 10);
    assert.ok(ring.covers(10));
    assert.ok(!ring.covers(9));
    for (let r = 11; r <= 15; r++) ring.push(ev(r, r % 2 ? '/odd/x' : '/even/x'));
    assert.equal(ring.head, 15);
    assert.ok(ring.covers(12));
    assert.ok(!ring.covers(11));
    assert.deepEqual(
      ring.since(12, '/').map((e) => e.kv.modRevision),
      [13, 14, 15],
    );
    assert.deepEqual(
      ring.since(13, '/odd/').map((e) => e.kv.modRevision),
      [15],
    );
    assert.deepEqual(ring.since(15, '/'), []);
  });

  it('with capacity 0 only tracks the head', () => {
    const ring = new EventRing(0, 0);
    ring.push(ev(1));
    assert.equal(ring.head, 1);
    assert.ok(ring.covers(1));
    assert.ok(!ring.covers(0));
    assert.deepEqual(ring.since(1, '/'), []);
  });

  it('holds at most maxBytes of value text beyond its newest event, counting a previous value it holds once', () => {
    const big = (rev: number, key: string, prev?: StoreEvent): StoreEvent => ({
      type: 'put',
      kv: { key, value: 'x'.repeat(100), createRevision: prev?.kv.createRevision ?? rev, modRevision: rev },
      ...(prev ? { prev: prev.kv } : {}),
    });
    const ring = new EventRing(100, 0, 250);
    const first = big(1, '/a');
    ring.push(first);
    // The update's previous value is the first event's, held already: 200 in all.
    const second = big(2, '/a', first);
    ring.push(second);
    assert.ok(ring.covers(0));
    assert.equal(ring.heldPut(1, '/a'), first.kv, 'the ring keeps the key-value itself');
    assert.equal(ring.heldPut(1, '/b'), undefined);
    assert.equal(ring.heldPut(3, '/a'), undefined);
    // A third event of 100 passes 250: the oldest goes.
    ring.push(big(3, '/b'));
    assert.ok(!ring.covers(0));
    assert.ok(ring.covers(1));
    assert.equal(ring.heldPut(1, '/a'), undefined);
    // A previous value the ring no longer holds counts: 100 + 100 + 100 (3) + 100 (4) > 250.
    ring.push(big(4, '/a', { type: 'put', kv: { key: '/a', value: 'y'.repeat(100), createRevision: 1, modRevision: 1 } }));
    assert.ok(ring.covers(3) && !ring.covers(2));
    // One event larger than the budget is still held: the newest always is.
    const huge: StoreEvent = { type: 'put', kv: { key: '/c', value: 'z'.repeat(1000), createRevision: 5, modRevision: 5 } };
    ring.push(huge);
    assert.ok(ring.covers(4) && !ring.covers(3));
    assert.deepEqual(ring.since(4, '/').map((e) => e.kv.modRevision), [5]);
  });

  it('keeps its own copy of each event and hands out copies', () => {
    const ring = new EventRing(5, 0);
    const pushed = ev(1);
    ring.push(pushed);
    const [a] = ring.since(0, '/');
    const [b] = ring.since(0, '/');
    assert.notEqual(a, pushed, 'not the object delivered live: what consumers remember by event goes with it');
    assert.notEqual(a, b);
    assert.equal(a!.kv, pushed.kv);
  });

  it('starts over after a gap in revisions', () => {
    const ring = new EventRing(5, 0);
    ring.push(ev(1));
    ring.push(ev(2));
    ring.push(ev(7));
    assert.ok(!ring.covers(2));
    assert.ok(ring.covers(6));
    assert.deepEqual(
      ring.since(6, '/').map((e) => e.kv.modRevision),
      [7],
    );
  });
});

describe('compaction policy', () => {
  it('compacts to the revision seen one retention period ago, never the newest', () => {
    const p = new CompactionPolicy({ retainMs: 100, maxRevisions: 0 });
    assert.equal(p.tick(0, 10, 0), 0);
    assert.equal(p.tick(50, 20, 0), 0);
    assert.equal(p.tick(100, 30, 0), 10);
    assert.equal(p.tick(150, 40, 10), 20);
    // Nothing written for a long time: stop short of the newest revision.
    assert.equal(p.tick(400, 40, 20), 39);
    assert.equal(p.tick(500, 40, 39), 0);
  });

  it('also caps history by revisions when asked', () => {
    const p = new CompactionPolicy({ retainMs: 1_000_000, maxRevisions: 100 });
    assert.equal(p.tick(0, 50, 0), 0);
    assert.equal(p.tick(1, 500, 0), 400);
    assert.equal(p.tick(2, 550, 400), 450);
  });
});

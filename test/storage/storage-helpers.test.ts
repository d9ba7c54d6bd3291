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

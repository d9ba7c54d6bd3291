// A watch stream's lines from stored bytes: a cached value's bytes copied give the same line as its text, and a
// large event's line is made once and the same buffer handed to every watcher of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WatchLines } from '../../src/server/watch-lines.js';
import type { RawObject } from '../../src/registry/store.js';
import { ValueSlabs, asciiBytes } from '../../src/storage/value-slabs.js';

/** What a watcher's stream was handed, after its turn. */
async function shipped(write: (lines: WatchLines) => void): Promise<(Buffer | string)[]> {
  const out: (Buffer | string)[] = [];
  write(new WatchLines((chunk) => out.push(chunk)));
  await new Promise((r) => process.nextTick(r));
  return out;
}

const textOf = (chunks: (Buffer | string)[]): string => chunks.map((c) => (typeof c === 'string' ? c : c.toString('utf8'))).join('');

function objectText(pad: number): string {
  return JSON.stringify({ apiVersion: 'v1', kind: 'X', metadata: { name: 'n', resourceVersion: '', managedFields: [{ manager: 'a-manager-with-a-name', operation: 'Update', apiVersion: 'v1', time: '2026-11-27T00:00:00Z' }] }, data: 'x'.repeat(pad) });
}

test('lines from a cached value\'s bytes are the lines of its text, small and large, with and without a shared managedFields list', async () => {
  const slabs = new ValueSlabs();
  for (const pad of [10, 5000, 9000, 300_000]) {
    // The same list three times: the slabs keep it once, and the bytes are copied around it.
    for (let i = 0; i < 3; i++) {
      const text = objectText(pad + i);
      const kv = slabs.make({ key: `/k/${pad}/${i}`, value: text, createRevision: 7, modRevision: 7 });
      const at = text.indexOf('"resourceVersion":""') + '"resourceVersion":"'.length;
      const bytes = asciiBytes(kv)!;
      assert.ok(bytes, 'held as bytes');
      const fromBytes: RawObject = { text: kv.value, bytes, at, resourceVersion: '7' };
      const fromText: RawObject = { text, at, resourceVersion: '7' };
      const a = textOf(await shipped((l) => l.raw('MODIFIED', fromBytes, true)));
      const b = textOf(await shipped((l) => l.raw('MODIFIED', fromText, true)));
      assert.equal(a, b);
      assert.equal(a, `{"type":"MODIFIED","object":${text.slice(0, at)}7${text.slice(at)}}\n`);
      assert.deepEqual(JSON.parse(a).object.metadata.resourceVersion, '7');
    }
  }
  assert.ok(slabs.sharedLists > 0, 'a managedFields list kept once');
});

test('a large event: one buffer for every watcher of it, another for another type; the size is its bytes', async () => {
  const text = objectText(20_000);
  const at = text.indexOf('"resourceVersion":""') + '"resourceVersion":"'.length;
  const o: RawObject = { text, at, resourceVersion: '42' };
  const sizes: number[] = [];
  const first = await shipped((l) => sizes.push(l.raw('ADDED', o, true)));
  const second = await shipped((l) => sizes.push(l.raw('ADDED', o, true)));
  assert.equal(first.length, 1);
  assert.ok(Buffer.isBuffer(first[0]));
  assert.equal(first[0], second[0], 'the same buffer');
  assert.equal(sizes[0], (first[0] as Buffer).length);
  const modified = await shipped((l) => l.raw('MODIFIED', o, true));
  assert.notEqual(modified[0], first[0]);
  assert.match(textOf(modified), /^\{"type":"MODIFIED","object":/);
  assert.equal(textOf(first), `{"type":"ADDED","object":${text.slice(0, at)}42${text.slice(at)}}\n`);
  // A small event before it is written out first, in order.
  const both = await shipped((l) => {
    l.raw('ADDED', { text: '{"a":1}', at: -1, resourceVersion: '' }, true);
    l.raw('ADDED', o, true);
  });
  assert.equal(textOf(both), `{"type":"ADDED","object":{"a":1}}\n` + textOf(first));
});

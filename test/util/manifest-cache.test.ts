import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeEntry, defaultManifestCacheDir, encodeEntry, manifestCacheKey, readManifestTexts } from '../../src/util/manifest-cache.js';
import { keepNewestFiles } from '../../src/util/cache-dir.js';
import { readManifestFile, type Manifest } from '../../src/util/manifests.js';
import { readManifestsInWorker } from '../../src/util/manifest-stream.js';

const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {plural: widgets, singular: widget, kind: Widget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        description: "line one\\nline two, and ünïcode"
---
# an empty document is skipped
---
apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: ConfigMap, metadata: {name: a}}
- {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}
`;

function counting(): { parse: (file: string, text: string) => Manifest[]; calls: () => number } {
  let n = 0;
  return {
    parse: (file, text) => {
      n++;
      return readManifestFile(file, text);
    },
    calls: () => n,
  };
}

function scratch(): { dir: string; cache: string; file: string; done(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'manifest-cache-test-'));
  const file = join(dir, 'crds.yaml');
  writeFileSync(file, CRD);
  return { dir, cache: join(dir, 'cache'), file, done: () => rmSync(dir, { recursive: true, force: true }) };
}

test('manifest cache: the second reading of the same bytes is answered from the cache, alike', () => {
  const s = scratch();
  try {
    const p = counting();
    const first = readManifestTexts(s.file, s.cache, 'v1', p.parse);
    assert.equal(p.calls(), 1);
    assert.deepEqual(
      first.map((d) => [d.document, d.kind, d.name]),
      [
        [0, 'CustomResourceDefinition', 'widgets.example.com'],
        [2, 'ConfigMap', 'a'],
        [2, 'ConfigMap', 'b'],
      ],
    );
    assert.equal(JSON.parse(first[0]!.json).spec.versions[0].schema.openAPIV3Schema.description, 'line one\nline two, and ünïcode');
    const again = readManifestTexts(s.file, s.cache, 'v1', p.parse);
    assert.equal(p.calls(), 1, 'not parsed again');
    assert.deepEqual(again, first);
    // The same bytes elsewhere: the entry names the file it is read for.
    const copy = join(s.dir, 'copy.yaml');
    writeFileSync(copy, CRD);
    assert.deepEqual(
      readManifestTexts(copy, s.cache, 'v1', p.parse).map((d) => d.file),
      [copy, copy, copy],
    );
    assert.equal(p.calls(), 1);
  } finally {
    s.done();
  }
});

test('manifest cache: an edited file, another parser version or no cache directory parse again', () => {
  const s = scratch();
  try {
    const p = counting();
    readManifestTexts(s.file, s.cache, 'v1', p.parse);
    writeFileSync(s.file, CRD.replace('widgets.example.com', 'gadgets.example.com'));
    assert.equal(readManifestTexts(s.file, s.cache, 'v1', p.parse)[0]!.name, 'gadgets.example.com');
    assert.equal(p.calls(), 2);
    readManifestTexts(s.file, s.cache, 'v2', p.parse);
    assert.equal(p.calls(), 3);
    readManifestTexts(s.file, undefined, 'v1', p.parse);
    readManifestTexts(s.file, undefined, 'v1', p.parse);
    assert.equal(p.calls(), 5);
  } finally {
    s.done();
  }
});

test('manifest cache: a damaged entry is a miss and is written again; a parse error is not remembered', () => {
  const s = scratch();
  try {
    const p = counting();
    const first = readManifestTexts(s.file, s.cache, 'v1', p.parse);
    const key = manifestCacheKey(Buffer.from(CRD), 'v1');
    const whole = encodeEntry(first);
    writeFileSync(join(s.cache, key), whole.slice(0, whole.length - 10));
    assert.deepEqual(readManifestTexts(s.file, s.cache, 'v1', p.parse), first);
    assert.equal(p.calls(), 2);
    assert.deepEqual(readManifestTexts(s.file, s.cache, 'v1', p.parse), first);
    assert.equal(p.calls(), 2);

    writeFileSync(s.file, 'kind: [unclosed');
    assert.throws(() => readManifestTexts(s.file, s.cache, 'v1', p.parse), /crds\.yaml: document 1/);
    assert.throws(() => readManifestTexts(s.file, s.cache, 'v1', p.parse), /crds\.yaml: document 1/);
    assert.equal(p.calls(), 4);
  } finally {
    s.done();
  }
});

test('manifest cache: entries round-trip; text that is not a whole entry is refused', () => {
  const docs = [
    { file: 'f', document: 0, kind: 'A', apiVersion: 'v1', name: 'x', json: '{"kind":"A"}' },
    { file: 'f', document: 3, kind: undefined, apiVersion: 7, name: '', json: '{}' },
  ];
  const text = encodeEntry(docs);
  assert.deepEqual(decodeEntry(text, 'f'), docs);
  assert.deepEqual(decodeEntry('', 'f'), []);
  assert.equal(decodeEntry(text.slice(0, -1), 'f'), undefined);
  assert.equal(decodeEntry('{"document":0,"name":"x"}\n', 'f'), undefined);
  assert.equal(decodeEntry('not json\n{}\n', 'f'), undefined);
  assert.equal(decodeEntry('{"document":0,"name":"x"}\n[1]\n', 'f'), undefined);
});

test('manifest cache: pruning keeps the most recently used entries', () => {
  const dir = mkdtempSync(join(tmpdir(), 'manifest-cache-prune-'));
  try {
    for (let i = 0; i < 6; i++) {
      writeFileSync(join(dir, `e${i}`), '');
      utimesSync(join(dir, `e${i}`), 1000 + i, 1000 + i);
    }
    writeFileSync(join(dir, '.e9.tmp'), '');
    keepNewestFiles(dir, 4);
    assert.deepEqual(readdirSync(dir).sort(), ['.e9.tmp', 'e2', 'e3', 'e4', 'e5']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('manifest cache: where it is', () => {
  assert.equal(defaultManifestCacheDir({ CRD_APISERVER_CACHE_DIR: '/c' }), '/c/manifests');
  assert.equal(defaultManifestCacheDir({ CRD_APISERVER_CACHE_DIR: 'off' }), undefined);
  assert.equal(defaultManifestCacheDir({ XDG_CACHE_HOME: '/x' }), '/x/crd-apiserver/manifests');
  assert.match(defaultManifestCacheDir({}) ?? '', /\/\.cache\/crd-apiserver\/manifests$/);
});

test('manifest cache: the worker reading fills the cache and answers the same from it', async () => {
  const s = scratch();
  try {
    const read = async (): Promise<string[]> => {
      const r = readManifestsInWorker([s.dir], s.cache);
      const out: string[] = [];
      for await (const m of r.manifests) out.push(`${m.file}#${m.document}:${m.name}:${m.json.length}`);
      await r.close();
      return out;
    };
    const first = await read();
    assert.equal(first.length, 3);
    assert.equal(readdirSync(s.cache).length, 1);
    assert.deepEqual(await read(), first);
    assert.equal(readdirSync(s.cache).length, 1);
  } finally {
    s.done();
  }
});

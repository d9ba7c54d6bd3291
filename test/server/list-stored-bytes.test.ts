// GET and LIST in JSON send the stored bytes (resourceVersion spliced in, lists streamed in chunks) instead
// of decoding and encoding each object. This proves the fast path answers byte for byte what the decoding
// path answers, over lists that take it, that take it for some items only (objects stored at another
// version, or before a schema change), and that cannot take it at all (another version asked for).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { startApi, installCronTab, cronTab, storeWidgetsAtV1, widgetsCrd, type Api } from './helpers.js';
import { serveStoredBytes } from '../../src/server/resource-handler.js';

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function getRaw(url: string, accept = 'application/json'): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { Accept: accept } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** The same request through the stored-bytes path and through the decoding path. */
async function both(api: Api, path: string, accept?: string): Promise<{ fast: Raw; slow: Raw }> {
  serveStoredBytes(true);
  const fast = await getRaw(api.url + path, accept);
  serveStoredBytes(false);
  try {
    const slow = await getRaw(api.url + path, accept);
    return { fast, slow };
  } finally {
    serveStoredBytes(true);
  }
}

/** Asserts both paths answer the same status, Content-Type and bytes; returns the fast answer. */
async function same(api: Api, path: string, accept?: string): Promise<Raw> {
  let { fast, slow } = await both(api, path, accept);
  // Two requests may see different states: a Table's ages either side of a second, or a list's resourceVersion
  // moved by a write in between (on etcd, the controllers' Lease renewals). Ask again: a fast path that answers
  // differently does so every time.
  for (let i = 0; !fast.body.equals(slow.body) && i < 3; i++) ({ fast, slow } = await both(api, path, accept));
  assert.equal(fast.status, slow.status, `${path}: status`);
  assert.equal(fast.headers['content-type'], slow.headers['content-type'], `${path}: Content-Type`);
  assert.ok(fast.body.equals(slow.body), `${path}: the stored-bytes answer differs from the decoded one:\n${firstDifference(fast.body, slow.body)}`);
  return fast;
}

function firstDifference(a: Buffer, b: Buffer): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const at = (x: Buffer): string => x.subarray(Math.max(0, i - 80), i + 80).toString();
  return `at byte ${i} of ${a.length} / ${b.length}\nfast: ${at(a)}\nslow: ${at(b)}`;
}

/** Every page of a paged list, each compared; returns the number of items seen. */
async function samePages(api: Api, path: string, limit: number): Promise<number> {
  let cont = '';
  let n = 0;
  for (let page = 0; page < 1000; page++) {
    const sep = path.includes('?') ? '&' : '?';
    const r = await same(api, `${path}${sep}limit=${limit}${cont ? `&continue=${encodeURIComponent(cont)}` : ''}`);
    assert.equal(r.status, 200, r.body.toString());
    const list = JSON.parse(r.body.toString());
    n += list.items.length;
    cont = list.metadata.continue ?? '';
    if (!cont) return n;
  }
  throw new Error('too many pages');
}

const CT = '/apis/stable.example.com/v1';
const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io';
const TABLE_V1BETA1 = 'application/json;as=Table;v=v1beta1;g=meta.k8s.io';

/** A list as Table, each way of including the objects, compared. */
async function sameTables(api: Api, path: string): Promise<void> {
  for (const include of ['', 'includeObject=Metadata', 'includeObject=None', 'includeObject=Object']) {
    const sep = path.includes('?') ? '&' : '?';
    for (const accept of [TABLE, TABLE_V1BETA1]) {
      const r = await same(api, include ? `${path}${sep}${include}` : path, accept);
      assert.equal(r.status, 200, `${path} ${include}: ${r.body.toString().slice(0, 200)}`);
    }
  }
}

test('LIST and GET from stored bytes answer what decoding answers, byte for byte', async () => {
  const api = await startApi();
  try {
    await installCronTab(api);
    for (const ns of ['a', 'b', 'empty']) {
      assert.equal((await api.req('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status, 201);
    }
    const post = async (ns: string, body: unknown): Promise<void> => {
      const r = await api.req('POST', `${CT}/namespaces/${ns}/crontabs`, body);
      assert.equal(r.status, 201, r.text);
    };
    // Enough objects that a list of them spans several chunks of the stream.
    for (let i = 0; i < 400; i++) {
      await post(i % 2 ? 'a' : 'b', cronTab(`ct-${String(i).padStart(3, '0')}`, { labels: { tier: i % 3 ? 'web' : 'db', n: String(i) } }));
    }
    // What JSON encoding could change: non-ASCII text (2-, 3- and 4-byte UTF-8), escapes, a lone surrogate,
    // integer-like map keys, int64 beyond 2^53, and one object larger than a chunk.
    const odd = cronTab('odd', { labels: { '9': 'x', '10': 'y', b: 'z' }, annotations: { note: 'héllo ☃ 😀 "quoted" \\ \u0001 \ud800 </script>' } });
    odd.spec = { cronSpec: 'ünïcode ✓', image: '😀'.repeat(50), replicas: 1 };
    await post('a', JSON.stringify(odd).replace('"replicas":1', '"replicas":9007199254740993'));
    await post('a', { ...cronTab('plain'), spec: { cronSpec: 'x', image: 'y', replicas: 3 } });
    await post('b', { ...cronTab('big'), spec: { cronSpec: 'x', image: 'é'.repeat(600_000) } });
    // Label selectors read labels from the stored bytes: text that looks like labels elsewhere must not count.
    await post('b', cronTab('decoy', { labels: { tier: 'web', n: '7' }, annotations: { 'labels.example.com/x': '"labels":{"tier":"db"}', labels: '{"tier":"db"}' } }));
    await post('b', cronTab('unlabelled'));

    const whole = await same(api, `${CT}/crontabs`);
    assert.equal(JSON.parse(whole.body.toString()).items.length, 405);
    assert.equal(whole.headers['transfer-encoding'], 'chunked', 'a large list is streamed');
    assert.equal(whole.headers['content-length'], undefined);
    const { slow } = await both(api, `${CT}/crontabs`);
    assert.equal(slow.headers['content-length'], String(slow.body.length), 'the decoding path answers with the whole body');

    const small = await same(api, `${CT}/namespaces/a/crontabs?labelSelector=n%3D1`);
    assert.equal(small.headers['content-length'], String(small.body.length), 'a list that fits one chunk keeps its Content-Length');
    assert.equal(JSON.parse(small.body.toString()).items.length, 1);

    for (const path of [
      `${CT}/namespaces/a/crontabs`,
      `${CT}/namespaces/b/crontabs`,
      `${CT}/namespaces/empty/crontabs`,
      `${CT}/namespaces/missing/crontabs`,
      `${CT}/crontabs?labelSelector=tier%3Ddb`,
      `${CT}/crontabs?labelSelector=tier%20in%20(web),n!%3D7`,
      `${CT}/crontabs?labelSelector=nothing`,
      `${CT}/crontabs?labelSelector=!tier`,
      `${CT}/namespaces/b/crontabs?labelSelector=tier%3Dweb,n%3D7`,
      `${CT}/crontabs?labelSelector=tier%3Ddb&fieldSelector=metadata.namespace%3Db`,
      `${CT}/namespaces/a/crontabs?fieldSelector=metadata.name%3Dodd`,
      `${CT}/crontabs?fieldSelector=metadata.namespace%3Db`,
      `${CT}/crontabs?resourceVersion=0`,
      `${CT}/crontabs?resourceVersionMatch=NotOlderThan&resourceVersion=1`,
      `${CT}/namespaces/a/crontabs/odd`,
      `${CT}/namespaces/a/crontabs/plain`,
      `${CT}/namespaces/b/crontabs/big`,
      `${CT}/namespaces/a/crontabs/ct-001`,
    ]) {
      const r = await same(api, path);
      assert.ok(r.status === 200 || path.includes('/missing/'), `${path}: ${r.status} ${r.body.toString().slice(0, 200)}`);
    }
    assert.match((await same(api, `${CT}/namespaces/a/crontabs/odd`)).body.toString(), /"replicas":9007199254740993\b/);

    // Tables: rows streamed one at a time, compared with the table built whole.
    const table = await same(api, `${CT}/crontabs?includeObject=Object`, TABLE);
    assert.equal(table.headers['transfer-encoding'], 'chunked', 'a large table is streamed');
    assert.equal(JSON.parse(table.body.toString()).rows.length, 405);
    for (const path of [`${CT}/crontabs`, `${CT}/namespaces/a/crontabs?labelSelector=tier%3Ddb`, `${CT}/namespaces/empty/crontabs`, `${CT}/crontabs?limit=7`]) {
      await sameTables(api, path);
    }

    assert.equal(await samePages(api, `${CT}/crontabs`, 37), 405);
    assert.equal(await samePages(api, `${CT}/namespaces/a/crontabs?labelSelector=tier%3Dweb`, 50), 133);
    assert.equal(await samePages(api, `${CT}/namespaces/empty/crontabs`, 5), 0);

    // Built-in kinds take the same path: namespaced and cluster-scoped.
    await api.req('POST', '/api/v1/namespaces/a/configmaps', { metadata: { name: 'cm', labels: { x: 'y' } }, data: { k: 'välue ☃', big: '1'.repeat(20) } });
    for (const path of ['/api/v1/configmaps', '/api/v1/namespaces/a/configmaps', '/api/v1/namespaces/a/configmaps/cm', '/api/v1/namespaces', '/api/v1/namespaces?labelSelector=kubernetes.io%2Fmetadata.name%3Da']) {
      assert.equal((await same(api, path)).status, 200, path);
      if (!path.endsWith('/cm')) await sameTables(api, path);
    }
    assert.ok((await samePages(api, '/api/v1/namespaces', 2)) >= 3);
  } finally {
    await api.close();
  }
});

// Objects stored at another version than the one asked for are converted (decoded): a list of some of
// each takes the stored bytes for some items only.
test('lists mixing objects served as stored and objects converted from another version', async () => {
  const api = await startApi();
  try {
    const schema = { openAPIV3Schema: { type: 'object', properties: { a: { type: 'string' } } } };
    const crd = (storage: 'v1beta1' | 'v1') =>
      widgetsCrd(storage, () => ({
        schema,
        // Printer columns of each kind, kept per object by the Table path (ages rendered per request).
        additionalPrinterColumns: [
          { name: 'A', type: 'string', jsonPath: '.a' },
          { name: 'Gen', type: 'integer', jsonPath: '.metadata.generation' },
          { name: 'Made', type: 'date', jsonPath: '.metadata.creationTimestamp' },
          { name: 'Missing', type: 'date', jsonPath: '.status.when' },
          { name: 'Labels', type: 'string', jsonPath: '.metadata.labels', priority: 1 },
        ],
      }));
    await installCronTab(api, crd('v1beta1'));
    const w = (v: string, name: string) => ({ apiVersion: `example.com/${v}`, kind: 'Widget', metadata: { name, labels: { v } }, a: `${name} ✓` });
    for (let i = 0; i < 3; i++) assert.equal((await api.req('POST', '/apis/example.com/v1beta1/namespaces/default/widgets', w('v1beta1', `old-${i}`))).status, 201);
    await storeWidgetsAtV1(api, crd('v1'), w);
    for (let i = 0; i < 3; i++) assert.equal((await api.req('POST', '/apis/example.com/v1/namespaces/default/widgets', w('v1', `new-${i}`))).status, 201);
    const storedAt = async (name: string) => JSON.parse((await api.kv.get(`/registry/example.com/widgets/default/${name}`))!.value).apiVersion;
    assert.equal(await storedAt('old-0'), 'example.com/v1beta1');
    assert.equal(await storedAt('new-0'), 'example.com/v1');
    for (const v of ['v1', 'v1beta1']) {
      const r = await same(api, `/apis/example.com/${v}/namespaces/default/widgets`);
      const items = JSON.parse(r.body.toString()).items as { apiVersion: string }[];
      assert.ok(items.length >= 6);
      assert.ok(items.every((o) => o.apiVersion === `example.com/${v}`));
      await same(api, `/apis/example.com/${v}/widgets?labelSelector=v%3Dv1`);
      await samePages(api, `/apis/example.com/${v}/namespaces/default/widgets`, 2);
      await same(api, `/apis/example.com/${v}/namespaces/default/widgets/old-0`);
      await same(api, `/apis/example.com/${v}/namespaces/default/widgets/new-0`);
      await sameTables(api, `/apis/example.com/${v}/namespaces/default/widgets`);
      const t = JSON.parse((await same(api, `/apis/example.com/${v}/namespaces/default/widgets`, TABLE)).body.toString());
      assert.deepEqual(t.columnDefinitions.map((c: { name: string }) => c.name), ['Name', 'A', 'Gen', 'Made', 'Missing', 'Labels']);
      assert.deepEqual(t.rows.find((r: { cells: unknown[] }) => r.cells[0] === 'new-0').cells.slice(1, 3), ['new-0 ✓', 1]);
    }
  } finally {
    await api.close();
  }
});

// A LIST with a label selector that has a requirement only labelled objects meet (`k=v`, `k in (...)`, `k`)
// visits only the objects the watch cache's label index finds (src/storage/label-index.ts). Compared byte for
// byte with the scan of every object (serveStoredBytes(false) turns the index off with the other fast paths),
// before the index exists, and after labels change, are removed and objects are deleted, which the index
// follows from the cache's events.
test('label-selected lists from the label index answer what the scan answers', async () => {
  const api = await startApi();
  let indexed = 0;
  const kv = api.kv as typeof api.kv & { listByLabels: NonNullable<typeof api.kv.listByLabels> };
  const listByLabels = kv.listByLabels.bind(kv);
  kv.listByLabels = async (...args) => {
    const r = await listByLabels(...args);
    if (r) indexed++;
    return r;
  };
  try {
    await installCronTab(api);
    for (const ns of ['a', 'b', 'c']) {
      assert.equal((await api.req('POST', '/api/v1/namespaces', { metadata: { name: ns } })).status, 201);
    }
    const post = async (ns: string, body: unknown): Promise<void> => {
      const r = await api.req('POST', `${CT}/namespaces/${ns}/crontabs`, body);
      assert.equal(r.status, 201, r.text);
    };
    const nss = ['a', 'b', 'c'];
    for (let i = 0; i < 300; i++) {
      const labels: Record<string, string> = { shard: String(i % 16), tier: ['web', 'db', 'cache'][i % 3]! };
      if (i % 5 === 0) labels['canary'] = i % 2 ? 'yes' : 'no';
      await post(nss[i % 3]!, cronTab(`ct-${String(i).padStart(3, '0')}`, { labels, annotations: { 'labels.example.com/x': '"labels":{"shard":"3"}', labels: '{"shard":"3"}' } }));
    }
    // Decoys that read like the selected labels elsewhere, and an object without labels.
    await post('a', cronTab('decoy', { labels: { shard: '99' }, annotations: { note: '"labels":{"shard":"3","tier":"web"}' } }));
    await post('b', cronTab('unlabelled', { annotations: { labels: 'shard=3' } }));

    const selectors = [
      'shard=3',
      'shard==3',
      'shard in (3,4,17)',
      'shard in (3),tier=web',
      'shard=3,tier!=web',
      'shard=3,!canary',
      'canary',
      'canary,shard notin (0,5)',
      'tier in (db,cache),canary=yes',
      'tier=web,shard>4',
      'missing',
      'shard=nope',
    ];
    const paths = (sel: string): string[] => {
      const q = `labelSelector=${encodeURIComponent(sel)}`;
      return [`${CT}/crontabs?${q}`, `${CT}/namespaces/b/crontabs?${q}`, `${CT}/namespaces/c/crontabs?${q}`, `${CT}/crontabs?${q}&fieldSelector=metadata.namespace%3Da`];
    };
    const compareAll = async (): Promise<void> => {
      for (const sel of selectors) {
        for (const path of paths(sel)) {
          const r = await same(api, path);
          assert.equal(r.status, 200, `${path}: ${r.body.toString().slice(0, 200)}`);
        }
        for (const limit of [1, 7, 50]) await samePages(api, paths(sel)[0]!, limit);
        await samePages(api, paths(sel)[1]!, 4);
      }
    };
    const count = async (sel: string, ns = ''): Promise<number> =>
      JSON.parse((await same(api, `${CT}${ns ? `/namespaces/${ns}` : ''}/crontabs?labelSelector=${encodeURIComponent(sel)}`)).body.toString()).items.length;

    const before = indexed;
    await compareAll();
    assert.ok(indexed > before, 'the lists took the label index');
    assert.equal(await count('shard=3'), 19);
    assert.equal(await count('shard=3', 'a'), 7);

    // Labels change, are removed, objects are deleted and created: the index follows the events.
    const put = async (ns: string, name: string, edit: (o: any) => void): Promise<void> => {
      const cur = await api.req('GET', `${CT}/namespaces/${ns}/crontabs/${name}`);
      edit(cur.json);
      const r = await api.req('PUT', `${CT}/namespaces/${ns}/crontabs/${name}`, cur.json);
      assert.equal(r.status, 200, r.text);
    };
    await put('a', 'ct-003', (o) => (o.metadata.labels.shard = '4'));
    await put('a', 'ct-051', (o) => delete o.metadata.labels);
    await put('c', 'ct-035', (o) => (o.metadata.labels = { canary: 'yes', shard: '3' }));
    await put('a', 'ct-000', (o) => (o.metadata.annotations = { x: '"labels":{"shard":"3"}' }));
    await put('b', 'unlabelled', (o) => (o.metadata.labels = { shard: '3', tier: 'web' }));
    for (const name of ['ct-019', 'ct-067', 'ct-100']) {
      const ns = nss[Number(name.slice(3)) % 3]!;
      assert.equal((await api.req('DELETE', `${CT}/namespaces/${ns}/crontabs/${name}`)).status, 200);
    }
    await post('c', cronTab('late', { labels: { shard: '3', canary: 'no' } }));
    await post('a', cronTab('ct-003x', { labels: { shard: '3' } }));
    await compareAll();
    // 19, less ct-003 (now 4), ct-051 (no labels), ct-019, ct-067 (deleted), plus unlabelled, late, ct-003x.
    assert.equal(await count('shard=3'), 19 - 4 + 3);
    assert.equal(await count('canary=yes,shard=3'), 4);
    // 301 labelled, less ct-051 and the three deleted, plus unlabelled, late and ct-003x.
    assert.equal(await count('shard'), 301 - 4 + 3);

    // A continue token from the index's page read after writes, at its own revision, gives the same next pages.
    const first = JSON.parse((await getRaw(`${api.url}${CT}/crontabs?labelSelector=shard%3D3&limit=5`)).body.toString());
    await put('c', 'ct-098', (o) => (o.metadata.labels.shard = '3'));
    await post('b', cronTab('after', { labels: { shard: '3' } }));
    const rest = await same(api, `${CT}/crontabs?labelSelector=shard%3D3&limit=100&continue=${encodeURIComponent(first.metadata.continue)}`);
    const names = JSON.parse(rest.body.toString()).items.map((o: { metadata: { name: string } }) => o.metadata.name);
    assert.equal(first.items.length + names.length, 18, 'pages after the first are read at its revision');
    assert.ok(!names.includes('after') && !names.includes('ct-098'));
    assert.equal(await count('shard=3'), 20);
  } finally {
    await api.close();
  }
});

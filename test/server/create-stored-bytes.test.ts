// A create (and an update) answers with the bytes it stored (resourceVersion spliced in) rather than parsing them to write
// them out again, and its watch event carries the object the store built rather than a parse of the stored
// bytes. Both fast paths must give what the decoding path gives, byte for byte: the create's answer and the
// watch event's object are compared with a GET through the decoding path, for objects whose JSON encoding
// could differ (non-ASCII, escapes, lone surrogates, int64 beyond 2^53, floats, unsorted and integer-like
// keys, a `__proto__` member, empty objects and arrays), of a type served as stored and of one with defaults
// (which is not).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { startApi, installCronTab, CRONTAB_CRD, type Api } from './helpers.js';
import { serveStoredBytes } from '../../src/server/resource-handler.js';

const APPLY = { 'Content-Type': 'application/apply-patch+yaml' };

function raw(api: Api, method: string, path: string, body?: string, extra: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { Accept: 'application/json' };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    Object.assign(headers, extra);
    const req = request(api.url + path, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** Raw watch lines as they arrive. */
async function watchLines(api: Api, path: string): Promise<{ lines: string[]; close(): void }> {
  const ctrl = new AbortController();
  const res = await fetch(api.url + path, { signal: ctrl.signal });
  assert.equal(res.status, 200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const lines: string[] = [];
  let buf = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buf += decoder.decode(value, { stream: true });
        let nl;
        while ((nl = buf.indexOf('\n')) >= 0) {
          lines.push(buf.slice(0, nl));
          buf = buf.slice(nl + 1);
        }
      }
    } catch {
      // aborted
    }
  })();
  return { lines, close: () => ctrl.abort() };
}

const WIDGETS = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'widgets.example.com' },
  spec: {
    group: 'example.com',
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } } },
      },
    ],
    scope: 'Namespaced',
    names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
  },
};

// A default makes the type's stored bytes not served as they are: both fast paths step aside.
const DEFAULTED = structuredClone(CRONTAB_CRD) as typeof CRONTAB_CRD;
DEFAULTED.metadata.name = 'defaulted.stable.example.com';
DEFAULTED.spec.names = { plural: 'defaulted', singular: 'defaulted', kind: 'Defaulted', shortNames: [] };
(DEFAULTED.spec.versions[0]!.schema.openAPIV3Schema.properties.spec.properties as Record<string, unknown>)['image'] = { type: 'string', default: 'nginx' };

test('a create answers, and its watch event carries, the bytes the decoding path gives', async () => {
  const api = await startApi();
  try {
    await installCronTab(api);
    await installCronTab(api, WIDGETS);
    await installCronTab(api, DEFAULTED);
    assert.equal((await api.req('POST', '/api/v1/namespaces', { metadata: { name: 'a' } })).status, 201);
    const bodies: [string, string][] = [
      ['/apis/stable.example.com/v1/namespaces/a/crontabs', '{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"plain","labels":{"b":"2","a":"1"}},"spec":{"replicas":3,"image":"y","cronSpec":"x"}}'],
      [
        '/apis/stable.example.com/v1/namespaces/a/crontabs',
        JSON.stringify({
          apiVersion: 'stable.example.com/v1',
          kind: 'CronTab',
          metadata: { name: 'odd', labels: { '9': 'x', '10': 'y', b: 'z' }, annotations: { note: 'héllo ☃ 😀 "quoted" \\ \u0001 \ud800 </script>' } },
          spec: { cronSpec: 'ünïcode ✓', image: '😀'.repeat(50), replicas: 1 },
        }).replace('"replicas":1', '"replicas":9007199254740993'),
      ],
      [
        '/apis/example.com/v1/namespaces/a/widgets',
        '{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"w"},"spec":{"z":[3,{"y":1.5,"x":0,"e":1e21,"tiny":5e-324}],"10":{},"2":[],"a":null,"m":{"b":true,"a":"\\u2028 ☃ \\ud800"}}}',
      ],
      ['/apis/example.com/v1/namespaces/a/widgets', '{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"proto"},"spec":{"__proto__":{"p":1},"q":[{"__proto__":null}],"z":-0}}'],
      ['/apis/example.com/v1/namespaces/a/widgets', '{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"big"},"spec":{"n":-9007199254740993,"f":0.1}}'],
      ['/apis/stable.example.com/v1/namespaces/a/defaulted', '{"apiVersion":"stable.example.com/v1","kind":"Defaulted","metadata":{"name":"d"},"spec":{"cronSpec":"x"}}'],
    ];
    const paths = [...new Set(bodies.map(([p]) => p))];
    const watches = await Promise.all(paths.map((p) => watchLines(api, `${p}?watch=1`)));
    try {
      for (const [path, body] of bodies) {
        serveStoredBytes(true);
        const created = await raw(api, 'POST', path, body);
        assert.equal(created.status, 201, created.text);
        const name = JSON.parse(created.text).metadata.name as string;
        serveStoredBytes(false);
        const slow = await raw(api, 'GET', `${path}/${name}`);
        serveStoredBytes(true);
        assert.equal(slow.status, 200, slow.text);
        assert.equal(created.text, slow.text, `${path} ${name}: the create's answer differs from the decoding path's`);
        // The watch event of the create: the same object, as the decoding path encodes it.
        const lines = watches[paths.indexOf(path)]!.lines;
        const want = `{"type":"ADDED","object":${slow.text.trimEnd()}}`;
        for (let i = 0; i < 200 && !lines.some((l) => l.includes(`"name":"${name}"`)); i++) await new Promise((r) => setTimeout(r, 10));
        const event = lines.find((l) => l.includes(`"name":"${name}"`));
        assert.equal(event, want, `${path} ${name}: the watch event differs from the decoding path's`);
      }
      // Updates answer the same way: PUT, a merge patch, and server-side apply (creating, then changing).
      const writes: [string, string, string, string, Record<string, string>][] = [
        ['PUT', '/apis/stable.example.com/v1/namespaces/a/crontabs', 'plain', '', {}],
        ['PATCH', '/apis/example.com/v1/namespaces/a/widgets', 'w', '{"metadata":{"labels":{"x":"1"}},"spec":{"added":[1.25,"ü"]}}', { 'Content-Type': 'application/merge-patch+json' }],
        ['PATCH', '/apis/example.com/v1/namespaces/a/widgets', 'applied', '{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"applied"},"spec":{"b":1,"a":"é"}}', APPLY],
        ['PATCH', '/apis/example.com/v1/namespaces/a/widgets', 'applied', '{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"applied"},"spec":{"b":2}}', APPLY],
        ['PATCH', '/apis/stable.example.com/v1/namespaces/a/defaulted', 'd', '{"spec":{"cronSpec":"y"}}', { 'Content-Type': 'application/merge-patch+json' }],
      ];
      for (const [method, path, name, patch, headers] of writes) {
        let body = patch;
        if (method === 'PUT') {
          const cur = JSON.parse((await raw(api, 'GET', `${path}/${name}`)).text);
          cur.metadata.labels = { ...cur.metadata.labels, put: 'yes' };
          body = JSON.stringify(cur);
        }
        const sep = headers === APPLY ? '?fieldManager=test' : '';
        const written = await raw(api, method, `${path}/${name}${sep}`, body, headers);
        assert.ok(written.status === 200 || written.status === 201, written.text);
        serveStoredBytes(false);
        const slow = await raw(api, 'GET', `${path}/${name}`);
        serveStoredBytes(true);
        assert.equal(written.text, slow.text, `${method} ${path} ${name}: the answer differs from the decoding path's`);
        const lines = watches[paths.indexOf(path)]!.lines;
        const want = `{"type":"${written.status === 201 ? 'ADDED' : 'MODIFIED'}","object":${slow.text.trimEnd()}}`;
        for (let i = 0; i < 200 && !lines.includes(want); i++) await new Promise((r) => setTimeout(r, 10));
        assert.ok(lines.includes(want), `${method} ${path} ${name}: no watch event with the decoding path's bytes:\n${want}\n${lines.filter((l) => l.includes(`"name":"${name}"`)).join('\n')}`);
      }
    } finally {
      for (const w of watches) w.close();
      serveStoredBytes(true);
    }
  } finally {
    await api.close();
  }
});

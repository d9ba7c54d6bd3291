// Integers beyond 2^53 over HTTP: kube decodes an integer literal within int64 range as an exact int64
// (and a larger one as a float64), so 9223372036854775807 comes back as written from every read and write
// path: create, get, list, watch, patches, YAML, tables, CEL, stored bytes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, type Api } from './helpers.js';

let api: Api;
const base = '/apis/stable.example.com/v1/namespaces/default/counters';
const MAX = '9223372036854775807';
const MIN = '-9223372036854775808';
const ODD = '9007199254740993'; // 2^53 + 1: the first integer a float64 cannot hold

const COUNTER_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'counters.stable.example.com' },
  spec: {
    group: 'stable.example.com',
    scope: 'Namespaced',
    names: { plural: 'counters', singular: 'counter', kind: 'Counter' },
    versions: [
      {
        name: 'v1',
        served: true,
        storage: true,
        additionalPrinterColumns: [{ name: 'Big', type: 'integer', jsonPath: '.spec.big' }],
        selectableFields: [{ jsonPath: '.spec.big' }],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: {
                type: 'object',
                'x-kubernetes-validations': [{ rule: '!has(self.big) || self.big != 9223372036854775806', message: 'no 2^63-2' }],
                properties: {
                  big: { type: 'integer' },
                  big64: { type: "integer", format: "int64" },
                  odd: { type: 'integer' },
                  num: { type: 'number' },
                  list: { type: 'array', items: { type: 'integer' } },
                  set: { type: 'array', 'x-kubernetes-list-type': 'set', items: { type: 'integer' } },
                  bounded: { type: 'integer', maximum: 'ODD' },
                  enumed: { type: 'integer', enum: ['MAX', 1] },
                  defaulted: { type: 'integer', default: 'MAX' },
                  free: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
                },
              },
            },
          },
        },
      },
    ],
  },
};

// Bodies as text: JSON.stringify would round the numbers before the server sees them.
const body = (name: string, spec: string): string =>
  `{"apiVersion":"stable.example.com/v1","kind":"Counter","metadata":{"name":"${name}"},"spec":${spec}}`;
const SPEC = `{"big":${MAX},"big64":${MIN},"odd":${ODD},"num":${ODD},"list":[${MAX},1,${MIN}],"set":[${MAX},1],"enumed":${MAX},"free":{"x":${MAX},"s":"${MAX}"}}`;

/** The exact numbers of SPEC, as the server must write them back (keys sorted as Go writes maps). */
function assertExact(text: string, what: string): void {
  for (const frag of [`"big":${MAX}`, `"big64":${MIN}`, `"odd":${ODD}`, `"num":${ODD}`, `"list":[${MAX},1,${MIN}]`, `"x":${MAX}`, `"s":"${MAX}"`, `"defaulted":${MAX}`]) {
    assert.ok(text.includes(frag), `${what}: ${frag} in ${text}`);
  }
}

before(async () => {
  api = await startApi();
  // The CRD as text, its big numbers exact (markers replaced).
  const crd = JSON.stringify(COUNTER_CRD).replaceAll('"MAX"', MAX).replaceAll('"ODD"', ODD);
  const r = await api.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
  assert.equal(r.status, 201, r.text);
  assert.ok(r.text.includes(`"default":${MAX}`) && r.text.includes(`"enum":[${MAX},1]`), r.text);
  for (let i = 0; i < 200 && (await api.req('GET', base)).status !== 200; i++) await new Promise((res) => setTimeout(res, 10));
});
after(async () => {
  await api?.close();
});

test('create, get, list, stored bytes and watch keep int64s exact', async () => {
  const c = await api.req('POST', base, body('c1', SPEC));
  assert.equal(c.status, 201, c.text);
  assertExact(c.text, 'create');
  assertExact((await api.req('GET', `${base}/c1`)).text, 'get');
  assertExact((await api.req('GET', base)).text, 'list');
  assertExact((await api.req('GET', '/apis/stable.example.com/v1/counters')).text, 'list all namespaces');
  const kv = await api.kv.get('/registry/stable.example.com/counters/default/c1');
  assert.ok(kv);
  assertExact(kv.value, 'stored');
  const w = await api.req('GET', `${base}?watch=1&timeoutSeconds=1&fieldSelector=metadata.name%3Dc1`);
  assertExact(w.text, 'watch');
});

test('YAML responses and YAML bodies keep int64s exact', async () => {
  const y = await api.req('GET', `${base}/c1`, undefined, { Accept: 'application/yaml' });
  assert.ok(y.text.includes(`\n  big: ${MAX}\n  big64: ${MIN}\n`), y.text);
  assert.ok(y.text.includes(`\n  - ${MAX}\n  - 1\n  - ${MIN}\n`), y.text);
  const yaml = `apiVersion: stable.example.com/v1\nkind: Counter\nmetadata:\n  name: y1\nspec:\n  big: ${MAX}\n  big64: ${MIN}\n  odd: ${ODD}\n  num: ${ODD}\n  list: [${MAX}, 1, ${MIN}]\n  enumed: ${MAX}\n  free: {x: ${MAX}, s: "${MAX}"}\n`;
  const r = await api.req('POST', base, yaml, { 'Content-Type': 'application/yaml' });
  assert.equal(r.status, 201, r.text);
  assertExact(r.text, 'yaml create');
});

test('merge and JSON patches and updates keep int64s exact', async () => {
  const m = await api.req('PATCH', `${base}/c1`, `{"spec":{"free":{"y":${MIN}}}}`, { 'Content-Type': 'application/merge-patch+json' });
  assert.equal(m.status, 200, m.text);
  assertExact(m.text, 'merge patch');
  assert.ok(m.text.includes(`"y":${MIN}`), m.text);
  const j = await api.req(
    'PATCH',
    `${base}/c1`,
    `[{"op":"test","path":"/spec/big","value":${MAX}},{"op":"replace","path":"/spec/odd","value":9007199254740995},{"op":"replace","path":"/spec/odd","value":${ODD}}]`,
    { 'Content-Type': 'application/json-patch+json' },
  );
  assert.equal(j.status, 200, j.text);
  assertExact(j.text, 'json patch');
  // The test op compares exactly: 2^63-2 is not 2^63-1 (as float64s they would be equal).
  const t = await api.req('PATCH', `${base}/c1`, `[{"op":"test","path":"/spec/big","value":9223372036854775806}]`, {
    'Content-Type': 'application/json-patch+json',
  });
  assert.notEqual(t.status, 200, t.text);
  // An update (PUT) of the object read back: managed fields and the update path see the numbers too.
  const cur = await api.req('GET', `${base}/c1`);
  const put = await api.req('PUT', `${base}/c1`, cur.text.replace(`"odd":${ODD}`, '"odd":9007199254740995'));
  assert.equal(put.status, 200, put.text);
  assert.ok(put.text.includes('"odd":9007199254740995'), put.text);
  assert.ok(put.text.includes(`"big":${MAX}`), put.text);
  // A set list compares members exactly: 2^63-1 and 2^63-2 differ (as float64s they would not).
  const put2 = await api.req('PUT', `${base}/c1`, put.text.replace(`"set":[${MAX},1]`, `"set":[${MAX},9223372036854775806]`));
  assert.equal(put2.status, 200, put2.text);
  const dup = await api.req('PUT', `${base}/c1`, put2.text.replace(`"set":[${MAX},9223372036854775806]`, `"set":[${MAX},${MAX}]`));
  assert.equal(dup.status, 422, dup.text);
  assert.match(dup.json.message, /spec\.set\[1\]: Duplicate value: 9223372036854775807/);
});

test('schema validation sees int64s: bounds, enum, and values beyond int64 as float64s', async () => {
  const over = await api.req('POST', base, body('o1', `{"big":9223372036854775808}`));
  assert.equal(over.status, 422, over.text);
  assert.match(over.json.message, /spec\.big: Invalid value: "number": spec\.big in body must be of type integer: "number"/);
  const bound = await api.req('POST', base, body('o2', `{"bounded":9007199254740994}`));
  assert.equal(bound.status, 422, bound.text);
  assert.match(bound.json.message, /spec\.bounded: Invalid value: 9007199254740994: spec\.bounded in body should be less than or equal to 9007199254740992/);
  const en = await api.req('POST', base, body('o3', `{"enumed":9223372036854775806}`));
  assert.equal(en.status, 422, en.text);
  assert.match(en.json.message, /spec\.enumed: Unsupported value: 9223372036854775806: supported values: "9223372036854775807", "1"/);
});

test('CEL rules compare int64s exactly', async () => {
  const r = await api.req('POST', base, body('cel1', `{"big":9223372036854775806}`));
  assert.equal(r.status, 422, r.text);
  assert.match(r.json.message, /no 2\^63-2/);
});

test('tables and field selectors print int64s exactly', async () => {
  const t = await api.req('GET', `${base}/c1`, undefined, { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
  assert.equal(t.status, 200, t.text);
  assert.ok(t.text.includes(`"cells":["c1",${MAX}]`), t.text);
  const s = await api.req('GET', `${base}?fieldSelector=spec.big%3D${MAX}`);
  assert.equal(s.status, 200, s.text);
  assert.ok(s.text.includes('"name":"c1"'), s.text);
  assert.ok(!s.text.includes('"name":"o'), s.text);
});

test('int64 metadata fields: exact within int64, Go’s overflow error beyond', async () => {
  const ok = await api.req('POST', '/api/v1/namespaces', `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"gen-ok","generation":${MAX}}}`);
  assert.equal(ok.status, 201, ok.text);
  const over = await api.req('POST', '/api/v1/namespaces', '{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"gen-over","generation":9223372036854775808}}');
  assert.equal(over.status, 400, over.text);
  assert.equal(
    over.json.message,
    'Namespace in version "v1" cannot be handled as a Namespace: json: cannot unmarshal number 9223372036854775808 into Go struct field ObjectMeta.metadata.generation of type int64',
  );
  const cr = await api.req('POST', base, body('gen-cr', '{}').replace('"name":"gen-cr"', `"name":"gen-cr","generation":${MAX}`));
  assert.equal(cr.status, 201, cr.text);
  const crOver = await api.req('POST', base, body('gen-cr2', '{}').replace('"name":"gen-cr2"', '"name":"gen-cr2","generation":9223372036854775808'));
  assert.equal(crOver.status, 400, crOver.text);
  // kube re-marshals the unstructured metadata (a float64 now) before decoding ObjectMeta: Go's 'f' formatting.
  assert.match(crOver.json.message, /cannot unmarshal number 9223372036854776000 into Go struct field ObjectMeta\.generation of type int64/);
});

test('OpenAPI v3 and v2 publish int64 defaults and enums exactly', async () => {
  const v3 = await api.req('GET', '/openapi/v3/apis/stable.example.com/v1');
  assert.equal(v3.status, 200, v3.text);
  assert.ok(v3.text.includes(`"default":${MAX}`) && v3.text.includes(`"enum":[${MAX},1]`), v3.text);
  const v2 = await api.req('GET', '/openapi/v2');
  assert.equal(v2.status, 200, v2.text);
  assert.ok(v2.text.includes(`"enum":[${MAX},1]`), 'v2 enum'); // (v2 leaves defaults out)
  const pb = await api.req('GET', '/openapi/v2', undefined, { Accept: 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf' });
  assert.equal(pb.status, 200, pb.text);
});

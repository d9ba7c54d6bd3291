// CustomResourceDefinitions in etcd as kube-apiserver 1.33 writes them (src/server/stored-crds.ts):
// apiextensions.k8s.io/v1beta1 JSON in Go's field order, what every version shares moved to the spec; read
// back, ours, kube-apiserver's and the v1 of earlier versions give the registry's very v1 text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { storedCRDCodec } from '../../src/server/stored-crds.js';
import { etcdCodec } from '../../src/cli/serve.js';
import { transformersFromConfig } from '../../src/storage/encryption/config.js';
import { CORPUS } from '../shared-paths.js';
import { seedVersionCRDs } from '../seed-crds.js';
import { startApi } from './helpers.js';

const KEY = '/registry/apiextensions.k8s.io/customresourcedefinitions/widgets.example.com';
const schema = (extra: Record<string, unknown> = {}) => ({
  openAPIV3Schema: {
    type: 'object',
    properties: { spec: { type: 'object', properties: { size: { description: 'a <b> & c', type: 'string', ...extra } } } },
  },
});
const columns = [{ name: 'Size', type: 'string', jsonPath: '.spec.size' }];
const meta = {
  name: 'widgets.example.com',
  uid: 'u1',
  resourceVersion: '',
  generation: 2,
  creationTimestamp: '2025-01-02T03:04:05Z',
  labels: { z: '1', a: '2' },
  managedFields: [{ manager: 'kubectl', operation: 'Apply', apiVersion: 'apiextensions.k8s.io/v1', time: '2025-01-02T03:04:05Z', fieldsType: 'FieldsV1', fieldsV1: { 'f:spec': {} } }],
};
const names = { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' };
const status = {
  conditions: [{ type: 'Established', status: 'True', lastTransitionTime: '2025-01-02T03:04:06Z', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' }],
  acceptedNames: names,
  storedVersions: ['v1'],
};
const webhook = { clientConfig: { service: { namespace: 'ns', name: 'conv', path: '/convert', port: 443 }, caBundle: 'Y2E=' }, conversionReviewVersions: ['v1'] };

/** A v1 CRD as the registry stores it: Go's JSON, the empty resourceVersion in its place. */
const v1Text = (versions: unknown[], extra: Record<string, unknown> = {}): string =>
  JSON.stringify({
    kind: 'CustomResourceDefinition',
    apiVersion: 'apiextensions.k8s.io/v1',
    metadata: meta,
    spec: { group: 'example.com', names, scope: 'Namespaced', versions, conversion: { strategy: 'Webhook', webhook }, ...extra },
    status,
  });

const shared = { schema: schema(), subresources: { status: {} }, additionalPrinterColumns: columns, selectableFields: [{ jsonPath: '.spec.size' }] };
const HOISTED = v1Text([
  { name: 'v1', served: true, storage: true, ...shared },
  { name: 'v1beta1', served: true, storage: false, deprecated: true, deprecationWarning: 'old', ...shared },
]);

/** What kube-apiserver 1.33 writes for HOISTED, byte for byte (encoding/json's Encoder: HTML escapes, a newline). */
const KUBE_BYTES =
  '{"kind":"CustomResourceDefinition","apiVersion":"apiextensions.k8s.io/v1beta1",' +
  '"metadata":{"name":"widgets.example.com","uid":"u1","generation":2,"creationTimestamp":"2025-01-02T03:04:05Z","labels":{"z":"1","a":"2"},' +
  '"managedFields":[{"manager":"kubectl","operation":"Apply","apiVersion":"apiextensions.k8s.io/v1","time":"2025-01-02T03:04:05Z","fieldsType":"FieldsV1","fieldsV1":{"f:spec":{}}}]},' +
  '"spec":{"group":"example.com","version":"v1","names":{"plural":"widgets","singular":"widget","kind":"Widget","listKind":"WidgetList"},"scope":"Namespaced",' +
  '"validation":{"openAPIV3Schema":{"type":"object","properties":{"spec":{"type":"object","properties":{"size":{"description":"a \\u003cb\\u003e \\u0026 c","type":"string"}}}}}},' +
  '"subresources":{"status":{}},' +
  '"versions":[{"name":"v1","served":true,"storage":true},{"name":"v1beta1","served":true,"storage":false,"deprecated":true,"deprecationWarning":"old"}],' +
  '"additionalPrinterColumns":[{"name":"Size","type":"string","JSONPath":".spec.size"}],"selectableFields":[{"jsonPath":".spec.size"}],' +
  '"conversion":{"strategy":"Webhook","webhookClientConfig":{"service":{"namespace":"ns","name":"conv","path":"/convert","port":443},"caBundle":"Y2E="},"conversionReviewVersions":["v1"]},' +
  '"preserveUnknownFields":false},' +
  '"status":{"conditions":[{"type":"Established","status":"True","lastTransitionTime":"2025-01-02T03:04:06Z","reason":"InitialNamesAccepted","message":"the initial names have been accepted"}],' +
  '"acceptedNames":{"plural":"widgets","singular":"widget","kind":"Widget","listKind":"WidgetList"},"storedVersions":["v1"]}}\n';

test('a v1 CRD is stored as kube-apiserver writes it: v1beta1, shared per-version fields in the spec, Go order, no resourceVersion', () => {
  assert.equal(storedCRDCodec.encode(HOISTED)?.toString('utf8'), KUBE_BYTES);
});

test('kube-apiserver\'s v1beta1 bytes, ours, and the v1 an earlier version stored all read as the same v1 text', () => {
  assert.deepEqual(storedCRDCodec.readText!(KUBE_BYTES), { value: HOISTED });
  // kube-apiserver's own map order (sorted labels) and no trailing newline are read alike.
  const kubeSorted = KUBE_BYTES.replace('"labels":{"z":"1","a":"2"}', '"labels":{"a":"2","z":"1"}').trimEnd();
  assert.equal(storedCRDCodec.readText!(kubeSorted).value, HOISTED.replace('"labels":{"z":"1","a":"2"}', '"labels":{"a":"2","z":"1"}'));
  // v1 JSON (what this server stored before): as is, stale so that the next update stores v1beta1.
  assert.deepEqual(storedCRDCodec.readText!(HOISTED), { value: HOISTED, stale: true });
});

test('per-version values that differ stay in the versions; selectable fields move only with the schema', () => {
  const v1 = v1Text([
    { name: 'v1', served: true, storage: true, schema: schema(), subresources: { status: {} }, selectableFields: [{ jsonPath: '.spec.size' }] },
    { name: 'v2', served: true, storage: false, schema: schema({ maxLength: 3 }), subresources: { status: {} }, additionalPrinterColumns: columns, selectableFields: [{ jsonPath: '.spec.size' }] },
  ]);
  const stored = JSON.parse(storedCRDCodec.encode(v1)!.toString('utf8'));
  assert.equal(stored.apiVersion, 'apiextensions.k8s.io/v1beta1');
  assert.deepEqual(Object.keys(stored.spec), ['group', 'version', 'names', 'scope', 'subresources', 'versions', 'conversion', 'preserveUnknownFields']);
  assert.deepEqual(stored.spec.versions.map((v: object) => Object.keys(v)), [
    ['name', 'served', 'storage', 'schema', 'selectableFields'],
    ['name', 'served', 'storage', 'schema', 'additionalPrinterColumns', 'selectableFields'],
  ]);
  assert.equal(stored.spec.versions[1].additionalPrinterColumns[0].JSONPath, '.spec.size');
  assert.equal(storedCRDCodec.readText!(JSON.stringify(stored)).value, v1);
});

test('a CRD v1beta1 cannot say whole is stored as v1 (kube-apiserver reads it too), and is not stale', () => {
  // v1's bool leaves false out, v1beta1's pointer writes it: an explicit false would be lost.
  const v1 = v1Text([{ name: 'v1', served: true, storage: true, ...shared }], { preserveUnknownFields: false });
  assert.equal(storedCRDCodec.encode(v1), undefined);
  assert.deepEqual(storedCRDCodec.readText!(v1), { value: v1 });
  const withTrue = v1Text([{ name: 'v1', served: true, storage: true, ...shared }], { preserveUnknownFields: true });
  assert.match(storedCRDCodec.encode(withTrue)!.toString('utf8'), /"preserveUnknownFields":true\},"status"/);
});

test('an old v1beta1 CRD as kube-apiserver stores it (spec.version, no versions) reads as v1 with v1beta1\'s defaults', () => {
  const kube = '{"kind":"CustomResourceDefinition","apiVersion":"apiextensions.k8s.io/v1beta1","metadata":{"name":"ws.k.io","uid":"u","creationTimestamp":"2025-01-02T03:04:05Z"},' +
    '"spec":{"group":"k.io","version":"v1","names":{"plural":"ws","kind":"W"},"scope":"Cluster"},"status":{"conditions":null,"acceptedNames":{"plural":"","kind":""},"storedVersions":["v1"]}}\n';
  const read = storedCRDCodec.readText!(kube);
  assert.equal(read.stale, undefined);
  assert.equal(
    read.value,
    '{"kind":"CustomResourceDefinition","apiVersion":"apiextensions.k8s.io/v1","metadata":{"name":"ws.k.io","uid":"u","resourceVersion":"","creationTimestamp":"2025-01-02T03:04:05Z"},' +
      '"spec":{"group":"k.io","names":{"plural":"ws","singular":"w","kind":"W","listKind":"WList"},"scope":"Cluster","versions":[{"name":"v1","served":true,"storage":true}],' +
      '"conversion":{"strategy":"None"},"preserveUnknownFields":true},"status":{"acceptedNames":{"plural":"","kind":""},"storedVersions":["v1"]}}',
  );
});

test('encryption at rest encrypts the v1beta1 JSON, as kube-apiserver does', () => {
  const lookup = transformersFromConfig(
    {
      kind: 'EncryptionConfiguration',
      apiVersion: 'apiserver.config.k8s.io/v1',
      resources: [{ resources: ['customresourcedefinitions.apiextensions.k8s.io'], providers: [{ aescbc: { keys: [{ name: 'k1', secret: Buffer.alloc(32, 7).toString('base64') }] } }] }],
    },
    true,
  );
  const codec = etcdCodec(undefined, (key) => (key.startsWith('/registry/apiextensions.k8s.io/') ? lookup({ group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' }) : undefined));
  const stored = codec.toStorage(KEY, HOISTED);
  assert.ok(stored.toString('latin1').startsWith('k8s:enc:aescbc:v1:k1:'));
  assert.deepEqual(codec.fromStorage(KEY, stored), { value: HOISTED });
  const plain = etcdCodec().toStorage(KEY, HOISTED);
  assert.equal(plain.toString('utf8'), KUBE_BYTES);
});

/** The seed's v1 CronTab CRDs (the versions page: an apiVersion line up to the next blank line), each in a group of its own. */
function seedCRDs(): any[] {
  return seedVersionCRDs().map(({ crd: seed }, i) => {
    const crd = structuredClone(seed) as any;
    crd.spec.group = `seed${i}.example.com`;
    // The page elides its CA bundle ("Ci0tLS0tQk...<base64-encoded PEM bundle>...tLS0K"): some base64 instead.
    const cc = crd.spec.conversion?.webhook?.clientConfig;
    if (cc?.caBundle) cc.caBundle = Buffer.from('-----BEGIN CERTIFICATE-----\n').toString('base64');
    crd.metadata.name = `${crd.spec.names.plural}.${crd.spec.group}`;
    return crd;
  });
}

function corpusCRDs(): any[] {
  const projects = readdirSync(CORPUS, { withFileTypes: true }).filter((d) => d.isDirectory() && existsSync(join(CORPUS, d.name, 'crds')));
  return projects.flatMap((p) =>
    readdirSync(join(CORPUS, p.name, 'crds'))
      .filter((f) => f.endsWith('.yaml'))
      .flatMap((f) => parseAllDocuments(readFileSync(join(CORPUS, p.name, 'crds', f), 'utf8')).map((d) => d.toJSON()))
      .filter((d) => d?.kind === 'CustomResourceDefinition'),
  );
}

test('every corpus and seed CRD, as the server stores it with its status, round-trips through v1beta1 to the same text', async () => {
  const api = await startApi();
  try {
    const seeds = seedCRDs();
    assert.ok(seeds.length >= 2, `${seeds.length} seed CRDs`);
    const names = new Set<string>();
    for (const crd of [...corpusCRDs(), ...seeds]) {
      // gateway-api's two channels define the same names: the first one is kept.
      if (names.has(crd.metadata.name)) continue;
      const r = await api.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
      assert.equal(r.status, 201, `${crd.metadata.name}: ${r.text.slice(0, 500)}`);
      names.add(crd.metadata.name);
    }
    // Every one with the status its controllers write (conditions, accepted names; the seed's elided CA bundle
    // makes its webhook CRD's Established False).
    for (const name of names) {
      const path = `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`;
      let established = false;
      for (let i = 0; i < 500 && !established; i++) {
        const r = await api.req('GET', path);
        established = r.json?.status?.conditions?.some((c: any) => c.type === 'Established') ?? false;
        if (!established) await new Promise((res) => setTimeout(res, 10));
      }
      assert.ok(established, `${name}: ${JSON.stringify((await api.req("GET", path)).json?.status)}`);
    }
    const { items } = await api.kv.list('/registry/apiextensions.k8s.io/customresourcedefinitions/');
    assert.equal(items.length, names.size);
    const asV1: string[] = [];
    for (const kv of items) {
      const bytes = storedCRDCodec.encode(kv.value);
      // Only what v1beta1 cannot say stays v1: an explicit `preserveUnknownFields: false` (tekton's CRDs).
      if (!bytes) {
        asV1.push(kv.key);
        assert.match(kv.value, /"preserveUnknownFields":false/, kv.key);
        continue;
      }
      const text = bytes.toString('utf8');
      assert.ok(text.startsWith('{"kind":"CustomResourceDefinition","apiVersion":"apiextensions.k8s.io/v1beta1","metadata":{'), kv.key);
      assert.ok(text.endsWith('}\n'), kv.key);
      assert.equal(JSON.parse(text).metadata.resourceVersion, undefined, kv.key);
      assert.deepEqual(storedCRDCodec.readText!(text), { value: kv.value }, kv.key);
    }
    assert.ok(asV1.length <= 6, asV1.join(' '));
    assert.ok(items.length - asV1.length > 150, `${items.length - asV1.length} stored as v1beta1`);
  } finally {
    await api.close();
  }
});

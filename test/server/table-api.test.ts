// Table responses over HTTP (Accept: application/json;as=Table;v=v1;g=meta.k8s.io), as kubectl get
// requests them: printer columns of custom resources per version, their updates, and the
// CustomResourceDefinition resource's default table.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, installCronTab, CRONTAB_CRD, type Api } from './helpers.js';

const TABLE = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const base = '/apis/stable.example.com/v1/namespaces/default/crontabs';

const seedColumns = [
  { name: 'Spec', type: 'string', description: 'The cron spec defining the interval a CronJob is run', jsonPath: '.spec.cronSpec' },
  { name: 'Replicas', type: 'integer', description: 'The number of jobs launched by the CronJob', jsonPath: '.spec.replicas' },
  { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
];

const crd = (): any => {
  const c = structuredClone(CRONTAB_CRD) as any;
  c.spec.versions[0].additionalPrinterColumns = seedColumns;
  // A second served version printing differently: tables are per version.
  c.spec.versions.push({
    ...structuredClone(c.spec.versions[0]),
    name: 'v2',
    storage: false,
    additionalPrinterColumns: [{ name: 'Image', type: 'string', priority: 1, format: 'byte', jsonPath: '.spec.image' }],
  });
  return c;
};

let api: Api;
before(async () => {
  api = await startApi();
  await installCronTab(api, crd());
  const r = await api.req('POST', base, {
    apiVersion: 'stable.example.com/v1',
    kind: 'CronTab',
    metadata: { name: 'my-new-cron-object' },
    spec: { cronSpec: '* * * * *', image: 'my-awesome-cron-image', replicas: 1 },
  });
  assert.equal(r.status, 201, r.text);
});
after(async () => {
  await api?.close();
});

test('a custom resource as a Table: the implicit Name column, then the version columns', async () => {
  const r = await api.req('GET', `${base}/my-new-cron-object`, undefined, { Accept: TABLE });
  assert.equal(r.status, 200, r.text);
  const t = r.json;
  assert.deepEqual(Object.keys(t), ['kind', 'apiVersion', 'metadata', 'columnDefinitions', 'rows']);
  assert.equal(t.kind, 'Table');
  assert.equal(t.metadata.resourceVersion, (await api.req('GET', `${base}/my-new-cron-object`)).json.metadata.resourceVersion);
  assert.deepEqual(
    t.columnDefinitions.map((c: any) => [c.name, c.type, c.format, c.priority]),
    [
      ['Name', 'string', 'name', 0],
      ['Spec', 'string', '', 0],
      ['Replicas', 'integer', '', 0],
      ['Age', 'date', '', 0],
    ],
  );
  assert.equal(t.columnDefinitions[1].description, 'The cron spec defining the interval a CronJob is run');
  assert.equal(t.columnDefinitions[3].description, 'Custom resource definition column (in JSONPath format): .metadata.creationTimestamp');
  assert.equal(t.rows.length, 1);
  assert.deepEqual(t.rows[0].cells.slice(0, 3), ['my-new-cron-object', '* * * * *', 1]);
  assert.match(t.rows[0].cells[3], /^\d+s$/);
  assert.equal(t.rows[0].object.kind, 'PartialObjectMetadata');
  // The cells are JSON values: the integer is a number, not a string.
  assert.match(r.text, /"cells":\["my-new-cron-object","\* \* \* \* \*",1,"\d+s"\]/);
});

test('each version prints its own columns', async () => {
  const r = await api.req('GET', '/apis/stable.example.com/v2/namespaces/default/crontabs', undefined, { Accept: TABLE });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(
    r.json.columnDefinitions.map((c: any) => [c.name, c.type, c.format, c.priority, c.description]),
    [
      ['Name', 'string', 'name', 0, r.json.columnDefinitions[0].description],
      ['Image', 'string', 'byte', 1, 'Custom resource definition column (in JSONPath format): .spec.image'],
    ],
  );
  assert.deepEqual(r.json.rows[0].cells, ['my-new-cron-object', 'my-awesome-cron-image']);
});

test('an empty list of custom resources has no rows (an empty array)', async () => {
  const r = await api.req('GET', `${base}?labelSelector=none%3Dhere`, undefined, { Accept: TABLE });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.json.rows, []);
  assert.equal(r.json.columnDefinitions.length, 4);
});

test('changing the CRD columns changes the table', async () => {
  const cur = (await api.req('GET', `${CRDS}/crontabs.stable.example.com`)).json;
  cur.spec.versions[0].additionalPrinterColumns = [
    { name: 'Image', type: 'string', jsonPath: '.spec.image' },
    { name: 'Replicas', type: 'string', jsonPath: '.spec.replicas' },
    { name: 'Spec', type: 'integer', jsonPath: '.spec.cronSpec' },
  ];
  const u = await api.req('PUT', `${CRDS}/crontabs.stable.example.com`, cur);
  assert.equal(u.status, 200, u.text);
  let cells: unknown;
  for (let i = 0; i < 200; i++) {
    const r = await api.req('GET', `${base}/my-new-cron-object`, undefined, { Accept: TABLE });
    if (r.json.columnDefinitions[1].name === 'Image') {
      cells = r.json.rows[0].cells;
      break;
    }
    await new Promise((res) => setTimeout(res, 10));
  }
  // An integer prints in a string column; a string in an integer column is omitted.
  assert.deepEqual(cells, ['my-new-cron-object', 'my-awesome-cron-image', '1', null]);
});

test('CustomResourceDefinitions print with the default table: Name and Created At', async () => {
  const r = await api.req('GET', CRDS, undefined, { Accept: TABLE });
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(
    r.json.columnDefinitions.map((c: any) => [c.name, c.type, c.format, c.priority]),
    [
      ['Name', 'string', 'name', 0],
      ['Created At', 'date', '', 0],
    ],
  );
  assert.match(r.json.columnDefinitions[1].description, /^CreationTimestamp is a timestamp representing the server time/);
  const got = (await api.req('GET', `${CRDS}/crontabs.stable.example.com`)).json;
  assert.deepEqual(r.json.rows[0].cells, ['crontabs.stable.example.com', got.metadata.creationTimestamp]);
  // kube's default convertor leaves an empty list's rows unset: null on the wire.
  const empty = await api.req('GET', `${CRDS}?labelSelector=none%3Dhere`, undefined, { Accept: TABLE });
  assert.equal(empty.status, 200, empty.text);
  assert.equal(empty.json.rows, null);
  assert.match(empty.text, /"rows":null/);
});

// The seed's "Additional printer columns" section through kubectl: the example CRD's SPEC, REPLICAS
// and AGE columns, priority and -o wide, column types (a mismatched value is an empty cell), formats, CRD
// validation of columns, and the CustomResourceDefinition resource's own NAME / CREATED AT table.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { requireKubectl, startTestServer, squeeze, type TestServer } from './harness.js';

// resourcedefinition.yaml from the seed.
const seedCrd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames:
    - ct
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              cronSpec:
                type: string
              image:
                type: string
              replicas:
                type: integer
    additionalPrinterColumns:
    - name: Spec
      type: string
      description: The cron spec defining the interval a CronJob is run
      jsonPath: .spec.cronSpec
    - name: Replicas
      type: integer
      description: The number of jobs launched by the CronJob
      jsonPath: .spec.replicas
    - name: Age
      type: date
      jsonPath: .metadata.creationTimestamp
`;

const myCrontab = `apiVersion: "stable.example.com/v1"
kind: CronTab
metadata:
  name: my-new-cron-object
spec:
  cronSpec: "* * * * *"
  image: my-awesome-cron-image
  replicas: 1
`;

/** A CRD in its own group whose version prints `columns` (YAML list items, indented for the version). */
const columnsCrd = (plural: string, kind: string, columns: string): string => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${plural}.print.example.com
spec:
  group: print.example.com
  scope: Namespaced
  names:
    plural: ${plural}
    singular: ${kind.toLowerCase()}
    kind: ${kind}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-preserve-unknown-fields: true
    additionalPrinterColumns:
${columns}`;

let s: TestServer;

/** kubectl's table as rows of cells, cut at the header's column starts (an empty cell stays ''). */
function cellsOf(stdout: string): string[][] {
  const [head, ...rows] = stdout.split('\n').filter((l) => l.trim() !== '');
  const starts = [...head!.matchAll(/\S+(?: \S+)*/g)].map((m) => m.index!);
  return [head!, ...rows].map((line) => starts.map((at, i) => line.slice(at, starts[i + 1] ?? line.length).trim()));
}

async function apply(yaml: string, name: string): Promise<void> {
  const r = await s.kubectl(['apply', '-f', s.file(name, yaml)]);
  assert.equal(r.code, 0, r.stderr);
}

async function applyCrd(yaml: string, name: string): Promise<void> {
  await apply(yaml, `${name}.yaml`);
  const w = await s.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', `crd/${name}`]);
  assert.equal(w.code, 0, w.stderr);
}

before(async () => {
  requireKubectl();
  s = await startTestServer();
  await applyCrd(seedCrd, 'crontabs.stable.example.com');
  await apply(myCrontab, 'my-crontab.yaml');
});
after(async () => {
  await s?.close();
});

test('seed: kubectl get crontab prints NAME SPEC REPLICAS AGE', async () => {
  const r = await s.kubectl(['get', 'crontab', 'my-new-cron-object']);
  assert.equal(r.code, 0, r.stderr);
  const lines = squeeze(r.stdout).split('\n');
  assert.equal(lines[0], 'NAME SPEC REPLICAS AGE');
  assert.match(lines[1]!, /^my-new-cron-object \* \* \* \* \* 1 \d+s$/);
  assert.equal(lines.length, 2);
  // Each value sits under its header.
  const [, row] = cellsOf(r.stdout);
  assert.deepEqual(row!.slice(0, 3), ['my-new-cron-object', '* * * * *', '1']);

  // The short name and the list print the same table; the Name column is implicit.
  const ct = await s.kubectl(['get', 'ct']);
  assert.equal(ct.code, 0, ct.stderr);
  assert.match(squeeze(ct.stdout), /^NAME SPEC REPLICAS AGE\nmy-new-cron-object \* \* \* \* \* 1 \d+s$/);
  // -o wide adds nothing here: every column has priority 0.
  const wide = await s.kubectl(['get', 'crontabs', '-o', 'wide']);
  assert.match(squeeze(wide.stdout), /^NAME SPEC REPLICAS AGE\nmy-new-cron-object \* \* \* \* \* 1 \d+s$/);
  // --no-headers and --show-kind use the name column's "name" format.
  const kind = await s.kubectl(['get', 'crontabs', '--show-kind', '--no-headers']);
  assert.match(squeeze(kind.stdout), /^crontab\.stable\.example\.com\/my-new-cron-object \* \* \* \* \* 1 \d+s$/);
});

test('seed: a changed value shows in its column, a missing one as an empty cell', async () => {
  let r = await s.kubectl(['patch', 'crontab', 'my-new-cron-object', '--type=merge', '-p', '{"spec":{"replicas":7}}']);
  assert.equal(r.code, 0, r.stderr);
  await apply(`apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: bare\nspec:\n  image: x\n`, 'bare.yaml');
  r = await s.kubectl(['get', 'crontabs']);
  assert.equal(r.code, 0, r.stderr);
  const rows = cellsOf(r.stdout);
  assert.deepEqual(rows[0], ['NAME', 'SPEC', 'REPLICAS', 'AGE']);
  // kubectl prints an empty (null) cell as nothing.
  assert.deepEqual(rows[1]!.slice(0, 3), ['bare', '', '']);
  assert.deepEqual(rows[2]!.slice(0, 3), ['my-new-cron-object', '* * * * *', '7']);
  assert.match(rows[1]![3]!, /^\d+s$/);
  r = await s.kubectl(['delete', 'crontab', 'bare']);
  assert.equal(r.code, 0, r.stderr);
});

test('priority: columns with priority > 0 show only with -o wide', async () => {
  await applyCrd(
    columnsCrd(
      'jobs',
      'Job',
      `    - name: Spec
      type: string
      jsonPath: .spec.cronSpec
    - name: Image
      type: string
      priority: 1
      jsonPath: .spec.image
    - name: Replicas
      type: integer
      jsonPath: .spec.replicas
    - name: Owner
      type: string
      priority: 2
      jsonPath: .metadata.labels.owner
`,
    ),
    'jobs.print.example.com',
  );
  await apply(
    `apiVersion: print.example.com/v1\nkind: Job\nmetadata:\n  name: nightly\n  labels:\n    owner: ops\nspec:\n  cronSpec: "0 3 * * *"\n  image: backup:1.2\n  replicas: 2\n`,
    'nightly.yaml',
  );
  let r = await s.kubectl(['get', 'jobs.print.example.com']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(squeeze(r.stdout), 'NAME SPEC REPLICAS\nnightly 0 3 * * * 2');
  r = await s.kubectl(['get', 'jobs.print.example.com', '-o', 'wide']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(squeeze(r.stdout), 'NAME SPEC IMAGE REPLICAS OWNER\nnightly 0 3 * * * backup:1.2 2 ops');
});

test('type: a value that does not match the column type is omitted', async () => {
  await applyCrd(
    columnsCrd(
      'gauges',
      'Gauge',
      `    - name: Count
      type: integer
      jsonPath: .spec.count
    - name: Ratio
      type: number
      jsonPath: .spec.ratio
    - name: Enabled
      type: boolean
      jsonPath: .spec.enabled
    - name: Label
      type: string
      jsonPath: .spec.label
    - name: Since
      type: date
      jsonPath: .spec.since
    - name: Ready
      type: string
      jsonPath: .status.conditions[?(@.type=="Ready")].status
`,
    ),
    'gauges.print.example.com',
  );
  const gauge = (name: string, spec: string, status = ''): string =>
    `apiVersion: print.example.com/v1\nkind: Gauge\nmetadata:\n  name: ${name}\nspec:\n${spec}${status ? `status:\n${status}` : ''}`;
  const longAgo = new Date(Date.now() - 3 * 3600_000 - 20 * 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
  await apply(
    gauge(
      'a-typed',
      `  count: 3\n  ratio: 0.25\n  enabled: true\n  label: primary\n  since: "${longAgo}"\n`,
      `  conditions:\n  - type: Synced\n    status: "False"\n  - type: Ready\n    status: "True"\n`,
    ),
    'a.yaml',
  );
  // Every value has the wrong type for its column, except that a string column prints anything.
  await apply(gauge('b-mismatched', `  count: "3"\n  ratio: "high"\n  enabled: "yes"\n  label: 42\n  since: 1700000000\n`), 'b.yaml');
  await apply(gauge('c-coerced', `  count: 2.7\n  ratio: 4\n  label: [x, z]\n  since: yesterday\n`), 'c.yaml');
  const r = await s.kubectl(['get', 'gauges']);
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(cellsOf(r.stdout), [
    ['NAME', 'COUNT', 'RATIO', 'ENABLED', 'LABEL', 'SINCE', 'READY'],
    ['a-typed', '3', '0.25', 'true', 'primary', '3h20m', 'True'],
    ['b-mismatched', '', '', '', '42', '', ''],
    // A float in an integer column is truncated; an integer is a number; arrays print as JSON; a bad date is <invalid>.
    ['c-coerced', '2', '4', '', '["x","z"]', '<invalid>', ''],
  ]);
});

test('format: formats are accepted and handed to kubectl, which prints the values', async () => {
  await applyCrd(
    columnsCrd(
      'meters',
      'Meter',
      `    - name: Small
      type: integer
      format: int32
      jsonPath: .spec.small
    - name: Big
      type: integer
      format: int64
      jsonPath: .spec.big
    - name: Float
      type: number
      format: float
      jsonPath: .spec.f
    - name: Double
      type: number
      format: double
      jsonPath: .spec.d
    - name: Bytes
      type: string
      format: byte
      jsonPath: .spec.bytes
    - name: Day
      type: string
      format: date
      jsonPath: .spec.day
    - name: Stamp
      type: string
      format: date-time
      jsonPath: .spec.stamp
    - name: Secret
      type: string
      format: password
      jsonPath: .spec.secret
`,
    ),
    'meters.print.example.com',
  );
  await apply(
    `apiVersion: print.example.com/v1\nkind: Meter\nmetadata:\n  name: m\nspec:\n  small: 7\n  big: 9007199254740991\n  f: 1.5\n  d: 0.125\n  bytes: aGVsbG8=\n  day: "2024-02-29"\n  stamp: "2024-02-29T12:00:00Z"\n  secret: hunter2\n`,
    'm.yaml',
  );
  const r = await s.kubectl(['get', 'meters']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    squeeze(r.stdout),
    'NAME SMALL BIG FLOAT DOUBLE BYTES DAY STAMP SECRET\nm 7 9007199254740991 1.5 0.125 aGVsbG8= 2024-02-29 2024-02-29T12:00:00Z hunter2',
  );
});

test('CRD validation rejects bad columns with kube-apiserver messages', async () => {
  const bad = (columns: string): string => columnsCrd('bads', 'Bad', columns);
  let r = await s.kubectl(['apply', '-f', s.file('bad1.yaml', bad(`    - name: X\n      type: float\n      jsonPath: .spec.x\n`))]);
  assert.notEqual(r.code, 0);
  // One version's columns are hoisted to spec.additionalPrinterColumns before validation, so errors name that path.
  assert.equal(
    r.stderr.trim(),
    'The CustomResourceDefinition "bads.print.example.com" is invalid: spec.additionalPrinterColumns[0].type: Invalid value: "float": must be one of boolean,date,integer,number,string',
  );

  r = await s.kubectl(['apply', '-f', s.file('bad2.yaml', bad(`    - name: X\n      type: string\n      format: uuid\n      jsonPath: .spec.x\n`))]);
  assert.notEqual(r.code, 0);
  assert.equal(
    r.stderr.trim(),
    'The CustomResourceDefinition "bads.print.example.com" is invalid: spec.additionalPrinterColumns[0].format: Invalid value: "uuid": must be one of byte,date,date-time,double,float,int32,int64,password',
  );

  r = await s.kubectl(['apply', '-f', s.file('bad3.yaml', bad(`    - name: X\n      type: string\n      jsonPath: spec.x\n`))]);
  assert.notEqual(r.code, 0);
  assert.equal(
    r.stderr.trim(),
    'The CustomResourceDefinition "bads.print.example.com" is invalid: spec.additionalPrinterColumns[0].JSONPath: Invalid value: "spec.x": must be a simple json path starting with .',
  );

  r = await s.kubectl(['apply', '-f', s.file('bad4.yaml', bad(`    - type: string\n      jsonPath: .spec.x\n`))]);
  assert.notEqual(r.code, 0);
  assert.equal(
    r.stderr.trim(),
    'The CustomResourceDefinition "bads.print.example.com" is invalid: spec.additionalPrinterColumns[0].name: Required value',
  );
  // Versions with different columns keep them per version; every error is reported.
  const twoVersions = `${bad(`    - name: X\n      type: float\n      jsonPath: .spec.x\n`)}  - name: v2
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
    additionalPrinterColumns:
    - name: Z
      type: string
      format: int32
`;
  r = await s.kubectl(['apply', '-f', s.file('bad5.yaml', twoVersions)]);
  assert.notEqual(r.code, 0);
  // A format need not match its type (int32 on a string column passes); a missing jsonPath is JSONPath: Required.
  // (The column is not named Y: kubectl reads YAML 1.1, where that is true, which a string field refuses.)
  assert.equal(
    r.stderr,
    'The CustomResourceDefinition "bads.print.example.com" is invalid: \n' +
      '* spec.versions[0].additionalPrinterColumns[0].type: Invalid value: "float": must be one of boolean,date,integer,number,string\n' +
      '* spec.versions[1].additionalPrinterColumns[0].JSONPath: Required value\n',
  );
  r = await s.kubectl(['get', 'crd', 'bads.print.example.com']);
  assert.match(r.stderr, /NotFound/);
});

test('a jsonPath kube cannot parse drops that column and the ones after it', async () => {
  await applyCrd(
    columnsCrd(
      'probes',
      'Probe',
      `    - name: First
      type: string
      jsonPath: .spec.first
    - name: Broken
      type: string
      jsonPath: .spec.items[1
    - name: Last
      type: string
      jsonPath: .spec.last
`,
    ),
    'probes.print.example.com',
  );
  await apply(`apiVersion: print.example.com/v1\nkind: Probe\nmetadata:\n  name: p\nspec:\n  first: one\n  last: three\n`, 'p.yaml');
  const r = await s.kubectl(['get', 'probes']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(squeeze(r.stdout), 'NAME FIRST\np one');
});

test('the CustomResourceDefinition resource prints NAME and CREATED AT', async () => {
  const r = await s.kubectl(['get', 'crd']);
  assert.equal(r.code, 0, r.stderr);
  const lines = squeeze(r.stdout).split('\n');
  assert.equal(lines[0], 'NAME CREATED AT');
  const names = lines.slice(1).map((l) => l.split(' ')[0]);
  assert.ok(names.includes('crontabs.stable.example.com'), r.stdout);
  assert.deepEqual(names, [...names].sort());
  for (const l of lines.slice(1)) assert.match(l, /^\S+ \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
  // The timestamp is the CRD's creationTimestamp, in UTC.
  const ts = await s.kubectl(['get', 'crd', 'crontabs.stable.example.com', '-o', 'jsonpath={.metadata.creationTimestamp}']);
  const one = await s.kubectl(['get', 'crd', 'crontabs.stable.example.com', '--no-headers']);
  assert.equal(squeeze(one.stdout), `crontabs.stable.example.com ${ts.stdout}`);
});

// The apiextensions.k8s.io/v1beta1 CRD examples of the seeds (002, 003 and the v1beta1 forms in 001) through
// kubectl: created at v1beta1 (with the deprecation warning kube 1.19-1.21 sent), read back at v1 and v1beta1,
// and their custom objects served. Outputs are today's kubectl and server (the seed's are from 1.7-era
// servers: `clusterName`, `selfLink` and the "validation failure list" message are gone).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseYaml } from 'yaml';
import { requireKubectl, startTestServer, squeeze, type TestServer } from './harness.js';

const WARNING =
  'Warning: apiextensions.k8s.io/v1beta1 CustomResourceDefinition is deprecated in v1.16+, unavailable in v1.22+; use apiextensions.k8s.io/v1 CustomResourceDefinition';

const base = (extra: string): string => `apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata:
  name: crontabs.stable.example.com
spec:
  group: stable.example.com
  version: v1
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames:
    - ct
${extra}`;

const myCrontab = (extra = ''): string =>
  `apiVersion: "stable.example.com/v1"\nkind: CronTab\nmetadata:\n  name: my-new-cron-object\nspec:\n  cronSpec: "* * * * */5"\n  image: my-awesome-cron-image\n${extra}`;

let s: TestServer;
async function ok(args: string[], stdin?: string): Promise<{ stdout: string; stderr: string }> {
  const r = await s.kubectl(args, stdin === undefined ? {} : { stdin });
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r;
}
const atV1 = async (name: string): Promise<any> => JSON.parse((await ok(['get', '--raw', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`])).stdout);
const atV1beta1 = async (name: string): Promise<any> =>
  parseYaml((await ok(['get', `customresourcedefinitions.v1beta1.apiextensions.k8s.io`, name, '-o', 'yaml'])).stdout);

async function createCRD(yaml: string, name = 'crontabs.stable.example.com'): Promise<void> {
  const r = await ok(['create', '-f', s.file('crd.yaml', yaml)]);
  assert.equal(r.stdout.trim(), `customresourcedefinition.apiextensions.k8s.io/${name} created`);
  assert.equal(r.stderr.trim(), WARNING);
  await ok(['wait', '--for', 'condition=established', '--timeout=20s', `crd/${name}`]);
}

before(async () => {
  requireKubectl();
  s = await startTestServer();
});
after(async () => {
  await s?.close();
});

test('002: the first CRD (version: v1, no schema) reads back at v1 and keeps every field of its objects', async () => {
  await createCRD(base(''));
  const v1 = await atV1('crontabs.stable.example.com');
  assert.deepEqual(v1.spec, {
    group: 'stable.example.com',
    names: { plural: 'crontabs', singular: 'crontab', shortNames: ['ct'], kind: 'CronTab', listKind: 'CronTabList' },
    scope: 'Namespaced',
    versions: [{ name: 'v1', served: true, storage: true }],
    conversion: { strategy: 'None' },
    preserveUnknownFields: true,
  });
  const cond = v1.status.conditions.find((c: any) => c.type === 'NonStructuralSchema');
  assert.equal(cond.status, 'True');
  assert.equal(cond.message, 'spec.preserveUnknownFields: Invalid value: true: must be false');
  const beta = await atV1beta1('crontabs.stable.example.com');
  assert.equal(beta.apiVersion, 'apiextensions.k8s.io/v1beta1');
  assert.equal(beta.spec.version, 'v1');
  assert.equal(beta.spec.preserveUnknownFields, true);

  await ok(['create', '-f', '-'], myCrontab('extra:\n  anything: goes\n'));
  assert.match(squeeze((await ok(['get', 'crontab'])).stdout), /^NAME AGE\nmy-new-cron-object \d+s$/);
  const list = parseYaml((await ok(['get', 'ct', '-o', 'yaml'])).stdout) as any;
  assert.deepEqual(list.items[0].spec, { cronSpec: '* * * * */5', image: 'my-awesome-cron-image' });
  assert.deepEqual(list.items[0].extra, { anything: 'goes' }, 'preserveUnknownFields: nothing is pruned');
  await ok(['delete', '-f', s.file('crd.yaml', base(''))]);
  const gone = await s.kubectl(['get', 'crontabs']);
  // The seed's message, as today's kubectl words it (its discovery cache still knows crontabs).
  assert.equal(
    gone.stderr.trim(),
    'Error from server (NotFound): Unable to list "stable.example.com/v1, Resource=crontabs": the server could not find the requested resource (get crontabs.stable.example.com)',
  );
});

test('002: validation with a non-structural schema is accepted and enforced', async () => {
  const validation = `  validation:
    openAPIV3Schema:
      properties:
        spec:
          properties:
            cronSpec:
              type: string
              pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'
            replicas:
              type: integer
              minimum: 1
              maximum: 10
`;
  await createCRD(base(validation));
  const v1 = await atV1('crontabs.stable.example.com');
  assert.deepEqual(v1.spec.versions[0].schema.openAPIV3Schema.properties.spec.properties.replicas, { type: 'integer', minimum: 1, maximum: 10 });
  const cond = v1.status.conditions.find((c: any) => c.type === 'NonStructuralSchema');
  assert.match(cond.message, /spec\.versions\[0\]\.schema\.openAPIV3Schema\.type: Required value: must not be empty at the root/);
  assert.deepEqual(Object.keys((await atV1beta1('crontabs.stable.example.com')).spec.validation), ['openAPIV3Schema']);

  const bad = await s.kubectl(['create', '-f', '-'], { stdin: myCrontab('  replicas: 15\n').replace('"* * * * */5"', '"* * * *"') });
  assert.notEqual(bad.code, 0);
  assert.equal(
    bad.stderr.trim(),
    [
      'The CronTab "my-new-cron-object" is invalid: ',
      `* spec.cronSpec: Invalid value: "* * * *": spec.cronSpec in body should match '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'`,
      '* spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10',
    ].join('\n'),
  );
  const good = await ok(['create', '-f', '-'], myCrontab('  replicas: 5\n'));
  assert.equal(good.stdout.trim(), 'crontab.stable.example.com/my-new-cron-object created');
  await ok(['delete', 'crd', 'crontabs.stable.example.com']);
});

test('002: top-level subresources: status and scale', async () => {
  await createCRD(
    base(`  subresources:
    status: {}
    scale:
      specReplicasPath: .spec.replicas
      statusReplicasPath: .status.replicas
      labelSelectorPath: .status.labelSelector
`),
  );
  const v1 = await atV1('crontabs.stable.example.com');
  assert.deepEqual(v1.spec.versions[0].subresources, {
    status: {},
    scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.labelSelector' },
  });
  await ok(['create', '-f', '-'], myCrontab('  replicas: 3\n'));
  assert.equal((await ok(['scale', '--replicas=5', 'crontabs/my-new-cron-object'])).stdout.trim(), 'crontab.stable.example.com/my-new-cron-object scaled');
  assert.equal((await ok(['get', 'crontabs', 'my-new-cron-object', '-o', 'jsonpath={.spec.replicas}'])).stdout, '5');
  await ok(['delete', 'crd', 'crontabs.stable.example.com']);
});

test('002: categories', async () => {
  await createCRD(base('    categories:\n    - all\n'));
  await ok(['create', '-f', '-'], myCrontab());
  // A fresh discovery cache: earlier tests cached this group without the category.
  assert.match(squeeze((await ok(['get', 'all', '--cache-dir', s.file('fresh-cache', '') + '.d'])).stdout), /^NAME AGE\nmy-new-cron-object \d+s$/);
  await ok(['delete', 'crd', 'crontabs.stable.example.com']);
});

const versionsBeta = (extra: string): string => `apiVersion: apiextensions.k8s.io/v1beta1
kind: CustomResourceDefinition
metadata:
  name: crontabs.example.com
spec:
  group: example.com
${extra}  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
    shortNames:
    - ct
`;

test('001/003: two versions with a top-level schema and None conversion', async () => {
  await createCRD(
    versionsBeta(`  versions:
  - name: v1beta1
    served: true
    storage: true
  - name: v1
    served: true
    storage: false
  validation:
    openAPIV3Schema:
      type: object
      properties:
        host:
          type: string
        port:
          type: string
  conversion:
    strategy: None
`),
    'crontabs.example.com',
  );
  const v1 = await atV1('crontabs.example.com');
  assert.deepEqual(
    v1.spec.versions.map((v: any) => [v.name, v.served, v.storage, Object.keys(v.schema.openAPIV3Schema.properties)]),
    [['v1beta1', true, true, ['host', 'port']], ['v1', true, false, ['host', 'port']]],
  );
  const beta = await atV1beta1('crontabs.example.com');
  assert.equal(beta.spec.version, 'v1beta1');
  assert.ok(beta.spec.validation, 'identical per-version schemas read back as the top-level validation');
  assert.equal(beta.spec.versions[0].schema, undefined);
  await ok(['apply', '-f', '-'], 'apiVersion: example.com/v1beta1\nkind: CronTab\nmetadata:\n  name: c\nhost: h\nport: "1"\n');
  assert.equal((await ok(['get', 'crontab', 'c', '-o', 'jsonpath={.apiVersion} {.host}'])).stdout, 'example.com/v1 h');
  await ok(['delete', 'crd', 'crontabs.example.com']);
});

test('001/003: deprecated versions and the webhook form (webhookClientConfig, conversionReviewVersions defaulted)', async () => {
  await createCRD(
    versionsBeta(`  preserveUnknownFields: false
  versions:
  - name: v1beta1
    served: true
    storage: true
    deprecated: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          hostPort:
            type: string
  - name: v1
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          host:
            type: string
          port:
            type: string
  conversion:
    strategy: Webhook
    webhookClientConfig:
      url: "https://my-webhook.example.com:9443/my-webhook-path"
`),
    'crontabs.example.com',
  );
  const v1 = await atV1('crontabs.example.com');
  assert.deepEqual(v1.spec.conversion, {
    strategy: 'Webhook',
    webhook: { clientConfig: { url: 'https://my-webhook.example.com:9443/my-webhook-path' }, conversionReviewVersions: ['v1beta1'] },
  });
  assert.equal(v1.spec.preserveUnknownFields, undefined);
  assert.equal(v1.status.conditions.find((c: any) => c.type === 'NonStructuralSchema'), undefined);
  const beta = await atV1beta1('crontabs.example.com');
  assert.deepEqual(beta.spec.conversion, {
    strategy: 'Webhook',
    webhookClientConfig: { url: 'https://my-webhook.example.com:9443/my-webhook-path' },
    conversionReviewVersions: ['v1beta1'],
  });
  const dep = await ok(['get', 'crontabs.v1beta1.example.com']);
  assert.match(dep.stderr, /^Warning: example\.com\/v1beta1 CronTab is deprecated; use example\.com\/v1 CronTab$/m);
  await ok(['delete', 'crd', 'crontabs.example.com']);
});

test('v1beta1 refuses defaults and a webhook with preserveUnknownFields, as kube 1.21 did', async () => {
  const r = await s.kubectl(['create', '-f', '-'], {
    stdin: base(`  preserveUnknownFields: false
  validation:
    openAPIV3Schema:
      type: object
      properties:
        spec:
          type: object
          properties:
            replicas:
              type: integer
              default: 1
`),
  });
  assert.notEqual(r.code, 0);
  assert.match(
    r.stderr,
    /spec\.validation\.openAPIV3Schema\.properties\[spec\]\.properties\[replicas\]\.default: Forbidden: must not be set \(cannot set default values in apiextensions\.k8s\.io\/v1beta1 CRDs, must use apiextensions\.k8s\.io\/v1\)/,
  );
  const w = await s.kubectl(['create', '-f', '-'], { stdin: base('  conversion:\n    strategy: Webhook\n    webhookClientConfig:\n      url: https://x.example.com/\n') });
  assert.notEqual(w.code, 0);
  assert.match(w.stderr, /spec\.conversion\.strategy: Invalid value: "Webhook": must be None if spec\.preserveUnknownFields is true/);
});

test('v1beta1 refuses a spec.version other than the first of spec.versions, with 1.21\'s message', async () => {
  const twoVersions = (version: string): string =>
    versionsBeta(`  version: ${version}
  versions:
  - name: v1beta1
    served: true
    storage: true
  - name: v1
    served: true
    storage: false
`);
  const r = await s.kubectl(['create', '-f', '-'], { stdin: twoVersions('v1') });
  assert.equal(r.code, 1);
  assert.equal(
    r.stderr.trim(),
    `${WARNING}\nThe CustomResourceDefinition "crontabs.example.com" is invalid: spec.version: Invalid value: "v1": must match the first version in spec.versions`,
  );
  // Accepted when it matches; an update that makes them differ is refused alike.
  await createCRD(twoVersions('v1beta1'), 'crontabs.example.com');
  const u = await s.kubectl(['replace', '-f', '-'], { stdin: twoVersions('v1') });
  assert.equal(u.code, 1);
  assert.match(u.stderr, /The CustomResourceDefinition "crontabs\.example\.com" is invalid: spec\.version: Invalid value: "v1": must match the first version in spec\.versions$/m);
  assert.equal((await atV1beta1('crontabs.example.com')).spec.version, 'v1beta1');
  await ok(['delete', 'crd', 'crontabs.example.com']);
});

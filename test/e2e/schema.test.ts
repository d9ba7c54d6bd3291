// The seed's schema sections through kubectl: validation errors, pruning (with --validate=false and under
// strict field validation), defaulting, and defaulting with nullable.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseYaml } from 'yaml';
import { requireKubectl, startTestServer, type TestServer } from './harness.js';

const crd = (name: string, plural: string, kind: string, specSchema: string): string => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: ${plural}.${name}
spec:
  group: ${name}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
${specSchema}
  scope: Namespaced
  names:
    plural: ${plural}
    singular: ${kind.toLowerCase()}
    kind: ${kind}
`;

// "Validation": a pattern on cronSpec and bounds on replicas.
const validationCRD = crd(
  'stable.example.com',
  'crontabs',
  'CronTab',
  `              type: object
              properties:
                cronSpec:
                  type: string
                  pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'
                image:
                  type: string
                replicas:
                  type: integer
                  minimum: 1
                  maximum: 10`,
);

// "Defaulting": the same with defaults.
const defaultingCRD = crd(
  'defaulting.example.com',
  'crontabs',
  'CronTab',
  `              type: object
              properties:
                cronSpec:
                  type: string
                  pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'
                  default: "5 0 * * *"
                image:
                  type: string
                replicas:
                  type: integer
                  minimum: 1
                  maximum: 10
                  default: 1`,
);

// "Defaulting and Nullable".
const nullableCRD = crd(
  'nullable.example.com',
  'things',
  'Thing',
  `              type: object
              properties:
                foo:
                  type: string
                  nullable: false
                  default: "default"
                bar:
                  type: string
                  nullable: true
                baz:
                  type: string`,
);

let s: TestServer;
before(async () => {
  requireKubectl();
  s = await startTestServer();
  for (const [i, doc] of [validationCRD, defaultingCRD, nullableCRD].entries()) {
    const r = await s.kubectl(['apply', '-f', s.file(`crd-${i}.yaml`, doc)]);
    assert.equal(r.code, 0, r.stderr);
  }
  const w = await s.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd', '--all']);
  assert.equal(w.code, 0, w.stderr);
});
after(async () => {
  await s?.close();
});

test('validation: invalid fields are refused with every failure listed', async () => {
  const r = await s.kubectl(['apply', '-f', '-'], {
    stdin: 'apiVersion: "stable.example.com/v1"\nkind: CronTab\nmetadata:\n  name: my-new-cron-object\nspec:\n  cronSpec: "* * * *"\n  image: my-awesome-cron-image\n  replicas: 15\n',
  });
  assert.notEqual(r.code, 0);
  assert.equal(
    r.stderr.trim(),
    [
      'The CronTab "my-new-cron-object" is invalid: ',
      `* spec.cronSpec: Invalid value: "* * * *": spec.cronSpec in body should match '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$'`,
      '* spec.replicas: Invalid value: 15: spec.replicas in body should be less than or equal to 10',
    ].join('\n'),
  );
  const ok = await s.kubectl(['apply', '-f', '-'], {
    stdin: 'apiVersion: "stable.example.com/v1"\nkind: CronTab\nmetadata:\n  name: my-new-cron-object\nspec:\n  cronSpec: "* * * * */5"\n  image: my-awesome-cron-image\n  replicas: 5\n',
  });
  assert.equal(ok.stdout.trim(), 'crontab.stable.example.com/my-new-cron-object created');
});

test('pruning: unknown fields are dropped, or refused under strict field validation', async () => {
  const doc = 'apiVersion: "stable.example.com/v1"\nkind: CronTab\nmetadata:\n  name: pruned\nspec:\n  cronSpec: "* * * * */5"\n  image: my-awesome-cron-image\n  someRandomField: 42\n';
  let r = await s.kubectl(['create', '--validate=false', '-f', '-', '-o', 'yaml'], { stdin: doc });
  assert.equal(r.code, 0, r.stderr);
  const obj = parseYaml(r.stdout) as any;
  assert.deepEqual(obj.spec, { cronSpec: '* * * * */5', image: 'my-awesome-cron-image' });
  // --validate=false sends fieldValidation=Ignore: dropped silently. Warn drops it and says so.
  assert.equal(r.stderr, '');
  r = await s.kubectl(['create', '--validate=warn', '-f', '-'], { stdin: doc.replace('name: pruned', 'name: warned') });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr.trim(), 'Warning: unknown field "spec.someRandomField"');
  r = await s.kubectl(['create', '-f', '-'], { stdin: doc.replace('name: pruned', 'name: strict') });
  assert.notEqual(r.code, 0);
  assert.equal(
    r.stderr.trim(),
    'Error from server (BadRequest): error when creating "STDIN": CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.someRandomField"',
  );
});

test('defaulting: absent fields get their defaults', async () => {
  const r = await s.kubectl(['create', '-f', '-', '-o', 'yaml'], {
    stdin: 'apiVersion: "defaulting.example.com/v1"\nkind: CronTab\nmetadata:\n  name: my-new-cron-object\nspec:\n  image: my-awesome-cron-image\n',
  });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual((parseYaml(r.stdout) as any).spec, { cronSpec: '5 0 * * *', image: 'my-awesome-cron-image', replicas: 1 });
});

test('defaulting and nullable: foo defaulted, bar kept null, baz pruned', async () => {
  const r = await s.kubectl(['create', '-f', '-', '-o', 'json'], {
    stdin: 'apiVersion: "nullable.example.com/v1"\nkind: Thing\nmetadata:\n  name: nulls\nspec:\n  foo: null\n  bar: null\n  baz: null\n',
  });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(JSON.parse(r.stdout).spec, { bar: null, foo: 'default' });
});

test('a CRD with a non-structural schema is refused with its violations', async () => {
  const bad = crd('bad.example.com', 'things', 'Thing', `              properties:\n                foo:\n                  pattern: abc`);
  const r = await s.kubectl(['apply', '-f', '-'], { stdin: bad });
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /The CustomResourceDefinition "things\.bad\.example\.com" is invalid: /);
  assert.match(r.stderr, /spec\.validation\.openAPIV3Schema\.properties\[spec\]\.type: Required value: must not be empty for specified object fields/);
  assert.match(r.stderr, /spec\.validation\.openAPIV3Schema\.properties\[spec\]\.properties\[foo\]\.type: Required value: must not be empty for specified object fields/);
});

test('a property only in a junctor\'s items.properties is refused: structural completeness', async () => {
  const junctor = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: lists.junctor.example.com
spec:
  group: junctor.example.com
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            l:
              type: array
              items:
                type: object
                properties:
                  x:
                    type: string
          oneOf:
          - properties:
              l:
                items:
                  properties:
                    z:
                      minLength: 1
  scope: Namespaced
  names:
    plural: lists
    singular: list
    kind: List
`;
  const r = await s.kubectl(['apply', '-f', '-'], { stdin: junctor });
  assert.notEqual(r.code, 0);
  assert.equal(
    r.stderr.trim(),
    'The CustomResourceDefinition "lists.junctor.example.com" is invalid: spec.validation.openAPIV3Schema.properties[l].items.properties[z]: Required value: because it is defined in spec.validation.openAPIV3Schema.oneOf[0].properties[l].items.properties[z]',
  );
});

// The seed's "Validation rules" and "Transition rules" sections through kubectl: the CronTab whose
// spec rules order minReplicas <= replicas <= maxReplicas, the same without a message, a rule that
// does not compile, and a transition rule.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { requireKubectl, startTestServer, type TestServer } from './harness.js';

const crd = (group: string, rules: string): string => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: crontabs.${group}
spec:
  group: ${group}
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
              x-kubernetes-validations:
${rules}
              properties:
                minReplicas:
                  type: integer
                replicas:
                  type: integer
                maxReplicas:
                  type: integer
                level:
                  type: string
                  enum: ["low", "medium", "high"]
                  x-kubernetes-validations:
                    - rule: "!(self == 'high' && oldSelf == 'low') && !(self == 'low' && oldSelf == 'high')"
                      message: cannot transition directly between 'low' and 'high'
              required:
                - minReplicas
                - replicas
                - maxReplicas
  scope: Namespaced
  names:
    plural: crontabs
    singular: crontab
    kind: CronTab
`;

const withMessages = crd(
  'stable.example.com',
  `                - rule: "self.minReplicas <= self.replicas"
                  message: "replicas should be greater than or equal to minReplicas."
                - rule: "self.replicas <= self.maxReplicas"
                  message: "replicas should be smaller than or equal to maxReplicas."`,
);
const withoutMessages = crd(
  'nomessage.example.com',
  `                - rule: "self.minReplicas <= self.replicas"
                - rule: "self.replicas <= self.maxReplicas"`,
);

const cronTab = (group: string, spec: string): string => `apiVersion: "${group}/v1"
kind: CronTab
metadata:
  name: my-new-cron-object
spec:
${spec}
`;

let s: TestServer;
before(async () => {
  requireKubectl();
  s = await startTestServer();
  for (const [i, doc] of [withMessages, withoutMessages].entries()) {
    const r = await s.kubectl(['apply', '-f', s.file(`crd-${i}.yaml`, doc)]);
    assert.equal(r.code, 0, r.stderr);
  }
  const w = await s.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd', '--all']);
  assert.equal(w.code, 0, w.stderr);
});
after(async () => {
  await s?.close();
});

test('validation rules: a failing rule is refused with its message', async () => {
  const r = await s.kubectl(['apply', '-f', '-'], { stdin: cronTab('stable.example.com', '  minReplicas: 0\n  replicas: 20\n  maxReplicas: 10') });
  assert.notEqual(r.code, 0);
  assert.equal(
    r.stderr.trim(),
    'The CronTab "my-new-cron-object" is invalid: spec: Invalid value: "object": replicas should be smaller than or equal to maxReplicas.',
  );
});

test('validation rules: without a message the rule is quoted', async () => {
  const r = await s.kubectl(['apply', '-f', '-'], { stdin: cronTab('nomessage.example.com', '  minReplicas: 0\n  replicas: 20\n  maxReplicas: 10') });
  assert.notEqual(r.code, 0);
  assert.equal(r.stderr.trim(), 'The CronTab "my-new-cron-object" is invalid: spec: Invalid value: "object": failed rule: self.replicas <= self.maxReplicas');
});

test('validation rules: both rules failing are both listed', async () => {
  const r = await s.kubectl(['apply', '-f', '-'], { stdin: cronTab('stable.example.com', '  minReplicas: 30\n  replicas: 20\n  maxReplicas: 10') });
  assert.notEqual(r.code, 0);
  assert.equal(
    r.stderr.trim(),
    [
      'The CronTab "my-new-cron-object" is invalid: ',
      '* spec: Invalid value: "object": replicas should be greater than or equal to minReplicas.',
      '* spec: Invalid value: "object": replicas should be smaller than or equal to maxReplicas.',
    ].join('\n'),
  );
});

test('transition rules: checked on update only', async () => {
  const group = 'stable.example.com';
  let r = await s.kubectl(['apply', '-f', '-'], { stdin: cronTab(group, '  minReplicas: 1\n  replicas: 2\n  maxReplicas: 3\n  level: low').replace('my-new-cron-object', 'levels') });
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['apply', '-f', '-'], { stdin: cronTab(group, '  minReplicas: 1\n  replicas: 2\n  maxReplicas: 3\n  level: high').replace('my-new-cron-object', 'levels') });
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /The CronTab "levels" is invalid: spec\.level: Invalid value: "string": cannot transition directly between 'low' and 'high'/);
  r = await s.kubectl(['apply', '-f', '-'], { stdin: cronTab(group, '  minReplicas: 1\n  replicas: 2\n  maxReplicas: 3\n  level: medium').replace('my-new-cron-object', 'levels') });
  assert.equal(r.code, 0, r.stderr);
});

test('a rule that does not type-check is refused with the compiler message', async () => {
  const bad = crd(
    'bad.example.com',
    `                - rule: "self.replicas == true"`,
  );
  const r = await s.kubectl(['apply', '-f', '-'], { stdin: bad });
  assert.notEqual(r.code, 0);
  assert.match(r.stderr, /The CustomResourceDefinition "crontabs\.bad\.example\.com" is invalid: spec\.validation\.openAPIV3Schema\.properties\[spec\]\.x-kubernetes-validations\[0\]\.rule: Invalid value: apiextensions\.ValidationRule\{Rule:"self\.replicas == true", Message:"", MessageExpression:"", Reason:\(\*apiextensions\.FieldValueErrorReason\)\(nil\), FieldPath:"", OptionalOldSelf:\(\*bool\)\(nil\)\}: compilation failed: ERROR: <input>:1:15: found no matching overload for '_==_' applied to '\(int, bool\)'/);
});

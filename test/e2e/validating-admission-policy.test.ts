// The Kubernetes documentation's "Validating Admission Policy" page walked through with kubectl. Its
// Deployments are custom resources here (example.com/v1 Deployment with spec.replicas and a pod template),
// ReplicaLimit params a CRD too, alongside ConfigMap params; the messages are kube's.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { requireKubectl, startTestServer, squeeze, type TestServer } from './harness.js';

let s: TestServer;

const CRDS = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: deployments.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: deployments, singular: deployment, kind: Deployment}
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
            x-kubernetes-preserve-unknown-fields: true
            properties:
              replicas: {type: integer}
---
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: replicalimits.rules.example.com}
spec:
  group: rules.example.com
  scope: Namespaced
  names: {plural: replicalimits, singular: replicalimit, kind: ReplicaLimit}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          maxReplicas: {type: integer}
`;

const deployment = (name: string, ns: string, replicas: number, extra = ''): string => `
apiVersion: example.com/v1
kind: Deployment
metadata: {name: ${name}, namespace: ${ns}${extra}}
spec:
  replicas: ${replicas}
  template: {spec: {containers: [{name: c, image: "example.com/nginx"}]}}
`;

before(async () => {
  requireKubectl();
  s = await startTestServer();
  await ok(['apply', '-f', '-'], CRDS);
  await ok(['wait', '--for', 'condition=established', 'crd/deployments.example.com', 'crd/replicalimits.rules.example.com']);
  await ok(['create', 'namespace', 'test']);
  await ok(['label', 'namespace', 'test', 'environment=test']);
  await ok(['create', 'namespace', 'prod']);
});
after(async () => {
  await s?.close();
});

async function ok(args: string[], stdin?: string): Promise<string> {
  const r = await s.kubectl(args, stdin === undefined ? {} : { stdin });
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

/** Runs kubectl until its stderr matches (the plugin's informers see a new policy a moment after it is written). */
async function failsWith(args: string[], stdin: string, re: RegExp): Promise<string> {
  let err = '';
  for (let i = 0; i < 50; i++) {
    const r = await s.kubectl(args, { stdin });
    err = r.stderr.trim();
    if (r.code !== 0 && re.test(err)) return err;
    if (r.code === 0 && args[0] === 'create') await s.kubectl(['delete', '-f', '-'], { stdin });
    await new Promise((res) => setTimeout(res, 50));
  }
  assert.fail(`kubectl ${args.join(' ')}: ${err} does not match ${re}`);
}

const withoutAge = (out: string): string => squeeze(out).replace(/ \d+[smh](?= |$)/gm, ' <age>');

test('the docs` first policy: replicas <= 5 in namespaces labelled environment=test', async () => {
  await ok(['apply', '-f', '-'], `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: "demo-policy.example.com"
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups:   ["example.com"]
      apiVersions: ["v1"]
      operations:  ["CREATE", "UPDATE"]
      resources:   ["deployments"]
  validations:
    - expression: "object.spec.replicas <= 5"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: "demo-binding-test.example.com"
spec:
  policyName: "demo-policy.example.com"
  validationActions: [Deny]
  matchResources:
    namespaceSelector:
      matchLabels:
        environment: test
`);
  const err = await failsWith(['create', '-f', '-'], deployment('nginx', 'test', 6), /denied request/);
  assert.equal(
    err,
    'The deployments "nginx" is invalid: : ValidatingAdmissionPolicy \'demo-policy.example.com\' with binding \'demo-binding-test.example.com\' denied request: failed expression: object.spec.replicas <= 5',
  );
  // Within the limit, or in a namespace the binding does not select: admitted.
  await ok(['create', '-f', '-'], deployment('small', 'test', 5));
  await ok(['create', '-f', '-'], deployment('nginx', 'prod', 6));
  // The defaults v1 gives, and kube's printers.
  const p = JSON.parse(await ok(['get', 'validatingadmissionpolicy', 'demo-policy.example.com', '-o', 'json']));
  assert.deepEqual(p.spec.matchConstraints, {
    resourceRules: [{ apiGroups: ['example.com'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['deployments'], scope: '*' }],
    matchPolicy: 'Equivalent',
    namespaceSelector: {},
    objectSelector: {},
  });
  assert.equal(p.metadata.generation, 1);
  assert.equal(withoutAge(await ok(['get', 'validatingadmissionpolicies'])), 'NAME VALIDATIONS PARAMKIND AGE\ndemo-policy.example.com 1 <unset> <age>');
  assert.equal(withoutAge(await ok(['get', 'validatingadmissionpolicybindings'])), 'NAME POLICYNAME PARAMREF AGE\ndemo-binding-test.example.com demo-policy.example.com <unset> <age>');
  await ok(['delete', 'validatingadmissionpolicybinding', 'demo-binding-test.example.com']);
});

test('params from a custom resource: messageExpression, reason, parameterNotFoundAction Deny', async () => {
  await ok(['apply', '-f', '-'], `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: "replicalimit-policy.example.com"
spec:
  failurePolicy: Fail
  paramKind:
    apiVersion: rules.example.com/v1
    kind: ReplicaLimit
  matchConstraints:
    resourceRules:
    - apiGroups:   ["example.com"]
      apiVersions: ["v1"]
      operations:  ["CREATE", "UPDATE"]
      resources:   ["deployments"]
  validations:
    - expression: "object.spec.replicas <= params.maxReplicas"
      messageExpression: "'object.spec.replicas must be no greater than ' + string(params.maxReplicas)"
      reason: Invalid
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: "replicalimit-binding-test.example.com"
spec:
  policyName: "replicalimit-policy.example.com"
  validationActions: [Deny]
  paramRef:
    name: "replica-limit-test.example.com"
    namespace: "default"
    parameterNotFoundAction: Deny
  matchResources:
    namespaceSelector:
      matchLabels:
        environment: test
`);
  // No param yet: the binding's Deny action for a missing param, under the policy's failurePolicy.
  let err = await failsWith(['create', '-f', '-'], deployment('d1', 'test', 2), /no params found/);
  assert.equal(
    err,
    "The deployments \"d1\" is invalid: : ValidatingAdmissionPolicy 'replicalimit-policy.example.com' with binding 'replicalimit-binding-test.example.com' denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction",
  );
  await ok(['apply', '-f', '-'], `
apiVersion: rules.example.com/v1
kind: ReplicaLimit
metadata:
  name: "replica-limit-test.example.com"
  namespace: "default"
maxReplicas: 3
`);
  err = await failsWith(['create', '-f', '-'], deployment('d1', 'test', 4), /no greater than/);
  assert.equal(
    err,
    "The deployments \"d1\" is invalid: : ValidatingAdmissionPolicy 'replicalimit-policy.example.com' with binding 'replicalimit-binding-test.example.com' denied request: object.spec.replicas must be no greater than 3",
  );
  await ok(['create', '-f', '-'], deployment('d1', 'test', 3));
  assert.equal(withoutAge(await ok(['get', 'validatingadmissionpolicy', 'replicalimit-policy.example.com'])), 'NAME VALIDATIONS PARAMKIND AGE\nreplicalimit-policy.example.com 1 rules.example.com/v1/ReplicaLimit <age>');
  assert.equal(
    withoutAge(await ok(['get', 'validatingadmissionpolicybinding', 'replicalimit-binding-test.example.com'])),
    'NAME POLICYNAME PARAMREF AGE\nreplicalimit-binding-test.example.com replicalimit-policy.example.com default/replica-limit-test.example.com <age>',
  );
  await ok(['delete', 'validatingadmissionpolicybinding', 'replicalimit-binding-test.example.com']);
});

test('params from ConfigMaps chosen by selector, with reason Forbidden (403)', async () => {
  await ok(['create', 'configmap', 'limits', '-n', 'test', '--from-literal=maxReplicas=2']);
  await ok(['label', 'configmap', 'limits', '-n', 'test', 'kind=replica-limit']);
  await ok(['apply', '-f', '-'], `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: cm-limit}
spec:
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    resourceRules:
    - {apiGroups: ["example.com"], apiVersions: ["v1"], operations: ["CREATE"], resources: ["deployments"]}
  validations:
  - expression: "object.spec.replicas <= int(params.data.maxReplicas)"
    message: "too many replicas"
    reason: Forbidden
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: cm-limit-binding}
spec:
  policyName: cm-limit
  validationActions: [Deny]
  paramRef:
    selector: {matchLabels: {kind: replica-limit}}
    parameterNotFoundAction: Allow
`);
  const err = await failsWith(['create', '-f', '-'], deployment('cm1', 'test', 3), /too many replicas/);
  assert.equal(err, 'Error from server (Forbidden): error when creating "STDIN": deployments.example.com "cm1" is forbidden: ValidatingAdmissionPolicy \'cm-limit\' with binding \'cm-limit-binding\' denied request: too many replicas');
  // The params are looked up in the request's namespace: none in prod, and Allow admits.
  await ok(['create', '-f', '-'], deployment('cm1', 'prod', 3));
  assert.match(withoutAge(await ok(['get', 'validatingadmissionpolicybinding', 'cm-limit-binding'])), /cm-limit-binding cm-limit &LabelSelector\{MatchLabels:map\[string\]string\{kind: replica-limit,\},MatchExpressions:\[\]LabelSelectorRequirement\{\},\} <age>/);
  await ok(['delete', 'validatingadmissionpolicybinding', 'cm-limit-binding']);
});

test('Warn and Audit: the request is admitted with kube`s Warning header', async () => {
  await ok(['apply', '-f', '-'], `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: demo-warn}
spec:
  policyName: "demo-policy.example.com"
  validationActions: [Warn, Audit]
`);
  let r;
  for (let i = 0; i < 50; i++) {
    r = await s.kubectl(['create', '-f', '-'], { stdin: deployment('warned', 'prod', 7) });
    assert.equal(r.code, 0, r.stderr);
    if (r.stderr.includes('Warning')) break;
    await s.kubectl(['delete', 'deployments.example.com', 'warned', '-n', 'prod']);
    await new Promise((res) => setTimeout(res, 50));
  }
  assert.equal(r!.stderr.trim(), "Warning: Validation failed for ValidatingAdmissionPolicy 'demo-policy.example.com' with binding 'demo-warn': failed expression: object.spec.replicas <= 5");
  await ok(['delete', 'validatingadmissionpolicybinding', 'demo-warn']);
});

test('matchConditions and variables, with namespaceObject, as the docs show them', async () => {
  await ok(['apply', '-f', '-'], `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: "image-matches-namespace-environment.policy.example.com"
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - apiGroups:   ["example.com"]
      apiVersions: ["v1"]
      operations:  ["CREATE", "UPDATE"]
      resources:   ["deployments"]
  matchConditions:
    - name: 'exclude-kubelet-requests'
      expression: '!("system:nodes" in request.userInfo.groups)'
    - name: 'not-skipped'
      expression: '!has(object.metadata.labels) || !("skip" in object.metadata.labels)'
  variables:
  - name: environment
    expression: "'environment' in namespaceObject.metadata.labels ? namespaceObject.metadata.labels['environment'] : 'prod'"
  - name: exempt
    expression: "has(object.metadata.labels) && 'exempt' in object.metadata.labels && object.metadata.labels['exempt'] == 'true'"
  - name: containers
    expression: "object.spec.template.spec.containers"
  - name: containersToCheck
    expression: "variables.containers.filter(c, c.image.contains('example.com/'))"
  validations:
  - expression: "variables.exempt || variables.containersToCheck.all(c, c.image.startsWith(variables.environment + '.'))"
    messageExpression: "'only ' + variables.environment + ' images are allowed in namespace ' + namespaceObject.metadata.name"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: image-env}
spec:
  policyName: "image-matches-namespace-environment.policy.example.com"
  validationActions: [Deny]
`);
  const err = await failsWith(['create', '-f', '-'], deployment('img', 'test', 1), /images are allowed/);
  assert.equal(
    err,
    "The deployments \"img\" is invalid: : ValidatingAdmissionPolicy 'image-matches-namespace-environment.policy.example.com' with binding 'image-env' denied request: only test images are allowed in namespace test",
  );
  // Exempt by a variable, or skipped by a match condition: admitted.
  await ok(['create', '-f', '-'], deployment('img', 'test', 1, ', labels: {exempt: "true"}'));
  await ok(['create', '-f', '-'], deployment('img2', 'test', 1, ', labels: {skip: "yes"}'));
  await ok(['delete', 'validatingadmissionpolicybinding', 'image-env']);
});

test('every expression is compiled when a policy is written: kube`s errors and field paths', async () => {
  const r = await s.kubectl(['apply', '-f', '-'], {
    stdin: `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: bad}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: ["example.com"], apiVersions: ["v1"], operations: ["CREATE"], resources: ["deployments"]}
  matchConditions:
  - {name: m, expression: "variables.x"}
  variables:
  - {name: x, expression: "object.spec.replicas"}
  validations:
  - expression: "'not a bool'"
  - expression: "variables.y > 1"
    messageExpression: "1"
  - expression: "params.x"
`,
  });
  assert.equal(r.code, 1);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines[0], 'The ValidatingAdmissionPolicy "bad" is invalid: ');
  assert.deepEqual(lines.slice(1), [
    `* spec.matchConditions[0].expression: Invalid value: "variables.x": compilation failed: ERROR: <input>:1:1: undeclared reference to 'variables' (in container '')`,
    ' | variables.x',
    ' | ^',
    `* spec.validations[0].expression: Invalid value: "'not a bool'": must evaluate to bool but got string`,
    `* spec.validations[1].expression: Invalid value: "variables.y > 1": compilation failed: ERROR: <input>:1:10: undefined field 'y'`,
    ' | variables.y > 1',
    ' | .........^',
    '* spec.validations[1].messageExpression: Invalid value: "1": must evaluate to string but got int',
    `* spec.validations[2].expression: Invalid value: "params.x": compilation failed: ERROR: <input>:1:1: undeclared reference to 'params' (in container '')`,
    ' | params.x',
    ' | ^',
  ]);
  const b = await s.kubectl(['apply', '-f', '-'], {
    stdin: `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: bad}
spec:
  policyName: p
  validationActions: [Deny, Warn]
  paramRef: {name: a, selector: {}}
`,
  });
  assert.equal(b.code, 1);
  assert.equal(
    b.stderr.trim(),
    [
      'The ValidatingAdmissionPolicyBinding "bad" is invalid: ',
      '* spec.paramRef.name: Forbidden: name and selector are mutually exclusive',
      '* spec.paramRef.selector: Forbidden: name and selector are mutually exclusive',
      '* spec.paramRef.parameterNotFoundAction: Required value',
      '* spec.validationActions: Invalid value: []admissionregistration.ValidationAction{"Deny", "Warn"}: must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)',
    ].join('\n'),
  );
});

test('status: observedGeneration and type checking warnings against the matched kinds` schemas', async () => {
  await ok(['apply', '-f', '-'], `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: typed}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: ["rules.example.com"], apiVersions: ["v1"], operations: ["CREATE"], resources: ["replicalimits"]}
  validations:
  - expression: "object.maxReplica > 1"
  - expression: "object.maxReplicas > 1"
    messageExpression: "'max is ' + object.maxReplicas"
`);
  let status: { observedGeneration?: number; typeChecking?: { expressionWarnings?: { fieldRef: string; warning: string }[] } } = {};
  for (let i = 0; i < 100 && status.observedGeneration !== 1; i++) {
    status = JSON.parse(await ok(['get', 'validatingadmissionpolicy', 'typed', '-o', 'json'])).status ?? {};
    await new Promise((res) => setTimeout(res, 50));
  }
  assert.deepEqual(status.typeChecking, {
    expressionWarnings: [
      {
        fieldRef: 'spec.validations[0].expression',
        warning: "rules.example.com/v1, Kind=ReplicaLimit: compilation failed: ERROR: <input>:1:7: undefined field 'maxReplica'\n | object.maxReplica > 1\n | ......^\n",
      },
      {
        fieldRef: 'spec.validations[1].messageExpression',
        warning: "rules.example.com/v1, Kind=ReplicaLimit: compilation failed: ERROR: <input>:1:11: found no matching overload for '_+_' applied to '(string, int)'\n | 'max is ' + object.maxReplicas\n | ..........^\n",
      },
    ],
  });
  // Built-in kinds are typed by their declared Go types; params by the paramKind's.
  await ok(['apply', '-f', '-'], `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: typed-cm}
spec:
  paramKind: {apiVersion: rules.example.com/v1, kind: ReplicaLimit}
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["configmaps"]}
  validations:
  - expression: "object.dat.size() <= params.maxReplicas"
  - expression: "size(object.data) <= params.maxReplica"
  - expression: "!has(object.binaryData) || object.binaryData.all(k, size(object.binaryData[k]) < 1024)"
`);
  let cm: typeof status = {};
  for (let i = 0; i < 100 && cm.observedGeneration !== 1; i++) {
    cm = JSON.parse(await ok(['get', 'validatingadmissionpolicy', 'typed-cm', '-o', 'json'])).status ?? {};
    await new Promise((res) => setTimeout(res, 50));
  }
  assert.deepEqual(cm.typeChecking?.expressionWarnings, [
    {
      fieldRef: 'spec.validations[0].expression',
      warning: "/v1, Kind=ConfigMap: compilation failed: ERROR: <input>:1:7: undefined field 'dat'\n | object.dat.size() <= params.maxReplicas\n | ......^\n",
    },
    {
      fieldRef: 'spec.validations[1].expression',
      warning: "/v1, Kind=ConfigMap: compilation failed: ERROR: <input>:1:28: undefined field 'maxReplica'\n | size(object.data) <= params.maxReplica\n | ...........................^\n",
    },
  ]);
  // Fixed: the next generation has no warnings.
  await ok(['patch', 'validatingadmissionpolicy', 'typed', '--type=json', '-p', '[{"op":"replace","path":"/spec/validations","value":[{"expression":"object.maxReplicas > 1"}]}]']);
  for (let i = 0; i < 100 && status.observedGeneration !== 2; i++) {
    status = JSON.parse(await ok(['get', 'validatingadmissionpolicy', 'typed', '-o', 'json'])).status ?? {};
    await new Promise((res) => setTimeout(res, 50));
  }
  assert.deepEqual(status, { observedGeneration: 2, typeChecking: {} });
});

test('authorizer: the requester`s own checks pass, a ServiceAccount without rights is refused', async () => {
  await ok(['apply', '-f', '-'], `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: authz}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: ["example.com"], apiVersions: ["v1"], operations: ["CREATE"], resources: ["deployments"]}
  validations:
  - expression: "authorizer.requestResource.check('delete').allowed()"
  - expression: "!has(object.metadata.annotations) || !('builder' in object.metadata.annotations) || authorizer.serviceAccount(object.metadata.namespace, object.metadata.annotations['builder']).group('example.com').resource('deployments').namespace(object.metadata.namespace).check('create').allowed()"
    messageExpression: "'serviceaccount ' + object.metadata.annotations['builder'] + ' may not create deployments'"
    reason: Forbidden
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: authz}
spec:
  policyName: authz
  validationActions: [Deny]
`);
  const err = await failsWith(['create', '-f', '-'], deployment('az', 'prod', 1, ', annotations: {builder: ci}'), /may not create/);
  assert.equal(err, 'Error from server (Forbidden): error when creating "STDIN": deployments.example.com "az" is forbidden: ValidatingAdmissionPolicy \'authz\' with binding \'authz\' denied request: serviceaccount ci may not create deployments');
  await ok(['create', '-f', '-'], deployment('az', 'prod', 1));
  await ok(['delete', 'validatingadmissionpolicybinding', 'authz']);
});

test('kubectl explain and api-resources know both kinds', async () => {
  const out = await ok(['explain', 'validatingadmissionpolicybinding.spec.paramRef.parameterNotFoundAction']);
  assert.match(out, /FIELD: parameterNotFoundAction <string>/);
  assert.match(out, /`parameterNotFoundAction` controls the behavior of the binding/);
  assert.match(await ok(['explain', 'validatingadmissionpolicy.spec.matchConstraints.namespaceSelector']), /FIELD: namespaceSelector <LabelSelector>/);
  assert.equal(
    squeeze(await ok(['api-resources', '--api-group=admissionregistration.k8s.io'])),
    [
      'NAME SHORTNAMES APIVERSION NAMESPACED KIND',
      'mutatingwebhookconfigurations admissionregistration.k8s.io/v1 false MutatingWebhookConfiguration',
      'validatingadmissionpolicies admissionregistration.k8s.io/v1 false ValidatingAdmissionPolicy',
      'validatingadmissionpolicybindings admissionregistration.k8s.io/v1 false ValidatingAdmissionPolicyBinding',
      'validatingwebhookconfigurations admissionregistration.k8s.io/v1 false ValidatingWebhookConfiguration',
    ].join('\n'),
  );
});

test('deletes are admitted too: oldObject, and Warn on a delete', async () => {
  await ok(['apply', '-f', '-'], `
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: protect}
spec:
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: ["v1"], operations: ["DELETE"], resources: ["configmaps"]}
  validations:
  - expression: "object == null && !('protected' in oldObject.metadata.labels)"
    messageExpression: "'configmap ' + oldObject.metadata.name + ' is protected'"
    reason: Forbidden
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: protect}
spec:
  policyName: protect
  validationActions: [Deny]
  matchResources: {objectSelector: {matchLabels: {protected: "yes"}}}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: protect-warn}
spec:
  policyName: protect
  validationActions: [Warn]
  matchResources: {objectSelector: {matchLabels: {protected: "soft"}}}
`);
  await ok(['create', 'configmap', 'keep', '-n', 'prod']);
  await ok(['label', 'configmap', 'keep', '-n', 'prod', 'protected=yes']);
  await ok(['create', 'configmap', 'soft', '-n', 'prod']);
  await ok(['label', 'configmap', 'soft', '-n', 'prod', 'protected=soft']);
  let r;
  for (let i = 0; i < 50; i++) {
    r = await s.kubectl(['delete', 'configmap', 'keep', '-n', 'prod']);
    if (r.code !== 0) break;
    await ok(['create', 'configmap', 'keep', '-n', 'prod']);
    await ok(['label', 'configmap', 'keep', '-n', 'prod', 'protected=yes']);
  }
  assert.equal(r!.stderr.trim(), 'Error from server (Forbidden): configmaps "keep" is forbidden: ValidatingAdmissionPolicy \'protect\' with binding \'protect\' denied request: configmap keep is protected');
  r = await s.kubectl(['delete', 'configmap', 'soft', '-n', 'prod']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr.trim(), "Warning: Validation failed for ValidatingAdmissionPolicy 'protect' with binding 'protect-warn': configmap soft is protected");
  await ok(['delete', 'validatingadmissionpolicybinding', 'protect', 'protect-warn']);
});

// The ValidatingAdmissionPolicy plugin over fixed policy and binding lists: matching (rules, subresources,
// resource names, scope, selectors, exclusions, Equivalent versions, binding narrowing), match conditions,
// lazy variables, messages and reasons, failure policies, params, cost limits, and compilation once per
// policy generation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as S from '../../src/api/status.js';
import type { ServedResource } from '../../src/api/resource.js';
import type { AdmissionAttributes } from '../../src/registry/admission.js';
import type { JSONObject } from '../../src/util/json.js';
import { ValidatingAdmissionPolicyPlugin, type ParamSource } from '../../src/admission/validating-policy/plugin.js';
import { compilePolicy } from '../../src/admission/validating-policy/compile.js';
import { validate } from '../../src/admission/validating-policy/evaluate.js';

const widgets: ServedResource = {
  group: 'example.com',
  version: 'v1',
  resource: 'widgets',
  kind: 'Widget',
  namespaced: true,
  singularName: 'widget',
  listKind: 'WidgetList',
  verbs: [],
  shortNames: [],
  categories: [],
  subresources: {},
  storageVersionHash: '',
} as unknown as ServedResource;

const rule = (extra: JSONObject = {}): JSONObject => ({ apiGroups: ['example.com'], apiVersions: ['v1'], operations: ['CREATE', 'UPDATE'], resources: ['widgets'], ...extra });

function policy(name: string, spec: JSONObject, generation = 1): JSONObject {
  return {
    metadata: { name, uid: `uid-${name}`, generation },
    spec: { failurePolicy: 'Fail', matchConstraints: { resourceRules: [rule()], namespaceSelector: {}, objectSelector: {}, matchPolicy: 'Equivalent' }, ...spec },
  };
}
const binding = (name: string, policyName: string, spec: JSONObject = {}): JSONObject => ({ metadata: { name }, spec: { policyName, validationActions: ['Deny'], ...spec } });

interface Setup {
  policies: JSONObject[];
  bindings: JSONObject[];
  params?: Record<string, ParamSource>;
  namespaces?: Record<string, JSONObject>;
}

function plugin(s: Setup): { plugin: ValidatingAdmissionPolicyPlugin; changed(): void } {
  const handlers: { add?(o: JSONObject): void }[] = [];
  const p = new ValidatingAdmissionPolicyPlugin({
    policies: { list: () => s.policies, addEventHandler: (h) => (handlers.push(h), () => {}) },
    bindings: { list: () => s.bindings, addEventHandler: (h) => (handlers.push(h), () => {}) },
    namespace: async (n) => (s.namespaces ?? { default: { metadata: { name: 'default', labels: { env: 'test' } } } })[n],
    equivalents: (a) =>
      a.resource.resource === 'widgets' ? [{ resource: { group: 'example.com', version: 'v2', resource: 'widgets' }, kind: { group: 'example.com', version: 'v2', kind: 'Widget' } }] : [],
    params: (apiVersion, kind) => s.params?.[`${apiVersion}/${kind}`],
  });
  return { plugin: p, changed: () => handlers.forEach((h) => h.add?.({})) };
}

const widget = (replicas: number, labels: Record<string, string> = {}): JSONObject => ({
  apiVersion: 'example.com/v1',
  kind: 'Widget',
  metadata: { name: 'w', namespace: 'default', labels },
  spec: { replicas },
});

const attrs = (a: Partial<AdmissionAttributes> = {}): AdmissionAttributes => ({
  operation: 'CREATE',
  resource: widgets,
  subresource: '',
  namespace: 'default',
  name: 'w',
  object: widget(10),
  dryRun: false,
  user: { name: 'alice', groups: ['dev', 'system:authenticated'] },
  ...a,
});

async function outcome(p: ValidatingAdmissionPolicyPlugin, a: AdmissionAttributes): Promise<S.Status | undefined> {
  try {
    await p.validate(a);
    return undefined;
  } catch (e) {
    assert.ok(e instanceof S.StatusError, String(e));
    return e.status;
  }
}

const limit = policy('limit', { validations: [{ expression: 'object.spec.replicas <= 5' }] });

test('a denial: kube`s message, reason Invalid and 422 by default, the admission name and a cause', async () => {
  const { plugin: p } = plugin({ policies: [limit], bindings: [binding('b', 'limit')] });
  const s = await outcome(p, attrs());
  assert.deepEqual(s, {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `widgets.example.com "w" is forbidden: ValidatingAdmissionPolicy 'limit' with binding 'b' denied request: failed expression: object.spec.replicas <= 5`,
    reason: 'Invalid',
    details: {
      name: 'w',
      group: 'example.com',
      kind: 'widgets',
      causes: [{ message: `ValidatingAdmissionPolicy 'limit' with binding 'b' denied request: failed expression: object.spec.replicas <= 5` }],
    },
    code: 422,
  });
  assert.equal(await outcome(p, attrs({ object: widget(5) })), undefined);
});

test('reasons map to codes as reasonToCode; message and messageExpression', async () => {
  for (const [reason, code] of [['Forbidden', 403], ['Unauthorized', 401], ['RequestEntityTooLarge', 413], ['Invalid', 422]] as const) {
    const pol = policy('p', { validations: [{ expression: 'false', reason, message: ' plain message ' }] });
    const s = await outcome(plugin({ policies: [pol], bindings: [binding('b', 'p')] }).plugin, attrs());
    assert.equal(s?.code, code);
    assert.equal(s?.reason, reason);
    assert.match(s!.message!, /denied request: plain message$/);
  }
  // A messageExpression wins; one that fails or yields a multi-line string falls back to the message.
  const pol = policy('p', {
    validations: [
      { expression: 'false', message: 'fallback', messageExpression: "'replicas ' + string(object.spec.replicas) + ' too many'" },
    ],
  });
  assert.match((await outcome(plugin({ policies: [pol], bindings: [binding('b', 'p')] }).plugin, attrs()))!.message!, /denied request: replicas 10 too many$/);
  const bad = policy('p', { validations: [{ expression: 'false', message: 'fallback', messageExpression: "'a\\nb'" }] });
  assert.match((await outcome(plugin({ policies: [bad], bindings: [binding('b', 'p')] }).plugin, attrs()))!.message!, /denied request: fallback$/);
});

test('matching: operations, resource names, subresources, scope, exclusions, selectors, Equivalent versions', async () => {
  const run = async (constraints: JSONObject, a: Partial<AdmissionAttributes> = {}, b: JSONObject = binding('b', 'p')): Promise<boolean> => {
    const pol = policy('p', { matchConstraints: { namespaceSelector: {}, objectSelector: {}, matchPolicy: 'Exact', ...constraints }, validations: [{ expression: 'false' }] });
    return (await outcome(plugin({ policies: [pol], bindings: [b] }).plugin, attrs(a))) !== undefined;
  };
  assert.equal(await run({ resourceRules: [rule()] }), true);
  assert.equal(await run({ resourceRules: [rule({ operations: ['UPDATE'] })] }), false);
  assert.equal(await run({ resourceRules: [rule({ operations: ['*'] })] }, { operation: 'DELETE', object: undefined, oldObject: widget(1) }), true);
  assert.equal(await run({ resourceRules: [rule({ resourceNames: ['other'] })] }), false);
  assert.equal(await run({ resourceRules: [rule({ resourceNames: ['w'] })] }), true);
  assert.equal(await run({ resourceRules: [rule()] }, { operation: 'UPDATE', subresource: 'status', oldObject: widget(1) }), false);
  assert.equal(await run({ resourceRules: [rule({ resources: ['widgets/status'] })] }, { operation: 'UPDATE', subresource: 'status', oldObject: widget(1) }), true);
  assert.equal(await run({ resourceRules: [rule({ resources: ['*/*'] })] }, { operation: 'UPDATE', subresource: 'status', oldObject: widget(1) }), true);
  assert.equal(await run({ resourceRules: [rule({ scope: 'Cluster' })] }), false);
  assert.equal(await run({ resourceRules: [rule({ scope: 'Namespaced' })] }), true);
  assert.equal(await run({ resourceRules: [rule({ apiGroups: ['*'], resources: ['*'] })], excludeResourceRules: [rule()] }), false);
  assert.equal(await run({ resourceRules: [rule()], namespaceSelector: { matchLabels: { env: 'prod' } } }), false);
  assert.equal(await run({ resourceRules: [rule()], namespaceSelector: { matchLabels: { env: 'test' } } }), true);
  assert.equal(await run({ resourceRules: [rule()], objectSelector: { matchLabels: { team: 'a' } } }), false);
  assert.equal(await run({ resourceRules: [rule()], objectSelector: { matchLabels: { team: 'a' } } }, { object: widget(10, { team: 'a' }) }), true);
  // A rule naming only v2: Exact misses the v1 request, Equivalent matches it as v2.
  assert.equal(await run({ resourceRules: [rule({ apiVersions: ['v2'] })] }), false);
  assert.equal(await run({ resourceRules: [rule({ apiVersions: ['v2'] })], matchPolicy: 'Equivalent' }), true);
  // The binding narrows the policy's match.
  assert.equal(await run({ resourceRules: [rule()] }, {}, binding('b', 'p', { matchResources: { namespaceSelector: { matchLabels: { env: 'prod' } }, objectSelector: {}, matchPolicy: 'Equivalent' } })), false);
});

test('matchConditions: false skips the policy, errors follow failurePolicy; namespaceObject is null there', async () => {
  const mk = (expression: string, failurePolicy = 'Fail'): JSONObject =>
    policy('p', { failurePolicy, matchConditions: [{ name: 'c', expression }], validations: [{ expression: 'false', message: 'denied' }] });
  const deny = async (pol: JSONObject): Promise<string | undefined> => (await outcome(plugin({ policies: [pol], bindings: [binding('b', 'p')] }).plugin, attrs()))?.message;
  assert.equal(await deny(mk('request.userInfo.username == "bob"')), undefined);
  assert.match((await deny(mk('request.userInfo.username == "alice" && "dev" in request.userInfo.groups')))!, /denied request: denied$/);
  assert.equal(await deny(mk('namespaceObject == null')) !== undefined, true);
  assert.equal(
    await deny(mk('object.spec.nope == 1')),
    `widgets.example.com "w" is forbidden: ValidatingAdmissionPolicy 'p' with binding 'b' denied request: expression 'object.spec.nope == 1' resulted in error: no such key: nope`,
  );
  assert.equal(await deny(mk('object.spec.nope == 1', 'Ignore')), undefined);
});

test('variables: lazily evaluated once, in order, typed for later expressions; their errors named', async () => {
  const pol = policy('p', {
    variables: [
      { name: 'replicas', expression: 'object.spec.replicas' },
      { name: 'double', expression: 'variables.replicas * 2' },
      { name: 'broken', expression: 'object.spec.nope' },
    ],
    validations: [{ expression: 'variables.double < 10', messageExpression: "'double is ' + string(variables.double)" }],
  });
  const { plugin: p } = plugin({ policies: [pol], bindings: [binding('b', 'p')] });
  assert.match((await outcome(p, attrs()))!.message!, /denied request: double is 20$/);
  assert.equal(await outcome(p, attrs({ object: widget(2) })), undefined);
  const broken = policy('p', { variables: [{ name: 'broken', expression: 'object.spec.nope' }], validations: [{ expression: 'variables.broken == 1' }] });
  assert.match(
    (await outcome(plugin({ policies: [broken], bindings: [binding('b', 'p')] }).plugin, attrs()))!.message!,
    /denied request: expression 'variables.broken == 1' resulted in error: composited variable "broken" fails to evaluate: no such key: nope$/,
  );
});

test('Warn and Audit admit; Warn adds kube`s warning', async () => {
  const { plugin: p } = plugin({ policies: [limit], bindings: [binding('b', 'limit', { validationActions: ['Warn', 'Audit'] })] });
  const warnings: string[] = [];
  assert.equal(await outcome(p, attrs({ warnings })), undefined);
  assert.deepEqual(warnings, ["Validation failed for ValidatingAdmissionPolicy 'limit' with binding 'b': failed expression: object.spec.replicas <= 5"]);
});

test('params: by name and namespace, by selector (all must pass), missing with Allow or Deny, unknown kinds', async () => {
  const cms: JSONObject[] = [
    { metadata: { name: 'a', namespace: 'default', labels: { p: 'y' } }, data: { max: '20' } },
    { metadata: { name: 'b', namespace: 'default', labels: { p: 'y' } }, data: { max: '8' } },
  ];
  const source: ParamSource = {
    namespaced: true,
    get: async (ns, name) => cms.find((c) => (c['metadata'] as JSONObject)['name'] === name && (c['metadata'] as JSONObject)['namespace'] === ns),
    list: async (ns) => cms.filter((c) => (c['metadata'] as JSONObject)['namespace'] === ns),
  };
  const pol = policy('p', { paramKind: { apiVersion: 'v1', kind: 'ConfigMap' }, validations: [{ expression: 'object.spec.replicas <= int(params.data.max)', messageExpression: "'max ' + params.data.max" }] });
  const run = async (paramRef: JSONObject, pk = pol): Promise<string | undefined> =>
    (await outcome(plugin({ policies: [pk], bindings: [binding('b', 'p', { paramRef })], params: { 'v1/ConfigMap': source } }).plugin, attrs()))?.message;
  assert.equal(await run({ name: 'a', parameterNotFoundAction: 'Deny' }), undefined);
  assert.match((await run({ name: 'b', namespace: 'default', parameterNotFoundAction: 'Deny' }))!, /denied request: max 8$/);
  assert.match((await run({ selector: {}, parameterNotFoundAction: 'Deny' }))!, /denied request: max 8$/);
  assert.equal(await run({ name: 'missing', parameterNotFoundAction: 'Allow' }), undefined);
  assert.match((await run({ name: 'missing', parameterNotFoundAction: 'Deny' }))!, /denied request: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction$/);
  const unknown = policy('p', { paramKind: { apiVersion: 'example.com/v1', kind: 'Nope' }, validations: [{ expression: 'true' }] });
  assert.match((await run({ name: 'a', parameterNotFoundAction: 'Deny' }, unknown))!, /failed to configure binding: paramKind kind `&ParamKind\{APIVersion:example.com\/v1,Kind:Nope,\}` not known$/);
  // failurePolicy Ignore: configuration errors admit.
  const ignore = policy('p', { failurePolicy: 'Ignore', paramKind: { apiVersion: 'example.com/v1', kind: 'Nope' }, validations: [{ expression: 'false' }] });
  assert.equal(await run({ name: 'a', parameterNotFoundAction: 'Deny' }, ignore), undefined);
});

test('each policy compiles once per generation, not per request', async () => {
  const s: Setup = { policies: [limit], bindings: [binding('b', 'limit')] };
  const { plugin: p, changed } = plugin(s);
  await outcome(p, attrs());
  const hooks = (p as unknown as { compiled: Map<string, { compiled: unknown }> }).compiled;
  const first = hooks.get('limit')!.compiled;
  for (let i = 0; i < 3; i++) await outcome(p, attrs());
  changed();
  await outcome(p, attrs());
  assert.equal(hooks.get('limit')!.compiled, first, 'same generation: the same compiled policy');
  s.policies = [policy('limit', { validations: [{ expression: 'object.spec.replicas <= 50' }] }, 2)];
  changed();
  assert.equal(await outcome(p, attrs()), undefined);
  assert.notEqual(hooks.get('limit')!.compiled, first);
});

test('per-expression cost limit and the evaluation budget, as kube words them', () => {
  // A comprehension over a large list costs far beyond the per-call limit of 1,000,000.
  const big = { ...widget(1), spec: { items: Array.from({ length: 2000 }, (_, i) => i) } };
  const compiled = compilePolicy(policy('p', { validations: [{ expression: 'object.spec.items.all(x, object.spec.items.all(y, x + y >= 0))' }] }));
  const r = validate(compiled, { object: big, request: {} });
  assert.equal(r.decisions.length, 1);
  assert.equal(r.decisions[0]!.evaluation, 'error');
  assert.equal(r.decisions[0]!.message, `expression 'object.spec.items.all(x, object.spec.items.all(y, x + y >= 0))' resulted in error: operation cancelled: actual cost limit exceeded`);
  // Many expressions just under the per-call limit exhaust the 10,000,000 budget.
  const many = compilePolicy(
    policy('p', { validations: Array.from({ length: 30 }, () => ({ expression: 'object.spec.items.all(x, object.spec.items.all(y, x + y >= 0))' })) }),
  );
  const mid = { ...widget(1), spec: { items: Array.from({ length: 300 }, (_, i) => i) } };
  const r2 = validate(many, { object: mid, request: {} });
  assert.deepEqual(r2.decisions.map((d) => d.message), ['validation failed due to running out of cost budget, no further validation rules will be run']);
});

test('authorizer: resource and path checks, serviceAccount, requestResource, Decision accessors, the check`s cost', async () => {
  const asked: string[] = [];
  const s: Setup = {
    policies: [],
    bindings: [binding('b', 'p')],
  };
  const mk = (expression: string, message = 'no'): JSONObject => policy('p', { validations: [{ expression, message }] });
  const run = async (expression: string): Promise<string | undefined> => {
    s.policies = [mk(expression)];
    const p = new ValidatingAdmissionPolicyPlugin({
      policies: { list: () => s.policies, addEventHandler: () => () => {} },
      bindings: { list: () => s.bindings, addEventHandler: () => () => {} },
      namespace: async () => ({ metadata: { name: 'default' } }),
      equivalents: () => [],
      params: () => undefined,
      authorize: (r) => {
        asked.push(`${r.user.name} ${r.verb} ${r.resourceRequest ? `${r.group}/${r.version}/${r.resource}/${r.subresource}/${r.namespace}/${r.name}` : r.path}`);
        return r.user.name === 'alice' ? { decision: 'allow', reason: 'alice may' } : { decision: 'noOpinion', reason: '' };
      },
    });
    return (await outcome(p, attrs()))?.message;
  };
  assert.equal(await run("authorizer.group('example.com').resource('widgets').namespace('default').name('w').check('delete').allowed()"), undefined);
  assert.equal(await run("authorizer.path('/healthz').check('get').reason() == 'alice may'"), undefined);
  assert.equal(await run("!authorizer.group('').resource('secrets').check('get').errored() && authorizer.group('').resource('secrets').check('get').error() == ''"), undefined);
  assert.equal(await run("authorizer.requestResource.check('create').allowed()"), undefined);
  assert.match((await run("authorizer.serviceAccount('default', 'builder').group('').resource('pods').check('create').allowed()"))!, /denied request: no$/);
  assert.deepEqual(asked, [
    'alice delete example.com/*/widgets//default/w',
    'alice get /healthz',
    'alice get /*/secrets///',
    'alice get /*/secrets///',
    'alice create example.com/v1/widgets//default/w',
    'system:serviceaccount:default:builder create /*/pods///',
  ]);
  // Each check costs 350,000: three exceed the per-call limit of 1,000,000.
  const three = "authorizer.path('/a').check('get').allowed() && authorizer.path('/b').check('get').allowed() && authorizer.path('/c').check('get').allowed()";
  assert.match((await run(three))!, /resulted in error: operation cancelled: actual cost limit exceeded$/);
});

test('admission`s own configuration is exempt: a policy matching everything does not guard policies and bindings', async () => {
  const all = policy('all', { matchConstraints: { resourceRules: [{ apiGroups: ['*'], apiVersions: ['*'], operations: ['*'], resources: ['*'] }], namespaceSelector: {}, objectSelector: {}, matchPolicy: 'Equivalent' }, validations: [{ expression: 'false' }] });
  const { plugin: p } = plugin({ policies: [all], bindings: [binding('b', 'all')] });
  for (const resource of ['validatingadmissionpolicies', 'validatingadmissionpolicybindings', 'validatingwebhookconfigurations', 'mutatingwebhookconfigurations']) {
    const served = { ...widgets, group: 'admissionregistration.k8s.io', resource, namespaced: false } as ServedResource;
    assert.equal(await outcome(p, attrs({ resource: served, namespace: '' })), undefined, resource);
  }
  assert.notEqual(await outcome(p, attrs()), undefined);
});

test('`request` is the webhooks` AdmissionRequest: a namespace`s own requests name it, the options carry dryRun', async () => {
  const namespaces = { group: '', version: 'v1', resource: 'namespaces', kind: 'Namespace', namespaced: false } as unknown as ServedResource;
  const nsPolicy = policy('ns', {
    matchConstraints: { resourceRules: [{ apiGroups: [''], apiVersions: ['v1'], operations: ['UPDATE'], resources: ['namespaces'] }], namespaceSelector: {}, objectSelector: {} },
    validations: [{ expression: 'request.namespace == object.metadata.name' }],
  });
  const dryPolicy = policy('dry', { validations: [{ expression: "request.options.kind == 'CreateOptions' && request.options.dryRun == ['All']" }] });
  const { plugin: p } = plugin({ policies: [nsPolicy, dryPolicy], bindings: [binding('b-ns', 'ns'), binding('b-dry', 'dry')] });
  const team = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team', labels: { a: 'b' } } };
  assert.equal(await outcome(p, attrs({ operation: 'UPDATE', resource: namespaces, namespace: '', name: 'team', object: team, oldObject: team })), undefined);
  assert.equal(await outcome(p, attrs({ dryRun: true })), undefined);
  assert.equal((await outcome(p, attrs({ dryRun: false })))?.code, 422);
});

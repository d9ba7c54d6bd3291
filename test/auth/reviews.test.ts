// The access and token reviews on their own: kube's validation messages, the attributes a review asks the
// authorizer about, the rules listing, and TokenReview's statuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reviewAttributes, reviewCreaters, type ReviewDeps } from '../../src/auth/reviews.js';
import { fixedPolicy, type RequestAttributes } from '../../src/auth/authorize.js';
import { authenticateToken, parseTokenFile } from '../../src/auth/authenticate.js';
import { StatusError } from '../../src/api/status.js';
import type { JSONObject } from '../../src/util/json.js';

const asked: RequestAttributes[] = [];
const deps: ReviewDeps = {
  authorizer: {
    authorize: (attrs) => {
      asked.push(attrs);
      return attrs.user.name === 'jane' && attrs.verb === 'get' ? { allowed: true, reason: 'jane reads' } : { allowed: false, reason: '', denied: attrs.user.name === 'mallory' };
    },
    rulesFor: fixedPolicy.rulesFor,
  },
  authenticateToken: (token, audiences) => authenticateToken(token, audiences, { tokens: parseTokenFile('t1,alice,u-1,"dev,ops"\n') }),
  apiAudiences: [],
};
const creaters = reviewCreaters(deps);
const jane = { name: 'jane', groups: ['system:authenticated'] };

async function create(kind: string, obj: JSONObject, namespace = '', user = jane): Promise<JSONObject> {
  return creaters.get(kind)!({ user, namespace }, obj);
}

async function refusal(kind: string, obj: JSONObject, namespace = ''): Promise<StatusError> {
  try {
    await create(kind, obj, namespace);
  } catch (e) {
    assert.ok(e instanceof StatusError);
    return e;
  }
  assert.fail(`${kind} was accepted`);
}

test('SelfSubjectAccessReview: the requester, resource attributes with an empty version meaning all; the status', async () => {
  asked.length = 0;
  const out = await create('SelfSubjectAccessReview', { spec: { resourceAttributes: { verb: 'get', resource: 'pods', namespace: 'ns1' } } });
  assert.deepEqual(out['status'], { allowed: true, reason: 'jane reads' });
  assert.deepEqual(asked[0], { user: jane, verb: 'get', isResourceRequest: true, path: '', group: '', version: '*', resource: 'pods', subresource: '', namespace: 'ns1', name: '' });
  const nonResource = await create('SelfSubjectAccessReview', { spec: { nonResourceAttributes: { verb: 'post', path: '/x' } } });
  assert.deepEqual(nonResource['status'], { allowed: false });
  assert.deepEqual(reviewAttributes(jane, { nonResourceAttributes: { verb: 'get', path: '/healthz' } }).path, '/healthz');
});

test('validation: kube\'s messages, under the internal object\'s empty kind', async () => {
  const none = await refusal('SelfSubjectAccessReview', { spec: {} });
  assert.equal(none.code, 422);
  assert.equal(none.status.message, '.authorization.k8s.io "" is invalid: spec.resourceAttributes: Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified');
  assert.deepEqual(none.status.details, {
    group: 'authorization.k8s.io',
    causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "null": exactly one of nonResourceAttributes or resourceAttributes must be specified', field: 'spec.resourceAttributes' }],
  });
  const both = await refusal('SubjectAccessReview', { spec: { resourceAttributes: { verb: 'get' }, nonResourceAttributes: { path: '/x', verb: 'get' } } });
  assert.equal(
    both.status.message,
    '.authorization.k8s.io "" is invalid: [spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: cannot be specified in combination with resourceAttributes, spec.user: Invalid value: "": at least one of user or group must be specified]',
  );
  const named = await refusal('SelfSubjectAccessReview', { metadata: { name: 'x' }, spec: { resourceAttributes: {} } });
  assert.match(named.status.message ?? '', /^\.authorization\.k8s\.io "" is invalid: metadata: Invalid value: v1\.ObjectMeta\{Name:"x", GenerateName:"", .*\}: must be empty$/);
  const selector = await refusal('SelfSubjectAccessReview', { spec: { resourceAttributes: { fieldSelector: {}, labelSelector: { rawSelector: 'a=b', requirements: [{ key: 'a', operator: 'Exists' }] } } } });
  assert.equal(
    selector.status.message,
    '.authorization.k8s.io "" is invalid: [spec.resourceAttributes.fieldSelector.requirements: Required value: when spec.resourceAttributes.fieldSelector is specified, requirements or rawSelector is required, spec.resourceAttributes.labelSelector.rawSelector: Invalid value: "a=b": may not specified at the same time as requirements]',
  );
});

test('SubjectAccessReview and LocalSubjectAccessReview ask about the user the spec names, nothing added', async () => {
  asked.length = 0;
  const sar = await create('SubjectAccessReview', { spec: { user: 'mallory', groups: ['g'], uid: 'u', extra: { scopes: ['a'] }, resourceAttributes: { verb: 'get', resource: 'pods' } } });
  assert.deepEqual(sar['status'], { allowed: false, denied: true });
  assert.deepEqual(asked[0]!.user, { name: 'mallory', groups: ['g'], uid: 'u', extra: { scopes: ['a'] } });
  const mismatch = await refusal('LocalSubjectAccessReview', { metadata: { namespace: 'ns1' }, spec: { user: 'jane', resourceAttributes: { namespace: 'ns2', verb: 'get' } } }, 'ns1');
  assert.equal(mismatch.status.message, '.authorization.k8s.io "" is invalid: spec.resourceAttributes.namespace: Invalid value: "ns2": must match metadata.namespace');
  const nonResource = await refusal('LocalSubjectAccessReview', { metadata: { namespace: 'ns1' }, spec: { user: 'jane', nonResourceAttributes: { path: '/x', verb: 'get' } } }, 'ns1');
  assert.equal(
    nonResource.status.message,
    '.authorization.k8s.io "" is invalid: spec.nonResourceAttributes: Invalid value: authorization.NonResourceAttributes{Path:"/x", Verb:"get"}: disallowed on this kind of request',
  );
  const lsar = await create('LocalSubjectAccessReview', { metadata: { namespace: 'ns1' }, spec: { user: 'jane', resourceAttributes: { namespace: 'ns1', verb: 'get' } } }, 'ns1');
  assert.deepEqual(lsar['status'], { allowed: true, reason: 'jane reads' });
});

test('SelfSubjectRulesReview lists the authorizer\'s rules for the namespace; a namespace is required', async () => {
  const out = await create('SelfSubjectRulesReview', { spec: { namespace: 'default' } });
  assert.deepEqual(out, {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SelfSubjectRulesReview',
    metadata: {},
    spec: {},
    status: {
      resourceRules: [{ verbs: ['*'], apiGroups: ['*'], resources: ['*'] }],
      nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }],
      incomplete: false,
    },
  });
  const anonymous = fixedPolicy.rulesFor({ name: 'system:anonymous', groups: ['system:unauthenticated'] }, 'default');
  assert.deepEqual(anonymous.resourceRules, []);
  assert.deepEqual(anonymous.nonResourceRules, [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] }]);
  const missing = await refusal('SelfSubjectRulesReview', { spec: {} });
  assert.equal(missing.code, 400);
  assert.equal(missing.status.message, 'no namespace on request');
});

test('SelfSubjectReview: the requester as UserInfo', async () => {
  const out = await create('SelfSubjectReview', {}, '', { name: 'jane', groups: ['a', 'system:authenticated'], uid: 'u', extra: { scopes: ['x'] } } as typeof jane);
  assert.deepEqual(out['status'], { userInfo: { username: 'jane', uid: 'u', groups: ['a', 'system:authenticated'], extra: { scopes: ['x'] } } });
  assert.match(String((out['metadata'] as JSONObject)['creationTimestamp']), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
});

test('TokenReview: a known token authenticates with system:authenticated; an unknown one is kube\'s error; none is a 400', async () => {
  const ok = await create('TokenReview', { spec: { token: 't1' } });
  assert.deepEqual(ok['status'], { authenticated: true, user: { username: 'alice', uid: 'u-1', groups: ['dev', 'ops', 'system:authenticated'] } });
  const bad = await create('TokenReview', { spec: { token: 'nope' } });
  assert.deepEqual(bad['status'], { user: {}, error: 'invalid bearer token' });
  const none = await refusal('TokenReview', { spec: {} });
  assert.equal(none.code, 400);
  assert.equal(none.status.message, 'token is required for TokenReview in authentication');
  // Static tokens are audience agnostic: with API audiences, valid for those only.
  assert.deepEqual((await authenticateToken('t1', ['api'], { tokens: parseTokenFile('t1,alice,u-1\n'), apiAudiences: ['api'] })).audiences, ['api']);
  assert.deepEqual(authenticateToken('t1', ['other'], { tokens: parseTokenFile('t1,alice,u-1\n'), apiAudiences: ['api'] }), { error: 'invalid bearer token' });
});

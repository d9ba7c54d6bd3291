// matchConditions at request time: object, oldObject and request (unset strings read as empty, as kube's typed
// AdmissionRequest does), the first false condition skipping the webhook, errors failing closed or open.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateMatchConditions } from '../../src/admission/webhook-match-conditions.js';
import { celAdmissionRequest } from '../../src/admission/webhook-review.js';
import type { AdmissionAttributes } from '../../src/registry/admission.js';
import type { ServedResource } from '../../src/api/resource.js';
import type { JSONObject } from '../../src/util/json.js';
import { AuthorizerValue, requestResourceCheck, type AuthorizeFn } from '../../src/cel/lib/authz.js';

const clusterThings = { group: 'example.com', version: 'v1', resource: 'things', kind: 'Thing', namespaced: false } as ServedResource;
const attrs: AdmissionAttributes = {
  operation: 'CREATE',
  resource: clusterThings,
  subresource: '',
  namespace: '',
  name: '',
  object: { metadata: { generateName: 'thing-', labels: { tier: 'gold' } }, spec: { size: 3 } },
  dryRun: false,
  user: { name: 'alice', groups: ['devs', 'system:authenticated'] },
};
const inv = { resource: { group: 'example.com', version: 'v1', resource: 'things' }, kind: { group: 'example.com', version: 'v1', kind: 'Thing' }, object: attrs.object };
// alice may create things and read secrets in team-a, nothing else.
const authorize: AuthorizeFn = (r) =>
  (r.verb === 'create' && r.resource === 'things') || (r.verb === 'get' && r.resource === 'secrets' && r.namespace === 'team-a')
    ? { decision: 'allow', reason: '' }
    : { decision: 'noOpinion', reason: '' };
const authorizer = new AuthorizerValue(attrs.user!, authorize);
const requestResource = requestResourceCheck(authorizer, { group: 'example.com', version: 'v1', resource: 'things', subresource: '', namespace: '', name: '' });
const vars = { object: attrs.object, oldObject: undefined, request: celAdmissionRequest(attrs, inv), authorizer, requestResource };
const hook = (failurePolicy: string, ...expressions: string[]): JSONObject => ({ failurePolicy, matchConditions: expressions.map((expression, i) => ({ name: `c${i}`, expression })) });

test('conditions see object, oldObject and request; unset request strings are empty', () => {
  assert.deepEqual(
    evaluateMatchConditions(
      hook('Fail', "request.namespace == '' && request.name == ''", "request.userInfo.groups.exists(g, g == 'devs')", 'oldObject == null', "object.metadata.labels.tier == 'gold'", 'object.spec.size > 2', "request.kind.kind == 'Thing' && request.operation == 'CREATE'"),
      vars,
    ),
    { matches: true },
  );
  assert.deepEqual(evaluateMatchConditions(hook('Fail', 'true', 'object.spec.size > 5'), vars), { matches: false });
  assert.deepEqual(evaluateMatchConditions({}, vars), { matches: true });
});

test('errors fail closed (with kube\'s text, several aggregated) or, under Ignore, skip the webhook', () => {
  assert.deepEqual(evaluateMatchConditions(hook('Fail', 'object.spec.missing == 1'), vars), { error: "expression 'object.spec.missing == 1' resulted in error: no such key: missing" });
  assert.deepEqual(evaluateMatchConditions(hook('Fail', 'object.spec.a == 1', 'object.spec.b == 1'), vars), {
    error: "[expression 'object.spec.a == 1' resulted in error: no such key: a, expression 'object.spec.b == 1' resulted in error: no such key: b]",
  });
  // A false condition wins over an error in another.
  assert.deepEqual(evaluateMatchConditions(hook('Fail', 'object.spec.a == 1', 'false'), vars), { matches: false });
  assert.deepEqual(evaluateMatchConditions(hook('Ignore', 'object.spec.missing == 1'), vars), { matches: false });
});

test('authorizer and authorizer.requestResource: checks of the requester, as in ValidatingAdmissionPolicy', () => {
  assert.deepEqual(evaluateMatchConditions(hook('Fail', "authorizer.requestResource.check('create').allowed()"), vars), { matches: true });
  assert.deepEqual(evaluateMatchConditions(hook('Fail', "authorizer.requestResource.check('delete').allowed()"), vars), { matches: false });
  assert.deepEqual(evaluateMatchConditions(hook('Fail', "authorizer.group('').resource('secrets').namespace('team-a').check('get').allowed()"), vars), { matches: true });
  assert.deepEqual(evaluateMatchConditions(hook('Fail', "authorizer.group('').resource('secrets').namespace('team-b').check('get').allowed()"), vars), { matches: false });
});

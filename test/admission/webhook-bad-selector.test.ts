// A stored webhook whose selector does not parse (written before validation caught it, or straight to storage)
// fails only the requests its rules match, with kube's internal error; every other request goes through.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validatingWebhooks, type WebhookDependencies } from '../../src/admission/webhooks.js';
import type { AdmissionAttributes } from '../../src/registry/admission.js';
import type { ServedResource } from '../../src/api/resource.js';
import * as S from '../../src/api/status.js';
import { objectSelectorMatches } from '../../src/admission/webhook-rules.js';

const served = (resource: string): ServedResource => ({ group: 'example.com', version: 'v1', resource, kind: 'Thing', namespaced: true }) as ServedResource;
const attrs = (resource: string): AdmissionAttributes => ({
  operation: 'CREATE',
  resource: served(resource),
  subresource: '',
  namespace: 'default',
  name: 'x',
  object: { metadata: { name: 'x', namespace: 'default' } },
  dryRun: false,
  user: { name: 'alice', groups: [] },
});
const deps: WebhookDependencies = {
  resolver: () => {
    throw new Error('no webhook is to be called');
  },
  namespaceLabels: async () => ({}),
  equivalents: () => [],
  convert: async (o) => o,
};
const rules = [{ operations: ['CREATE'], apiGroups: ['example.com'], apiVersions: ['v1'], resources: ['things'] }];
const bad = { matchExpressions: [{ key: 'a', operator: 'operatorValue', values: ['x'] }] };

for (const which of ['objectSelector', 'namespaceSelector']) {
  test(`a ${which} that does not parse fails matching requests with an internal error, and no others`, async () => {
    const plugin = validatingWebhooks(() => [{ uid: 'c/w/0', hook: { name: 'w.example.com', rules, [which]: bad, clientConfig: { url: 'https://127.0.0.1:1/' }, sideEffects: 'None', admissionReviewVersions: ['v1'] } }], deps);
    await plugin.validate!(attrs('others'));
    await assert.rejects(async () => plugin.validate!(attrs('things')), (e: unknown) => {
      assert.ok(e instanceof S.StatusError);
      assert.equal(e.code, 500);
      assert.equal(e.status.message, 'Internal error occurred: "operatorValue" is not a valid label selector operator');
      return true;
    });
  });
}

test('objectSelectorMatches says why a selector does not parse', () => {
  assert.deepEqual(objectSelectorMatches({ objectSelector: bad }, {}, undefined), { error: '"operatorValue" is not a valid label selector operator' });
});

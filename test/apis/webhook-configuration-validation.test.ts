// kube's validation of webhook configurations (pkg/apis/admissionregistration/validation/validation_test.go
// cases): field paths and messages, v1 defaults, and the relaxations of updates.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { validateWebhookConfiguration, validateWebhookConfigurationUpdate } from '../../src/apis/admissionregistration/v1/webhook-validation.js';
import { setWebhookConfigurationDefaults } from '../../src/apis/admissionregistration/v1/webhook-defaults.js';
import { fieldErrorString } from '../../src/api/field-error.js';
import type { JSONObject } from '../../src/util/json.js';

const hook = (h: JSONObject = {}): JSONObject => ({
  name: 'webhook.k8s.io',
  clientConfig: { url: 'https://example.com/hook' },
  rules: [{ operations: ['CREATE'], apiGroups: ['a'], apiVersions: ['a'], resources: ['a'] }],
  sideEffects: 'None',
  admissionReviewVersions: ['v1'],
  ...h,
});
const config = (...hooks: JSONObject[]): JSONObject => ({ metadata: { name: 'config' }, webhooks: hooks });
const errors = (obj: JSONObject, mutating = false): string[] => {
  setWebhookConfigurationDefaults(obj, mutating);
  return validateWebhookConfiguration(obj, mutating).map(fieldErrorString);
};

test('v1 defaults', () => {
  const obj = config(hook({ clientConfig: { service: { namespace: 'ns', name: 'svc' } } }));
  setWebhookConfigurationDefaults(obj, true);
  const h = (obj['webhooks'] as JSONObject[])[0]!;
  assert.equal(h['failurePolicy'], 'Fail');
  assert.equal(h['matchPolicy'], 'Equivalent');
  assert.deepEqual(h['namespaceSelector'], {});
  assert.deepEqual(h['objectSelector'], {});
  assert.equal(h['timeoutSeconds'], 10);
  assert.equal(h['reinvocationPolicy'], 'Never');
  assert.equal((h['rules'] as JSONObject[])[0]!['scope'], '*');
  assert.equal(((h['clientConfig'] as JSONObject)['service'] as JSONObject)['port'], 443);
  assert.equal(h['sideEffects'], 'None');
});

test('a valid configuration has no errors', () => {
  assert.deepEqual(errors(config(hook(), hook({ name: 'other.k8s.io' }))), []);
  assert.deepEqual(errors(config(hook({ reinvocationPolicy: 'IfNeeded' })), true), []);
});

test('webhook names: fully qualified, unique', () => {
  assert.deepEqual(errors(config(hook({ name: 'k8s.io' }))), ['webhooks[0].name: Invalid value: "k8s.io": should be a domain with at least three segments separated by dots']);
  assert.deepEqual(errors(config(hook({ name: '' }))), ['webhooks[0].name: Required value']);
  assert.deepEqual(errors(config(hook(), hook())), ['webhooks[1].name: Duplicate value: "webhook.k8s.io"']);
});

test('rules: operations, groups, versions, resources and scope', () => {
  const r = (rule: JSONObject) => errors(config(hook({ rules: [{ operations: ['CREATE'], apiGroups: ['a'], apiVersions: ['a'], resources: ['a'], ...rule }] })));
  assert.deepEqual(r({ operations: [] }), ['webhooks[0].rules[0].operations: Required value']);
  assert.deepEqual(r({ operations: ['PATCH'] }), [
    'webhooks[0].rules[0].operations[0]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
  ]);
  assert.deepEqual(r({ operations: ['*', 'CREATE'] }), [
    `webhooks[0].rules[0].operations: Invalid value: []admissionregistration.OperationType{"*", "CREATE"}: if '*' is present, must not specify other operations`,
  ]);
  assert.deepEqual(r({ apiGroups: ['*', 'a'] }), [`webhooks[0].rules[0].apiGroups: Invalid value: []string{"*", "a"}: if '*' is present, must not specify other API groups`]);
  assert.deepEqual(r({ apiVersions: [] }), ['webhooks[0].rules[0].apiVersions: Required value']);
  assert.deepEqual(r({ apiVersions: [''] }), ['webhooks[0].rules[0].apiVersions[0]: Required value']);
  assert.deepEqual(r({ resources: ['*/*', 'a'] }), [`webhooks[0].rules[0].resources: Invalid value: []string{"*/*", "a"}: if '*/*' is present, must not specify other resources`]);
  assert.deepEqual(r({ resources: ['a/*', 'a/x'] }), [`webhooks[0].rules[0].resources[1]: Invalid value: "a/x": if 'a/*' is present, must not specify a/x`]);
  assert.deepEqual(r({ resources: ['*/x', 'a/x'] }), [`webhooks[0].rules[0].resources[1]: Invalid value: "a/x": if '*/x' is present, must not specify a/x`]);
  assert.deepEqual(r({ resources: ['*', 'a'] }), [`webhooks[0].rules[0].resources: Invalid value: []string{"*", "a"}: if '*' is present, must not specify other resources without subresources`]);
  assert.deepEqual(r({ resources: ['*', 'a/x'] }), []);
  assert.deepEqual(r({ scope: 'Other' }), ['webhooks[0].rules[0].scope: Unsupported value: "Other": supported values: "*", "Cluster", "Namespaced"']);
});

test('policies, side effects, timeouts, review versions', () => {
  assert.deepEqual(errors(config(hook({ failurePolicy: 'Sometimes' }))), ['webhooks[0].failurePolicy: Unsupported value: "Sometimes": supported values: "Fail", "Ignore"']);
  assert.deepEqual(errors(config(hook({ matchPolicy: 'Loose' }))), ['webhooks[0].matchPolicy: Unsupported value: "Loose": supported values: "Equivalent", "Exact"']);
  assert.deepEqual(errors(config(hook({ reinvocationPolicy: 'Always' })), true), ['webhooks[0].reinvocationPolicy: Unsupported value: "Always": supported values: "IfNeeded", "Never"']);
  assert.deepEqual(errors(config(hook({ sideEffects: undefined }))), ['webhooks[0].sideEffects: Required value: must specify one of None, NoneOnDryRun']);
  assert.deepEqual(errors(config(hook({ sideEffects: 'Some' }))), ['webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"']);
  assert.deepEqual(errors(config(hook({ timeoutSeconds: 0 }))), ['webhooks[0].timeoutSeconds: Invalid value: 0: the timeout value must be between 1 and 30 seconds']);
  assert.deepEqual(errors(config(hook({ admissionReviewVersions: [] }))), ['webhooks[0].admissionReviewVersions: Required value: must specify one of v1, v1beta1']);
  assert.deepEqual(errors(config(hook({ admissionReviewVersions: ['v1', 'v1'] }))), ['webhooks[0].admissionReviewVersions[1]: Invalid value: "v1": duplicate version']);
  assert.deepEqual(errors(config(hook({ admissionReviewVersions: ['invalid_version'] }))), [
    `webhooks[0].admissionReviewVersions[0]: Invalid value: "invalid_version": a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')`,
    'webhooks[0].admissionReviewVersions: Invalid value: []string{"invalid_version"}: must include at least one of v1, v1beta1',
  ]);
});

test('client config: exactly one of url and service; the url\'s form', () => {
  assert.deepEqual(errors(config(hook({ clientConfig: {} }))), ['webhooks[0].clientConfig: Required value: exactly one of url or service is required']);
  assert.deepEqual(errors(config(hook({ clientConfig: { url: 'http://example.com/x#frag' } }))), [
    `webhooks[0].clientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
    'webhooks[0].clientConfig.url: Invalid value: "frag": fragments are not permitted in the URL',
  ]);
  assert.deepEqual(errors(config(hook({ clientConfig: { service: { namespace: 'ns', name: 'svc', path: 'x' } } }))), [
    `webhooks[0].clientConfig.service.path: Invalid value: "x": must start with a '/'`,
    // kube drops the first character either way: "x" leaves an empty first segment.
    'webhooks[0].clientConfig.service.path: Invalid value: "x": segment[0] may not be empty',
  ]);
  // kube hands the service's name and namespace to ValidateWebhookService swapped: a missing name is reported
  // at service.namespace, a missing namespace at service.name.
  assert.deepEqual(errors(config(hook({ clientConfig: { service: { namespace: 'ns', name: '' } } }))), [
    'webhooks[0].clientConfig.service.namespace: Required value: service namespace is required',
  ]);
});

test('selectors and match conditions', () => {
  assert.deepEqual(errors(config(hook({ objectSelector: { matchExpressions: [{ key: 'a', operator: 'In' }] } }))), [
    "webhooks[0].objectSelector.matchExpressions[0].values: Required value: must be specified when `operator` is 'In' or 'NotIn'",
  ]);
  assert.deepEqual(errors(config(hook({ matchConditions: [{ name: '', expression: '' }] }))), [
    'webhooks[0].matchConditions[0].expression: Required value',
    'webhooks[0].matchConditions[0].name: Required value',
  ]);
  assert.deepEqual(errors(config(hook({ matchConditions: [{ name: 'a', expression: '"x"' }] }))), ['webhooks[0].matchConditions[0].expression: Invalid value: "\\"x\\"": must evaluate to bool']);
  assert.deepEqual(errors(config(hook({ matchConditions: [{ name: 'a', expression: 'nope == 1' }] }))), [
    "webhooks[0].matchConditions[0].expression: Invalid value: \"nope == 1\": compilation failed: ERROR: <input>:1:1: undeclared reference to 'nope' (in container '')\n | nope == 1\n | ^",
  ]);
  assert.deepEqual(errors(config(hook({ matchConditions: [{ name: 'a', expression: 'true' }, { name: 'a', expression: "request.operation == 'CREATE' && object != null && oldObject == null" }] }))), [
    'webhooks[0].matchConditions[1].name: Duplicate value: "a"',
  ]);
});

test('updates keep what the old configuration already had', () => {
  const old = config(hook({ sideEffects: 'Some', admissionReviewVersions: ['v9'] }), hook({ sideEffects: 'Unknown' }));
  setWebhookConfigurationDefaults(old, false);
  const next = structuredClone(old);
  assert.deepEqual(validateWebhookConfigurationUpdate(next, old, false).map(fieldErrorString), []);
  const fresh = config(hook({ sideEffects: 'Some' }));
  setWebhookConfigurationDefaults(fresh, false);
  assert.deepEqual(validateWebhookConfigurationUpdate(fresh, config(hook()), false).map(fieldErrorString), [
    'webhooks[0].sideEffects: Unsupported value: "Some": supported values: "None", "NoneOnDryRun"',
  ]);
});

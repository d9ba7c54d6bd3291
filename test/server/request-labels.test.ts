// The verb, scope and dry_run labels of kube's request metrics (CleanScope, CanonicalVerb, CleanVerb, cleanDryRun).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { requestInfo } from '../../src/server/request-info.js';
import { cleanDryRun, cleanScope, metricsVerb, normalizedVerb } from '../../src/server/metrics/request-labels.js';

const labels = (method: string, url: string, contentType?: string) => {
  const [path, raw = ''] = url.split('?') as [string, string?];
  const query = new URLSearchParams(raw);
  const info = requestInfo(method, path, query);
  const r = { method, info, query, contentType };
  return { scope: cleanScope(info), verb: metricsVerb(r), logged: normalizedVerb(r), dryRun: cleanDryRun(raw, query) };
};

test('verbs and scopes as kube reports them', () => {
  assert.deepEqual(labels('GET', '/api/v1/namespaces/default/pods/p'), { scope: 'resource', verb: 'GET', logged: 'GET', dryRun: '' });
  assert.deepEqual(labels('GET', '/api/v1/namespaces/default/pods'), { scope: 'namespace', verb: 'LIST', logged: 'LIST', dryRun: '' });
  assert.deepEqual(labels('GET', '/api/v1/pods'), { scope: 'cluster', verb: 'LIST', logged: 'LIST', dryRun: '' });
  assert.deepEqual(labels('GET', '/api/v1/pods?watch=true'), { scope: 'cluster', verb: 'WATCH', logged: 'WATCH', dryRun: '' });
  assert.deepEqual(labels('GET', '/api/v1/watch/namespaces/default/pods'), { scope: 'namespace', verb: 'WATCH', logged: 'LIST', dryRun: '' });
  assert.deepEqual(labels('POST', '/api/v1/namespaces/default/pods?dryRun=All'), { scope: 'resource', verb: 'POST', logged: 'POST', dryRun: 'All' });
  assert.deepEqual(labels('PATCH', '/apis/apps/v1/namespaces/d/deployments/x', 'application/apply-patch+yaml'), { scope: 'resource', verb: 'APPLY', logged: 'APPLY', dryRun: '' });
  assert.deepEqual(labels('PATCH', '/apis/apps/v1/namespaces/d/deployments/x', 'application/merge-patch+json'), { scope: 'resource', verb: 'PATCH', logged: 'PATCH', dryRun: '' });
  assert.deepEqual(labels('DELETE', '/api/v1/namespaces/default/pods'), { scope: 'namespace', verb: 'DELETE', logged: 'DELETE', dryRun: '' });
  assert.deepEqual(labels('GET', '/api/v1/namespaces/default/pods/p/log'), { scope: 'resource', verb: 'CONNECT', logged: 'CONNECT', dryRun: '' });
  assert.deepEqual(labels('OPTIONS', '/api/v1/pods'), { scope: 'cluster', verb: 'other', logged: 'OPTIONS', dryRun: '' });
  assert.deepEqual(labels('GET', '/healthz'), { scope: '', verb: 'GET', logged: 'GET', dryRun: '' });
});

test('dry_run: "" without it, the values sorted once, "invalid" for anything but All', () => {
  assert.equal(labels('POST', '/api/v1/namespaces/d/configmaps?dryRun=All&dryRun=All').dryRun, 'All');
  assert.equal(labels('POST', '/api/v1/namespaces/d/configmaps?dryRun=true').dryRun, 'invalid');
});

// Audit logging end to end: a server started with a policy file and a log path, kubectl as the admin, as a
// token-file user refused by RBAC, impersonating, and watching; then the log's audit.k8s.io/v1 Events.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as https from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseTokenFile } from '../../src/auth/authenticate.js';
import { ensureCertificates } from '../../src/auth/certs.js';
import { requireKubectl, startTestServer } from './harness.js';
import { startAdmissionWebhook } from '../fixtures/admission-webhook.js';

requireKubectl();

interface AuditEvent {
  kind: string;
  apiVersion: string;
  level: string;
  auditID: string;
  stage: string;
  requestURI: string;
  verb: string;
  user: { username?: string; groups?: string[] };
  impersonatedUser?: { username: string; groups?: string[] };
  sourceIPs: string[];
  userAgent?: string;
  objectRef?: Record<string, string>;
  responseStatus?: { metadata: object; code: number; status?: string; reason?: string; message?: string };
  requestObject?: Record<string, unknown>;
  responseObject?: Record<string, unknown>;
  requestReceivedTimestamp: string;
  stageTimestamp: string;
  annotations?: Record<string, string>;
}

const POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: []
rules:
- level: None
  nonResourceURLs: ["/openapi*", "/api", "/apis", "/apis/*", "/version"]
- level: RequestResponse
  resources:
  - group: ""
    resources: ["configmaps"]
- level: Request
  resources:
  - group: ""
    resources: ["secrets"]
  omitStages: [RequestReceived]
- level: Metadata
`;

function rawRequest(url: string, ca: string, headers: Record<string, string>): Promise<{ code: number; headers: Record<string, unknown> }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca, headers }, (res) => {
        res.resume();
        res.on('end', () => resolve({ code: res.statusCode ?? 0, headers: res.headers }));
      })
      .on('error', reject);
  });
}

test('kubectl requests are audited as the policy selects them, in kube\'s Event form', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'audit-e2e-'));
  const logPath = join(dir, 'audit.log');
  const policyFile = join(dir, 'policy.yaml');
  writeFileSync(policyFile, POLICY);
  const t = await startTestServer({ tokens: parseTokenFile('bob-token,bob,u-bob,"team"\n'), audit: { policyFile, logPath } });
  let closed = false;
  try {
    const ca = (await ensureCertificates(t.dataDir, { hosts: ['127.0.0.1'] })).caCert;
    const caFile = t.file('ca.crt', ca);
    const bobConfig = t.file(
      'bob-kubeconfig',
      `apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "${t.url}", certificate-authority: "${caFile}"}}]\n` +
        `contexts: [{name: bob, context: {cluster: c, user: bob, namespace: default}}]\ncurrent-context: bob\nusers: [{name: bob, user: {token: bob-token}}]\n`,
    );
    const ok = async (args: string[]): Promise<string> => {
      const r = await t.kubectl(args);
      assert.equal(r.code, 0, r.stderr);
      return r.stdout;
    };
    await ok(['create', 'configmap', 'audited', '--from-literal=a=b']);
    await ok(['get', 'configmap', 'audited', '-o', 'json']);
    // A request RBAC refuses, by a token-file user.
    const denied = await new Promise<string>((resolve) =>
      execFile('kubectl', ['--kubeconfig', bobConfig, 'get', 'secrets'], { env: { ...process.env, HOME: join(t.dataDir, 'bob-home') } }, (_e, _o, stderr) => resolve(String(stderr))),
    );
    assert.match(denied, /User "bob" cannot list resource "secrets"/);
    // The admin impersonating bob (a member of system:masters may).
    await t.kubectl(['get', 'serviceaccounts', '--as', 'bob', '--as-group', 'team']);
    // A watch that the server ends after a second.
    await ok(['get', '--raw', '/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=1']);
    // A client's own Audit-ID is used and sent back; a bad token fails authentication and is audited too.
    const mine = await rawRequest(`${t.url}/api/v1/namespaces/default/secrets`, ca, { Authorization: 'Bearer bob-token', 'Audit-ID': 'my-audit-id' });
    assert.equal(mine.code, 403);
    assert.equal(mine.headers['audit-id'], 'my-audit-id');
    const bad = await rawRequest(`${t.url}/api/v1/namespaces`, ca, { Authorization: 'Bearer nope' });
    assert.equal(bad.code, 401);
    // Every response carries an Audit-Id, audited or not (kube's WithAuditInit).
    const version = await rawRequest(`${t.url}/version`, ca, {});
    assert.match(String(version.headers['audit-id']), /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    await t.close();
    closed = true;

    if (process.env.AUDIT_DEBUG) console.log(readFileSync(logPath, "utf8"));
    const events = readFileSync(logPath, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as AuditEvent);
    for (const e of events) {
      assert.equal(e.kind, 'Event');
      assert.equal(e.apiVersion, 'audit.k8s.io/v1');
      assert.match(e.stageTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      assert.match(e.requestReceivedTimestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
      assert.ok(e.sourceIPs.includes('127.0.0.1'), JSON.stringify(e));
      // The policy's None rule: no discovery or OpenAPI requests.
      assert.ok(!/^\/(openapi|api$|apis|version)/.test(e.requestURI), e.requestURI);
    }
    const key = Object.keys(events[0]!);
    assert.deepEqual(key.slice(0, 8), ['kind', 'apiVersion', 'level', 'auditID', 'stage', 'requestURI', 'verb', 'user']);

    // create configmap: both stages, the request and response objects, 201.
    const creates = events.filter((e) => e.verb === 'create' && e.objectRef?.resource === 'configmaps');
    assert.deepEqual(creates.map((e) => e.stage), ['RequestReceived', 'ResponseComplete']);
    assert.equal(creates[0]!.auditID, creates[1]!.auditID);
    const created = creates[1]!;
    assert.equal(created.level, 'RequestResponse');
    assert.equal(created.user.username, 'kubernetes-admin');
    assert.ok(created.user.groups?.includes('system:masters'));
    assert.match(created.userAgent ?? '', /^kubectl/);
    assert.deepEqual(created.objectRef, { resource: 'configmaps', namespace: 'default', apiVersion: 'v1' });
    assert.deepEqual(created.responseStatus, { metadata: {}, code: 201 });
    assert.equal(created.requestObject?.kind, 'ConfigMap');
    assert.deepEqual(created.requestObject?.data, { a: 'b' });
    assert.equal((created.responseObject?.metadata as { name: string }).name, 'audited');
    assert.equal(created.annotations?.['authorization.k8s.io/decision'], 'allow');
    assert.equal(creates[0]!.responseStatus, undefined);
    assert.equal(creates[0]!.responseObject, undefined);

    const got = events.find((e) => e.verb === 'get' && e.objectRef?.name === 'audited' && e.stage === 'ResponseComplete')!;
    assert.deepEqual(got.objectRef, { resource: 'configmaps', namespace: 'default', name: 'audited', apiVersion: 'v1' });
    assert.deepEqual(got.responseStatus, { metadata: {}, code: 200 });
    assert.equal(got.requestObject, undefined);
    assert.deepEqual(got.responseObject?.data, { a: 'b' });

    // bob's refused list: level Request with RequestReceived omitted, kube's Status fields, forbid.
    const refused = events.filter((e) => e.user.username === 'bob' && e.objectRef?.resource === 'secrets');
    assert.deepEqual(refused.map((e) => e.stage), ['ResponseComplete', 'ResponseComplete']);
    assert.equal(refused[0]!.level, 'Request');
    assert.equal(refused[0]!.verb, 'list');
    assert.deepEqual(refused[0]!.responseStatus, {
      metadata: {},
      status: 'Failure',
      message: 'secrets is forbidden: User "bob" cannot list resource "secrets" in API group "" in the namespace "default"',
      reason: 'Forbidden',
      details: { kind: 'secrets' },
      code: 403,
    });
    assert.equal(refused[0]!.annotations?.['authorization.k8s.io/decision'], 'forbid');
    assert.deepEqual(refused[0]!.user, { username: 'bob', uid: 'u-bob', groups: ['team', 'system:authenticated'] });
    assert.equal(refused[1]!.auditID, 'my-audit-id');

    // Impersonation: the authenticated user, and the one impersonated beside it.
    const imp = events.find((e) => e.objectRef?.resource === 'serviceaccounts' && e.stage === 'ResponseComplete')!;
    assert.equal(imp.user.username, 'kubernetes-admin');
    assert.deepEqual(imp.impersonatedUser, { username: 'bob', groups: ['team', 'system:authenticated'] });
    assert.equal(imp.level, 'Metadata');
    assert.equal(imp.requestObject, undefined);

    // The watch: ResponseStarted when the headers went out, ResponseComplete when it ended; no response object.
    const watch = events.filter((e) => e.verb === 'watch');
    assert.deepEqual(watch.map((e) => e.stage), ['RequestReceived', 'ResponseStarted', 'ResponseComplete']);
    assert.deepEqual(watch[1]!.responseStatus, { metadata: {}, code: 200 });
    assert.equal(watch[2]!.responseObject, undefined);

    // Failed authentication: no user, kube's message, one ResponseStarted event.
    const unauth = events.filter((e) => e.requestURI === '/api/v1/namespaces');
    assert.equal(unauth.length, 1);
    assert.equal(unauth[0]!.stage, 'ResponseStarted');
    assert.equal(unauth[0]!.auditID, bad.headers['audit-id']);
    assert.deepEqual(unauth[0]!.user, {});
    assert.deepEqual(unauth[0]!.responseStatus, { metadata: {}, message: 'Authentication failed, attempted: bearer', code: 401 });
  } finally {
    if (!closed) await t.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('admission audit annotations: a webhook\'s auditAnnotations, a ValidatingAdmissionPolicy\'s auditAnnotations and its Audit action', async () => {
  const hook = await startAdmissionWebhook();
  const dir = mkdtempSync(join(tmpdir(), 'audit-e2e-'));
  const logPath = join(dir, 'audit.log');
  const policyFile = join(dir, 'policy.yaml');
  writeFileSync(policyFile, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n  resources: [{group: "", resources: [configmaps]}]\n  verbs: [create]\n');
  const t = await startTestServer({ audit: { policyFile, logPath } });
  let closed = false;
  try {
    const apply = await t.kubectl(['apply', '-f', '-'], {
      stdin: `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: audit-cm.example.com}
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
    - {apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}
  validations:
  - expression: "!has(object.data) || !('a' in object.data) || object.data.a != 'bad'"
    message: a must not be bad
  auditAnnotations:
  - key: seen
    valueExpression: "'cm ' + object.metadata.name"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: audit-cm-binding}
spec:
  policyName: audit-cm.example.com
  validationActions: [Deny, Audit]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingWebhookConfiguration
metadata: {name: audit-hook}
webhooks:
- name: audit.hooks.example.com
  clientConfig: {url: "${hook.url('/audit')}", caBundle: ${hook.caBundle}}
  rules: [{apiGroups: [""], apiVersions: [v1], operations: [CREATE], resources: [configmaps]}]
  sideEffects: None
  admissionReviewVersions: [v1]
  failurePolicy: Fail
`,
    });
    assert.equal(apply.code, 0, apply.stderr);
    // The plugin sees the policy a moment after it is written.
    let refused = '';
    for (let i = 0; i < 50 && !refused; i++) {
      const r = await t.kubectl(['create', 'configmap', `bad-${i}`, '--from-literal=a=bad']);
      if (r.code !== 0) refused = `bad-${i}`;
      else await new Promise((res) => setTimeout(res, 50));
    }
    assert.ok(refused, 'the policy never refused a create');
    // The webhook, too, is seen a moment after it is written: create until it has been asked.
    let goodName = '';
    for (let i = 0; i < 50 && !goodName; i++) {
      const good = await t.kubectl(['create', 'configmap', `good-${i}`, '--from-literal=a=ok']);
      assert.equal(good.code, 0, good.stderr);
      if (hook.reviews.some((r) => r.review.request?.name === `good-${i}`)) goodName = `good-${i}`;
    }
    assert.ok(goodName, 'the webhook was never called');
    await t.close();
    closed = true;
    const events = readFileSync(logPath, 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as AuditEvent);
    const complete = (name: string) => events.find((e) => e.stage === 'ResponseComplete' && e.requestObject === undefined && e.requestURI.includes('configmaps') && e.annotations?.['audit-cm.example.com/seen'] === `cm ${name}`);
    const bad = complete(refused)!;
    assert.ok(bad, `no event for ${refused}`);
    assert.equal(bad.responseStatus?.code, 422);
    assert.deepEqual(JSON.parse(bad.annotations!['validation.policy.admission.k8s.io/validation_failure']!), [
      { message: 'a must not be bad', policy: 'audit-cm.example.com', binding: 'audit-cm-binding', expressionIndex: 0, validationActions: ['Deny', 'Audit'] },
    ]);
    const ok = complete(goodName)!;
    assert.ok(ok, 'no event for good');
    assert.equal(ok.responseStatus?.code, 201);
    assert.equal(ok.annotations?.['validation.policy.admission.k8s.io/validation_failure'], undefined);
    assert.equal(ok.annotations?.['authorization.k8s.io/decision'], 'allow');
    // The webhook's annotation, under the webhook's name (validating webhooks run after the policy allowed).
    assert.equal(ok.annotations?.['audit.hooks.example.com/checked'], goodName);
  } finally {
    await hook.close();
    if (!closed) await t.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('--audit-log-maxsize rotates the log into lumberjack-named backups; --audit-log-maxbackup keeps that many', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'audit-e2e-'));
  const logPath = join(dir, 'audit.log');
  const policyFile = join(dir, 'policy.yaml');
  writeFileSync(policyFile, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: RequestResponse\n  resources: [{group: "", resources: [configmaps]}]\n');
  const t = await startTestServer({ audit: { policyFile, logPath, maxSizeMB: 1, maxBackups: 1 } });
  let closed = false;
  try {
    // ~300 KB a configmap: each get's event is that big, the create's twice that.
    const r = await t.kubectl(['create', 'configmap', 'big', `--from-file=a=${t.file('big.txt', 'x'.repeat(300_000))}`]);
    assert.equal(r.code, 0, r.stderr);
    for (let i = 0; i < 6; i++) assert.equal((await t.kubectl(['get', 'configmap', 'big', '-o', 'name'])).code, 0);
    await t.close();
    closed = true;
    const files = readdirSync(dir).filter((f) => f.startsWith('audit')).sort();
    assert.equal(files.length, 2, files.join(' '));
    assert.match(files[0]!, /^audit-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.\d{3}\.log$/);
    assert.equal(files[1], 'audit.log');
    for (const f of files) {
      const text = readFileSync(join(dir, f), 'utf8');
      assert.ok(text.length <= 1024 * 1024, `${f}: ${text.length}`);
      for (const l of text.trimEnd().split('\n')) assert.equal((JSON.parse(l) as AuditEvent).kind, 'Event');
    }
  } finally {
    if (!closed) await t.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

// The audit webhook backend end to end: a server started with --audit-webhook-config-file pointing at an HTTPS
// receiver this test runs, kubectl requests, and what the receiver gets: EventLists in batches, retried after a
// 500, never holding requests when the receiver is gone (batch), failing them when it must (blocking-strict).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as https from 'node:https';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureCertificates } from '../../src/auth/certs.js';
import type { AuditFlags } from '../../src/cli/serve.js';
import { requireKubectl, startTestServer, type TestServer } from './harness.js';

requireKubectl();

interface Post {
  contentType: string | undefined;
  body: { kind: string; apiVersion: string; items: Record<string, any>[] };
  answered: number;
}

/** An HTTPS audit receiver; `answer(n)` gives the status for the n-th POST (0-based). */
async function startReceiver(dir: string, answer: (n: number) => number = () => 200) {
  const certs = await ensureCertificates(join(dir, 'receiver-pki'), { hosts: ['127.0.0.1'] });
  const posts: Post[] = [];
  const server = https.createServer({ cert: certs.serverCert, key: certs.serverKey }, (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const code = answer(posts.length);
      posts.push({ contentType: req.headers['content-type'], body: JSON.parse(Buffer.concat(chunks).toString()), answered: code });
      res.writeHead(code, { 'Content-Type': 'text/plain' }).end(code === 200 ? '' : 'receiver is down');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const kubeconfig = join(dir, 'audit-webhook.kubeconfig');
  writeFileSync(join(dir, 'receiver-ca.crt'), certs.caCert);
  // A relative CA path: resolved against the kubeconfig's folder, as client-go does.
  writeFileSync(
    kubeconfig,
    `apiVersion: v1
kind: Config
clusters:
- name: audit
  cluster: {server: "https://127.0.0.1:${port}/audit/events", certificate-authority: receiver-ca.crt}
users:
- name: apiserver
  user: {}
contexts:
- name: default
  context: {cluster: audit, user: apiserver}
current-context: default
`,
  );
  return {
    posts,
    kubeconfig,
    events: () => posts.filter((p) => p.answered === 200).flatMap((p) => p.body.items),
    close: () => new Promise<void>((r) => (server.close(() => r()), server.closeAllConnections())),
  };
}

const POLICY = `apiVersion: audit.k8s.io/v1
kind: Policy
rules:
- level: RequestResponse
  resources: [{group: "", resources: [configmaps]}]
- level: Metadata
  resources: [{group: "", resources: [secrets]}]
- level: None
`;

async function until(cond: () => boolean, what: string, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) assert.fail(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

async function withServer(audit: (dir: string) => Promise<{ flags: AuditFlags; cleanup?: () => Promise<void> }>, fn: (t: TestServer, dir: string) => Promise<void>): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'audit-webhook-'));
  const policyFile = join(dir, 'policy.yaml');
  writeFileSync(policyFile, POLICY);
  const { flags, cleanup } = await audit(dir);
  const started = await startTestServer({ audit: { policyFile, ...flags } });
  // Closing flushes the backends; a test may close early to read what they wrote.
  let closing: Promise<void> | undefined;
  const t: TestServer = { ...started, close: () => (closing ??= started.close()) };
  try {
    await fn(t, dir);
  } finally {
    await t.close();
    await cleanup?.();
    rmSync(dir, { recursive: true, force: true });
  }
}

test('batch mode: EventLists with the policy\'s stages and levels, batched, beside the log', async () => {
  let receiver!: Awaited<ReturnType<typeof startReceiver>>;
  await withServer(
    async (dir) => {
      receiver = await startReceiver(dir);
      return {
        flags: { logPath: join(dir, 'audit.log'), webhookConfigFile: receiver.kubeconfig, webhook: { batch: { maxBatchWaitMs: 300 } } },
        cleanup: () => receiver.close(),
      };
    },
    async (t, dir) => {
      assert.equal((await t.kubectl(['create', 'configmap', 'hooked', '--from-literal=a=b'])).code, 0);
      assert.equal((await t.kubectl(['create', 'secret', 'generic', 'sec', '--from-literal=k=v'])).code, 0);
      assert.equal((await t.kubectl(['get', 'configmap', 'hooked', '-o', 'name'])).code, 0);
      await until(() => receiver.events().filter((e) => e.stage === 'ResponseComplete').length >= 3, 'three ResponseComplete events');
      const posts = receiver.posts;
      for (const p of posts) {
        assert.equal(p.contentType, 'application/json');
        assert.equal(p.body.kind, 'EventList');
        assert.equal(p.body.apiVersion, 'audit.k8s.io/v1');
      }
      // Batched: the events of several requests (two stages each) arrive together, fewer POSTs than events.
      const events = receiver.events();
      assert.ok(posts.length < events.length, `${posts.length} POSTs for ${events.length} events`);
      assert.ok(posts.some((p) => p.body.items.length > 1));
      const create = events.filter((e) => e.verb === 'create' && e.objectRef?.resource === 'configmaps');
      assert.deepEqual(create.map((e) => e.stage).sort(), ['RequestReceived', 'ResponseComplete']);
      const done = create.find((e) => e.stage === 'ResponseComplete')!;
      assert.equal(done.level, 'RequestResponse');
      // As kube encodes the list: the type on the list, none on its items.
      assert.equal(done.kind, undefined);
      assert.equal(done.apiVersion, undefined);
      assert.deepEqual(Object.keys(posts[0]!.body), ['kind', 'apiVersion', 'metadata', 'items']);
      assert.equal(done.responseStatus.code, 201);
      assert.equal(done.requestObject.data.a, 'b');
      assert.equal(done.responseObject.metadata.name, 'hooked');
      const secret = events.find((e) => e.objectRef?.resource === 'secrets' && e.stage === 'ResponseComplete')!;
      assert.equal(secret.level, 'Metadata');
      assert.equal(secret.requestObject, undefined);
      // Nothing else is audited (level None).
      assert.deepEqual([...new Set(events.map((e) => e.objectRef?.resource))].sort(), ['configmaps', 'secrets']);
      // The log got the same events: both backends in the union.
      await t.close();
      const logged = readFileSync(join(dir, 'audit.log'), 'utf8').trimEnd().split('\n').map((l) => JSON.parse(l) as Record<string, any>);
      const key = (e: Record<string, any>): string => `${e.auditID}/${e.stage}`;
      assert.deepEqual(logged.map(key).sort(), receiver.events().map(key).sort());
    },
  );
});

test('a receiver answering 500 gets the same batch again after the backoff, then 200', async () => {
  let receiver!: Awaited<ReturnType<typeof startReceiver>>;
  await withServer(
    async (dir) => {
      receiver = await startReceiver(dir, (n) => (n === 0 ? 500 : 200));
      return { flags: { webhookConfigFile: receiver.kubeconfig, webhookInitialBackoffMs: 200, webhook: { mode: 'blocking' } }, cleanup: () => receiver.close() };
    },
    async (t) => {
      const started = Date.now();
      assert.equal((await t.kubectl(['create', 'configmap', 'retried'])).code, 0);
      await until(() => receiver.events().some((e) => e.stage === 'ResponseComplete'), 'the ResponseComplete event');
      const [first, second] = receiver.posts;
      assert.equal(first!.answered, 500);
      assert.equal(second!.answered, 200);
      // The first batch (RequestReceived) again, after the initial backoff (blocking: the request waited for it).
      assert.deepEqual(second!.body.items, first!.body.items);
      assert.equal(first!.body.items[0]!.stage, 'RequestReceived');
      assert.ok(Date.now() - started >= 200);
    },
  );
});

test('batch mode with the receiver gone: requests are not held; blocking-strict fails them with kube\'s 500', async (ctx) => {
  // A port with nothing behind it: every POST is refused.
  const deadDir = mkdtempSync(join(tmpdir(), 'audit-dead-'));
  ctx.after(() => rmSync(deadDir, { recursive: true, force: true }));
  const dead = await startReceiver(deadDir);
  await dead.close();
  await withServer(
    async () => ({ flags: { webhookConfigFile: dead.kubeconfig, webhookInitialBackoffMs: 50 } }),
    async (t) => {
      const started = Date.now();
      for (let i = 0; i < 3; i++) assert.equal((await t.kubectl(['create', 'configmap', `free-${i}`])).code, 0);
      // Far less than the five attempts' backoff would take to give up on the first batch.
      assert.ok(Date.now() - started < 20_000);
    },
  );
  await withServer(
    async () => ({ flags: { webhookConfigFile: dead.kubeconfig, webhookInitialBackoffMs: 20, webhook: { mode: 'blocking-strict' } } }),
    async (t) => {
      const r = await t.kubectl(['create', 'configmap', 'strict']);
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /Internal Server Error: \\?"\/api\/v1\/namespaces\/default\/configmaps[^"]*\\?": failed to store audit event/);
      // Every request the policy audits fails so, reads too.
      const get = await t.kubectl(['get', 'configmap', 'strict']);
      assert.notEqual(get.code, 0);
      assert.match(get.stderr, /failed to store audit event/);
      // Requests the policy does not audit go through.
      assert.equal((await t.kubectl(['get', 'namespaces', 'default', '-o', 'name'])).code, 0);
    },
  );
});

// The backends that wrap the log and the webhook: buffered (batch mode), truncate, blocking's ignore-errors,
// and the webhook's retry delays.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ignoreErrorsBackend, unionBackend, type AuditBackend, type AuditEvent } from '../../src/audit/backend.js';
import { bufferedBackend, WEBHOOK_BATCH_DEFAULTS } from '../../src/audit/buffered.js';
import { truncateBackend } from '../../src/audit/truncate.js';
import { retryDelays } from '../../src/audit/webhook.js';

function recorder(answer: boolean | Promise<boolean> = true): AuditBackend & { batches: AuditEvent[][] } {
  const batches: AuditEvent[][] = [];
  return { name: 'rec', batches, processEvents: (evs) => (batches.push([...evs]), answer), shutdown: async () => {} };
}

const ev = (i: number, extra: Record<string, unknown> = {}): AuditEvent => ({ kind: 'Event', level: 'Metadata', auditID: `id-${i}`, stage: 'ResponseComplete', verb: 'get', requestURI: `/x/${i}`, user: { username: 'u' }, ...extra });

test('buffered: full batches go at once, the rest after max wait; a full buffer drops with kube\'s log line and never fails', async () => {
  const rec = recorder(false);
  const logs: string[] = [];
  const b = bufferedBackend(rec, { ...WEBHOOK_BATCH_DEFAULTS, bufferSize: 5, maxBatchSize: 3, maxBatchWaitMs: 100, throttleEnable: false }, (m) => logs.push(m));
  // Six events into a buffer of five: the sixth is dropped, and the answer is still true.
  assert.equal(b.processEvents([0, 1, 2, 3, 4, 5].map((i) => ev(i))), true);
  assert.equal(logs.length, 1);
  assert.match(logs[0]!, /^Error in audit plugin 'buffered' affecting 1 audit events: audit buffer queue blocked\nImpacted events:\n.* AUDIT: id="id-5" stage="ResponseComplete" ip="<unknown>" method="get" user="u" groups="<none>" as="<self>" asgroups="<lookup>" user-agent="" namespace="<none>" uri="\/x\/5" response="<deferred>"\n$/);
  await new Promise((r) => setTimeout(r, 20));
  assert.deepEqual(rec.batches.map((x) => x.map((e) => e.auditID)), [['id-0', 'id-1', 'id-2']]);
  await new Promise((r) => setTimeout(r, 150));
  assert.deepEqual(rec.batches.map((x) => x.length), [3, 2]);
  // Shutdown sends what is left.
  b.processEvents([ev(9)]);
  await b.shutdown();
  assert.deepEqual(rec.batches.map((x) => x.length), [3, 2, 1]);
});

test('buffered: the throttle spaces batches at qps after the burst', async () => {
  const rec = recorder();
  const b = bufferedBackend(rec, { ...WEBHOOK_BATCH_DEFAULTS, maxBatchSize: 1, throttleEnable: true, throttleQPS: 20, throttleBurst: 1 }, () => {});
  const start = Date.now();
  b.processEvents([ev(0), ev(1), ev(2), ev(3)]);
  await b.shutdown();
  assert.equal(rec.batches.length, 4);
  // One at once, three more at 20 per second: at least ~150 ms.
  assert.ok(Date.now() - start >= 130, `${Date.now() - start} ms`);
});

test('truncate: a large event loses its objects and is marked; one still too large is dropped; batches are split by size', () => {
  const rec = recorder();
  const logs: string[] = [];
  const t = truncateBackend(rec, { maxEventSize: 400, maxBatchSize: 400 }, (m) => logs.push(m));
  const big = ev(1, { level: 'RequestResponse', requestObject: { data: 'x'.repeat(500) } });
  const huge = ev(2, { level: 'Metadata', requestURI: '/' + 'y'.repeat(500) });
  assert.equal(t.processEvents([big, huge, ev(3), ev(4)]), true);
  const sent = rec.batches.flat();
  assert.deepEqual(sent.map((e) => e.auditID), ['id-1', 'id-3', 'id-4']);
  assert.equal(sent[0]!.requestObject, undefined);
  assert.deepEqual(sent[0]!.annotations, { 'audit.k8s.io/truncated': 'true' });
  assert.ok(rec.batches.length >= 2, 'split into batches of at most 400 bytes');
  assert.match(logs[0]!, /^Error in audit plugin 'truncate' affecting 1 audit events: event is too large even after truncating\n/);
});

test('blocking ignores failures; blocking-strict (the bare backend) and the union report them', async () => {
  assert.equal(await ignoreErrorsBackend(recorder(Promise.resolve(false))).processEvents([ev(0)]), true);
  assert.equal(await unionBackend([recorder(true), recorder(Promise.resolve(false))]).processEvents([ev(0)]), false);
  assert.equal(unionBackend([recorder(true), recorder(true)]).processEvents([ev(0)]), true);
});

test('webhook retry delays: the initial backoff, ×1.5 each time, up to 20 % jitter, four waits for five attempts', () => {
  assert.deepEqual(retryDelays(100, () => 0), [100, 150, 225, 337.5]);
  assert.deepEqual(retryDelays(100, () => 1), [120, 180, 270, 405]);
});

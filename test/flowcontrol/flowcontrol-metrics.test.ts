// apiserver_flowcontrol_* as the queue set notes them: requests and seats waiting and executing per priority
// level and flow schema, dispatches, rejections by kube's reasons (concurrency-limit, queue-full, time-out),
// waits timed by whether the request then ran, and apiserver_current_inqueue_requests' watermark.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { QueueSet, type Ticket } from '../../src/server/flowcontrol/queue-set.js';
import { ServerMetrics } from '../../src/server/metrics/server-metrics.js';
import { parsePrometheusText, samples, total, type Family } from '../server/prometheus-text.js';

const scrape = async (m: ServerMetrics): Promise<Map<string, Family>> => parsePrometheusText(await m.expose());

test('a Reject level: dispatched and executing while it runs, refused over its limit as concurrency-limit', async () => {
  const m = new ServerMetrics(undefined, () => [{ name: 'lvl', nominal: 1, lower: 0, upper: 2, current: 1 }]);
  const qs = new QueueSet({ kind: 'reject', concurrencyLimit: 1 });
  const o = m.flowcontrol.observer('lvl', 'fs', 'mutating');
  const first = qs.start(0n, 1, undefined, o);
  assert.ok('ticket' in first);
  assert.ok('rejected' in qs.start(0n, 1, undefined, o));
  let f = await scrape(m);
  const labels = { priority_level: 'lvl', flow_schema: 'fs' };
  assert.equal(total(f, 'apiserver_flowcontrol_dispatched_requests_total', labels), 1);
  assert.equal(total(f, 'apiserver_flowcontrol_current_executing_requests', labels), 1);
  assert.equal(total(f, 'apiserver_flowcontrol_current_executing_seats', labels), 1);
  assert.equal(total(f, 'apiserver_flowcontrol_rejected_requests_total', { ...labels, reason: 'concurrency-limit' }), 1);
  assert.deepEqual(Object.keys(samples(f, 'apiserver_flowcontrol_rejected_requests_total')[0]!.labels), ['flow_schema', 'priority_level', 'reason']);
  (first as { ticket: Ticket }).ticket.finish();
  f = await scrape(m);
  assert.equal(total(f, 'apiserver_flowcontrol_current_executing_requests', labels), 0);
  assert.equal(total(f, 'apiserver_flowcontrol_current_executing_seats', labels), 0);
  // The level's seats, as the dispatcher gives them when scraped.
  assert.equal(total(f, 'apiserver_flowcontrol_nominal_limit_seats', { priority_level: 'lvl' }), 1);
  assert.equal(total(f, 'apiserver_flowcontrol_upper_limit_seats', { priority_level: 'lvl' }), 2);
  assert.equal(total(f, 'apiserver_flowcontrol_current_limit_seats', { priority_level: 'lvl' }), 1);
});

test('a queuing level: waiting requests and seats, queue-full, time-out, and the in-queue watermark', async () => {
  const m = new ServerMetrics();
  const qs = new QueueSet({ kind: 'queue', concurrencyLimit: 1, queuing: { queues: 1, handSize: 1, queueLengthLimit: 1 } });
  const o = m.flowcontrol.observer('lvl', 'fs', 'readOnly');
  const labels = { priority_level: 'lvl', flow_schema: 'fs' };
  const running = qs.start(0n, 1, undefined, o);
  assert.ok('ticket' in running);
  const waiting = qs.start(0n, 1, undefined, o);
  assert.ok('waiting' in waiting);
  assert.ok('rejected' in qs.start(0n, 1, undefined, o), 'the queue holds one');
  let f = await scrape(m);
  assert.equal(total(f, 'apiserver_flowcontrol_current_inqueue_requests', labels), 1);
  assert.equal(total(f, 'apiserver_flowcontrol_current_inqueue_seats', labels), 1);
  assert.equal(total(f, 'apiserver_flowcontrol_rejected_requests_total', { ...labels, reason: 'queue-full' }), 1);
  assert.equal(total(f, 'apiserver_current_inqueue_requests', { request_kind: 'readOnly' }), 1);
  assert.equal(total(f, 'apiserver_current_inqueue_requests', { request_kind: 'mutating' }), 0);
  // Its wait runs out: taken out of the queue, refused as time-out.
  (waiting as { cancel(): void }).cancel();
  assert.equal(await (waiting as { waiting: Promise<Ticket | undefined> }).waiting, undefined);
  o.waited(0.3, false);
  f = await scrape(m);
  assert.equal(total(f, 'apiserver_flowcontrol_current_inqueue_requests', labels), 0);
  assert.equal(total(f, 'apiserver_flowcontrol_current_inqueue_seats', labels), 0);
  assert.equal(total(f, 'apiserver_flowcontrol_rejected_requests_total', { ...labels, reason: 'time-out' }), 1);
  assert.equal(total(f, 'apiserver_flowcontrol_request_wait_duration_seconds_bucket', { ...labels, execute: 'false', le: '0.2' }), 0);
  assert.equal(total(f, 'apiserver_flowcontrol_request_wait_duration_seconds_bucket', { ...labels, execute: 'false', le: '0.5' }), 1);
  // The watermark is the most that waited since the scrape before (one, until it was cancelled); then none.
  assert.equal(total(f, 'apiserver_current_inqueue_requests', { request_kind: 'readOnly' }), 1);
  assert.equal(total(await scrape(m), 'apiserver_current_inqueue_requests', { request_kind: 'readOnly' }), 0);
  // A queued request dispatched when seats come back.
  const next = qs.start(0n, 1, undefined, o);
  assert.ok('waiting' in next);
  (running as { ticket: Ticket }).ticket.finish();
  const t = await (next as { waiting: Promise<Ticket | undefined> }).waiting;
  assert.ok(t);
  f = await scrape(m);
  assert.equal(total(f, 'apiserver_flowcontrol_dispatched_requests_total', labels), 2);
  assert.equal(total(f, 'apiserver_flowcontrol_current_executing_requests', labels), 1);
  assert.equal(total(f, 'apiserver_flowcontrol_current_inqueue_requests', labels), 0);
  t.finish();
});

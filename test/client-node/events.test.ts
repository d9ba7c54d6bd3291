// Events as an operator's event recorder writes them through @kubernetes/client-node: CoreV1Api (the
// client-go record package's way: create, then a strategic merge patch of count and lastTimestamp) and
// EventsV1Api (client-go's events package: eventTime as a MicroTime, then series updates), about a CronTab.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { crontab, crontabCrd, expectStatus, installCrd, patchAs, startWithClients, GROUP, VERSION, PLURAL, API_VERSION, type Clients, type CronTab } from './helpers.js';

let c: Clients;
let events: k8s.EventsV1Api;
let target: k8s.V1ObjectReference;
const NS = 'default';

before(async () => {
  c = await startWithClients();
  events = c.kc.makeApiClient(k8s.EventsV1Api);
  await installCrd(c, crontabCrd());
  const ct = (await c.custom.createNamespacedCustomObject({ group: GROUP, version: VERSION, plural: PLURAL, namespace: NS, body: crontab('recorded') })) as CronTab;
  target = { apiVersion: API_VERSION, kind: 'CronTab', name: 'recorded', namespace: NS, uid: ct.metadata.uid! };
});
after(async () => {
  await c?.server.close();
});

test('CoreV1Api: create an event, bump its count as the record package does, find it by the involved object', async () => {
  const first = new Date('2024-05-01T10:00:00Z');
  const created = await c.core.createNamespacedEvent({
    namespace: NS,
    body: {
      metadata: { name: 'recorded.17c1', namespace: NS },
      involvedObject: target,
      reason: 'Scheduled',
      message: 'Scheduled the next run',
      type: 'Normal',
      source: { component: 'crontab-operator' },
      firstTimestamp: first,
      lastTimestamp: first,
      count: 1,
    },
  });
  assert.equal(created.metadata?.uid?.length, 36);
  assert.deepEqual({ ...created.involvedObject }, target);
  assert.equal(created.firstTimestamp?.toISOString(), '2024-05-01T10:00:00.000Z');
  assert.equal(created.eventTime, null); // a zero MicroTime
  assert.equal(created.reportingComponent, '');

  const patched = await c.core.patchNamespacedEvent(
    { name: 'recorded.17c1', namespace: NS, body: { count: 2, lastTimestamp: '2024-05-01T10:05:00Z', message: 'Scheduled the next run' } },
    patchAs('application/strategic-merge-patch+json'),
  );
  assert.equal(patched.count, 2);
  assert.equal(patched.lastTimestamp?.toISOString(), '2024-05-01T10:05:00.000Z');
  assert.equal(patched.source?.component, 'crontab-operator');

  const list = await c.core.listNamespacedEvent({
    namespace: NS,
    fieldSelector: `involvedObject.name=recorded,involvedObject.namespace=${NS},involvedObject.kind=CronTab,involvedObject.uid=${target.uid}`,
  });
  assert.deepEqual(list.items.map((e) => e.metadata?.name), ['recorded.17c1']);
  // The same object through events.k8s.io/v1.
  const v1 = await events.readNamespacedEvent({ name: 'recorded.17c1', namespace: NS });
  assert.deepEqual([v1.note, v1.deprecatedCount, v1.deprecatedSource?.component, v1.regarding?.uid], ['Scheduled the next run', 2, 'crontab-operator', target.uid]);
});

test('EventsV1Api: a new-style event with a MicroTime, its series, and the strict validation', async () => {
  const eventTime = new k8s.V1MicroTime('2024-05-01T10:00:00.250Z');
  const created = await events.createNamespacedEvent({
    namespace: NS,
    body: {
      // Named as client-go's events package names them: the object's name and the time in hex.
      metadata: { name: `recorded.${(1714557600250000000n).toString(16)}` },
      eventTime,
      reportingController: 'example.com/crontab-operator',
      reportingInstance: 'crontab-operator-0',
      action: 'Reconcile',
      reason: 'Reconciled',
      regarding: target,
      note: 'All good',
      type: 'Normal',
    },
  });
  const name = created.metadata!.name!;
  assert.equal(name, 'recorded.17cb550da5d8f280');
  // Sent with six fractional digits (V1MicroTime's toISOString); client-node hands the reply's back as a string.
  assert.equal(String(created.eventTime), '2024-05-01T10:00:00.250000Z');
  const updated = await events.patchNamespacedEvent(
    { name, namespace: NS, body: { series: { count: 2, lastObservedTime: '2024-05-01T10:06:00.000000Z' } } },
    patchAs('application/strategic-merge-patch+json'),
  );
  assert.equal(updated.series?.count, 2);
  // Core clients see the reporting controller as reportingComponent.
  const core = await c.core.readNamespacedEvent({ name, namespace: NS });
  assert.deepEqual([core.reportingComponent, core.reportingInstance, core.action, core.message, core.series?.count], [
    'example.com/crontab-operator',
    'crontab-operator-0',
    'Reconcile',
    'All good',
    2,
  ]);
  // Listed by the object it regards, in events.k8s.io's field names (client-go's events.GetFieldSelector).
  const listed = await events.listNamespacedEvent({ namespace: NS, fieldSelector: `regarding.name=recorded,regarding.namespace=${NS},regarding.kind=CronTab,regarding.uid=${target.uid}` });
  assert.deepEqual(listed.items.map((e) => e.metadata?.name).sort(), ['recorded.17c1', name]);
  const status = await expectStatus(
    events.createNamespacedEvent({ namespace: NS, body: { metadata: { name: 'incomplete' }, eventTime, regarding: target, type: 'Normal' } }),
    422,
  );
  assert.equal(
    status.message,
    'Event.events.k8s.io "incomplete" is invalid: [reportingController: Required value, reportingController: Invalid value: "": name part must be non-empty, ' +
      "reportingController: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), " +
      'reportingInstance: Required value, action: Required value, reason: Required value]',
  );
});

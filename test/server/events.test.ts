// Events through both versions kube serves them at: core/v1 and events.k8s.io/v1 over the same stored
// objects (kube's conversion), validation by the request's version with kube's messages, field selectors,
// the event printer, protobuf bodies, strategic merge patches, and expiry after --event-ttl.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, type Api } from './helpers.js';
import { envelope, int, msg, str } from '../protobuf/wire-writer.js';

let api: Api;
before(async () => {
  api = await startApi();
});
after(async () => {
  await api?.close();
});

const CORE = '/api/v1/namespaces/default/events';
const EVENTS = '/apis/events.k8s.io/v1/namespaces/default/events';
const SMP = { 'Content-Type': 'application/strategic-merge-patch+json' };
const TABLE = { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' };

/** The object without what the server generates (uid, times, resourceVersion, managed fields). */
function stable(obj: any): any {
  const { uid, resourceVersion, creationTimestamp, managedFields, ...meta } = obj.metadata;
  assert.ok(uid && resourceVersion && creationTimestamp && managedFields);
  return { ...obj, metadata: meta };
}

// In Go field order, as the server writes it.
const regarding = { kind: 'CronTab', namespace: 'default', name: 'my-cron', uid: 'u-1', apiVersion: 'stable.example.com/v1' };

const coreEvent = (name: string, extra: Record<string, unknown> = {}): any => ({
  metadata: { name },
  involvedObject: regarding,
  reason: 'Scheduled',
  message: 'Scheduled the job',
  source: { component: 'crontab-controller', host: 'node-1' },
  firstTimestamp: '2024-05-01T10:00:00Z',
  lastTimestamp: '2024-05-01T10:05:00Z',
  count: 3,
  type: 'Normal',
  ...extra,
});

const newEvent = (name: string, extra: Record<string, unknown> = {}): any => ({
  metadata: { name },
  eventTime: '2024-05-01T10:00:00.123456Z',
  reportingController: 'example.com/crontab-controller',
  reportingInstance: 'crontab-controller-7d9f',
  action: 'Schedule',
  reason: 'Scheduled',
  regarding,
  note: 'Scheduled the job',
  type: 'Normal',
  ...extra,
});

test('a core/v1 event read through events.k8s.io/v1, and the same in the other direction', async () => {
  let r = await api.req('POST', CORE, coreEvent('old-style'));
  assert.equal(r.status, 201, r.text);
  // encoding/json writes the struct members and zero times omitempty cannot leave out, and the strings without it.
  assert.deepEqual(stable(r.json), {
    kind: 'Event',
    apiVersion: 'v1',
    metadata: { name: 'old-style', namespace: 'default' },
    involvedObject: regarding,
    reason: 'Scheduled',
    message: 'Scheduled the job',
    source: { component: 'crontab-controller', host: 'node-1' },
    firstTimestamp: '2024-05-01T10:00:00Z',
    lastTimestamp: '2024-05-01T10:05:00Z',
    count: 3,
    type: 'Normal',
    eventTime: null,
    reportingComponent: '',
    reportingInstance: '',
  });
  r = await api.req('GET', `${EVENTS}/old-style`);
  assert.equal(r.status, 200, r.text);
  assert.equal(JSON.stringify(stable(r.json)), JSON.stringify({
    kind: 'Event',
    apiVersion: 'events.k8s.io/v1',
    metadata: { name: 'old-style', namespace: 'default' },
    eventTime: null,
    reason: 'Scheduled',
    regarding,
    note: 'Scheduled the job',
    type: 'Normal',
    deprecatedSource: { component: 'crontab-controller', host: 'node-1' },
    deprecatedFirstTimestamp: '2024-05-01T10:00:00Z',
    deprecatedLastTimestamp: '2024-05-01T10:05:00Z',
    deprecatedCount: 3,
  }));

  r = await api.req('POST', EVENTS, newEvent('new-style', { series: { count: 2, lastObservedTime: '2024-05-01T10:01:00.000001Z' }, related: { kind: 'Pod', name: 'p' } }));
  assert.equal(r.status, 201, r.text);
  assert.equal(JSON.stringify(stable(r.json)), JSON.stringify({
    kind: 'Event',
    apiVersion: 'events.k8s.io/v1',
    metadata: { name: 'new-style', namespace: 'default' },
    eventTime: '2024-05-01T10:00:00.123456Z',
    series: { count: 2, lastObservedTime: '2024-05-01T10:01:00.000001Z' },
    reportingController: 'example.com/crontab-controller',
    reportingInstance: 'crontab-controller-7d9f',
    action: 'Schedule',
    reason: 'Scheduled',
    regarding,
    related: { kind: 'Pod', name: 'p' },
    note: 'Scheduled the job',
    type: 'Normal',
    deprecatedSource: {},
    deprecatedFirstTimestamp: null,
    deprecatedLastTimestamp: null,
  }));
  r = await api.req('GET', `${CORE}/new-style`);
  assert.equal(JSON.stringify(stable(r.json)), JSON.stringify({
    kind: 'Event',
    apiVersion: 'v1',
    metadata: { name: 'new-style', namespace: 'default' },
    involvedObject: regarding,
    reason: 'Scheduled',
    message: 'Scheduled the job',
    source: {},
    firstTimestamp: null,
    lastTimestamp: null,
    type: 'Normal',
    eventTime: '2024-05-01T10:00:00.123456Z',
    series: { count: 2, lastObservedTime: '2024-05-01T10:01:00.000001Z' },
    action: 'Schedule',
    related: { kind: 'Pod', name: 'p' },
    reportingComponent: 'example.com/crontab-controller',
    reportingInstance: 'crontab-controller-7d9f',
  }));
  // The list of either version holds both.
  r = await api.req('GET', EVENTS);
  assert.equal(r.json.kind, 'EventList');
  assert.equal(r.json.apiVersion, 'events.k8s.io/v1');
  assert.deepEqual(r.json.items.map((e: any) => [e.metadata.name, e.apiVersion]), [['new-style', 'events.k8s.io/v1'], ['old-style', 'events.k8s.io/v1']]);
});

test('eventTime is a MicroTime: RFC3339Micro exactly, as Go parses it', async () => {
  const r = await api.req('POST', EVENTS, newEvent('bad-time', { eventTime: '2024-05-01T10:00:00Z' }));
  assert.equal(r.status, 400, r.text);
  assert.equal(
    r.json.message,
    'Event in version "v1" cannot be handled as a Event: parsing time "2024-05-01T10:00:00Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse "Z" as ".000000"',
  );
});

test('core/v1 validation: the legacy checks only', async () => {
  // The involved object's namespace must be the event's.
  let r = await api.req('POST', CORE, coreEvent('elsewhere', { involvedObject: { ...regarding, namespace: 'other' } }));
  assert.equal(r.status, 422, r.text);
  assert.equal(r.json.message, 'Event "elsewhere" is invalid: involvedObject.namespace: Invalid value: "other": does not match event.namespace');
  assert.deepEqual(r.json.details, {
    name: 'elsewhere',
    kind: 'Event',
    causes: [{ reason: 'FieldValueInvalid', message: 'Invalid value: "other": does not match event.namespace', field: 'involvedObject.namespace' }],
  });
  // An eventTime makes it a new-style event: the reporting fields and the action are required.
  r = await api.req('POST', CORE, coreEvent('half-new', { eventTime: '2024-05-01T10:00:00.000000Z', reason: '' }));
  assert.equal(r.status, 422, r.text);
  assert.equal(
    r.json.message,
    'Event "half-new" is invalid: [reportingController: Required value, reportingController: Invalid value: "": name part must be non-empty, ' +
      "reportingController: Invalid value: \"\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]'), " +
      'reportingInstance: Required value, action: Required value, reason: Required value]',
  );
  // rest.BeforeCreate checks the common metadata (a missing name) only once the legacy checks pass.
  const nameless = coreEvent('', { involvedObject: { ...regarding, namespace: 'other' } });
  r = await api.req('POST', CORE, nameless);
  assert.equal(r.status, 422, r.text);
  assert.equal(r.json.message, 'Event "" is invalid: involvedObject.namespace: Invalid value: "other": does not match event.namespace');
  r = await api.req('POST', CORE, coreEvent(''));
  assert.equal(r.status, 422, r.text);
  assert.equal(r.json.message, 'Event "" is invalid: metadata.name: Required value: name or generateName is required');
  // Without the strict checks of events.k8s.io: a type outside Normal and Warning, a name no DNS subdomain.
  r = await api.req('POST', CORE, coreEvent('Odd_Name', { type: 'Custom' }));
  assert.equal(r.status, 201, r.text);
});

test('events.k8s.io/v1 validation: the strict checks, on the core field paths', async () => {
  let r = await api.req('POST', EVENTS, { metadata: { name: 'empty' } });
  assert.equal(r.status, 422, r.text);
  assert.equal(r.json.message, 'Event.events.k8s.io "empty" is invalid: [eventTime: Required value, type: Invalid value: "": has invalid value: ]');
  r = await api.req('POST', EVENTS, newEvent('deprecated', {
    deprecatedSource: { component: 'c' },
    deprecatedFirstTimestamp: '2024-05-01T10:00:00Z',
    deprecatedCount: 2,
    series: { count: 1 },
    type: 'Fine',
    reportingController: 'bad controller',
  }));
  assert.equal(r.status, 422, r.text);
  assert.deepEqual(
    r.json.details.causes.map((c: any) => `${c.field}: ${c.message}`),
    [
      "reportingController: Invalid value: \"bad controller\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
      'series.count: Invalid value: "": should be at least 2',
      'series.lastObservedTime: Required value',
      'type: Invalid value: "": has invalid value: Fine',
      'firstTimestamp: Invalid value: "": needs to be unset',
      'count: Invalid value: "": needs to be unset',
      'source: Invalid value: "": needs to be unset',
    ],
  );
  assert.equal(r.json.details.group, 'events.k8s.io');
  // A name must be a DNS subdomain here.
  r = await api.req('POST', EVENTS, newEvent('Odd_Name2'));
  assert.equal(r.status, 422, r.text);
  assert.match(r.json.message, /^Event.events.k8s.io "Odd_Name2" is invalid: metadata.name: Invalid value: "Odd_Name2": a lowercase RFC 1123 subdomain/);
  // Updates through events.k8s.io may not change what the event says.
  r = await api.req('POST', EVENTS, newEvent('fixed'));
  assert.equal(r.status, 201, r.text);
  r = await api.req('PUT', `${EVENTS}/fixed`, { ...r.json, note: 'changed', action: 'Other' });
  assert.equal(r.status, 422, r.text);
  assert.equal(
    r.json.message,
    'Event.events.k8s.io "fixed" is invalid: [message: Invalid value: "changed": field is immutable, action: Invalid value: "Other": field is immutable]',
  );
  // Values print as field.Error prints them: structs as %#v, times by String(), integers bare, nil as "null".
  r = await api.req('POST', EVENTS, newEvent('fixed2', { related: { kind: 'Pod', name: 'p' } }));
  assert.equal(r.status, 201, r.text);
  const { related: _related, ...unrelated } = r.json;
  r = await api.req('PUT', `${EVENTS}/fixed2`, {
    ...unrelated,
    regarding: { ...regarding, name: 'other' },
    reason: 'Changed',
    deprecatedCount: 2,
    deprecatedFirstTimestamp: '2024-05-01T09:00:00Z',
    eventTime: '2024-05-01T10:00:01.500000Z',
    deprecatedSource: { host: 'h' },
  });
  assert.equal(r.status, 422, r.text);
  assert.deepEqual(r.json.details.causes.map((c: any) => `${c.field}: ${c.message}`), [
    'involvedObject: Invalid value: core.ObjectReference{Kind:"CronTab", Namespace:"default", Name:"other", UID:"u-1", APIVersion:"stable.example.com/v1", ResourceVersion:"", FieldPath:""}: field is immutable',
    'reason: Invalid value: "Changed": field is immutable',
    'source: Invalid value: core.EventSource{Component:"", Host:"h"}: field is immutable',
    'firstTimestamp: Invalid value: 2024-05-01 09:00:00 +0000 UTC: field is immutable',
    'count: Invalid value: 2: field is immutable',
    'reason: Invalid value: "Changed": field is immutable',
    'eventTime: Invalid value: 2024-05-01 10:00:01.5 +0000 UTC: field is immutable',
    'related: Invalid value: "null": field is immutable',
  ]);
  // Through core/v1 they may.
  r = await api.req('GET', `${CORE}/fixed`);
  r = await api.req('PUT', `${CORE}/fixed`, { ...r.json, message: 'changed' });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.message, 'changed');
});

test('field selectors: the involved object (as kubectl describe asks), reason, source, type, reporting component', async () => {
  await api.req('POST', CORE, coreEvent('sel-a', { involvedObject: { ...regarding, name: 'sel-target', uid: 'sel-uid' }, reason: 'Started', type: 'Warning' }));
  await api.req('POST', EVENTS, newEvent('sel-b', { regarding: { ...regarding, name: 'sel-target', uid: 'sel-uid' } }));
  const names = async (base: string, selector: string): Promise<string[]> => {
    const r = await api.req('GET', `${base}?fieldSelector=${encodeURIComponent(selector)}`);
    assert.equal(r.status, 200, r.text);
    return r.json.items.map((e: any) => e.metadata.name);
  };
  const describe = 'involvedObject.name=sel-target,involvedObject.namespace=default,involvedObject.kind=CronTab,involvedObject.uid=sel-uid';
  assert.deepEqual(await names(CORE, describe), ['sel-a', 'sel-b']);
  // events.k8s.io/v1 names them by its own fields (client-go's events.GetFieldSelector).
  assert.deepEqual(await names(EVENTS, 'regarding.name=sel-target,regarding.namespace=default,regarding.kind=CronTab,regarding.uid=sel-uid'), ['sel-a', 'sel-b']);
  assert.deepEqual(await names(CORE, 'involvedObject.name=sel-target,type=Warning'), ['sel-a']);
  assert.deepEqual(await names(CORE, 'involvedObject.name=sel-target,reason=Started'), ['sel-a']);
  // source is the component, or else the reporting controller.
  assert.deepEqual(await names(CORE, 'involvedObject.name=sel-target,source=example.com/crontab-controller'), ['sel-b']);
  assert.deepEqual(await names(CORE, 'involvedObject.name=sel-target,reportingComponent=example.com/crontab-controller'), ['sel-b']);
  assert.deepEqual(await names(EVENTS, 'regarding.name=sel-target,reportingController=example.com/crontab-controller'), ['sel-b']);
  assert.deepEqual(await names(EVENTS, 'regarding.name=sel-target,source=crontab-controller,type=Warning,reason=Started'), ['sel-a']);
  assert.deepEqual(await names(CORE, 'involvedObject.name=sel-target,metadata.name!=sel-a'), ['sel-b']);
  // Each version refuses the other's names.
  let r = await api.req('GET', `${CORE}?fieldSelector=regarding.name%3Dx`);
  assert.equal(r.status, 400);
  assert.equal(r.json.message, 'field label not supported: regarding.name');
  r = await api.req('GET', `${EVENTS}?fieldSelector=involvedObject.name%3Dx`);
  assert.equal(r.status, 400);
  assert.equal(r.json.message, 'field label not supported: involvedObject.name');
});

test('the event printer: kubectl get events, wide columns, the same through events.k8s.io', async () => {
  const old = new Date(Date.now() - 2 * 3600_000).toISOString().replace(/\.\d+Z$/, 'Z');
  const recent = new Date(Date.now() - 10 * 60_000).toISOString().replace(/\.\d+Z$/, 'Z');
  await api.req('POST', CORE, coreEvent('print-a', { involvedObject: { kind: 'CronTab', name: 'printed', namespace: 'default' }, firstTimestamp: old, lastTimestamp: recent, message: ' padded \n' }));
  const micro = new Date(Date.now() - 5 * 60_000).toISOString().replace(/Z$/, '000Z');
  await api.req('POST', EVENTS, newEvent('print-b', { regarding: { kind: 'CronTab', name: 'printed', namespace: 'default' }, eventTime: micro }));
  for (const [base, field] of [[CORE, 'involvedObject.name'], [EVENTS, 'regarding.name']] as const) {
    const r = await api.req('GET', `${base}?fieldSelector=${field}%3Dprinted`, undefined, TABLE);
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(
      r.json.columnDefinitions.map((c: any) => [c.name, c.priority, c.format]),
      [
        ['Last Seen', 0, ''],
        ['Type', 0, ''],
        ['Reason', 0, ''],
        ['Object', 0, ''],
        ['Subobject', 1, ''],
        ['Source', 1, ''],
        ['Message', 0, ''],
        ['First Seen', 1, ''],
        ['Count', 1, ''],
        ['Name', 1, 'name'],
      ],
    );
    assert.equal(r.json.columnDefinitions[0].description, 'The time at which the most recent occurrence of this event was recorded.');
    assert.deepEqual(r.json.rows.map((row: any) => row.cells), [
      ['10m', 'Normal', 'Scheduled', 'crontab/printed', '', 'crontab-controller, node-1', 'padded', '120m', 3, 'print-a'],
      ['5m', 'Normal', 'Scheduled', 'crontab/printed', '', 'example.com/crontab-controller, crontab-controller-7d9f', 'Scheduled the job', '5m', 1, 'print-b'],
    ]);
  }
});

test('a protobuf Event body, as client-go recorders send one', async () => {
  const body = envelope('v1', 'Event', [
    ...msg(1, str(1, 'proto'), str(3, 'default')),
    ...msg(2, str(1, 'CronTab'), str(2, 'default'), str(3, 'my-cron')),
    ...str(3, 'Synced'),
    ...str(4, 'synced from protobuf'),
    ...msg(5, str(1, 'controller')),
    ...msg(6, int(1, 1714557600)),
    ...int(8, 2),
    ...str(9, 'Normal'),
    ...msg(10, int(1, 1714557600), int(2, 123456789)),
    ...str(12, 'Sync'),
    ...str(14, 'example.com/ctl'),
    ...str(15, 'ctl-1'),
  ]);
  const res = await fetch(`${api.url}${CORE}`, { method: 'POST', body: new Uint8Array(body), headers: { 'Content-Type': 'application/vnd.kubernetes.protobuf' } });
  assert.equal(res.status, 201, await res.clone().text());
  const ev = stable(await res.json());
  assert.equal(JSON.stringify(ev), JSON.stringify({
    kind: 'Event',
    apiVersion: 'v1',
    metadata: { name: 'proto', namespace: 'default' },
    involvedObject: { kind: 'CronTab', namespace: 'default', name: 'my-cron' },
    reason: 'Synced',
    message: 'synced from protobuf',
    source: { component: 'controller' },
    firstTimestamp: '2024-05-01T10:00:00Z',
    lastTimestamp: null,
    count: 2,
    type: 'Normal',
    eventTime: '2024-05-01T10:00:00.123456Z',
    action: 'Sync',
    reportingComponent: 'example.com/ctl',
    reportingInstance: 'ctl-1',
  }));
});

test('a protobuf events.k8s.io/v1 Event body', async () => {
  const body = envelope('events.k8s.io/v1', 'Event', [
    ...msg(1, str(1, 'proto-v1'), str(3, 'default')),
    ...msg(2, int(1, 1714557600), int(2, 1000)),
    ...msg(3, int(1, 2), msg(2, int(1, 1714557660))),
    ...str(4, 'example.com/ctl'),
    ...str(5, 'ctl-1'),
    ...str(6, 'Sync'),
    ...str(7, 'Synced'),
    ...msg(8, str(1, 'CronTab'), str(3, 'my-cron')),
    ...str(10, 'from protobuf'),
    ...str(11, 'Warning'),
  ]);
  const res = await fetch(`${api.url}${EVENTS}`, { method: 'POST', body: new Uint8Array(body), headers: { 'Content-Type': 'application/vnd.kubernetes.protobuf' } });
  assert.equal(res.status, 201, await res.clone().text());
  assert.equal(JSON.stringify(stable(await res.json())), JSON.stringify({
    kind: 'Event',
    apiVersion: 'events.k8s.io/v1',
    metadata: { name: 'proto-v1', namespace: 'default' },
    eventTime: '2024-05-01T10:00:00.000001Z',
    series: { count: 2, lastObservedTime: '2024-05-01T10:01:00.000000Z' },
    reportingController: 'example.com/ctl',
    reportingInstance: 'ctl-1',
    action: 'Sync',
    reason: 'Synced',
    regarding: { kind: 'CronTab', name: 'my-cron' },
    note: 'from protobuf',
    type: 'Warning',
    deprecatedSource: {},
    deprecatedFirstTimestamp: null,
    deprecatedLastTimestamp: null,
  }));
});

test('strategic merge patches: the core recorder bumps the count, the events.k8s.io recorder the series', async () => {
  let r = await api.req('POST', CORE, coreEvent('patched'));
  assert.equal(r.status, 201, r.text);
  r = await api.req('PATCH', `${CORE}/patched`, { count: 4, lastTimestamp: '2024-05-01T10:06:00Z', message: 'again' }, SMP);
  assert.equal(r.status, 200, r.text);
  assert.deepEqual([r.json.count, r.json.lastTimestamp, r.json.message, r.json.source], [4, '2024-05-01T10:06:00Z', 'again', { component: 'crontab-controller', host: 'node-1' }]);
  r = await api.req('POST', EVENTS, newEvent('series'));
  assert.equal(r.status, 201, r.text);
  r = await api.req('PATCH', `${EVENTS}/series`, { series: { count: 2, lastObservedTime: '2024-05-01T10:09:00.000000Z' } }, SMP);
  assert.equal(r.status, 200, r.text);
  assert.deepEqual(r.json.series, { count: 2, lastObservedTime: '2024-05-01T10:09:00.000000Z' });
  // A series that does not make sense is refused on update too.
  r = await api.req('PATCH', `${EVENTS}/series`, { series: { count: 1 } }, SMP);
  assert.equal(r.status, 422, r.text);
  assert.equal(r.json.message, 'Event.events.k8s.io "series" is invalid: series.count: Invalid value: "": should be at least 2');
});

test('discovery: both resources, short name ev, the storage version hash of core/v1 Event for both', async () => {
  for (const path of ['/api/v1', '/apis/events.k8s.io/v1']) {
    const r = await api.req('GET', path);
    const ev = r.json.resources.find((x: any) => x.name === 'events');
    assert.deepEqual(ev, {
      name: 'events',
      singularName: 'event',
      namespaced: true,
      kind: 'Event',
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: ['ev'],
      storageVersionHash: 'r2yiGXH7wu8=',
    });
  }
});

test('deleting a namespace deletes its events', async () => {
  assert.equal((await api.req('POST', '/api/v1/namespaces', { metadata: { name: 'ev-ns' } })).status, 201);
  const r = await api.req('POST', '/apis/events.k8s.io/v1/namespaces/ev-ns/events', newEvent('doomed', { regarding: { ...regarding, namespace: 'ev-ns' } }));
  assert.equal(r.status, 201, r.text);
  assert.equal((await api.req('DELETE', '/api/v1/namespaces/ev-ns')).status, 200);
  for (let i = 0; i < 100 && (await api.req('GET', '/api/v1/namespaces/ev-ns')).status !== 404; i++) await new Promise((res) => setTimeout(res, 100));
  assert.equal((await api.req('GET', '/api/v1/namespaces/ev-ns')).status, 404);
  assert.equal((await api.req('GET', '/api/v1/namespaces/ev-ns/events/doomed')).status, 404);
});

test('server-side apply across the two versions: managers of either are read through the other', async () => {
  let r = await api.req('POST', `${CORE}?fieldManager=creator`, coreEvent('applied', { metadata: { name: 'applied', labels: { a: 'b' } } }));
  assert.equal(r.status, 201, r.text);
  const apply = (force: boolean): Promise<any> =>
    api.req(
      'PATCH',
      `${EVENTS}/applied?fieldManager=applier${force ? '&force=true' : ''}`,
      JSON.stringify({ apiVersion: 'events.k8s.io/v1', kind: 'Event', metadata: { name: 'applied', labels: { a: 'c' } } }),
      { 'Content-Type': 'application/apply-patch+yaml' },
    );
  r = await apply(false);
  assert.equal(r.status, 409, r.text);
  assert.equal(r.json.message, 'Apply failed with 1 conflict: conflict with "creator" using v1: .metadata.labels.a');
  r = await apply(true);
  assert.equal(r.status, 200, r.text);
  // The label moved to the applier; the creator keeps the rest (and the labels map itself).
  assert.deepEqual(r.json.metadata.managedFields[1].fieldsV1['f:metadata'], { 'f:labels': {} });
  assert.deepEqual(
    r.json.metadata.managedFields.map((m: any) => [m.manager, m.operation, m.apiVersion, Object.keys(m.fieldsV1)]),
    [
      ['applier', 'Apply', 'events.k8s.io/v1', ['f:metadata']],
      ['creator', 'Update', 'v1', ['f:count', 'f:firstTimestamp', 'f:involvedObject', 'f:lastTimestamp', 'f:message', 'f:metadata', 'f:reason', 'f:source', 'f:type']],
    ],
  );
});

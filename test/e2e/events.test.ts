// Events about a custom resource through kubectl 1.32: `kubectl describe crontab` lists them under Events
// (its field selector on involvedObject), `kubectl get events` prints kube's event columns, `kubectl events`
// (which lists core/v1 events) and the events.k8s.io/v1 resource show the same objects.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { requireKubectl, startTestServer, squeeze, type TestServer } from './harness.js';

const fixture = (name: string): string => readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8');
const ago = (ms: number, micro = false): string => {
  const iso = new Date(Date.now() - ms).toISOString();
  return micro ? iso.replace(/Z$/, '000Z') : iso.replace(/\.\d+Z$/, 'Z');
};

let s: TestServer;
let uid = '';
before(async () => {
  requireKubectl();
  s = await startTestServer();
  let r = await s.kubectl(['apply', '-f', s.file('crd.yaml', fixture('crontab-crd.yaml'))]);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/crontabs.stable.example.com']);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['apply', '-f', s.file('crontab.yaml', fixture('my-crontab.yaml'))]);
  assert.equal(r.code, 0, r.stderr);
  uid = (await s.kubectl(['get', 'crontab', 'my-new-cron-object', '-o', 'jsonpath={.metadata.uid}'])).stdout;
  // A controller's old-style event (counted, an hour of occurrences), and a new-style one through events.k8s.io.
  // (Ages of ten minutes and more print without seconds.)
  const coreEvent = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'my-new-cron-object.scheduled' },
    involvedObject: { apiVersion: 'stable.example.com/v1', kind: 'CronTab', name: 'my-new-cron-object', namespace: 'default', uid },
    reason: 'Scheduled',
    message: 'Scheduled the next run',
    type: 'Normal',
    source: { component: 'crontab-controller' },
    firstTimestamp: ago(60 * 60_000),
    lastTimestamp: ago(10 * 60_000),
    count: 4,
  };
  r = await s.kubectl(['create', '-f', '-'], { stdin: JSON.stringify(coreEvent) });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'event/my-new-cron-object.scheduled created\n');
  const newEvent = {
    apiVersion: 'events.k8s.io/v1',
    kind: 'Event',
    metadata: { name: 'my-new-cron-object.failed' },
    eventTime: ago(20 * 60_000, true),
    reportingController: 'example.com/crontab-controller',
    reportingInstance: 'crontab-controller-0',
    action: 'Run',
    reason: 'BackOff',
    regarding: { apiVersion: 'stable.example.com/v1', kind: 'CronTab', name: 'my-new-cron-object', namespace: 'default', uid },
    note: 'Image pull failed',
    type: 'Warning',
  };
  r = await s.kubectl(['create', '-f', '-'], { stdin: JSON.stringify(newEvent) });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'event.events.k8s.io/my-new-cron-object.failed created\n');
  // An event about something else, which the describe leaves out.
  r = await s.kubectl(['create', '-f', '-'], {
    stdin: JSON.stringify({ ...coreEvent, metadata: { name: 'other.1' }, involvedObject: { kind: 'CronTab', name: 'other', namespace: 'default' } }),
  });
  assert.equal(r.code, 0, r.stderr);
});
after(async () => {
  await s?.close();
});

test('kubectl describe crontab lists its events', async () => {
  const r = await s.kubectl(['describe', 'crontab', 'my-new-cron-object']);
  assert.equal(r.code, 0, r.stderr);
  const events = r.stdout.slice(r.stdout.indexOf('Events:'));
  assert.equal(
    events,
    'Events:\n' +
      '  Type     Reason     Age                From                            Message\n' +
      '  ----     ------     ----               ----                            -------\n' +
      '  Warning  BackOff    20m                example.com/crontab-controller  Image pull failed\n' +
      '  Normal   Scheduled  10m (x4 over 60m)  crontab-controller              Scheduled the next run\n',
  );
});

test('kubectl get events: the event printer, wide, and through events.k8s.io', async () => {
  let r = await s.kubectl(['get', 'events', '--sort-by', '.metadata.name']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    squeeze(r.stdout),
    [
      'LAST SEEN TYPE REASON OBJECT MESSAGE',
      '20m Warning BackOff crontab/my-new-cron-object Image pull failed',
      '10m Normal Scheduled crontab/my-new-cron-object Scheduled the next run',
      '10m Normal Scheduled crontab/other Scheduled the next run',
    ].join('\n'),
  );
  r = await s.kubectl(['get', 'ev', '-o', 'wide', '--field-selector', 'involvedObject.name=my-new-cron-object', '--sort-by', '.metadata.name']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    squeeze(r.stdout),
    [
      'LAST SEEN TYPE REASON OBJECT SUBOBJECT SOURCE MESSAGE FIRST SEEN COUNT NAME',
      '20m Warning BackOff crontab/my-new-cron-object example.com/crontab-controller, crontab-controller-0 Image pull failed 20m 1 my-new-cron-object.failed',
      '10m Normal Scheduled crontab/my-new-cron-object crontab-controller Scheduled the next run 60m 4 my-new-cron-object.scheduled',
    ].join('\n'),
  );
  // Both resources answer to the short name ev; kubectl warns that it picked the core one.
  assert.equal(r.stderr, 'Warning: short name "ev" could also match lower priority resource events.events.k8s.io\n');
  r = await s.kubectl(['get', 'events.events.k8s.io', 'my-new-cron-object.scheduled', '-o', 'jsonpath={.regarding.name} {.note} {.deprecatedCount} {.deprecatedSource.component}']);
  assert.equal(r.stdout, 'my-new-cron-object Scheduled the next run 4 crontab-controller');
  r = await s.kubectl(['get', 'events', 'my-new-cron-object.failed', '-o', 'jsonpath={.involvedObject.name} {.message} {.reportingComponent} {.eventTime}']);
  assert.match(r.stdout, /^my-new-cron-object Image pull failed example\.com\/crontab-controller \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
});

test('kubectl events, for the namespace and for the custom resource', async () => {
  let r = await s.kubectl(['events']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(
    squeeze(r.stdout),
    [
      'LAST SEEN TYPE REASON OBJECT MESSAGE',
      '20m Warning BackOff CronTab/my-new-cron-object Image pull failed',
      '10m (x4 over 60m) Normal Scheduled CronTab/my-new-cron-object Scheduled the next run',
      '10m (x4 over 60m) Normal Scheduled CronTab/other Scheduled the next run',
    ].join('\n'),
  );
  r = await s.kubectl(['events', '--for', 'crontab/my-new-cron-object', '--types', 'Warning']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(squeeze(r.stdout), 'LAST SEEN TYPE REASON OBJECT MESSAGE\n20m Warning BackOff CronTab/my-new-cron-object Image pull failed');
});

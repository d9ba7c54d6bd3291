// events.k8s.io/v1beta1 through real clients, as kube-apiserver 1.33 answers them: not served (removed in
// 1.25). kubectl 1.32 finds only events.k8s.io/v1 in discovery, so a v1beta1 manifest has no mapping and the
// raw path is NotFound; the python client's EventsV1beta1Api (generated from kube 1.22's spec) gets 404 on every
// call while EventsV1Api keeps working. Both fail loudly when missing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { requireKubectl, startTestServer, type TestServer } from './harness.js';

const SCRIPT = fileURLToPath(new URL('../fixtures/python-events-v1beta1.py', import.meta.url));
// Debian's interpreter, where python3-kubernetes is installed (a python3 earlier on PATH may be another one).
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

let s: TestServer;
before(async () => {
  requireKubectl();
  const probe = await promisify(execFile)(PYTHON, ['-c', 'from kubernetes.client import EventsV1beta1Api']).catch((e: Error) => e);
  if (probe instanceof Error) throw new Error(`python3-kubernetes with EventsV1beta1Api is required by this test (apt-get install -y python3-kubernetes): ${probe.message}`);
  s = await startTestServer();
});
after(async () => {
  await s?.close();
});

const v1beta1Event = {
  apiVersion: 'events.k8s.io/v1beta1',
  kind: 'Event',
  metadata: { name: 'old-style', namespace: 'default' },
  eventTime: '2024-05-01T10:00:00.000000Z',
  reportingController: 'example.com/old',
  reportingInstance: 'old-0',
  action: 'Run',
  reason: 'Ran',
  regarding: { kind: 'ConfigMap', name: 'c', namespace: 'default' },
  type: 'Normal',
};

test('kubectl: discovery has events.k8s.io/v1 only', async () => {
  const versions = await s.kubectl(['api-versions']);
  assert.equal(versions.code, 0, versions.stderr);
  const lines = versions.stdout.trim().split('\n');
  assert.ok(lines.includes('events.k8s.io/v1'), versions.stdout);
  assert.ok(!lines.includes('events.k8s.io/v1beta1'), versions.stdout);
  const resources = await s.kubectl(['api-resources', '--api-group=events.k8s.io', '--no-headers', '-o', 'name']);
  assert.equal(resources.code, 0, resources.stderr);
  assert.equal(resources.stdout, 'events.events.k8s.io\n');
});

test('kubectl: the v1beta1 resource and kind are unknown, its raw path NotFound', async () => {
  let r = await s.kubectl(['get', 'events.v1beta1.events.k8s.io']);
  assert.equal(r.code, 1);
  assert.equal(r.stderr, 'error: the server doesn\'t have a resource type "events"\n');
  r = await s.kubectl(['get', '--raw', '/apis/events.k8s.io/v1beta1']);
  assert.equal(r.code, 1);
  assert.equal(r.stderr, 'Error from server (NotFound): the server could not find the requested resource\n');
  for (const args of [['create', '-f', '-'], ['apply', '--server-side', '-f', '-']]) {
    r = await s.kubectl(args, { stdin: JSON.stringify(v1beta1Event) });
    assert.equal(r.code, 1, args.join(' '));
    assert.equal(
      r.stderr,
      'error: resource mapping not found for name: "old-style" namespace: "default" from "STDIN": no matches for kind "Event" in version "events.k8s.io/v1beta1"\nensure CRDs are installed first\n',
    );
  }
  r = await s.kubectl(['explain', 'events', '--api-version=events.k8s.io/v1beta1']);
  assert.equal(r.code, 1);
  assert.equal(r.stderr, 'error: couldn\'t find resource for "events.k8s.io/v1beta1, Resource=events"\n');
  // The same manifest at events.k8s.io/v1 is what works.
  r = await s.kubectl(['create', '-f', '-'], { stdin: JSON.stringify({ ...v1beta1Event, apiVersion: 'events.k8s.io/v1' }) });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'event.events.k8s.io/old-style created\n');
});

test('python client: EventsV1beta1Api gets 404 on every call, EventsV1Api serves', async () => {
  const r = await promisify(execFile)(PYTHON, [SCRIPT, s.kubeconfig, 'default'], { timeout: 60_000 }).catch((e: Error) => e);
  if (r instanceof Error) throw r;
  const notFound = [404, 'Not Found', '404 page not found\n'];
  assert.deepEqual(JSON.parse(r.stdout), {
    versions: ['events.k8s.io/v1'],
    preferred: 'events.k8s.io/v1',
    v1beta1: {
      get_api_resources: notFound,
      list_namespaced_event: notFound,
      list_event_for_all_namespaces: notFound,
      create_namespaced_event: notFound,
      read_namespaced_event: notFound,
      delete_namespaced_event: notFound,
    },
    v1: [['py-v1', 'from v1']],
  });
});

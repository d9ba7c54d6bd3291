// kubectl's typed clients ask for protobuf (`Accept: application/vnd.kubernetes.protobuf,application/json`)
// and now get it: create (every generator for the kinds served here), describe (the object and its
// events list), events, and errors as protobuf Status. kubectl decodes the answers with its own
// generated code, so what it prints must be the object the server holds.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { requireKubectl, startTestServer, squeeze, type TestServer } from './harness.js';

let s: TestServer;
before(async () => {
  requireKubectl();
  s = await startTestServer();
});
after(async () => {
  await s?.close();
});

const ok = async (args: string[], stdin?: string): Promise<string> => {
  const r = await s.kubectl(args, stdin === undefined ? {} : { stdin });
  assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
};

/** The request lines and headers kubectl logs at -v=8, for one command. */
async function traced(args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  return s.kubectl([...args, '-v=8']);
}

/** The Content-Types of the answers to the `method` requests whose URL contains `path`, in order. */
function answerTypes(stderr: string, method: string, path: string): string[] {
  const lines = stderr.split('\n');
  const out: string[] = [];
  lines.forEach((l, at) => {
    if (!l.includes(`"${method}" url=`) || !l.includes(path)) return;
    const rest = lines.slice(at);
    const resp = rest.findIndex((x) => x.includes('Response" status='));
    const ct = rest.slice(resp).find((x) => /^\s*Content-Type:/.test(x));
    if (ct) out.push(ct.split(':')[1]!.trim());
  });
  return out;
}

/** The Content-Type of the answer to the first such request. */
const answerType = (stderr: string, method: string, path: string): string | undefined => answerTypes(stderr, method, path)[0];

test('kubectl create (namespace, configmap with binaryData, secrets, serviceaccount): answered in protobuf, printed as the server holds it', async () => {
  const bin = s.file('blob.bin', '');
  const { writeFileSync } = await import('node:fs');
  writeFileSync(bin, Buffer.from([0xff, 0xfe, 0x00, 0x01]));
  const cases: [string[], string, string][] = [
    [['create', 'namespace', 'pb'], 'namespace', 'pb'],
    [['create', 'configmap', 'cfg', '-n', 'pb', '--from-literal=b=2', '--from-literal=a=1', `--from-file=blob=${bin}`], 'configmap', 'cfg'],
    [['create', 'secret', 'generic', 's1', '-n', 'pb', '--from-literal=user=admin', `--from-file=key=${bin}`, '--type=example.com/x'], 'secret', 's1'],
    [['create', 'secret', 'docker-registry', 'reg', '-n', 'pb', '--docker-server=r.example.com', '--docker-username=u', '--docker-password=p'], 'secret', 'reg'],
    [['create', 'serviceaccount', 'bot', '-n', 'pb'], 'serviceaccount', 'bot'],
  ];
  for (const [args, kind, name] of cases) {
    const r = await traced([...args, '-o', 'json']);
    assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr.slice(-2000)}`);
    assert.equal(answerType(r.stderr, 'POST', '?fieldManager=kubectl-create'), 'application/vnd.kubernetes.protobuf', args.join(' '));
    const printed = JSON.parse(r.stdout) as Record<string, any>;
    const held = JSON.parse(await ok(['get', kind, name, ...(kind === 'namespace' ? [] : ['-n', 'pb']), '-o', 'json'])) as Record<string, any>;
    // kubectl's printers leave managedFields out of both; everything else, timestamps and bytes included, matches.
    assert.deepEqual(printed, held, args.join(' '));
    assert.ok(printed['metadata'].uid && printed['metadata'].creationTimestamp, args.join(' '));
  }
  // --dry-run=server: the answer (never stored) is decoded from protobuf too.
  const dry = JSON.parse(await ok(['create', 'configmap', 'dry', '-n', 'pb', '--from-literal=a=b', '--dry-run=server', '-o', 'json']));
  assert.deepEqual(dry.data, { a: 'b' });
  assert.ok(dry.metadata.uid);
});

test('kubectl create of an existing object: the AlreadyExists Status comes back in protobuf and kubectl reports it', async () => {
  await ok(['create', 'configmap', 'twice', '-n', 'default', '--from-literal=a=b']);
  const r = await traced(['create', 'configmap', 'twice', '-n', 'default', '--from-literal=a=b']);
  assert.equal(r.code, 1);
  assert.equal(answerType(r.stderr, 'POST', '/configmaps?'), 'application/vnd.kubernetes.protobuf');
  // kubectl create's generators wrap the decoded Status's message.
  assert.match(r.stderr, /\nerror: failed to create configmap: configmaps "twice" already exists\n$/);
  const invalid = await s.kubectl(['create', 'configmap', 'Bad_Name', '--from-literal=a=b']);
  assert.equal(invalid.code, 1);
  assert.match(invalid.stderr, /^error: failed to create configmap: ConfigMap "Bad_Name" is invalid: metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/);
});

test('kubectl describe and kubectl events read the object and its EventList in protobuf', async () => {
  await ok(['create', 'namespace', 'ev']);
  await ok(['create', 'configmap', 'target', '-n', 'ev', '--from-literal=a=b']);
  const uid = (await ok(['get', 'configmap', 'target', '-n', 'ev', '-o', 'jsonpath={.metadata.uid}'])).trim();
  const event = {
    apiVersion: 'v1',
    kind: 'Event',
    metadata: { name: 'target.1', namespace: 'ev' },
    involvedObject: { kind: 'ConfigMap', namespace: 'ev', name: 'target', uid, apiVersion: 'v1' },
    reason: 'Synced',
    message: 'synced from protobuf',
    type: 'Normal',
    source: { component: 'tester' },
    firstTimestamp: '2024-01-01T00:00:00Z',
    lastTimestamp: '2024-01-01T00:00:00Z',
    count: 2,
  };
  await ok(['create', '-f', '-'], JSON.stringify(event));
  const d = await traced(['describe', 'configmap', 'target', '-n', 'ev']);
  assert.equal(d.code, 0, d.stderr.slice(-2000));
  assert.equal(answerType(d.stderr, 'GET', '/namespaces/ev/events?fieldSelector='), 'application/vnd.kubernetes.protobuf');
  assert.match(squeeze(d.stdout), /\nEvents:\nType Reason Age From Message\n---- ------ ---- ---- -------\nNormal Synced \S+ \(x2 over \S+\) tester synced from protobuf$/);
  // describe serviceaccount lists the namespace's Secrets (SecretList in protobuf); describe namespace reads the Namespace.
  await ok(['create', 'serviceaccount', 'robot', '-n', 'ev']);
  await ok(['create', 'secret', 'generic', 'robot-extra', '-n', 'ev', '--from-literal=a=b']);
  const sa = await traced(['describe', 'serviceaccount', 'robot', '-n', 'ev']);
  assert.equal(sa.code, 0, sa.stderr.slice(-2000));
  // describe reads the object twice: as JSON through the resource builder, then through the typed client.
  assert.deepEqual(answerTypes(sa.stderr, 'GET', '/namespaces/ev/serviceaccounts/robot'), ['application/json', 'application/vnd.kubernetes.protobuf']);
  assert.equal(answerType(sa.stderr, 'GET', '/namespaces/ev/secrets?limit=500'), 'application/vnd.kubernetes.protobuf');
  assert.match(squeeze(sa.stdout), /^Name: robot\nNamespace: ev\n/);
  const ns = await traced(['describe', 'namespace', 'ev']);
  assert.equal(ns.code, 0, ns.stderr.slice(-2000));
  assert.deepEqual(answerTypes(ns.stderr, 'GET', '/api/v1/namespaces/ev"'), ['application/json', 'application/vnd.kubernetes.protobuf']);
  assert.match(squeeze(ns.stdout), /^Name: ev\nLabels: kubernetes\.io\/metadata\.name=ev\nAnnotations: <none>\nStatus: Active/);
  const e = await traced(['events', '-n', 'ev']);
  assert.equal(e.code, 0, e.stderr.slice(-2000));
  assert.equal(answerType(e.stderr, 'GET', '/namespaces/ev/events?limit=500'), 'application/vnd.kubernetes.protobuf');
  assert.match(squeeze(e.stdout), /^LAST SEEN TYPE REASON OBJECT MESSAGE\n\S+ \(x2 over \S+\) Normal Synced ConfigMap\/target synced from protobuf$/);
});

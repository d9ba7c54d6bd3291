// Live check with the kubectl on PATH: a recording stand-in apiserver captures the protobuf
// bodies kubectl's typed clients send, and each must decode to the JSON kubectl itself prints for
// the same object (`--dry-run=client -o json`). Also records the Accept header those requests
// carry: JSON is always offered next to protobuf, so answering in JSON is enough.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { AddressInfo } from 'node:net';
import { decodeProtobufDeleteOptions, decodeProtobufObject, isProtobufContentType } from '../../src/server/protobuf.js';
import { StatusError } from '../../src/api/status.js';

const run = promisify(execFile);

interface Recorded {
  method: string;
  path: string;
  contentType?: string;
  accept?: string;
  body: Buffer;
}

const recorded: Recorded[] = [];
let server: http.Server;
let url = '';
let dir = '';

const RBAC = 'rbac.authorization.k8s.io/v1';
const verbs = ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'];
const resources: Record<string, { kind: string; namespaced: boolean }[]> = {
  v1: [
    { kind: 'Namespace', namespaced: false },
    { kind: 'Node', namespaced: false },
    { kind: 'Pod', namespaced: true },
    { kind: 'ConfigMap', namespaced: true },
    { kind: 'Secret', namespaced: true },
  ],
  [RBAC]: [
    { kind: 'Role', namespaced: true },
    { kind: 'RoleBinding', namespaced: true },
    { kind: 'ClusterRole', namespaced: false },
    { kind: 'ClusterRoleBinding', namespaced: false },
  ],
};
const plural = (kind: string): string => `${kind.toLowerCase()}s`;

const pod = { kind: 'Pod', apiVersion: 'v1', metadata: { name: 'p1', namespace: 'default', uid: 'u-p1', resourceVersion: '7' }, spec: { nodeName: 'n1', containers: [{ name: 'c', image: 'x' }] } };

/** Just enough of an apiserver for kubectl create and drain to run to completion. */
function answer(req: http.IncomingMessage, path: string): [number, unknown] {
  if (path === '/version') return [200, { major: '1', minor: '33', gitVersion: 'v1.33.0' }];
  if (path === '/api') return [200, { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1' }] }];
  if (path === '/apis') {
    const gv = { groupVersion: RBAC, version: 'v1' };
    return [200, { kind: 'APIGroupList', apiVersion: 'v1', groups: [{ name: 'rbac.authorization.k8s.io', versions: [gv], preferredVersion: gv }] }];
  }
  const list = path === '/api/v1' ? 'v1' : path === `/apis/${RBAC}` ? RBAC : undefined;
  if (list) {
    const rs = resources[list]!.map((r) => ({ name: plural(r.kind), singularName: r.kind.toLowerCase(), namespaced: r.namespaced, kind: r.kind, verbs }));
    return [200, { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: list, resources: rs }];
  }
  if (path === '/api/v1/nodes/n1') return [200, { kind: 'Node', apiVersion: 'v1', metadata: { name: 'n1', uid: 'u-n1', resourceVersion: '5' }, spec: {} }];
  if (path === '/api/v1/pods') return [200, { kind: 'PodList', apiVersion: 'v1', metadata: { resourceVersion: '9' }, items: [pod] }];
  if (path === '/api/v1/namespaces/default/pods/p1') {
    if (req.method === 'DELETE') return [200, pod];
    return [404, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'pods "p1" not found', reason: 'NotFound', details: { name: 'p1', kind: 'pods' }, code: 404 }];
  }
  const created = /^\/apis?\/(?:(rbac\.authorization\.k8s\.io)\/)?v1\/(?:namespaces\/[^/]+\/)?([a-z]+)$/.exec(path);
  if (created && req.method === 'POST') {
    const apiVersion = created[1] ? RBAC : 'v1';
    const kind = resources[apiVersion]!.find((r) => plural(r.kind) === created[2])!.kind;
    return [201, { kind, apiVersion, metadata: { name: 'created', uid: 'u-1', resourceVersion: '1' } }];
  }
  return [404, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: 'not found', reason: 'NotFound', code: 404 }];
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'protobuf-kubectl-'));
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      recorded.push({ method: req.method ?? '', path, contentType: req.headers['content-type'], accept: req.headers.accept, body: Buffer.concat(chunks) });
      const [code, obj] = answer(req, path);
      const text = JSON.stringify(obj);
      res.writeHead(code, { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(text) });
      res.end(text);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  rmSync(dir, { recursive: true, force: true });
});

async function kubectl(args: string[]): Promise<string> {
  const env = { ...process.env, KUBECONFIG: join(dir, 'no-kubeconfig') };
  const { stdout } = await run('kubectl', ['--server', url, '--cache-dir', join(dir, 'cache'), ...args], { env, timeout: 60_000 });
  return stdout;
}

/** Runs a command and returns the one request it sent with a protobuf body. */
async function capture(args: string[], method: string): Promise<Recorded> {
  const from = recorded.length;
  await kubectl(args);
  const sent = recorded.slice(from).filter((r) => r.method === method && r.body.length > 0);
  assert.equal(sent.length, 1, `${args.join(' ')} sent ${sent.length} ${method} bodies`);
  const r = sent[0]!;
  assert.ok(isProtobufContentType(r.contentType), `${args.join(' ')} sent ${r.contentType}`);
  // The fallback that lets the server answer in JSON.
  assert.match(r.accept ?? '', /(^|,)\s*application\/json\s*(,|;|$)/);
  return r;
}

const CREATES: string[][] = [
  ['create', 'namespace', 'team-a'],
  ['create', 'namespace', 'team-b', '--save-config'],
  ['create', 'role', 'pod-reader', '-n', 'team-a', '--verb=get,list,watch', '--resource=pods', '--resource=configmaps', '--resource-name=p1'],
  ['create', 'clusterrole', 'agg', '--aggregation-rule=rbac.example.com/aggregate-to-monitoring=true'],
  ['create', 'clusterrole', 'nonres', '--verb=get', '--non-resource-url=/logs/*'],
  ['create', 'rolebinding', 'rb1', '-n', 'team-a', '--role=pod-reader', '--user=alice', '--group=devs', '--serviceaccount=team-a:bot'],
  ['create', 'clusterrolebinding', 'crb1', '--clusterrole=view', '--user=bob'],
];

for (const args of CREATES) {
  test(`kubectl ${args.join(' ')}: body decodes to what -o json prints`, async () => {
    const sent = await capture(args, 'POST');
    const printed = JSON.parse(await kubectl([...args, '--dry-run=client', '-o', 'json'])) as Record<string, unknown>;
    const decoded = decodeProtobufObject(sent.body, { apiVersion: String(printed['apiVersion']), kind: String(printed['kind']) });
    if (decoded instanceof StatusError) assert.fail(decoded.message);
    assert.equal(JSON.stringify(decoded.object), JSON.stringify(printed));
  });
}

// ConfigMaps and Secrets: map<string,string> and map<string,bytes> entries (a non-UTF-8 file goes to binaryData).
test('kubectl create configmap and secrets: data, binaryData and type decode to what -o json prints', async () => {
  const bin = join(dir, 'blob.bin');
  writeFileSync(bin, Buffer.from([0xff, 0xfe, 0x00, 0x01]));
  for (const args of [
    ['create', 'configmap', 'cfg', '-n', 'team-a', '--from-literal=b=2', '--from-literal=a=1', `--from-file=blob=${bin}`],
    ['create', 'secret', 'generic', 's1', '--from-literal=user=admin', `--from-file=key=${bin}`, '--type=example.com/x'],
    ['create', 'secret', 'docker-registry', 'reg', '--docker-server=r.example.com', '--docker-username=u', '--docker-password=p'],
  ]) {
    const sent = await capture(args, 'POST');
    const printed = JSON.parse(await kubectl([...args, '--dry-run=client', '-o', 'json'])) as Record<string, unknown>;
    const decoded = decodeProtobufObject(sent.body, { apiVersion: 'v1', kind: String(printed['kind']) });
    if (decoded instanceof StatusError) assert.fail(decoded.message);
    assert.equal(JSON.stringify(decoded.object), JSON.stringify(printed), args.join(' '));
  }
});

test('kubectl drain --disable-eviction: the pod DELETE carries protobuf DeleteOptions', async () => {
  const sent = await capture(['drain', 'n1', '--disable-eviction', '--force', '--grace-period=7', '--timeout=20s'], 'DELETE');
  assert.equal(sent.path, '/api/v1/namespaces/default/pods/p1');
  assert.deepEqual(decodeProtobufDeleteOptions(sent.body), { kind: 'DeleteOptions', apiVersion: 'v1', gracePeriodSeconds: 7 });
  const dry = await capture(['drain', 'n1', '--disable-eviction', '--force', '--dry-run=server', '--timeout=20s'], 'DELETE');
  assert.deepEqual(decodeProtobufDeleteOptions(dry.body), { kind: 'DeleteOptions', apiVersion: 'v1', dryRun: ['All'] });
});

// kubectl explain over the corpus CRDs, through OpenAPI v2 (kubectl 1.27 and 1.32 with
// --output=plaintext-openapiv2, which read the gnostic protobuf of /openapi/v2) and OpenAPI v3 (kubectl
// 1.32's default). A sample of every project (its first two CRDs with a spec) is installed in one
// server, so kubectl parses one v2 document holding all of them, and each sampled kind is explained.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { requireKubectl, type KubectlResult } from './harness.js';
import { startApi, type Api } from '../server/helpers.js';
import { CORPUS } from '../shared-paths.js';

const KUBECTL_127 = '/usr/lib/google-cloud-sdk/bin/kubectl.1.27';

// The two gateway-api channels define the same CRDs: one of them is installed.
const projects = readdirSync(CORPUS, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(CORPUS, d.name, 'crds')) && d.name !== 'gateway-api-experimental')
  .map((d) => d.name)
  .sort();

interface Sample {
  project: string;
  crd: any;
  kind: string;
  plural: string;
  apiVersion: string;
  /** The properties of spec that a v2 reader sees: none when spec is nullable or keeps unknown fields. */
  specFields: string[];
  v2SpecFields: string[];
}

const crdFiles = (project: string): string[] =>
  readdirSync(join(CORPUS, project, 'crds'))
    .filter((f) => f.endsWith('.yaml'))
    .sort()
    .map((f) => join(CORPUS, project, 'crds', f));

const crdOf = (file: string): any =>
  parseAllDocuments(readFileSync(file, 'utf8'))
    .map((d) => d.toJSON())
    .find((d) => d?.kind === 'CustomResourceDefinition');

function sampleOf(project: string): Sample[] {
  const out: Sample[] = [];
  for (const file of crdFiles(project)) {
    const crd = crdOf(file);
    const version = crd.spec.versions.find((v: any) => v.storage);
    const spec = version?.schema?.openAPIV3Schema?.properties?.spec;
    if (!version?.served || !spec?.properties) continue;
    const specFields = Object.keys(spec.properties);
    const v2Hidden = spec.nullable === true || spec['x-kubernetes-preserve-unknown-fields'] === true;
    out.push({
      project,
      crd,
      kind: crd.spec.names.kind,
      plural: crd.spec.names.plural,
      apiVersion: `${crd.spec.group}/${version.name}`,
      specFields,
      v2SpecFields: v2Hidden ? [] : specFields,
    });
    if (out.length === 2) break;
  }
  return out;
}

const samples = projects.flatMap(sampleOf);
let api: Api;
let home: string;
/** kubectl against the in-process server, with a private HOME so its discovery and OpenAPI caches are this test's. */
const kubectl = (args: string[], bin = 'kubectl'): Promise<KubectlResult> =>
  new Promise((resolve) => {
    execFile(bin, ['--server', api.url, ...args], { env: { ...process.env, HOME: home, KUBECONFIG: '' }, timeout: 60_000, maxBuffer: 64 << 20 }, (err, stdout, stderr) =>
      resolve({ code: err ? 1 : 0, stdout: String(stdout), stderr: String(stderr) }),
    );
  });

before(async () => {
  requireKubectl();
  requireKubectl(KUBECTL_127);
  home = mkdtempSync(join(tmpdir(), 'crd-apiserver-explain-'));
  api = await startApi();
  for (const { crd } of samples) {
    const r = await api.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    assert.equal(r.status, 201, `${crd.metadata.name}: ${r.text}`);
  }
  const ready = await kubectl(['wait', '--for', 'condition=established', 'crd', '--all', '--timeout=60s']);
  assert.equal(ready.code, 0, ready.stderr);
});
after(async () => {
  await api?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

const fieldPattern = (name: string): RegExp => new RegExp(`^\\s+${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\t<`, 'm');

/** Runs the calls a few at a time: each kubectl reads discovery and OpenAPI from its own cache. */
async function inBatches<T>(items: T[], n: number, fn: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += n) await Promise.all(items.slice(i, i + n).map(fn));
}

test('kubectl explain reads every project sampled, through OpenAPI v2 (1.27, 1.32) and v3 (1.32)', async () => {
  assert.ok(samples.length >= 20, `only ${samples.length} samples`);
  const runs = samples.flatMap((x) => [
    { x, bin: KUBECTL_127, v2: true },
    { x, bin: 'kubectl', v2: true },
    { x, bin: 'kubectl', v2: false },
  ]);
  await inBatches(runs, 4, async ({ x, bin, v2 }) => {
    const args = ['explain', `${x.plural}.spec`, `--api-version=${x.apiVersion}`, ...(v2 ? ['--output=plaintext-openapiv2'] : [])];
    const r = await kubectl(args, bin);
    const what = `${bin} ${args.join(' ')} (${x.project})`;
    assert.equal(r.code, 0, `${what}: ${r.stderr}`);
    if (v2) {
      assert.match(r.stdout, new RegExp(`^KIND:\\s+${x.kind}\\nVERSION:\\s+${x.apiVersion.replace(/\./g, '\\.')}\\n\\nRESOURCE: spec <Object>`), what);
    } else {
      assert.match(r.stdout, new RegExp(`^GROUP:\\s+${x.apiVersion.split('/')[0]!.replace(/\./g, '\\.')}\\nKIND:\\s+${x.kind}\\nVERSION:\\s+${x.apiVersion.split('/')[1]}\\n\\nFIELD: spec <Object>`), what);
    }
    for (const f of v2 ? x.v2SpecFields : x.specFields) assert.match(r.stdout, fieldPattern(f), `${what}: field ${f}`);
  });
});

test('kubectl 1.27 explains the built-in Namespace from /openapi/v2', async () => {
  const r = await kubectl(['explain', 'namespace.status', '--output=plaintext-openapiv2'], KUBECTL_127);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^KIND:\s+Namespace\nVERSION:\s+v1\n\nRESOURCE: status <Object>\n\nDESCRIPTION:\n\s+Status describes the current status of a Namespace\./);
  assert.match(r.stdout, /^\s+conditions\t<\[\]Object>/m);
  assert.match(r.stdout, /^\s+phase\t<string>/m);
});

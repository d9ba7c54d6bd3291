// The corpus of real CRDs (../shared/corpus): every CRD is accepted and served, and every valid example is
// accepted (created through the REST API with the server's default field validation, Warn).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { startApi, type Api } from './helpers.js';
import { CORPUS } from '../shared-paths.js';

const projects = readdirSync(CORPUS, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(CORPUS, d.name, 'crds')))
  .map((d) => d.name);

/**
 * Known differences, asserted so that fixing one fails the test until it is removed here. The `yaml` package
 * reads the flow sequence `[1.2.3.4, 001:db8::]` as a string and a map where Go's YAML reads two strings
 * (the corpus README warns about this document). The others are upstream examples of what a CRD's CEL rules
 * refuse (their names say so) that the corpus files as valid: its checker does not evaluate CEL.
 */
const KNOWN: Record<string, RegExp> = {
  'istio/testdata__crds__serviceentry-valid__0-ServiceEntry-full.yaml': /spec\.addresses\[1\] in body must be of type string/,
  'crossplane/protection__usage__standalone-namespaced__ref-without-by-cross-namespace-invalid__usage.yaml':
    /^Usage\.protection\.crossplane\.io "using-uses-used-across-namespaces-invalid" is invalid: spec: Invalid value: "object": cross-namespace "spec\.of" is not allowed without "spec\.by" resource\.$/,
  'crossplane/protection__usage__standalone-namespaced__selector-without-by-cross-namespace-invalid__usage.yaml':
    /^Usage\.protection\.crossplane\.io "using-uses-used-across-namespaces-invalid" is invalid: spec: Invalid value: "object": cross-namespace "spec\.of" is not allowed without "spec\.by" resource\.$/,
  'external-snapshotter/examples__kubernetes__invalid-snapshot-v1.yaml':
    /^VolumeSnapshot\.snapshot\.storage\.k8s\.io "new-snapshot-demo-v1" is invalid: spec\.source: Invalid value: "object": exactly one of volumeSnapshotContentName and persistentVolumeClaimName must be set$/,
};

/**
 * Names are outside the schema: a few upstream examples are templates (`${CLUSTER_NAME}`) or leave the name
 * out. Give them a concrete name so that the example's schema is what is tested.
 */
function concreteName(obj: any, file: string): void {
  obj.metadata ??= {};
  if (!obj.metadata.name && !obj.metadata.generateName) obj.metadata.name = file.replace(/\.yaml$/, '').toLowerCase().replace(/[^a-z0-9-]+/g, '-').slice(-60).replace(/^-+/, '');
  if (typeof obj.metadata.name === 'string') obj.metadata.name = obj.metadata.name.replace(/\$\{(\w+)\}/g, (_: string, v: string) => v.toLowerCase().replace(/_/g, '-'));
  if (typeof obj.metadata.namespace === 'string') obj.metadata.namespace = obj.metadata.namespace.replace(/\$\{(\w+)\}/g, (_: string, v: string) => v.toLowerCase().replace(/_/g, '-'));
}

const load = (file: string): any[] =>
  parseAllDocuments(readFileSync(file, 'utf8'))
    .map((d) => d.toJSON())
    .filter((d) => d && typeof d === 'object');

async function waitServed(api: Api, crds: any[]): Promise<void> {
  for (const crd of crds) {
    const v = crd.spec.versions.find((x: any) => x.served).name;
    const path = `/apis/${crd.spec.group}/${v}/${crd.spec.names.plural}`;
    let status = 0;
    for (let i = 0; i < 300 && status !== 200; i++) {
      status = (await api.req('GET', `${path}?limit=1`)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(status, 200, `${crd.metadata.name} is not served`);
  }
}

test('corpus: it has projects', () => assert.ok(projects.length >= 10, `found ${projects.length} projects in ${CORPUS}`));

for (const project of projects) {
  test(`corpus ${project}: CRDs accepted, valid examples accepted`, async () => {
    const api = await startApi();
    try {
      const dir = join(CORPUS, project);
      const crds = readdirSync(join(dir, 'crds'))
        .filter((f) => f.endsWith('.yaml'))
        .flatMap((f) => load(join(dir, 'crds', f)));
      for (const crd of crds) {
        const r = await api.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
        assert.equal(r.status, 201, `${project} ${crd.metadata?.name}: ${r.text.slice(0, 2000)}`);
      }
      await waitServed(api, crds);
      // The projects' conversion webhooks do not run here: once their CRDs are accepted as written, the
      // examples are judged by schema with None conversion (a missing webhook would fail every write that
      // needs converting, as in kube-apiserver).
      for (const crd of crds.filter((c) => c.spec.conversion?.strategy === 'Webhook')) {
        const generation = api.server.registry.generation();
        const r = await api.req('PATCH', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`, { spec: { conversion: { strategy: 'None', webhook: null } } }, {
          'Content-Type': 'application/merge-patch+json',
        });
        assert.equal(r.status, 200, r.text);
        // Served with the new strategy once the CRD controller has seen the change.
        for (let i = 0; i < 200 && api.server.registry.generation() === generation; i++) await new Promise((res) => setTimeout(res, 5));
      }
      const validDir = join(dir, 'valid');
      if (!existsSync(validDir)) return;
      const namespaces = new Set(['default']);
      const failures: string[] = [];
      for (const f of readdirSync(validDir).filter((x) => x.endsWith('.yaml')).sort()) {
        for (const obj of load(join(validDir, f))) {
          const [group, version] = String(obj.apiVersion).includes('/') ? String(obj.apiVersion).split('/') : ['', obj.apiVersion];
          const crd = crds.find((c) => c.spec.group === group && c.spec.names.kind === obj.kind);
          assert.ok(crd, `${project}/${f}: no CRD for ${obj.apiVersion} ${obj.kind}`);
          const namespaced = crd.spec.scope === 'Namespaced';
          const ns = namespaced ? (obj.metadata?.namespace ?? 'default') : '';
          if (namespaced && !namespaces.has(ns)) {
            await api.req('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
            namespaces.add(ns);
          }
          if (obj._err !== undefined) delete obj._err; // Istio testdata annotation, not part of the object
          concreteName(obj, f);
          const path = `/apis/${group}/${version}/${namespaced ? `namespaces/${ns}/` : ''}${crd.spec.names.plural}`;
          const r = await api.req('POST', path, obj);
          // The same example may appear twice (two files of one upstream document): AlreadyExists is fine.
          const known = KNOWN[`${project}/${f}`];
          if (known) {
            assert.match(r.json?.message ?? '', known, `${project}/${f} no longer differs: remove it from KNOWN`);
            continue;
          }
          if (r.status !== 201 && r.json?.reason !== 'AlreadyExists') failures.push(`${f}: ${r.status} ${r.json?.message ?? r.text.slice(0, 300)}`);
        }
      }
      assert.deepEqual(failures, [], `${project}: valid examples refused`);
      await checkInvalid(api, project, dir, crds, namespaces);
    } finally {
      await api.close();
    }
  });
}

/**
 * Invalid examples (created as upstream creates them: a plain create or `kubectl apply`, which creates): every
 * one must be refused with every expected message, CEL rules' included. Those still accepted are counted per
 * project and pinned here, so that the number can only go down.
 */
const ACCEPTED_INVALID: Record<string, number> = {
  crossplane: 0,
  'external-snapshotter': 0,
  'gateway-api-experimental': 0,
  'gateway-api-standard': 0,
  istio: 0,
  'trust-manager': 0,
};
const acceptedInvalid: Record<string, string[]> = {};

async function checkInvalid(api: Api, project: string, dir: string, crds: any[], namespaces: Set<string>): Promise<void> {
  const expectedFile = join(dir, 'invalid', 'EXPECTED.json');
  if (!existsSync(expectedFile)) return;
  const cases = JSON.parse(readFileSync(expectedFile, 'utf8')).cases as Record<string, any>;
  const wrongMessage: string[] = [];
  const accepted: string[] = [];
  for (const [file, c] of Object.entries(cases)) {
    if (!String(c.operation).startsWith('create')) continue;
    const obj = load(join(dir, 'invalid', file))[0];
    if (!obj) continue;
    delete obj._err;
    concreteName(obj, file);
    const [group, version] = String(obj.apiVersion).split('/');
    const crd = crds.find((x) => x.spec.group === group && x.spec.names.kind === obj.kind);
    if (!crd) continue;
    const namespaced = crd.spec.scope === 'Namespaced';
    const ns = namespaced ? (obj.metadata?.namespace ?? 'default') : '';
    if (namespaced && !namespaces.has(ns)) {
      await api.req('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
      namespaces.add(ns);
    }
    const path = `/apis/${group}/${version}/${namespaced ? `namespaces/${ns}/` : ''}${crd.spec.names.plural}`;
    const r = await api.req('POST', `${path}?dryRun=All`, obj);
    if (r.status === 201) {
      accepted.push(file);
      continue;
    }
    const text = [r.json?.message ?? r.text, ...((r.json?.details?.causes ?? []) as any[]).map((x) => x.message ?? '')].join('\n');
    const alt = (e: string): string[] => [e, ...(c.alternatives?.[e] ? [c.alternatives[e]] : []), ...(KUBE_1_33_WORDING[e] ? [KUBE_1_33_WORDING[e]] : [])];
    const found = (e: string): boolean => alt(e).some((a) => text.includes(a));
    const ok = c.expectedErrorsAnyOf ? (c.expectedErrorsAnyOf as string[]).some(found) : ((c.expectedErrors ?? []) as string[]).every(found);
    if (!ok) wrongMessage.push(`${file}: got ${text.slice(0, 400)}`);
  }
  acceptedInvalid[project] = accepted;
  assert.deepEqual(wrongMessage, [], `${project}: invalid examples refused with another message`);
  const pinned = ACCEPTED_INVALID[project] ?? 0;
  assert.ok(accepted.length <= pinned, `${project}: ${accepted.length} invalid examples accepted, pinned at ${pinned}: ${accepted.join(', ')}`);
}

/**
 * Kubernetes 1.33 prints a map value of a field error with Go's %#v, and a failed rule's value as the schema
 * type ("object"); the corpus quotes the renderings of later releases.
 */
const KUBE_1_33_WORDING: Record<string, string> = {
  'spec.target.configMap.data[1]: Duplicate value: {"key":"foo"}': 'spec.target.configMap.data[1]: Duplicate value: map[string]interface {}{"key":"foo"}',
  'spec.sourceRefs[0]: Invalid value: exactly one of the fields in [name selector] must be set':
    'spec.sourceRefs[0]: Invalid value: "object": exactly one of the fields in [name selector] must be set',
  'spec.target: Invalid value: at least one of the fields in [configMap secret] must be set': 'spec.target: Invalid value: "object": at least one of the fields in [configMap secret] must be set',
};

test('corpus: invalid examples still accepted', (t) => {
  for (const [project, files] of Object.entries(acceptedInvalid)) t.diagnostic(`${project}: ${files.length}`);
});

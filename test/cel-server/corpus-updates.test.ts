// The corpus' update cases (../shared/corpus/<project>/updates): transition rules and immutability
// of real CRDs. The old object is created, then replaced by the new one (what `kubectl apply` of
// the new file amounts to); the update must succeed, or fail with every expected message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { startApi, type Api } from '../server/helpers.js';
import { CORPUS } from '../shared-paths.js';

const load = (file: string): any[] =>
  parseAllDocuments(readFileSync(file, 'utf8'))
    .map((d) => d.toJSON())
    .filter((d) => d && typeof d === 'object');

const projects = readdirSync(CORPUS, { withFileTypes: true })
  .filter((d) => d.isDirectory() && existsSync(join(CORPUS, d.name, 'updates', 'EXPECTED.json')))
  .map((d) => d.name);

test('corpus updates: there are projects with update cases', () => assert.ok(projects.length >= 2, projects.join(', ')));

async function installAll(api: Api, crds: any[]): Promise<void> {
  for (const crd of crds) {
    const r = await api.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    assert.equal(r.status, 201, `${crd.metadata?.name}: ${r.text.slice(0, 1000)}`);
  }
  for (const crd of crds) {
    const v = crd.spec.versions.find((x: any) => x.served).name;
    let status = 0;
    for (let i = 0; i < 300 && status !== 200; i++) {
      status = (await api.req('GET', `/apis/${crd.spec.group}/${v}/${crd.spec.names.plural}?limit=1`)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 10));
    }
    assert.equal(status, 200, `${crd.metadata.name} is not served`);
  }
}

for (const project of projects) {
  test(`corpus ${project}: update cases`, async () => {
    const dir = join(CORPUS, project);
    const api = await startApi();
    try {
      const crds = readdirSync(join(dir, 'crds'))
        .filter((f) => f.endsWith('.yaml'))
        .flatMap((f) => load(join(dir, 'crds', f)));
      await installAll(api, crds);
      const cases = JSON.parse(readFileSync(join(dir, 'updates', 'EXPECTED.json'), 'utf8')).cases as Record<string, any>;
      const namespaces = new Set(['default']);
      const failures: string[] = [];
      for (const [name, c] of Object.entries(cases)) {
        if (c.operation !== 'update') continue;
        const oldObj = load(join(dir, 'updates', c.old))[0];
        const newObj = load(join(dir, 'updates', c.new))[0];
        const [group, version] = String(oldObj.apiVersion).split('/');
        const crd = crds.find((x) => x.spec.group === group && x.spec.names.kind === oldObj.kind);
        assert.ok(crd, `${name}: no CRD for ${oldObj.apiVersion} ${oldObj.kind}`);
        const namespaced = crd.spec.scope === 'Namespaced';
        const ns = namespaced ? (oldObj.metadata?.namespace ?? 'default') : '';
        if (namespaced && !namespaces.has(ns)) {
          await api.req('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
          namespaces.add(ns);
        }
        const base = `/apis/${group}/${version}/${namespaced ? `namespaces/${ns}/` : ''}${crd.spec.names.plural}`;
        const created = await api.req('POST', base, oldObj);
        assert.equal(created.status, 201, `${name}: old object refused: ${created.text.slice(0, 500)}`);
        const objName = created.json.metadata.name;
        newObj.metadata = { ...newObj.metadata, resourceVersion: created.json.metadata.resourceVersion };
        const r = await api.req('PUT', `${base}/${objName}`, newObj);
        const text = [r.json?.message ?? r.text, ...((r.json?.details?.causes ?? []) as any[]).map((x) => x.message ?? '')].join('\n');
        if (c.expectSuccess) {
          if (r.status !== 200) failures.push(`${name}: refused: ${text.slice(0, 400)}`);
        } else if (r.status === 200) {
          failures.push(`${name}: accepted, expected ${(c.expectedErrors ?? []).join(' | ')}`);
        } else {
          const missing = ((c.expectedErrors ?? []) as string[]).filter((e) => !text.includes(e));
          if (missing.length > 0) failures.push(`${name}: missing ${missing.join(' | ')} in ${text.slice(0, 400)}`);
        }
        await api.req('DELETE', `${base}/${objName}`);
      }
      assert.deepEqual(failures, []);
    } finally {
      await api.close();
    }
  });
}

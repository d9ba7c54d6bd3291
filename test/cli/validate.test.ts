// `crd-apiserver validate`: messages placed at file:line:column, exit codes 0/1/2, JSON output; and on corpus
// projects with rejection cases, the same verdict and message for every example as a server judging a dry-run
// create of the same document.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { validateManifests } from '../../src/cli/validate.js';
import { CORPUS } from '../shared-paths.js';
import { startApi } from '../server/helpers.js';

const main = fileURLToPath(new URL('../../src/cli/main.ts', import.meta.url));
const CRD = fileURLToPath(new URL('../fixtures/crontab-crd.yaml', import.meta.url));

const MANIFESTS = `apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: good
spec:
  cronSpec: "* * * * */5"
  image: img
---
apiVersion: stable.example.com/v1
kind: CronTab
metadata:
  name: bad
spec:
  cronSpec: 12
  image: img
  replicas: "x"
  unknownField: 1
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: UPPER
---
apiVersion: nowhere.example.com/v1
kind: Thing
metadata: {name: t}
`;

test('validate: each problem at its field, the server\'s words; exit codes; JSON', () => {
  const dir = mkdtempSync(join(tmpdir(), 'crd-validate-'));
  try {
    const file = join(dir, 'objects.yaml');
    writeFileSync(file, MANIFESTS);
    const run = (...args: string[]) => spawnSync(process.execPath, ['--import', 'tsx', main, 'validate', ...args], { encoding: 'utf8', timeout: 60_000 });
    let r = run('--crds', CRD, '-f', file);
    assert.equal(r.status, 1, r.stderr);
    assert.equal(
      r.stdout,
      [
        `${file}:17:3: CronTab default/bad: CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.unknownField"`,
        `${file}:22:3: ConfigMap default/UPPER: metadata.name: Invalid value: "UPPER": a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')`,
        `${file}:24:1: Thing t: no matches for kind "Thing" in version "nowhere.example.com/v1"`,
        '3 of 5 objects invalid',
        '',
      ].join('\n'),
    );
    // Warn: the unknown field is a warning, and the schema's verdicts come through.
    r = run('--crds', CRD, '-f', file, '--field-validation=Warn', '-o', 'json');
    assert.equal(r.status, 1, r.stderr);
    const bad = (JSON.parse(r.stdout) as Array<{ name?: string; warnings: unknown[]; problems: unknown[] }>).find((v) => v.name === 'bad')!;
    assert.deepEqual(bad.warnings, [{ line: 17, column: 3, field: 'spec.unknownField', message: 'unknown field "spec.unknownField"' }]);
    assert.deepEqual(bad.problems, [
      { line: 14, column: 3, field: 'spec.cronSpec', message: 'Invalid value: "integer": spec.cronSpec in body must be of type string: "integer"' },
      { line: 16, column: 3, field: 'spec.replicas', message: 'Invalid value: "string": spec.replicas in body must be of type integer: "string"' },
    ]);
    // Valid: exit code 0. A CRD among the files serves the objects after it.
    writeFileSync(join(dir, 'ok.yaml'), readFileSync(CRD, 'utf8') + '\n---\n' + MANIFESTS.split('---')[0]);
    r = run('-f', join(dir, 'ok.yaml'));
    assert.equal(r.status, 0, r.stdout + r.stderr);
    assert.equal(r.stdout, '2 objects valid\n');
    // Usage errors: exit code 2.
    r = run('-f', join(dir, 'missing.yaml'));
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^crd-apiserver: the path ".*missing\.yaml" does not exist\n/);
    r = run();
    assert.equal(r.status, 2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

const projectsWithCases = readdirSync(CORPUS).filter((p) => {
  try {
    return readdirSync(join(CORPUS, p, 'invalid')).length > 0;
  } catch {
    return false;
  }
});

for (const project of projectsWithCases) {
  test(`validate agrees with the server on every ${project} example (valid and invalid)`, async () => {
    const dir = join(CORPUS, project);
    const files = ['valid', 'invalid'].flatMap((d) => readdirSync(join(dir, d)).filter((f) => f.endsWith('.yaml')).sort().map((f) => join(dir, d, f)));
    const verdicts = await validateManifests({ crds: [join(dir, 'crds')], files, fieldValidation: 'Warn' });
    const judged = verdicts.filter((v) => !v.file.includes('/crds/'));
    // The server, judging the same documents as dry-run creates.
    const api = await startApi();
    try {
      for (const f of readdirSync(join(dir, 'crds')).sort()) {
        const crd = parseAllDocuments(readFileSync(join(dir, 'crds', f), 'utf8'))[0]!.toJS();
        assert.equal((await api.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd)).status, 201);
      }
      let i = 0;
      for (const file of files) {
        const text = readFileSync(file, 'utf8');
        for (const doc of parseAllDocuments(text, { uniqueKeys: false })) {
          const obj = doc.toJS() as { apiVersion: string; kind: string } | null;
          if (!obj) continue;
          const v = judged[i++]!;
          assert.equal(v.file, file);
          const ns = v.namespace;
          if (ns) await api.req('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } });
          // Discovery lists the CRD's resource once it is served.
          let plural: string | undefined;
          for (let t = 0; t < 300 && !plural; t++) {
            const d = await api.req('GET', `/apis/${obj.apiVersion}`);
            plural = d.json?.resources?.find((r: { kind: string; name: string }) => r.kind === obj.kind && !r.name.includes('/'))?.name;
            if (!plural) await new Promise((res) => setTimeout(res, 10));
          }
          // The document's own text, as validate sends it: the server's YAML decoding, not the test's.
          const [start, , end] = doc.range;
          const r = await api.req('POST', `/apis/${obj.apiVersion}/${ns ? `namespaces/${ns}/` : ''}${plural}?dryRun=All&fieldValidation=Warn`, text.slice(start, end), {
            'Content-Type': 'application/yaml',
          });
          assert.equal(v.valid, r.status < 300, `${file}: validate says ${v.valid ? 'valid' : v.message}, the server ${r.status} ${r.json?.message ?? ''}`);
          if (!v.valid) assert.equal(v.message, r.json.message, file);
        }
      }
      assert.equal(i, judged.length);
    } finally {
      await api.close();
    }
    // And the rejections are the ones the corpus expects.
    const expected = JSON.parse(readFileSync(join(dir, 'invalid', 'EXPECTED.json'), 'utf8')) as { cases: Record<string, { operation: string; expectedErrors?: string[]; expectedErrorsAnyOf?: string[] }> };
    for (const [name, c] of Object.entries(expected.cases)) {
      if (c.operation !== 'create') continue;
      const v = judged.find((x) => x.file === join(dir, 'invalid', name));
      assert.ok(v && !v.valid, `${project}/invalid/${name} was not refused`);
    }
  });
}

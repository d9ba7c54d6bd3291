// Real CRDs Kubernetes accepts pass the schema checks (create and a no-op update), are structural,
// and break with kube's messages when a rule is violated in them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { defaultCRD } from '../../src/crd/defaults.js';
import { validateCRD, validateCRDUpdate } from '../../src/crd/validation.js';
import type { CustomResourceDefinition } from '../../src/crd/types.js';
import { createCRDSchemaValidator } from '../../src/crd/crd-schema-validate.js';
import { nonStructuralSchemaCondition } from '../../src/crd/structural-validate.js';
import { strings, testDeps } from './helpers.js';
import { CORPUS } from '../shared-paths.js';
import { seedVersionCRDs } from '../seed-crds.js';

const hook = createCRDSchemaValidator(testDeps);
const options = { validateSchemaStructure: hook };

function corpusCRDs(): Array<[string, CustomResourceDefinition]> {
  const out: Array<[string, CustomResourceDefinition]> = [];
  for (const project of readdirSync(CORPUS, { withFileTypes: true })) {
    if (!project.isDirectory()) continue;
    let files: string[];
    try {
      files = readdirSync(`${CORPUS}/${project.name}/crds`).filter((f) => f.endsWith('.yaml'));
    } catch {
      continue;
    }
    for (const f of files) out.push([`${project.name}/${f}`, parse(readFileSync(`${CORPUS}/${project.name}/crds/${f}`, 'utf8')) as CustomResourceDefinition]);
  }
  return out;
}

function stored(crd: CustomResourceDefinition): CustomResourceDefinition {
  const out = defaultCRD(crd);
  out.metadata = { ...out.metadata, resourceVersion: '1', uid: 'u', generation: 1 };
  return out;
}

const crds = corpusCRDs();

test('every corpus CRD passes the schema checks on create and on a no-op update, and is structural', () => {
  assert.ok(crds.length > 150, `only ${crds.length} CRDs`);
  for (const [name, crd] of crds) {
    assert.deepEqual(strings(validateCRD(defaultCRD(crd), options)), [], `${name} (create)`);
    assert.deepEqual(strings(validateCRDUpdate(stored(crd), stored(crd), options)), [], `${name} (update)`);
    assert.equal(nonStructuralSchemaCondition(crd), undefined, name);
  }
});

test('the CRDs of the versions seed page pass', () => {
  const seeds = seedVersionCRDs().map((s) => s.crd);
  assert.ok(seeds.length >= 2);
  for (const crd of seeds) assert.deepEqual(strings(validateCRD(defaultCRD(crd), options)), []);
});

function certificates(): CustomResourceDefinition {
  const found = crds.find(([name]) => name === 'cert-manager/cert-manager.io_certificates.yaml');
  assert.ok(found);
  return structuredClone(found[1]);
}
type Node = Record<string, any>;
const specOf = (crd: CustomResourceDefinition): Node => (crd.spec.versions[0]!.schema!.openAPIV3Schema as Node)['properties']['spec'];
const S = 'spec.validation.openAPIV3Schema.properties[spec]';

test('negative: a real CRD with a rule broken in it is rejected with kube messages', () => {
  let crd = certificates();
  specOf(crd)['properties']['dnsNames']['uniqueItems'] = true;
  assert.deepEqual(strings(validateCRD(defaultCRD(crd), options)), [
    `${S}.properties[dnsNames].uniqueItems: Forbidden: uniqueItems cannot be set to true since the runtime complexity becomes quadratic`,
  ]);

  crd = certificates();
  delete specOf(crd)['properties']['commonName']['type'];
  assert.deepEqual(strings(validateCRD(defaultCRD(crd), options)), [
    `${S}.properties[commonName].type: Required value: must not be empty for specified object fields`,
  ]);

  crd = certificates();
  specOf(crd)['properties']['duration']['default'] = 5;
  specOf(crd)['properties']['isCA']['pattern'] = '[z-a]';
  assert.deepEqual(strings(validateCRD(defaultCRD(crd), options)), [
    `${S}.properties[isCA].pattern: Invalid value: "[z-a]": must be a valid regular expression, but isn't: error parsing regexp: invalid character class range: \`z-a\``,
  ]);
  delete specOf(crd)['properties']['isCA']['pattern'];
  assert.deepEqual(strings(validateCRD(defaultCRD(crd), options)), [`${S}.properties[duration].default: Invalid value: 5: must be of type string`]);

  crd = certificates();
  specOf(crd)['properties']['dnsNames']['x-kubernetes-list-type'] = 'map';
  assert.deepEqual(strings(validateCRD(defaultCRD(crd), options)), [
    `${S}.properties[dnsNames].x-kubernetes-list-map-keys: Required value: must not be empty if x-kubernetes-list-type is map`,
    `${S}.properties[dnsNames].items.type: Invalid value: "string": must be object if parent array's x-kubernetes-list-type is map`,
  ]);

  // With several versions the paths name the version.
  crd = certificates();
  // Identical selectableFields would be hoisted without the (differing) schemas, which kube rejects.
  delete crd.spec.versions[0]!.selectableFields;
  const v2 = structuredClone(crd.spec.versions[0]!);
  v2.name = 'v2';
  v2.storage = false;
  ((v2.schema!.openAPIV3Schema as Node)['properties']['spec'] as Node)['properties']['secretName']['nullable'] = true;
  specOf(crd)['properties']['secretName']['type'] = 'null';
  crd.spec.versions.push(v2);
  assert.deepEqual(strings(validateCRD(defaultCRD(crd), options)), [
    'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[secretName].type: Unsupported value: "null": supported values: "array", "boolean", "integer", "number", "object", "string"',
    'spec.versions[0].schema.openAPIV3Schema.properties[spec].properties[secretName].type: Forbidden: type cannot be set to null, use nullable as an alternative',
  ]);
});

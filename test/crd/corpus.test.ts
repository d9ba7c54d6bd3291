// Real CRDs that Kubernetes accepts must pass defaulting + validation unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { defaultCRD } from '../../src/crd/defaults.js';
import { validateCRD } from '../../src/crd/validation.js';
import type { CustomResourceDefinition } from '../../src/crd/types.js';
import { strings } from './helpers.js';
import { CORPUS } from '../shared-paths.js';
import { seedVersionCRDs } from '../seed-crds.js';

test('the seed CronTab CRDs are valid', () => {
  const crds = seedVersionCRDs();
  assert.ok(crds.length >= 2, `found ${crds.length}`);
  for (const { line, crd } of crds) {
    assert.equal(crd.metadata.name, 'crontabs.example.com');
    assert.deepEqual(strings(validateCRD(defaultCRD(crd))), [], `seed line ${line}`);
  }
});

test('every corpus CRD is valid after defaulting', () => {
  let count = 0;
  for (const project of readdirSync(CORPUS, { withFileTypes: true })) {
    if (!project.isDirectory()) continue;
    let files: string[];
    try {
      files = readdirSync(`${CORPUS}/${project.name}/crds`).filter((f) => f.endsWith('.yaml'));
    } catch {
      continue;
    }
    for (const f of files) {
      const crd = parse(readFileSync(`${CORPUS}/${project.name}/crds/${f}`, 'utf8')) as CustomResourceDefinition;
      assert.deepEqual(strings(validateCRD(defaultCRD(crd))), [], `${project.name}/${f}`);
      count++;
    }
  }
  assert.ok(count > 100, `only ${count} CRDs found`);
});

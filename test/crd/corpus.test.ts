// Real CRDs that Kubernetes accepts must pass defaulting + validation unchanged.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { parse, parseDocument } from 'yaml';
import { defaultCRD } from '../../src/crd/defaults.js';
import { validateCRD } from '../../src/crd/validation.js';
import type { CustomResourceDefinition } from '../../src/crd/types.js';
import { strings } from './helpers.js';
import { CORPUS, SEEDS } from '../shared-paths.js';

const SEED = `${SEEDS}/001_2ce1448f6cd335f3.txt`;

/** The complete v1 CRD manifests of the versions page: an apiVersion line up to the next blank line. */
function seedCRDs(): Array<[number, CustomResourceDefinition]> {
  const lines = readFileSync(SEED, 'utf8').split('\n');
  const out: Array<[number, CustomResourceDefinition]> = [];
  lines.forEach((line, i) => {
    if (line.trim() !== 'apiVersion: apiextensions.k8s.io/v1') return;
    const indent = line.length - line.trimStart().length;
    const block: string[] = [];
    for (let j = i; j < lines.length && lines[j]!.trim() !== ''; j++) block.push(lines[j]!.slice(indent));
    const doc = parseDocument(block.join('\n'));
    if (doc.errors.length > 0) return;
    const obj = doc.toJS({ maxAliasCount: -1 }) as CustomResourceDefinition;
    if (obj?.kind === 'CustomResourceDefinition' && obj.metadata?.name) out.push([i + 1, obj]);
  });
  return out;
}

test('the seed CronTab CRDs are valid', () => {
  const crds = seedCRDs();
  assert.ok(crds.length >= 2, `found ${crds.length}`);
  for (const [line, crd] of crds) {
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

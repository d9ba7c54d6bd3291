// The complete v1 CRD manifests of the seed's versions page (each an apiVersion line up to the next blank line),
// with the line each starts on: what several suites check against the spec's own examples.
import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
import type { CustomResourceDefinition } from '../src/crd/types.js';
import { SEEDS } from './shared-paths.js';

export const SEED_VERSIONS = `${SEEDS}/001_2ce1448f6cd335f3.txt`;

export function seedVersionCRDs(): Array<{ line: number; crd: CustomResourceDefinition }> {
  const lines = readFileSync(SEED_VERSIONS, 'utf8').split('\n');
  const out: Array<{ line: number; crd: CustomResourceDefinition }> = [];
  lines.forEach((line, i) => {
    if (line.trim() !== 'apiVersion: apiextensions.k8s.io/v1') return;
    const indent = line.length - line.trimStart().length;
    const block: string[] = [];
    for (let j = i; j < lines.length && lines[j]!.trim() !== ''; j++) block.push(lines[j]!.slice(indent));
    const doc = parseDocument(block.join('\n'));
    if (doc.errors.length > 0) return;
    const crd = doc.toJS({ maxAliasCount: -1 }) as CustomResourceDefinition;
    if (crd?.kind === 'CustomResourceDefinition' && crd.metadata?.name) out.push({ line: i + 1, crd });
  });
  return out;
}

// The corpus's apiextensions.k8s.io/v1 CRDs as their manifests have them, each name once (the first project's: some
// CRDs come with more than one project), for tests that write real CRDs through a store.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import type { JSONObject } from '../src/util/json.js';
import { CORPUS } from './shared-paths.js';

export function corpusV1Crds(): JSONObject[] {
  const out = new Map<string, JSONObject>();
  for (const project of readdirSync(CORPUS, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
    const dir = `${CORPUS}/${project}/crds`;
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir).filter((f) => /\.ya?ml$/.test(f)).sort()) {
      for (const doc of parseAllDocuments(readFileSync(`${dir}/${f}`, 'utf8'))) {
        const o = doc.toJS() as JSONObject | null;
        if (o?.['kind'] !== 'CustomResourceDefinition' || o['apiVersion'] !== 'apiextensions.k8s.io/v1') continue;
        const name = (o['metadata'] as JSONObject)['name'] as string;
        if (!out.has(name)) out.set(name, o);
      }
    }
  }
  return [...out.values()];
}

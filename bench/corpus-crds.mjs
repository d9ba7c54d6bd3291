// The corpus CRDs the CRD benchmarks install and check (../shared/corpus/*/crds/*.yaml), without loading a server.
import { readdirSync, readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

const CORPUS = new URL('../../shared/corpus/', import.meta.url);

/** Every corpus CRD (apiextensions v1), by project then file. */
export function corpusCrds() {
  const out = [];
  for (const p of readdirSync(CORPUS, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
    let files = [];
    try {
      files = readdirSync(new URL(`${p}/crds/`, CORPUS)).filter((f) => /\.ya?ml$/.test(f)).sort();
    } catch {
      continue;
    }
    for (const f of files) {
      for (const doc of parseAllDocuments(readFileSync(new URL(`${p}/crds/${f}`, CORPUS), 'utf8'))) {
        const o = doc.toJS();
        if (o?.kind === 'CustomResourceDefinition' && o.apiVersion === 'apiextensions.k8s.io/v1') out.push(o);
      }
    }
  }
  return out;
}

// Every distinct openAPIV3Schema of the corpus's CRDs, as a request body decodes it (JSON), for tests that compare
// a fast path with the general one over real schemas.
import { readdirSync, readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import type { JSONSchemaProps } from '../src/crd/types.js';
import { CORPUS } from './shared-paths.js';

export function corpusSchemas(): JSONSchemaProps[] {
  const seen = new Set<string>();
  const out: JSONSchemaProps[] = [];
  for (const project of readdirSync(CORPUS, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
    let files: string[] = [];
    try {
      files = readdirSync(`${CORPUS}/${project}/crds`).filter((f) => /\.ya?ml$/.test(f)).sort();
    } catch {
      continue;
    }
    for (const f of files) {
      for (const doc of parseAllDocuments(readFileSync(`${CORPUS}/${project}/crds/${f}`, 'utf8'))) {
        const crd = doc.toJS() as { spec?: { versions?: Array<{ schema?: { openAPIV3Schema?: JSONSchemaProps } }> } };
        for (const v of crd?.spec?.versions ?? []) {
          const s = v.schema?.openAPIV3Schema;
          if (!s) continue;
          const text = JSON.stringify(s);
          if (seen.has(text)) continue;
          seen.add(text);
          out.push(JSON.parse(text) as JSONSchemaProps);
        }
      }
    }
  }
  return out;
}

/** Every node of a schema reachable through properties, items and additionalProperties, with its path. */
export function* schemaNodes(s: JSONSchemaProps, path = ''): Generator<[JSONSchemaProps, string]> {
  yield [s, path];
  const props = s['properties'];
  if (props && typeof props === 'object') {
    for (const [k, p] of Object.entries(props as Record<string, JSONSchemaProps>)) if (p && typeof p === 'object') yield* schemaNodes(p, `${path}.properties[${k}]`);
  }
  const items = s['items'];
  if (items && typeof items === 'object' && !Array.isArray(items)) yield* schemaNodes(items as JSONSchemaProps, `${path}.items`);
  const ap = s['additionalProperties'];
  if (ap && typeof ap === 'object') yield* schemaNodes(ap as JSONSchemaProps, `${path}.additionalProperties`);
}

// Whether an old CRD's schema had unpruned defaults (the requirePrunedDefaults ratchet of every CRD update): each
// default is pruned inside its surrounding object with the whole schema, whose pruning is prepared once per
// schema (valuePruner), not compiled again for each default. The answers are those of pruning each default alone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';
import { schemaHasUnprunedDefaults, type SchemaValueChecks } from '../../src/crd/crd-schema-defaults.js';
import { pruneOnlyOnce, pruneOnlyWith, type JSONSchemaProps } from '../../src/schema/compile.js';
import { CORPUS } from '../shared-paths.js';

const pruneValue = (schema: JSONSchemaProps, value: unknown, root: boolean): unknown => {
  const copy = structuredClone(value);
  pruneOnlyOnce(schema, copy, root);
  return copy;
};
const noValidation = (): [] => [];

/** Every corpus CRD version's schema that has a default somewhere. */
function corpusSchemas(): JSONSchemaProps[] {
  const out: JSONSchemaProps[] = [];
  for (const project of readdirSync(CORPUS, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
    let files: string[] = [];
    try {
      files = readdirSync(`${CORPUS}/${project}/crds`).filter((f) => f.endsWith('.yaml'));
    } catch {
      continue;
    }
    for (const f of files) {
      for (const doc of parseAllDocuments(readFileSync(`${CORPUS}/${project}/crds/${f}`, 'utf8'))) {
        const crd = doc.toJS() as { apiVersion?: string; spec?: { versions?: Array<{ schema?: { openAPIV3Schema?: JSONSchemaProps } }> } };
        if (crd?.apiVersion !== 'apiextensions.k8s.io/v1') continue;
        for (const v of crd.spec?.versions ?? []) {
          const s = v.schema?.openAPIV3Schema;
          if (s && JSON.stringify(s).includes('"default"')) out.push(s);
        }
      }
    }
  }
  return out;
}

/** The schema with an object default under spec that keeps a field the schema does not have: unpruned. */
function withUnprunedDefault(schema: JSONSchemaProps): JSONSchemaProps {
  const copy = structuredClone(schema) as Record<string, any>;
  copy['properties'] ??= {};
  copy['properties']['injected'] = { type: 'object', properties: { a: { type: 'string' } }, default: { a: 'x', unknown: 'y' } };
  return copy as JSONSchemaProps;
}

test('every corpus schema with defaults: the same answer with the pruning prepared once as with each default pruned alone, and one preparation', () => {
  const schemas = corpusSchemas();
  assert.ok(schemas.length > 50, `${schemas.length} schemas`);
  let prepared = 0;
  let alone = 0;
  const once: SchemaValueChecks = {
    validateValue: noValidation,
    pruneValue: (s, v, r) => (alone++, pruneValue(s, v, r)),
    valuePruner: (s, r) => {
      prepared++;
      const prune = pruneOnlyWith(s, r);
      return (v) => {
        const copy = structuredClone(v);
        prune(copy);
        return copy;
      };
    },
  };
  const each: SchemaValueChecks = { validateValue: noValidation, pruneValue };
  let unpruned = 0;
  for (const schema of schemas.flatMap((s) => [s, withUnprunedDefault(s)])) {
    const before = prepared;
    const expected = schemaHasUnprunedDefaults(schema, each);
    assert.equal(schemaHasUnprunedDefaults(schema, once), expected);
    assert.ok(prepared - before <= 1, 'one preparation per schema');
    if (expected) unpruned++;
  }
  assert.equal(alone, 0, 'no default pruned on its own when the pruning can be prepared');
  // Each injected default is unpruned (the corpus's own may be too).
  assert.ok(unpruned >= schemas.length, `${unpruned} of ${schemas.length * 2}`);
});

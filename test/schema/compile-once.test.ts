// validateValueOnce and pruneOnlyOnce (what a CRD default's check runs) answer as the compiled schema's
// validateValue and prune({ pruneOnly: true }) do, over every node with a default in the corpus's schemas and
// values that break them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compileSchema, pruneOnlyOnce, validateValueOnce } from '../../src/schema/compile.js';
import { corpusSchemas, schemaNodes } from '../corpus-schemas.js';

/** The default itself, and values of every other shape (unknown fields, wrong types, nested). */
const valuesFor = (dflt: unknown): unknown[] => [
  dflt,
  'x',
  1.5,
  true,
  null,
  [],
  {},
  { unknown: 1 },
  [{ unknown: 1 }, 'x'],
  { metadata: { name: 'n', bogus: 1 }, apiVersion: 'v1', kind: 'K', spec: { unknown: [1] } },
  Array.isArray(dflt) ? [...dflt, { unknown: true }] : dflt && typeof dflt === 'object' ? { ...dflt, unknown: { a: 1 } } : [dflt],
];

/** Whether f threw, and what (pruning's answer is the object pruned in place). */
const outcome = (f: () => unknown): unknown => {
  try {
    f();
    return 'ok';
  } catch (e) {
    return { threw: (e as Error).name, message: (e as Error).message };
  }
};

test('validateValueOnce and pruneOnlyOnce answer as compileSchema over every corpus default', () => {
  let nodes = 0;
  let checked = 0;
  for (const schema of corpusSchemas()) {
    for (const [node, path] of schemaNodes(schema)) {
      if (node['default'] === undefined || node['default'] === null) continue;
      nodes++;
      const prefix = `spec.validation.openAPIV3Schema${path}.default`;
      for (const v of valuesFor(node['default'])) {
        assert.deepEqual(validateValueOnce(node, v, prefix), compileSchema(node, { fieldPathPrefix: prefix }).validateValue(v), `${path}: ${JSON.stringify(v)}`);
        for (const resourceRoot of [true, false]) {
          const a = structuredClone(v);
          const b = structuredClone(v);
          const fast = outcome(() => pruneOnlyOnce(node, a, resourceRoot));
          const general = outcome(() => compileSchema(node).prune(b, { resourceRoot, pruneOnly: true }));
          assert.deepEqual(fast, general, `${path}: ${JSON.stringify(v)}`);
          assert.deepEqual(a, b, `${path} pruned alike: ${JSON.stringify(v)}`);
        }
        checked++;
      }
    }
  }
  assert.ok(nodes > 1000, `${nodes} nodes with defaults`);
  assert.ok(checked > 10000, `${checked} values`);
});

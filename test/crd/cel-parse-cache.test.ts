// parseRule remembers the parse of a rule's text: the same AST as a fresh parse with Kubernetes' options, for every
// rule and messageExpression of the corpus, and still the same after every corpus schema was checked with it (the
// checker, the cost estimator and the planner share the AST and must not change it). Failures are not remembered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRule } from '../../src/crd/cel-compile.js';
import { parse } from '../../src/cel/parser.js';
import { isIssues } from '../../src/cel/issues.js';
import { KUBERNETES_MACROS } from '../../src/cel/macros.js';
import { createCRDSchemaValidator } from '../../src/crd/crd-schema-validate.js';
import { checkValidationRulesUnremembered, withRuleCostTotal } from '../../src/crd/cel-crd-checks.js';
import type { SchemaCheckContext } from '../../src/crd/validation.js';
import { corpusSchemas, schemaNodes } from '../corpus-schemas.js';

const fresh = (text: string): unknown => parse(text, { macros: KUBERNETES_MACROS });

function corpusExpressions(): string[] {
  const out = new Set<string>();
  for (const schema of corpusSchemas()) {
    for (const [node] of schemaNodes(schema)) {
      const rules = node['x-kubernetes-validations'];
      for (const r of Array.isArray(rules) ? (rules as Array<Record<string, unknown>>) : []) {
        if (typeof r['rule'] === 'string') out.add(r['rule']);
        if (typeof r['messageExpression'] === 'string' && r['messageExpression'] !== '') out.add(r['messageExpression']);
      }
    }
  }
  return [...out];
}

test('parseRule: the parse of a fresh parse, the same object again, unchanged by checking every corpus schema', () => {
  const texts = corpusExpressions();
  assert.ok(texts.length > 300, `${texts.length} expressions`);
  const asts = texts.map((t) => parseRule(t));
  for (const [i, t] of texts.entries()) {
    assert.ok(!isIssues(asts[i]), t);
    assert.deepEqual(asts[i], fresh(t), t);
    assert.equal(parseRule(t), asts[i], `remembered: ${t}`);
  }
  // Compile every rule of the corpus (check, cost, plan) on the remembered ASTs.
  const check = withRuleCostTotal(createCRDSchemaValidator({ validateValue: () => [], pruneValue: (_s, v) => v, checkRules: checkValidationRulesUnremembered }));
  const ctx: SchemaCheckContext = { statusEnabled: true, requireStructuralSchema: true, allowDefaults: true };
  for (const schema of corpusSchemas()) assert.deepEqual(check(schema, 'spec.validation.openAPIV3Schema', ctx), []);
  for (const [i, t] of texts.entries()) {
    assert.equal(parseRule(t), asts[i]);
    assert.deepEqual(asts[i], fresh(t), `unchanged after compiling: ${t}`);
  }
});

test('parseRule: a text that fails to parse is parsed again each time, with the same issues', () => {
  const bad = 'self.a ++ 1 (';
  const first = parseRule(bad);
  assert.ok(isIssues(first));
  const second = parseRule(bad);
  assert.notEqual(second, first);
  assert.deepEqual(second, first);
  assert.deepEqual(first, fresh(bad));
});

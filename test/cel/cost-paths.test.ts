// Field paths and sizes as cel-go and Kubernetes' size estimator see them, including their
// quirks: presence tests are free, literal ranges take the rule scope's size, Go's append
// shares backing arrays between sibling paths, and binds carry their init's sizes.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { compile } from '../../src/cel/compile.js';
import { estimateCost } from '../../src/cel/cost-estimator.js';
import { declaredTypeSizeEstimator, kubernetesCallEstimator } from '../../src/cel/cost-estimator-calls.js';
import { STANDARD_LIBRARY } from '../../src/cel/stdlib.js';
import { OPTIONAL_LIBRARY } from '../../src/cel/optional-lib.js';
import { formatIssues } from '../../src/cel/issues.js';
import { Env } from '../../src/cel/env.js';
import type { CheckedAst } from '../../src/cel/ast.js';
import type { Range } from '../../src/cel/decls.js';
import { DYN, INT, STRING, listOf, opaque, type CelType, type FieldDecl, type ObjectType } from '../../src/cel/types.js';

const BASE = new Env([STANDARD_LIBRARY, OPTIONAL_LIBRARY]);
const str = (maxElements: number): CelType => ({ ...STRING, maxElements }) as CelType;
const obj = (fields: Record<string, CelType>, name = 'object'): ObjectType => ({
  kind: 'object',
  name,
  fields: new Map(Object.entries(fields).map(([k, type]): [string, FieldDecl] => [k, { type, jsonName: k }])),
});

function cost(self: CelType, expr: string): Range {
  const env = BASE.withVariables([
    { name: 'self', type: self },
    { name: 'oldSelf', type: self },
  ]);
  const r = compile(env, expr);
  if ('issues' in r) throw new Error(formatIssues(r.issues));
  return estimateCost(r.ast, env);
}

describe('Kubernetes size estimates', () => {
  const spec = obj({ name: str(40), count: INT, labels: { kind: 'map', key: STRING, value: str(40), maxElements: 5 } }, 'object.spec');
  const root = obj({ spec });

  it('sizes declared strings from the schema and scalars as 0', () => {
    // contains: ceil(40 × 0.1) × ceil(1 × 0.1), plus the receiver (3) and argument (0).
    assert.deepEqual(cost(root, "self.spec.name.contains('x')"), { min: 3, max: 7 });
    // An int field reached by a path has size 0, so equality with it costs nothing itself.
    assert.deepEqual(cost(root, 'self.spec.count == 5'), { min: 3, max: 3 });
  });

  it('makes presence tests free', () => {
    assert.deepEqual(cost(root, 'has(self.spec.name)'), { min: 2, max: 2 });
  });

  it('gives iteration variables over literal lists the size of the rule scope', () => {
    // x's path is just ["@items"], which the estimator resolves to `self` itself.
    assert.deepEqual(cost(root, '[1, 2, 3].all(x, x == 5)'), { min: 20, max: 23 });
    assert.deepEqual(cost({ ...listOf(INT), maxElements: 10 }, '[1, 2, 3].all(x, x == 5)'), { min: 20, max: 26 });
  });

  it('lets a two-variable comprehension key share its path with the value (Go append aliasing)', () => {
    // self.spec.labels has a path of length 3 and capacity 4: `@keys` then `@values` are written
    // into the same slot, so k is sized as a value (40 bytes), not as a key (0).
    assert.deepEqual(cost(root, "self.spec.labels.all(k, v, k.contains('x'))"), { min: 4, max: 44 });
    // With a path of length 2 (capacity 2) the appends allocate separately: k keeps size 0.
    const flat = obj({ labels: spec.fields.get('labels')!.type });
    assert.deepEqual(cost(flat, "self.labels.all(k, v, k.contains('x'))"), { min: 3, max: 23 });
  });

  it('carries sizes through cel.bind and dyn', () => {
    // The bind's empty range still costs a list creation (10).
    assert.deepEqual(cost(root, "cel.bind(n, self.spec.name, n.contains('x'))"), { min: 14, max: 18 });
    assert.deepEqual(cost(root, "dyn(self.spec.name).contains('x')"), { min: 4, max: 8 });
  });

  it('prices optional selection as a call', () => {
    assert.deepEqual(cost(root, "self.spec.?name.orValue('')"), { min: 4, max: 4 });
  });

  it('has no sizes without a declared scope', () => {
    const estimator = declaredTypeSizeEstimator(undefined);
    assert.equal(estimator({ path: ['self'], type: DYN, expr: undefined, computedSize: undefined }), undefined);
    const env = BASE.withVariables([{ name: 's', type: STRING }]);
    const r = compile(env, "s.contains('x')");
    assert.ok(!('issues' in r));
    assert.deepEqual(estimateCost(r.ast, env), { min: 1, max: 1844674407370955264 });
  });

  it('walks fields, items, values and keys, and stops at anything else', () => {
    const t: CelType = { kind: 'list', elem: obj({ m: { kind: 'map', key: STRING, value: listOf(INT), maxElements: 3 } }), maxElements: 7 };
    const est = declaredTypeSizeEstimator(t);
    const at = (...path: string[]) => est({ path, type: DYN, expr: undefined, computedSize: undefined });
    assert.deepEqual(at('self'), { min: 0, max: 7 });
    assert.deepEqual(at('oldSelf', '@items', 'm'), { min: 0, max: 3 });
    assert.deepEqual(at('self', '@items', 'm', '@values'), { min: 0, max: 0 });
    assert.deepEqual(at('self', '@items', 'm', '@keys'), { min: 0, max: 0 });
    assert.equal(at('self', '@items', 'nope'), undefined);
    assert.equal(at('self', '@indices'), undefined);
    assert.equal(est({ path: undefined, type: DYN, expr: undefined, computedSize: undefined }), undefined);
  });
});

describe('Kubernetes equality estimates for library types', () => {
  const node = (type: CelType, computedSize?: Range) => ({ path: undefined, type, expr: undefined, computedSize });
  const sizeOf = (n: { computedSize: Range | undefined }): Range => n.computedSize ?? { min: 0, max: 0 };
  const eq = (type: CelType, rhsSize?: Range) => kubernetesCallEstimator('_==_', 'equals', undefined, [node(type), node(type, rhsSize)], sizeOf);

  it('prices O(1) types at 1, formats by their longest name and URLs by the right-hand size', () => {
    assert.deepEqual(eq(opaque('kubernetes.Quantity')), { cost: { min: 1, max: 1 } });
    assert.deepEqual(eq(opaque('net.IP')), { cost: { min: 1, max: 1 } });
    assert.deepEqual(eq(opaque('kubernetes.Semver')), { cost: { min: 1, max: 1 } });
    assert.deepEqual(eq(opaque('kubernetes.NamedFormat')), { cost: { min: 1, max: 7 } });
    assert.deepEqual(eq(opaque('kubernetes.URL'), { min: 10, max: 23 }), { cost: { min: 1, max: 3 } });
    assert.deepEqual(eq(opaque('kubernetes.URL')), { cost: { min: 1, max: 1 } });
    assert.equal(eq(STRING), undefined);
    assert.equal(kubernetesCallEstimator('_==_', 'equals', undefined, [node(opaque('net.IP')), node(opaque('net.CIDR'))], sizeOf), undefined);
  });
});

describe('struct creation', () => {
  it('costs 40 plus its fields', () => {
    // Kubernetes declares no message types; a hand-built checked AST stands in.
    const ast: CheckedAst = {
      expr: {
        id: 1,
        kind: 'struct',
        typeName: 'T',
        fields: [
          { id: 2, field: 'a', value: { id: 3, kind: 'ident', name: 'x' }, optional: false },
          { id: 4, field: 'b', value: { id: 5, kind: 'literal', value: { kind: 'int', value: 1n } }, optional: false },
        ],
      },
      sourceInfo: { source: 'T{a: x, b: 1}', positions: new Map(), macroCalls: new Map() },
      types: new Map([[1, obj({}, 'T')], [3, INT], [5, INT]]),
      references: new Map([[3, { name: 'x' }]]),
    };
    assert.deepEqual(estimateCost(ast, BASE), { min: 41, max: 41 });
  });
});

// Kubernetes' size bounds, cardinalities and cost budget errors for CRD rules
// (k8s.io/apiserver pkg/cel/common/schemas.go, apiextensions validation/cel_validation.go
// and validation.go; cases from cel_validation_test.go TestCostInfo / TestPerCRDEstimatedCost).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import {
  CrdCostTotal,
  MAX_REQUEST_SIZE_BYTES,
  STATIC_ESTIMATED_COST_LIMIT,
  boundedCardinality,
  costErrorMessage,
  maxCardinality,
  maxElementsForSchema,
  messageExpressionCostError,
  ruleCost,
  ruleCostError,
  schemaSizeInfo,
  type CostSchema,
} from '../../src/cel/cost-estimator-k8s.js';
import { MAX_COST } from '../../src/cel/decls.js';

const str: CostSchema = { type: 'string' };
const objWithRequired: CostSchema = {
  type: 'object',
  properties: { required: { type: 'string' }, optional: { type: 'string' } },
  required: ['required'],
};

describe('maxElementsForSchema', () => {
  it('bounds strings by maxLength in bytes, formats, enums or the request size', () => {
    assert.equal(maxElementsForSchema(str), MAX_REQUEST_SIZE_BYTES - 2);
    assert.equal(maxElementsForSchema({ type: 'string', maxLength: 10 }), 40);
    assert.equal(maxElementsForSchema({ type: 'string', maxLength: -3 }), 0);
    assert.equal(maxElementsForSchema({ type: 'string', enum: ['A', 'B', 'C', 'LongValue', 7] }), 9);
    assert.equal(maxElementsForSchema({ type: 'string', enum: ['é'] }), 2);
    assert.equal(maxElementsForSchema({ type: 'string', enum: ['A'], maxLength: 1000 }), 4000);
    assert.equal(maxElementsForSchema({ type: 'string', format: 'byte' }), MAX_REQUEST_SIZE_BYTES - 2);
    assert.equal(maxElementsForSchema({ type: 'string', format: 'byte', maxLength: 5 }), 5);
    assert.equal(maxElementsForSchema({ type: 'string', format: 'date-time', maxLength: 5 }), 32);
    assert.equal(maxElementsForSchema({ type: 'string', format: 'date' }), 12);
    assert.equal(maxElementsForSchema({ type: 'string', format: 'duration', maxLength: 5 }), 32);
    assert.equal(maxElementsForSchema({ 'x-kubernetes-int-or-string': true }), MAX_REQUEST_SIZE_BYTES - 2);
  });

  it('bounds lists and maps by maxItems/maxProperties or what fits into one request', () => {
    const arr = (items: CostSchema, maxItems?: number): CostSchema => ({ type: 'array', items, ...(maxItems === undefined ? {} : { maxItems }) });
    assert.equal(maxElementsForSchema(arr({ type: 'number' })), 1572863);
    assert.equal(maxElementsForSchema(arr(str)), 1048575);
    assert.equal(maxElementsForSchema(arr({ type: 'boolean' })), 629145);
    assert.equal(maxElementsForSchema(arr(arr({ type: 'number' }))), 1048575);
    // {"required":""}: 2 + 8 + 2 + 4 = 16 bytes.
    assert.equal(maxElementsForSchema(arr(objWithRequired)), 185042);
    assert.equal(maxElementsForSchema(arr({ type: 'string', format: 'date-time' })), 142987);
    assert.equal(maxElementsForSchema(arr(str, 25)), 25);
    assert.equal(maxElementsForSchema(arr(str, -1)), 0);
    const map = (v: CostSchema, maxProperties?: number): CostSchema => ({ type: 'object', additionalProperties: v, ...(maxProperties === undefined ? {} : { maxProperties }) });
    assert.equal(maxElementsForSchema(map({ type: 'number' })), 449389);
    assert.equal(maxElementsForSchema(map(str)), 393215);
    assert.equal(maxElementsForSchema(map({ type: 'boolean' })), 314572);
    assert.equal(maxElementsForSchema(map(str, 3)), 3);
  });

  it('gives 0 for unsized types and nothing for unexposed ones', () => {
    assert.equal(maxElementsForSchema({ type: 'integer' }), 0);
    assert.equal(maxElementsForSchema(objWithRequired), 0);
    assert.equal(maxElementsForSchema({ type: 'array' }), undefined);
    assert.equal(maxElementsForSchema({ type: 'array', items: { 'x-kubernetes-preserve-unknown-fields': true } as CostSchema }), undefined);
    assert.equal(maxElementsForSchema({ type: 'object', additionalProperties: {} }), undefined);
  });

  it('counts required properties without defaults in the smallest serialization', () => {
    assert.equal(schemaSizeInfo(objWithRequired)?.minSerializedSize, 16);
    const defaulted: CostSchema = { ...objWithRequired, properties: { required: { type: 'string', default: 'x' } } };
    assert.equal(schemaSizeInfo(defaulted)?.minSerializedSize, 2);
    // Resource roots gain kind/apiVersion/metadata, which are never required.
    assert.equal(schemaSizeInfo({ type: 'object', required: ['kind'], properties: { kind: { type: 'string', default: 'K' } } }, true)?.minSerializedSize, 12);
  });
});

describe('maxCardinality', () => {
  const arr: CostSchema = { type: 'array', items: str };
  const mapS: CostSchema = { type: 'object', additionalProperties: str };
  const obj: CostSchema = { type: 'object', properties: {} };
  const cases: [string, CostSchema[], number | undefined][] = [
    ['object', [obj], 1],
    ['array', [{ ...arr, maxItems: 5 }], 5],
    ['unbounded array', [arr], undefined],
    ['map', [{ ...mapS, maxProperties: 10 }], 10],
    ['unbounded map', [mapS], undefined],
    ['array inside map', [{ ...mapS, maxProperties: 5 }, { ...arr, maxItems: 5 }], 25],
    ['unbounded array inside bounded map', [{ ...mapS, maxProperties: 5 }, arr], undefined],
    ['object inside array', [{ ...arr, maxItems: 3 }, obj], 3],
    ['map inside object inside array', [{ ...arr, maxItems: 2 }, obj, { ...mapS, maxProperties: 4 }], 8],
    ['integer overflow bounds check', [{ ...arr, maxItems: 2 ** 63 - 1 }, { ...arr, maxItems: 100 }], MAX_COST],
  ];
  for (const [name, ancestors, want] of cases) {
    it(name, () => assert.equal(boundedCardinality(ancestors), want));
  }

  it('estimates unbounded cardinality from the rule scope\'s smallest serialization', () => {
    const intList: CostSchema = { type: 'array', items: { type: 'integer' } };
    const root: CostSchema = { type: 'object', properties: { foo: { type: 'array', items: intList } } };
    // A rule on the inner list of an unbounded list: `[]` repeated in 3 MiB.
    assert.equal(maxCardinality([root, root.properties!['foo']!], intList), 1048576);
    assert.equal(maxCardinality([root], root.properties!['foo']!), 1);
    assert.equal(maxCardinality([], root), 1);
    assert.equal(maxCardinality([arr], objWithRequired), Math.floor(MAX_REQUEST_SIZE_BYTES / 17));
    assert.equal(maxCardinality([arr], { type: 'array' }), undefined);
  });
});

describe('cost budget errors', () => {
  it('words the factor as Kubernetes does', () => {
    const tail = ' (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)';
    assert.equal(costErrorMessage('estimated rule cost', 329853068905, STATIC_ESTIMATED_COST_LIMIT), 'estimated rule cost exceeds budget by factor of more than 100x' + tail);
    assert.equal(costErrorMessage('estimated rule cost', 200100000, STATIC_ESTIMATED_COST_LIMIT), 'estimated rule cost exceeds budget by factor of 20.0x' + tail);
    assert.equal(costErrorMessage('estimated rule cost', 10000001, STATIC_ESTIMATED_COST_LIMIT), 'estimated rule cost exceeds budget by factor of 1.000000x' + tail);
    assert.equal(costErrorMessage('estimated rule cost', 12345678, STATIC_ESTIMATED_COST_LIMIT), 'estimated rule cost exceeds budget by factor of 1.234568x' + tail);
    // Exact halves round to even, as Go's strconv.
    assert.equal(costErrorMessage('c', 22500000, STATIC_ESTIMATED_COST_LIMIT), 'c exceeds budget by factor of 2.2x' + tail);
    assert.equal(costErrorMessage('c', 27500000, STATIC_ESTIMATED_COST_LIMIT), 'c exceeds budget by factor of 2.8x' + tail);
    assert.equal(costErrorMessage('c', 10078125, STATIC_ESTIMATED_COST_LIMIT), 'c exceeds budget by factor of 1.007812x' + tail);
    assert.equal(costErrorMessage('c', 1000000000, STATIC_ESTIMATED_COST_LIMIT), 'c exceeds budget by factor of 100.0x' + tail);
  });

  it('reports a rule over the per-expression limit, unless suppressed', () => {
    const path = 'spec.validation.openAPIV3Schema.properties[foo].x-kubernetes-validations[0].rule';
    assert.equal(ruleCostError(path, STATIC_ESTIMATED_COST_LIMIT), undefined);
    const err = ruleCostError(path, ruleCost(329853068907, 1));
    assert.equal(err?.type, 'FieldValueForbidden');
    assert.equal(err?.field, path);
    assert.match(err!.detail, /^estimated rule cost exceeds budget by factor of more than 100x/);
    assert.equal(ruleCostError(path, 1e12, { suppressPerExpressionCost: true }), undefined);
    assert.match(messageExpressionCostError('x.messageExpression', 2e7)!.detail, /^estimated messageExpression cost exceeds budget by factor of 2\.0x/);
    assert.equal(ruleCost(0, 5), 0);
    assert.equal(ruleCost(6291454, 1048576), 6597067669504);
    assert.equal(ruleCost(2, MAX_COST), MAX_COST);
  });

  it('tracks the CRD total and its four most expensive contributions', () => {
    const cases: [number[], number[], number][] = [
      [[], [], 0],
      [[1000000], [1000000], 1000000],
      [[900000], [], 900000],
      [[5000000, 25000000], [25000000, 5000000], 30000000],
      [[5000000, 25000000, 900000], [25000000, 5000000], 30900000],
      [[16000000, 50000000, 34000000, 50000000], [50000000, 50000000, 34000000, 16000000], 150000000],
      [[16000000, 50000000, 900000, 34000000, 50000000, 50000001], [50000001, 50000000, 50000000, 34000000], 200900001],
      [[MAX_COST / 2, MAX_COST / 2, 1, 10, 100, 1000], [MAX_COST / 2, MAX_COST / 2], MAX_COST],
    ];
    for (const [costs, expensive, total] of cases) {
      const t = new CrdCostTotal();
      costs.forEach((c, i) => t.observe(`r${i}`, c));
      assert.deepEqual(t.mostExpensive.map((e) => e.cost), expensive);
      assert.equal(t.total, total);
    }
  });

  it('reports the contributors, then the schema, when the total is over budget', () => {
    const t = new CrdCostTotal();
    t.observe('a.rule', 200100000);
    t.observe('b.rule', 2001000);
    t.observe('c.rule', 3);
    const errs = t.errors('spec.validation.openAPIV3Schema');
    assert.deepEqual(
      errs.map((e) => [e.field, e.detail]),
      [
        ['a.rule', 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'],
        ['b.rule', 'contributed to estimated rule cost total exceeding cost limit for entire OpenAPIv3 schema'],
        [
          'spec.validation.openAPIV3Schema',
          'x-kubernetes-validations estimated rule cost total for entire OpenAPIv3 schema exceeds budget by factor of 2.0x (try simplifying the rule, or adding maxItems, maxProperties, and maxLength where arrays, maps, and strings are declared)',
        ],
      ],
    );
    assert.deepEqual(new CrdCostTotal().errors('x'), []);
  });
});

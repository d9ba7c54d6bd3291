// The scale subresource's model: reading replicas and selector through the CRD's paths with
// unstructured's accessor errors (Go's %v and %T of the value found), writing replicas back, the
// strategy's range checks, and decoding a client's Scale as the typed decoder does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorString } from '../../src/api/field-error.js';
import {
  checkScaleKind,
  decodeScale,
  GoError,
  nestedInt64,
  nestedString,
  scaleFromCustomResource,
  scaleToJSON,
  setNestedField,
  validateScaleSpec,
  validateScaleStatus,
} from '../../src/crd/scale.js';

const paths = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' };

const goError = (f: () => unknown): string => {
  try {
    f();
  } catch (e) {
    assert.ok(e instanceof GoError, String(e));
    return e.message;
  }
  assert.fail('expected a Go error');
};

test('NestedInt64 and NestedString: found, absent (a null on the way counts as absent), or an accessor error', () => {
  assert.deepEqual(nestedInt64({ spec: { replicas: 3 } }, '.spec.replicas'), { value: 3, found: true });
  assert.deepEqual(nestedInt64({ spec: {} }, '.spec.replicas'), { value: 0, found: false });
  assert.deepEqual(nestedInt64({ spec: null }, '.spec.replicas'), { value: 0, found: false });
  assert.deepEqual(nestedString({ status: { selector: 'a=b' } }, '.status.selector'), { value: 'a=b', found: true });
  const cases: Array<[unknown, string]> = [
    ['3', '.spec.replicas accessor error: 3 is of the type string, expected int64'],
    [1.5, '.spec.replicas accessor error: 1.5 is of the type float64, expected int64'],
    [1.5e-7, '.spec.replicas accessor error: 1.5e-07 is of the type float64, expected int64'],
    [true, '.spec.replicas accessor error: true is of the type bool, expected int64'],
    [null, '.spec.replicas accessor error: <nil> is of the type <nil>, expected int64'],
    [[1, 'two'], '.spec.replicas accessor error: [1 two] is of the type []interface {}, expected int64'],
    [{ b: 1, a: 'x' }, '.spec.replicas accessor error: map[a:x b:1] is of the type map[string]interface {}, expected int64'],
  ];
  for (const [v, msg] of cases) assert.equal(goError(() => nestedInt64({ spec: { replicas: v } }, '.spec.replicas')), msg);
  // A non-map on the way names the path up to the key it could not look up.
  assert.equal(goError(() => nestedInt64({ spec: 'x' }, '.spec.replicas')), '.spec.replicas accessor error: x is of the type string, expected map[string]interface{}');
  assert.equal(goError(() => nestedString({ status: { selector: 7 } }, '.status.selector')), '.status.selector accessor error: 7 is of the type int64, expected string');
});

test('SetNestedField creates maps on the way and refuses to go through anything else', () => {
  const obj: Record<string, unknown> = { spec: { image: 'i' } };
  setNestedField(obj, '.spec.scaling.replicas', 4);
  assert.deepEqual(obj, { spec: { image: 'i', scaling: { replicas: 4 } } });
  assert.equal(goError(() => setNestedField({ spec: [] }, '.spec.replicas', 1)), 'value cannot be set because .spec is not a map[string]interface{}');
  assert.equal(goError(() => setNestedField({ spec: null }, '.spec.replicas', 1)), 'value cannot be set because .spec is not a map[string]interface{}');
});

test('scaleFromCustomResource and the Scale as autoscaling/v1 encodes it', () => {
  const cr = {
    metadata: { name: 'n', namespace: 'ns', uid: 'u', resourceVersion: '7', creationTimestamp: '2024-01-01T00:00:00Z', generation: 3, labels: { a: 'b' } },
    spec: { replicas: 2 },
    status: { replicas: 1, selector: 'app=x' },
  };
  const { scale, replicasFound } = scaleFromCustomResource(cr, paths);
  assert.equal(replicasFound, true);
  assert.equal(
    JSON.stringify(scaleToJSON(scale)),
    '{"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"n","namespace":"ns","uid":"u","resourceVersion":"7","creationTimestamp":"2024-01-01T00:00:00Z"},"spec":{"replicas":2},"status":{"replicas":1,"selector":"app=x"}}',
  );
  const bare = scaleFromCustomResource({ metadata: { name: 'n' } }, paths);
  assert.equal(bare.replicasFound, false);
  assert.equal(
    JSON.stringify(scaleToJSON(bare.scale)),
    '{"kind":"Scale","apiVersion":"autoscaling/v1","metadata":{"name":"n","creationTimestamp":null},"spec":{},"status":{"replicas":0}}',
  );
  // int32(x): values past int32 wrap as Go converts them.
  assert.equal(scaleFromCustomResource({ spec: { replicas: 2 ** 32 + 5 } }, paths).scale.specReplicas, 5);
});

test('ValidateScaleSpec and ValidateScaleStatus', () => {
  const errs = (obj: Record<string, unknown>): string[] => [...validateScaleSpec(obj, paths), ...validateScaleStatus(obj, paths)].map(fieldErrorString);
  assert.deepEqual(errs({ spec: { replicas: 1 }, status: { replicas: 0, selector: '' } }), []);
  assert.deepEqual(errs({}), []);
  assert.deepEqual(errs({ spec: { replicas: -1 }, status: { replicas: 2147483648 } }), [
    '.spec.replicas: Invalid value: -1: should be a non-negative integer',
    '.status.replicas: Invalid value: 2147483648: should be less than or equal to 2147483647',
  ]);
  assert.deepEqual(errs({ spec: { replicas: 'x' }, status: { selector: {} } }), [
    '.spec.replicas: Invalid value: 0: .spec.replicas accessor error: x is of the type string, expected int64',
    '.status.selector: Invalid value: "": .status.selector accessor error: map[] is of the type map[string]interface {}, expected string',
  ]);
  assert.deepEqual(validateScaleSpec({ spec: { replicas: -1 } }, undefined), []);
});

test('decoding a client Scale: kinds, types and unknown fields as the typed decoder reports them', () => {
  assert.deepEqual(checkScaleKind({}), { ok: true });
  assert.deepEqual(checkScaleKind({ apiVersion: 'extensions/v1beta1', kind: 'Scale' }), { wrongVersion: 'extensions/v1beta1' });
  const other = checkScaleKind({ apiVersion: 'autoscaling/v2', kind: 'Scale' });
  assert.ok('unregistered' in other);
  assert.equal(other.unregistered.message, 'no kind "Scale" is registered for version "autoscaling/v2" in scheme "k8s.io/client-go/scale/util.go:146"');
  assert.deepEqual(decodeScale({ metadata: { name: 'a', resourceVersion: '4' }, spec: { replicas: 3 }, status: { replicas: 1, selector: 's' } }), {
    name: 'a',
    namespace: '',
    resourceVersion: '4',
    specReplicas: 3,
    strictErrors: [],
  });
  assert.deepEqual(decodeScale({ x: 1, spec: { y: 2 }, status: { z: 3 }, metadata: { w: 4 } }).strictErrors, [
    'unknown field "x"',
    'unknown field "spec.y"',
    'unknown field "status.z"',
    'unknown field "metadata.w"',
  ]);
  const cases: Array<[unknown, string]> = [
    [{ spec: 5 }, 'json: cannot unmarshal number into Go struct field Scale.spec of type v1.ScaleSpec'],
    [{ spec: { replicas: 1.5 } }, 'json: cannot unmarshal number 1.5 into Go struct field ScaleSpec.spec.replicas of type int32'],
    [{ spec: { replicas: [] } }, 'json: cannot unmarshal array into Go struct field ScaleSpec.spec.replicas of type int32'],
    [{ status: { selector: 1 } }, 'json: cannot unmarshal number into Go struct field ScaleStatus.status.selector of type string'],
    [{ metadata: { labels: 'x' } }, 'json: cannot unmarshal string into Go struct field ObjectMeta.metadata.labels of type map[string]string'],
    [{ metadata: [] }, 'json: cannot unmarshal array into Go struct field Scale.metadata of type v1.ObjectMeta'],
  ];
  for (const [v, msg] of cases) assert.equal(goError(() => decodeScale(v)), msg);
});

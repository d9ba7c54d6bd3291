// Issue 15 through the API: a CRD whose rule nests comprehensions deeply is compiled quickly and
// enforced; rules beyond cel-go's parser limits (which Kubernetes leaves at their defaults) are
// refused at CRD creation with kube's messages and field paths.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startApi, type Api } from '../server/helpers.js';
import { assertCreated, assertInvalid, create, createCRD, install, widgetCRD, type WidgetCRD } from '../cel-server/helpers.js';
import { nested, SHAPES } from './cel-work.js';

let api: Api;
before(async () => {
  api = await startApi();
});
after(async () => {
  await api?.close();
});

const replicas = { replicas: { type: 'integer' } };

/** The one cause of a refused CRD: its field and what follows `Invalid value: <rule>: `. */
async function refusal(w: WidgetCRD): Promise<{ field: string; detail: string }> {
  const r = await api.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', w.crd);
  assert.equal(r.status, 422, r.text.slice(0, 500));
  const causes = r.json.details.causes as { field: string; message: string }[];
  assert.equal(causes.length, 1, JSON.stringify(causes).slice(0, 500));
  const m = /^Invalid value: apiextensions\.ValidationRule\{.*\}: (.*)$/s.exec(causes[0]!.message);
  assert.ok(m, causes[0]!.message.slice(0, 300));
  return { field: causes[0]!.field, detail: m[1]! };
}

for (const macro of ['all', 'exists'] as const) {
  test(`a rule of 40 nested ${macro}() is accepted and enforced`, async () => {
    const rule = nested(40, SHAPES[macro]!, 'self.replicas > 0');
    const w = widgetCRD({ type: 'object', 'x-kubernetes-validations': [{ rule, message: 'replicas must be positive' }], properties: replicas });
    const start = Date.now();
    await install(api, w);
    assertCreated(await create(api, w, 'good', { replicas: 1 }));
    assertInvalid(await create(api, w, 'bad', { replicas: 0 }), w, 'bad', 'spec: Invalid value: "object": replicas must be positive');
    // Generous: this takes tens of milliseconds; 22 levels used to exhaust the heap.
    assert.ok(Date.now() - start < 2000, `${Date.now() - start} ms`);
  });
}

test('a rule nested beyond the parser recursion limit is refused with cel-go\'s message', async () => {
  const rule = nested(250, SHAPES['all']!, 'self.replicas > 0');
  const w = widgetCRD({ type: 'object', 'x-kubernetes-validations': [{ rule }], properties: replicas });
  assert.deepEqual(await refusal(w), {
    // One version: kube validates its schema as the hoisted spec.validation.
    field: 'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule',
    detail: 'compilation failed: ERROR: <input>:-1:0: expression recursion limit exceeded: 250',
  });
  // 249 levels around `true` are still within the limit (`self.replicas > 0` nests relation once more).
  const ok = widgetCRD({ type: 'object', 'x-kubernetes-validations': [{ rule: nested(249, SHAPES['all']!, 'true') }], properties: replicas });
  assert.equal((await createCRD(api, ok)).status, 201);
});

test('per-version schemas: the refusal is at spec.versions[i].schema', async () => {
  const w = widgetCRD({ type: 'object', 'x-kubernetes-validations': [{ rule: '('.repeat(300) + 'true' + ')'.repeat(300) }], properties: replicas });
  const v2 = structuredClone(w.crd.spec.versions[0]);
  v2.name = 'v2';
  v2.storage = false;
  v2.schema.openAPIV3Schema.properties.spec = { type: 'object', properties: replicas };
  w.crd.spec.versions.push(v2);
  assert.deepEqual(await refusal(w), {
    field: 'spec.versions[0].schema.openAPIV3Schema.properties[spec].x-kubernetes-validations[0].rule',
    detail: 'compilation failed: ERROR: <input>:-1:0: expression recursion limit exceeded: 250',
  });
});

test('long operator chains, oversized rules and deep messageExpressions are refused', async () => {
  const at = 'spec.validation.openAPIV3Schema.properties[spec].x-kubernetes-validations[0]';
  let w = widgetCRD({ type: 'object', 'x-kubernetes-validations': [{ rule: Array(300).fill('self.replicas').join(' + ') + ' > 0' }], properties: replicas });
  assert.deepEqual(await refusal(w), { field: `${at}.rule`, detail: 'compilation failed: ERROR: <input>:-1:0: max recursion depth exceeded' });
  // Code points, not UTF-16 units or bytes: exactly 100 000 code points (about 200 000 bytes) pass.
  const rule = `self.replicas > 0 || '${'é'.repeat(99_971)}' == ''`;
  w = widgetCRD({ type: 'object', 'x-kubernetes-validations': [{ rule }], properties: replicas });
  assert.equal((await createCRD(api, w)).status, 201);
  w = widgetCRD({ type: 'object', 'x-kubernetes-validations': [{ rule: rule.replace("'é", "'éé") }], properties: replicas });
  assert.deepEqual(await refusal(w), {
    field: `${at}.rule`,
    detail: 'compilation failed: ERROR: <input>:-1:0: expression code point size exceeds limit: size: 100001, limit 100000',
  });
  w = widgetCRD({
    type: 'object',
    'x-kubernetes-validations': [{ rule: 'self.replicas > 0', messageExpression: '['.repeat(300) + ']'.repeat(300) + " == [] ? 'a' : 'b'" }],
    properties: replicas,
  });
  assert.deepEqual(await refusal(w), {
    field: `${at}.messageExpression`,
    detail: 'messageExpression compilation failed: ERROR: <input>:-1:0: expression recursion limit exceeded: 250',
  });
});

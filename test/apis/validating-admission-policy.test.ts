// ValidatingAdmissionPolicy and binding declarations: v1 defaults, kube's validation messages and paths, CEL
// compile errors at write time, the StoredExpressions ratchet on update, and the printers' cells.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fieldErrorString } from '../../src/api/field-error.js';
import type { JSONObject } from '../../src/util/json.js';
import { validatePolicy, validatePolicyUpdate, validateBinding } from '../../src/apis/admissionregistration/v1/vap-validation.js';
import { labelSelectorGoString, validatingAdmissionPolicyBindingKind, validatingAdmissionPolicyKind } from '../../src/apis/admissionregistration/v1/validating-admission-policy.js';

const errs = (e: ReturnType<typeof validatePolicy>): string[] => e.map(fieldErrorString);

const rule = { apiGroups: [''], apiVersions: ['v1'], operations: ['CREATE'], resources: ['configmaps'] };
const policy = (spec: JSONObject, name = 'p'): JSONObject => ({
  metadata: { name },
  spec: { failurePolicy: 'Fail', matchConstraints: { resourceRules: [rule], namespaceSelector: {}, objectSelector: {}, matchPolicy: 'Equivalent' }, ...spec },
});

test('v1 defaults, as the decoder applies them', () => {
  const p: JSONObject = { metadata: { name: 'p' }, spec: { matchConstraints: { resourceRules: [{ ...rule }] }, validations: [{ expression: 'true' }] } };
  validatingAdmissionPolicyKind.strategy.admitBody!(p, 'Strict', []);
  assert.deepEqual(p['spec'], {
    matchConstraints: { resourceRules: [{ ...rule, scope: '*' }], matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} },
    validations: [{ expression: 'true' }],
    failurePolicy: 'Fail',
  });
  const b: JSONObject = { metadata: { name: 'b' }, spec: { policyName: 'p', validationActions: ['Deny'], matchResources: {} } };
  validatingAdmissionPolicyBindingKind.strategy.admitBody!(b, 'Strict', []);
  assert.deepEqual((b['spec'] as JSONObject)['matchResources'], { matchPolicy: 'Equivalent', namespaceSelector: {}, objectSelector: {} });
});

test('policy validation: required fields, rules, reasons, messages, audit annotations', () => {
  assert.deepEqual(errs(validatePolicy({ metadata: { name: 'p' }, spec: {} })), [
    'spec.failurePolicy: Required value',
    'spec.matchConstraints: Required value',
    'spec.validations: Required value: validations or auditAnnotations must contain at least one item',
    'spec.auditAnnotations: Required value: validations or auditAnnotations must contain at least one item',
  ]);
  assert.deepEqual(
    errs(
      validatePolicy(
        policy({
          failurePolicy: 'Sometimes',
          matchConstraints: { resourceRules: [{ apiGroups: ['*', 'x'], apiVersions: [''], operations: ['PATCH'], resources: ['*/*', 'pods'], scope: 'Everywhere' }], matchPolicy: 'Exact' },
          validations: [{ expression: 'true', message: 'two\nlines', reason: 'Teapot' }, { expression: ' ', messageExpression: ' ' }],
          auditAnnotations: [{ key: 'bad key!', valueExpression: '1' }],
        }),
      ),
    ),
    [
      'spec.failurePolicy: Unsupported value: "Sometimes": supported values: "Fail", "Ignore"',
      'spec.matchConstraints.namespaceSelector: Required value',
      'spec.matchConstraints.objectSelector: Required value',
      'spec.matchConstraints.resourceRules[0].operations[0]: Unsupported value: "PATCH": supported values: "*", "CONNECT", "CREATE", "DELETE", "UPDATE"',
      `spec.matchConstraints.resourceRules[0].apiGroups: Invalid value: []string{"*", "x"}: if '*' is present, must not specify other API groups`,
      'spec.matchConstraints.resourceRules[0].apiVersions[0]: Required value',
      `spec.matchConstraints.resourceRules[0].resources: Invalid value: []string{"*/*", "pods"}: if '*/*' is present, must not specify other resources`,
      'spec.matchConstraints.resourceRules[0].scope: Unsupported value: "Everywhere": supported values: "*", "Cluster", "Namespaced"',
      'spec.validations[0].message: Invalid value: "two\\nlines": message must not contain line breaks',
      'spec.validations[0].reason: Unsupported value: "Teapot": supported values: "Forbidden", "Invalid", "RequestEntityTooLarge", "Unauthorized"',
      'spec.validations[1].expression: Required value: expression is not specified',
      'spec.validations[1].messageExpression: Invalid value: " ": must be non-empty if specified',
      `spec.auditAnnotations[0].key: Invalid value: "p/bad key!": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`,
      'spec.auditAnnotations[0].valueExpression: Invalid value: "1": must evaluate to one of [string null_type] but got int',
    ],
  );
});

test('variables: CEL identifiers, compiled in order (a later one sees the earlier ones)', () => {
  assert.deepEqual(
    errs(
      validatePolicy(
        policy({
          variables: [
            { name: 'a', expression: 'variables.b' },
            { name: 'b', expression: '1' },
            { name: 'in', expression: '2' },
            { name: 'c', expression: 'variables.b + 1' },
          ],
          validations: [{ expression: 'variables.c > variables.b' }],
        }),
      ),
    ),
    [
      `spec.variables[0].expression: Invalid value: "variables.b": compilation failed: ERROR: <input>:1:10: undefined field 'b'\n | variables.b\n | .........^`,
      'spec.variables[2].name: Invalid value: "in": name is not a valid CEL identifier',
    ],
  );
});

test('updates compile expressions already stored in the StoredExpressions environment', () => {
  // semver is new in 1.33: new expressions may not use it yet, stored ones may.
  const uses = policy({ validations: [{ expression: "isSemver('1.0.0')" }] });
  assert.match(errs(validatePolicy(uses))[0]!, /undeclared reference to 'isSemver'/);
  const stored: JSONObject = { ...uses, metadata: { name: 'p', resourceVersion: '5' } };
  assert.deepEqual(validatePolicyUpdate(stored, stored), []);
  // A second, new use of it is refused.
  const more = { ...stored, spec: { ...(stored.spec as JSONObject), validations: [{ expression: "isSemver('1.0.0')" }, { expression: "isSemver('2.0.0')" }] } };
  assert.match(errs(validatePolicyUpdate(more, stored)).join('\n'), /^spec.validations\[1\].expression: .*undeclared reference to 'isSemver'/);
});

test('binding validation as kube words it (its misspelt matchResouces path included)', () => {
  assert.deepEqual(errs(validateBinding({ metadata: { name: 'b' }, spec: { validationActions: ['Deny', 'Deny', 'Shout'], matchResources: { matchPolicy: 'Sometimes', namespaceSelector: {}, objectSelector: {} } } })), [
    'spec.policyName: Required value',
    'spec.matchResouces.matchPolicy: Unsupported value: "Sometimes": supported values: "Equivalent", "Exact"',
    'spec.validationActions[1]: Duplicate value: "Deny"',
    'spec.validationActions[2]: Unsupported value: "Shout": supported values: "Audit", "Deny", "Warn"',
  ]);
  assert.deepEqual(errs(validateBinding({ metadata: { name: 'b' }, spec: { policyName: 'p', validationActions: [], paramRef: {} } })), [
    'spec.paramRef: Required value: one of name or selector must be specified',
    'spec.paramRef.parameterNotFoundAction: Required value',
    'spec.validationActions: Required value: at least one validation action is required',
  ]);
});

test('the binding printer shows a selector as gogo-protobuf`s String()', () => {
  assert.equal(
    labelSelectorGoString({ matchLabels: { b: '2', a: '1' }, matchExpressions: [{ key: 'k', operator: 'In', values: ['x', 'y'] }] }),
    '&LabelSelector{MatchLabels:map[string]string{a: 1,b: 2,},MatchExpressions:[]LabelSelectorRequirement{LabelSelectorRequirement{Key:k,Operator:In,Values:[x y],},},}',
  );
});

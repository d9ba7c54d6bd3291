// The type checking kube's ValidatingAdmissionPolicy status controller runs (k8s.io/apiserver
// pkg/admission/plugin/policy/validating/typechecking.go): each validation expression and messageExpression
// compiled again with `object` and `oldObject` typed by the schema of every kind the policy's resource
// rules name (no wildcards; at most 10 kinds), `params` by the paramKind's schema; what fails to compile
// becomes an expressionWarning, "<group>/<version>, Kind=<kind>: <compile error>" per kind.
import type { JSONObject } from '../../util/json.js';
import { isObject } from '../../util/json.js';
import type { CelType } from '../../cel/types.js';
import { admissionEnv, compileExpression, compileVariables } from '../../apis/admissionregistration/v1/vap-cel.js';
import type { GVK } from './matching.js';

const MAX_TYPES_TO_CHECK = 10;

export interface TypeResolver {
  /** KindsFor: the kinds served at group/version/resource. */
  kindsFor(group: string, version: string, resource: string): GVK[];
  /** The CEL type of a kind's objects, or undefined when its schema is not known. */
  schemaType(gvk: GVK): CelType | undefined;
}

export interface ExpressionWarning {
  fieldRef: string;
  warning: string;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const arr = (v: unknown): JSONObject[] => (Array.isArray(v) ? (v.filter(isObject) as JSONObject[]) : []);
const gvkString = (g: GVK): string => `${g.group}/${g.version}, Kind=${g.kind}`;
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** typesToCheck: the kinds of the explicitly named groups, versions and resources, sorted. */
export function typesToCheck(spec: JSONObject, r: TypeResolver): GVK[] {
  const mc = isObject(spec['matchConstraints']) ? (spec['matchConstraints'] as JSONObject) : undefined;
  const found = new Map<string, GVK>();
  let count = 0;
  const sorted = (): GVK[] => [...found.values()].sort((a, b) => cmp(a.group, b.group) || cmp(a.version, b.version) || cmp(a.kind, b.kind));
  for (const rule of arr(mc?.['resourceRules'])) {
    const groups = strings(rule['apiGroups']);
    const versions = strings(rule['apiVersions']);
    if (groups.some((g) => g.includes('*')) || versions.some((v) => v.includes('*'))) continue;
    const resources = strings(rule['resources']).filter((x) => !/[*/]/.test(x));
    if (!groups.length || !versions.length || !resources.length) continue;
    for (const g of [...groups].sort()) {
      for (const v of [...versions].sort()) {
        for (const res of [...resources].sort()) {
          for (const k of r.kindsFor(g, v, res)) {
            found.set(gvkString(k), k);
            if (++count === MAX_TYPES_TO_CHECK) return sorted();
          }
        }
      }
    }
  }
  return sorted();
}

/** TypeChecker.Check. */
export function checkPolicy(policy: JSONObject, r: TypeResolver): ExpressionWarning[] {
  const spec = isObject(policy['spec']) ? (policy['spec'] as JSONObject) : {};
  const kinds = typesToCheck(spec, r).flatMap((gvk) => {
    const t = r.schemaType(gvk);
    return t ? [{ gvk, type: t }] : [];
  });
  const pk = isObject(spec['paramKind']) ? (spec['paramKind'] as JSONObject) : undefined;
  let paramsType: CelType | undefined;
  if (pk) {
    const apiVersion = String(pk['apiVersion'] ?? '');
    const i = apiVersion.indexOf('/');
    paramsType = r.schemaType({ group: i < 0 ? '' : apiVersion.slice(0, i), version: i < 0 ? apiVersion : apiVersion.slice(i + 1), kind: String(pk['kind'] ?? '') });
  }
  // As kube: `params` is declared only when the paramKind's schema resolves.
  const hasParams = paramsType !== undefined;
  const variables = arr(spec['variables']).map((v) => ({ name: String(v['name'] ?? ''), expression: String(v['expression'] ?? '') }));
  const check = (expression: string): string => {
    const out: string[] = [];
    for (const { gvk, type } of kinds) {
      const decl = { hasParams, hasAuthorizer: true, objectType: type, ...(paramsType ? { paramsType } : {}) };
      const vars = compileVariables(variables, () => 'stored', decl);
      const c = compileExpression(admissionEnv('stored', { ...decl, variables: vars.type }), expression, 'any');
      if (c.error) out.push(c.error.type === 'Invalid' ? `${gvkString(gvk)}: ${c.error.detail}\n` : `${gvkString(gvk)}: type checking error: ${c.error.detail}\n`);
    }
    return out.join('\n');
  };
  const warnings: ExpressionWarning[] = [];
  arr(spec['validations']).forEach((v, i) => {
    const w = check(String(v['expression'] ?? ''));
    if (w) warnings.push({ fieldRef: `spec.validations[${i}].expression`, warning: w });
    if (typeof v['messageExpression'] !== 'string' || v['messageExpression'] === '') return;
    const m = check(v['messageExpression']);
    if (m) warnings.push({ fieldRef: `spec.validations[${i}].messageExpression`, warning: m });
  });
  return warnings;
}

// compilePolicy (k8s.io/apiserver pkg/admission/plugin/policy/validating/plugin.go): every expression of a
// policy compiled once, in the StoredExpressions environment, with the policy's variables declared in order.
// The plugin keeps the result per policy generation.
import type { JSONObject } from '../../util/json.js';
import { isObject } from '../../util/json.js';
import { admissionEnv, compileExpression, compileVariables, type CompiledExpression } from '../../apis/admissionregistration/v1/vap-cel.js';

export interface CompiledValidation {
  expression: CompiledExpression;
  message: string;
  reason?: string;
  messageExpression?: CompiledExpression;
}

export interface CompiledPolicy {
  name: string;
  failurePolicy: string;
  paramKind?: { apiVersion: string; kind: string };
  matchConstraints?: JSONObject;
  matchConditions: { name: string; compiled: CompiledExpression }[];
  variables: Map<string, CompiledExpression>;
  variablesType: ReturnType<typeof compileVariables>['type'];
  validations: CompiledValidation[];
  auditAnnotations: { key: string; compiled: CompiledExpression }[];
}

const arr = (v: unknown): JSONObject[] => (Array.isArray(v) ? v.filter(isObject) : []) as JSONObject[];
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export function compilePolicy(policy: JSONObject): CompiledPolicy {
  const meta = (policy['metadata'] ?? {}) as JSONObject;
  const spec = (isObject(policy['spec']) ? policy['spec'] : {}) as JSONObject;
  const pk = isObject(spec['paramKind']) ? (spec['paramKind'] as JSONObject) : undefined;
  const hasParams = pk !== undefined;
  const stored = () => 'stored' as const;
  const vars = compileVariables(
    arr(spec['variables']).map((v) => ({ name: str(v['name']), expression: str(v['expression']) })),
    stored,
    { hasParams, hasAuthorizer: true },
  );
  // At runtime every expression sees `variables` (the composited compiler), messageExpressions no authorizer.
  const env = admissionEnv('stored', { hasParams, hasAuthorizer: true, variables: vars.type });
  const messageEnv = admissionEnv('stored', { hasParams, hasAuthorizer: false, variables: vars.type });
  return {
    name: str(meta['name']),
    failurePolicy: str(spec['failurePolicy']) || 'Fail',
    ...(pk ? { paramKind: { apiVersion: str(pk['apiVersion']), kind: str(pk['kind']) } } : {}),
    ...(isObject(spec['matchConstraints']) ? { matchConstraints: spec['matchConstraints'] as JSONObject } : {}),
    matchConditions: arr(spec['matchConditions']).map((mc) => ({ name: str(mc['name']), compiled: compileExpression(env, str(mc['expression']), 'bool') })),
    variables: vars.compiled,
    variablesType: vars.type,
    validations: arr(spec['validations']).map((v) => ({
      expression: compileExpression(env, str(v['expression']), 'bool'),
      message: str(v['message']),
      ...(typeof v['reason'] === 'string' ? { reason: v['reason'] } : {}),
      ...(str(v['messageExpression']) ? { messageExpression: compileExpression(messageEnv, str(v['messageExpression']), 'string') } : {}),
    })),
    auditAnnotations: arr(spec['auditAnnotations']).map((a) => ({ key: str(a['key']), compiled: compileExpression(env, str(a['valueExpression']), 'stringOrNull') })),
  };
}

// The CEL environment of admission expressions (k8s.io/apiserver pkg/admission/plugin/cel compile.go,
// composition.go): `object`, `oldObject` (dyn), `request` (kubernetes.AdmissionRequest), `namespaceObject`
// (kubernetes.Namespace), `params` (dyn, when the policy has a paramKind), `variables` (an object type
// whose fields are the policy's variables, each typed by its compiled expression, declared in order),
// over the base library set CRD rules use. Compilation as CompileCELExpression words its errors.
import { compile } from '../../../cel/compile.js';
import type { VariableDecl } from '../../../cel/env.js';
type Env = CelEnv;
import { formatIssues } from '../../../cel/issues.js';
import { CelPlanError, plan, type Program } from '../../../cel/program.js';
import { KUBERNETES_MACROS } from '../../../cel/macros.js';
import { BOOL, DYN, NULL, STRING, TIMESTAMP, INT, formatType, listOf, mapOf, type CelType, type ObjectType } from '../../../cel/types.js';
import { newExpressionsEnv, storedExpressionsEnv } from '../../../crd/cel-env.js';
import { Env as CelEnv } from '../../../cel/env.js';
import { AUTHORIZER_TYPE, AUTHZ_LIBRARY, RESOURCE_CHECK_TYPE } from '../../../cel/lib/authz.js';

const K8S_COMPILE = { parse: { macros: KUBERNETES_MACROS } };

const objectType = (name: string, fields: Record<string, CelType>): ObjectType => ({
  kind: 'object',
  name,
  fields: new Map(Object.entries(fields).map(([k, type]) => [k, { type, jsonName: k }])),
});

const GVK = objectType('kubernetes.GroupVersionKind', { group: STRING, version: STRING, kind: STRING });
const GVR = objectType('kubernetes.GroupVersionResource', { group: STRING, version: STRING, resource: STRING });
const USER_INFO = objectType('kubernetes.UserInfo', { username: STRING, uid: STRING, groups: listOf(STRING), extra: mapOf(STRING, listOf(STRING)) });

/** BuildRequestType. */
export const REQUEST_TYPE = objectType('kubernetes.AdmissionRequest', {
  kind: GVK,
  resource: GVR,
  subResource: STRING,
  requestKind: GVK,
  requestResource: GVR,
  requestSubResource: STRING,
  name: STRING,
  namespace: STRING,
  operation: STRING,
  userInfo: USER_INFO,
  dryRun: BOOL,
  options: DYN,
});

/** BuildNamespaceType: the parts of a Namespace admission expressions see. */
export const NAMESPACE_TYPE = objectType('kubernetes.Namespace', {
  metadata: objectType('kubernetes.NamespaceMetadata', {
    name: STRING,
    generateName: STRING,
    namespace: STRING,
    labels: mapOf(STRING, STRING),
    annotations: mapOf(STRING, STRING),
    UID: STRING,
    creationTimestamp: TIMESTAMP,
    deletionGracePeriodSeconds: INT,
    deletionTimestamp: TIMESTAMP,
    generation: INT,
    resourceVersion: STRING,
    finalizers: listOf(STRING),
  }),
  spec: objectType('kubernetes.NamespaceSpec', { finalizers: listOf(STRING) }),
  status: objectType('kubernetes.NamespaceStatus', {
    conditions: listOf(
      objectType('kubernetes.NamespaceCondition', { status: STRING, type: STRING, lastTransitionTime: TIMESTAMP, message: STRING, reason: STRING }),
    ),
    phase: STRING,
  }),
});

/** A fresh `variables` type: its fields are added as the policy's variables compile (compositionState.AddField). */
export const newVariablesType = (): ObjectType => ({ kind: 'object', name: 'kubernetes.variables', fields: new Map() });

export interface DeclOptions {
  hasParams: boolean;
  /** `authorizer` and `authorizer.requestResource` declared (not in messageExpressions). */
  hasAuthorizer: boolean;
  /** The policy's `variables` type; absent: no `variables` declared (a policy without variables, validation's stateless compiler). */
  variables?: ObjectType;
  /** Type checking's overrides: `object` and `oldObject` typed by a matched resource's schema, `params` by the paramKind's. */
  objectType?: CelType;
  paramsType?: CelType;
}

export type EnvMode = 'stored' | 'new';

export function admissionEnv(mode: EnvMode, o: DeclOptions): Env {
  const vars: VariableDecl[] = [
    { name: 'object', type: o.objectType ?? DYN },
    { name: 'oldObject', type: o.objectType ?? DYN },
    { name: 'namespaceObject', type: NAMESPACE_TYPE },
    { name: 'request', type: REQUEST_TYPE },
  ];
  if (o.hasParams) vars.push({ name: 'params', type: o.paramsType ?? DYN });
  if (o.hasAuthorizer) vars.push({ name: 'authorizer', type: AUTHORIZER_TYPE }, { name: 'authorizer.requestResource', type: RESOURCE_CHECK_TYPE });
  if (o.variables) vars.push({ name: 'variables', type: o.variables });
  return baseEnv(mode).withVariables(vars);
}

// The base environments with the authorization library, which kube's base environment carries too.
const envs: Partial<Record<EnvMode, Env>> = {};
const baseEnv = (mode: EnvMode): Env =>
  (envs[mode] ??= new CelEnv([...(mode === 'stored' ? storedExpressionsEnv() : newExpressionsEnv()).libraries, AUTHZ_LIBRARY]));

/** apiservercel.Error: Invalid errors are the author's (field.Invalid), Internal ones ours. */
export interface CelCompileError {
  type: 'Invalid' | 'Internal';
  detail: string;
}

export type ReturnTypes = 'bool' | 'string' | 'any' | 'stringOrNull';

export interface CompiledExpression {
  expression: string;
  program?: Program;
  outputType: CelType;
  error?: CelCompileError;
}

const RETURN_TYPES: Record<Exclude<ReturnTypes, 'any'>, CelType[]> = { bool: [BOOL], string: [STRING], stringOrNull: [STRING, NULL] };

const sameType = (a: CelType, b: CelType): boolean => formatType(a) === formatType(b);

/** CompileCELExpression: parse and check, the output type against the expected ones, then plan. */
export function compileExpression(env: Env, expression: string, returns: ReturnTypes): CompiledExpression {
  const fail = (type: CelCompileError['type'], detail: string): CompiledExpression => ({ expression, outputType: DYN, error: { type, detail } });
  let r: ReturnType<typeof compile>;
  try {
    r = compile(env, expression, K8S_COMPILE);
  } catch (e) {
    return fail('Internal', `unexpected compilation error: ${(e as Error).message}`);
  }
  if ('issues' in r) return fail('Invalid', 'compilation failed: ' + formatIssues(r.issues));
  if (returns !== 'any') {
    const wanted = RETURN_TYPES[returns];
    if (!wanted.some((t) => sameType(t, r.type))) {
      const reason =
        wanted.length === 1
          ? `must evaluate to ${formatType(wanted[0]!)} but got ${formatType(r.type)}`
          : `must evaluate to one of [${wanted.map(formatType).join(' ')}] but got ${formatType(r.type)}`;
      return fail('Invalid', reason);
    }
  }
  try {
    return { expression, program: plan(r.ast, env), outputType: r.type };
  } catch (e) {
    if (e instanceof CelPlanError) return fail('Internal', 'program instantiation failed: ' + e.message);
    throw e;
  }
}

/** convertCelTypeToDeclType: what a variable's type is as a field of `variables`. */
export function variableFieldType(t: CelType): CelType {
  switch (t.kind) {
    case 'primitive':
    case 'null':
    case 'timestamp':
    case 'duration':
    case 'dyn':
      return t;
    case 'list':
      return listOf(variableFieldType(t.elem));
    case 'map':
      return mapOf(variableFieldType(t.key), variableFieldType(t.value));
    default:
      return DYN;
  }
}

/** Compiles the policy's variables in order, each seeing the earlier ones (CompileAndStoreVariables). */
export function compileVariables(
  variables: readonly { name: string; expression: string }[],
  mode: (expression: string) => EnvMode,
  o: Omit<DeclOptions, 'variables'>,
  type: ObjectType = newVariablesType(),
): { type: ObjectType; compiled: Map<string, CompiledExpression>; results: CompiledExpression[] } {
  const compiled = new Map<string, CompiledExpression>();
  const results: CompiledExpression[] = [];
  for (const v of variables) {
    const c = compileExpression(admissionEnv(mode(v.expression), { ...o, variables: type }), v.expression, 'any');
    type.fields.set(v.name, { type: c.error ? DYN : variableFieldType(c.outputType), jsonName: v.name });
    compiled.set(v.name, c);
    results.push(c);
  }
  return { type, compiled, results };
}

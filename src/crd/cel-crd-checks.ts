// x-kubernetes-validations compiled on CRD create and update (apiextensions validation.go, the CEL
// half of ValidateCustomResourceDefinitionOpenAPISchema, and cel_validation.go): compile errors,
// messageExpression errors, static cost limits per expression and per schema, oldSelf on
// uncorrelatable nodes, and optionalOldSelf without oldSelf. Rules already stored in the old CRD
// compile with every library of this release; new ones only with those the previous release has.
import { createHash } from 'node:crypto';
import { type FieldError, internalError, invalid } from '../api/field-error.js';
import { type CostSchema, CrdCostTotal, maxCardinality, messageExpressionCostError, ruleCost, ruleCostError } from '../cel/cost-estimator-k8s.js';
import { JSON_SCHEMA_PROPS_FIELDS, type GoType, goRepr, invalidGo } from './go-types.js';
import type { InternalSpec } from './internal.js';
import { schemaHas, type SchemaStructureValidator } from './validation.js';
import type { ValidationRulesCheck } from './crd-schema-validate.js';
import { type DeclType, declText, schemaDeclType } from './cel-types.js';
import { isObj, type Raw, type Structural } from '../schema/structural-model.js';
import { structuralOnce, withStructuralScope } from './structural-scope.js';
import { type CompiledRule, type EnvLoader, compileRules, readRule } from './cel-compile.js';
import { plan } from '../cel/program.js';
import { stringifyJSON } from '../util/json-int64.js';

const RULE_TYPE: GoType = (() => {
  const t = JSON_SCHEMA_PROPS_FIELDS.find(([, k]) => k === 'x-kubernetes-validations')![2];
  if (t.k !== 'slice') throw new Error('x-kubernetes-validations is a slice');
  return t.elem;
})();

// One TotalCost per openAPIV3Schema being validated, found again from any node through its root.
const totals = new WeakMap<Raw, CrdCostTotal>();

// The structural model of a root schema, and each raw node's place in it.
const structuralIndex = new WeakMap<Raw, Map<Raw, Structural> | null>();

function structuralOf(root: Raw, node: Raw): Structural | undefined {
  let index = structuralIndex.get(root);
  if (index === undefined) {
    const r = structuralOnce(root);
    if ('error' in r) {
      index = null;
    } else {
      index = new Map();
      const add = (s: Structural): void => {
        index!.set(s.raw, s);
        if (s.items) add(s.items);
        for (const p of s.properties?.values() ?? []) add(p);
        if (s.additionalProperties?.structural) add(s.additionalProperties.structural);
      };
      add(r.structural);
    }
    structuralIndex.set(root, index);
  }
  return index?.get(node);
}

/** findPreexistingExpressions: every rule and messageExpression of the old spec's schemas. */
const preexisting = new WeakMap<InternalSpec, { rules: Set<string>; messages: Set<string> }>();

function preexistingLoader(oldSpec: InternalSpec): EnvLoader {
  let p = preexisting.get(oldSpec);
  if (!p) {
    const found = { rules: new Set<string>(), messages: new Set<string>() };
    const visit = (s: Record<string, unknown>): boolean => {
      const xv = s['x-kubernetes-validations'];
      for (const raw of Array.isArray(xv) ? xv : []) {
        const r = readRule(raw);
        found.rules.add(r.rule);
        if (r.messageExpression !== '') found.messages.add(r.messageExpression);
      }
      return false;
    };
    const top = oldSpec.validation?.openAPIV3Schema;
    if (isObj(top)) schemaHas(top, visit);
    for (const v of oldSpec.versions ?? []) {
      const s = v?.schema?.openAPIV3Schema;
      if (isObj(s)) schemaHas(s, visit);
    }
    preexisting.set(oldSpec, (p = found));
  }
  const { rules, messages } = p;
  return (expr, kind) => ((kind === 'rule' ? rules : messages).has(expr) ? 'stored' : 'new');
}

const ruleRepr = (raw: unknown): string => goRepr(raw, RULE_TYPE);

/** What the errors of one node's rules are made of: a compiled rule without its programs. */
type RuleSummary = Pick<CompiledRule, 'rule' | 'error' | 'messageError' | 'messageCompiled' | 'maxCost' | 'messageMaxCost' | 'usesOldSelf' | 'maxCardinality'>;

const summary = (cr: CompiledRule): RuleSummary => ({
  rule: cr.rule,
  ...(cr.error ? { error: cr.error } : {}),
  ...(cr.messageError ? { messageError: cr.messageError } : {}),
  messageCompiled: cr.messageCompiled,
  maxCost: cr.maxCost,
  messageMaxCost: cr.messageMaxCost,
  usesOldSelf: cr.usesOldSelf,
  maxCardinality: cr.maxCardinality,
});

/** Compiled nodes remembered (SHA-256 keys, oldest out first). */
const NODES_REMEMBERED = 4096;
const compiledNodes = new Map<string, RuleSummary[]>();

/**
 * A create's compiled rules of a node, by what they are compiled from: the rules and the node's CEL declaration
 * (compileRules takes the node itself only for the rules' fieldPath, which no error uses). Where the node sits is
 * not in it: the cardinality from its ancestors, the paths and the cost total are applied by the caller on every
 * call. CRD sets repeat nodes with rules (the corpus: 738 such nodes in its distinct schemas, 260 distinct). Only
 * nodes whose every rule compiled are remembered: an error may name the random self type. Updates compile in an
 * environment chosen by the old spec, and are not remembered.
 */
function rememberedCompile(rulesRaw: unknown[], decl: DeclType, compile: () => RuleSummary[]): RuleSummary[] {
  const key = createHash('sha256').update(stringifyJSON(rulesRaw)).update('\n').update(declText(decl)).digest('base64');
  const known = compiledNodes.get(key);
  if (known) return known;
  const out = compile();
  if (out.every((r) => !r.error && !r.messageError)) {
    if (compiledNodes.size >= NODES_REMEMBERED) compiledNodes.delete(compiledNodes.keys().next().value!);
    compiledNodes.set(key, out);
  }
  return out;
}

/** compileRules for one node, summarised. */
function compileNode(rulesRaw: unknown[], node: Structural, decl: DeclType, envLoader: EnvLoader): RuleSummary[] {
  return compileRules(rulesRaw.map(readRule), node, decl, { envLoader, plan }).compiled.map(summary);
}

/** The checkRules hook: kube's errors for one node's x-kubernetes-validations. */
export const checkValidationRules: ValidationRulesCheck = (ctx) => rulesErrors(ctx, true);

/** checkValidationRules compiling every node (the general path the remembered one is tested against). */
export const checkValidationRulesUnremembered: ValidationRulesCheck = (ctx) => rulesErrors(ctx, false);

function rulesErrors(ctx: Parameters<ValidationRulesCheck>[0], remember: boolean): FieldError[] {
  const rulesRaw = Array.isArray(ctx.schema['x-kubernetes-validations']) ? (ctx.schema['x-kubernetes-validations'] as unknown[]) : [];
  if (rulesRaw.length === 0) return [];
  const base = `${ctx.path}.x-kubernetes-validations`;
  const root = ctx.ancestors[0]?.schema ?? ctx.schema;
  const node = structuralOf(root, ctx.schema);
  const decl = node ? schemaDeclType(node, ctx.ancestors.length === 0 || node.extensions.embeddedResource) : undefined;
  if (!node || !decl) {
    return [internalError(base, 'internal error: failed to construct type information for x-kubernetes-validations rules: unable to convert structural schema to CEL declarations')];
  }
  const envLoader: EnvLoader = ctx.update ? preexistingLoader(ctx.update.oldSpec) : () => 'new';
  const compile = (): RuleSummary[] => compileNode(rulesRaw, node, decl, envLoader);
  const results = remember && !ctx.update ? rememberedCompile(rulesRaw, decl, compile) : compile();
  const cardinality = maxCardinality(
    ctx.ancestors.map((a) => a.schema as CostSchema),
    ctx.schema as CostSchema,
  );
  const costOpts = { suppressPerExpressionCost: ctx.update?.schemaUnchanged === true };
  const total = totals.get(root);
  const errs: FieldError[] = [];
  results.forEach((cr: RuleSummary, i) => {
    const rulePath = `${base}[${i}].rule`;
    const msgPath = `${base}[${i}].messageExpression`;
    const cost = ruleCost(cr.maxCost, cardinality ?? cr.maxCardinality);
    const costErr = ruleCostError(rulePath, cost, costOpts);
    if (costErr) errs.push(costErr);
    total?.observe(rulePath, cost);
    if (cr.error) errs.push(invalidGo(rulePath, ruleRepr(rulesRaw[i]), cr.error.detail));
    if (cr.messageError) {
      errs.push(invalidGo(msgPath, ruleRepr(rulesRaw[i]), cr.messageError.detail));
    } else if (cr.messageCompiled) {
      const msgCostErr = messageExpressionCostError(msgPath, cr.messageMaxCost, costOpts);
      if (msgCostErr) errs.push(msgCostErr);
      total?.observe(msgPath, cr.messageMaxCost);
    }
    if (cr.usesOldSelf) {
      if (ctx.uncorrelatablePath !== undefined) {
        errs.push(invalid(rulePath, cr.rule.rule, `oldSelf cannot be used on the uncorrelatable portion of the schema within ${ctx.uncorrelatablePath}`));
      }
    } else if (cr.rule.optionalOldSelf !== undefined) {
      errs.push(invalid(`${base}[${i}].optionalOldSelf`, cr.rule.optionalOldSelf, 'may not be set if oldSelf is not used in rule'));
    }
  });
  return errs;
}

/**
 * The schema validator with the per-schema cost total: rules are checked node by node, and the
 * sum is judged once the whole openAPIV3Schema has been walked.
 */
export function withRuleCostTotal(validate: SchemaStructureValidator): SchemaStructureValidator {
  return (schema, path, ctx) => {
    const total = new CrdCostTotal();
    totals.set(schema, total);
    try {
      const errs = withStructuralScope(schema, () => validate(schema, path, ctx));
      errs.push(...total.errors(path));
      return errs;
    } finally {
      totals.delete(schema);
      structuralIndex.delete(schema);
    }
  };
}

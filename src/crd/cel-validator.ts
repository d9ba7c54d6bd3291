// Running x-kubernetes-validations on custom resource writes (apiextensions pkg/apiserver/schema/cel
// validation.go). The rules of a CRD version compile once into a tree shaped like the schema
// (only the branches that hold rules); each write walks the object along it, with the old object
// correlated for transition rules and ratcheting, within kube's per-call and per-request budgets.
import { type FieldError, duplicate, fieldErrorString, forbidden, goQuote, internalError, invalid, required } from '../api/field-error.js';
import { type Program, plan } from '../cel/program.js';
import { jsonToVal } from '../cel/json-values.js';
import { PER_CALL_LIMIT, RUNTIME_CEL_COST_BUDGET } from '../cel/cost-estimator-k8s.js';
import type { CelType } from '../cel/types.js';
import { CelError, Optional, type Val } from '../cel/values.js';
import { type DeclType, childDecl, schemaDeclType } from './cel-types.js';
import { escapeCelName } from './cel-escaping.js';
import type { NestedValueValidation, Structural } from '../schema/structural-model.js';
import { isObject } from '../util/json.js';
import { type CompiledRule, type ValidationRule, STORED_EXPRESSIONS, compileRules, readRule } from './cel-compile.js';
import { type Ratchet, NO_RATCHET, makeMapList, ratchetIndex, ratchetKey, shouldRatchet } from './cel-correlation.js';

/** celconfig.MaxEvaluatedMessageExpressionSizeBytes. */
const MAX_MESSAGE_EXPRESSION_BYTES = 5 * 1024;

const COST_LIMIT_EXCEEDED = 'operation cancelled: actual cost limit exceeded';

/** The rules of one schema node, and the nodes below it that hold rules. */
interface RuleNode {
  /** The node's schema (for its type, map type and list keys). */
  schema: Structural;
  rules: ValidationRule[];
  compiled: CompiledRule[];
  /** A compile failure for the whole node (no CEL declaration for a schema with rules). */
  compilationError?: string;
  /** The CEL type `self` has here (undefined only together with compilationError). */
  selfType?: CelType;
  usesOldSelf: boolean;
  properties?: Map<string, RuleNode>;
  additionalProperties?: RuleNode;
  items?: RuleNode;
  allOf?: RuleNode[];
}

/** What a node's rules are taken from: the schema itself, or an allOf branch of it. */
interface RuleSource {
  xValidations?: unknown[];
  properties?: Map<string, RuleSource>;
  additionalProperties?: RuleSource;
  items?: RuleSource;
  allOf?: RuleSource[];
}

function fromStructural(s: Structural): RuleSource {
  const src: RuleSource = {};
  if (s.xValidations) src.xValidations = s.xValidations;
  if (s.properties) src.properties = new Map([...s.properties].map(([k, v]) => [k, fromStructural(v)]));
  if (s.additionalProperties?.structural) src.additionalProperties = fromStructural(s.additionalProperties.structural);
  if (s.items) src.items = fromStructural(s.items);
  if (s.valueValidation.allOf) src.allOf = s.valueValidation.allOf.map(fromNested);
  return src;
}

function fromNested(n: NestedValueValidation): RuleSource {
  const src: RuleSource = {};
  if (n.xValidations) src.xValidations = n.xValidations;
  if (n.properties && n.properties.size > 0) src.properties = new Map([...n.properties].map(([k, v]) => [k, fromNested(v)]));
  if (n.additionalProperties) src.additionalProperties = fromNested(n.additionalProperties);
  if (n.items) src.items = fromNested(n.items);
  if (n.valueValidation.allOf) src.allOf = n.valueValidation.allOf.map(fromNested);
  return src;
}

/** hasXValidations: rules anywhere on the structural spine (allOf branches alone do not count). */
function hasRules(s: Structural | undefined): boolean {
  if (!s) return false;
  if ((s.xValidations?.length ?? 0) > 0) return true;
  if (hasRules(s.items) || hasRules(s.additionalProperties?.structural)) return true;
  for (const p of s.properties?.values() ?? []) if (hasRules(p)) return true;
  return false;
}

function buildNode(src: RuleSource, node: Structural, isResourceRoot: boolean, decl: DeclType | undefined): RuleNode | undefined {
  const rules = (src.xValidations ?? []).map(readRule);
  const out: RuleNode = { schema: node, rules, compiled: [], usesOldSelf: false };
  if (rules.length > 0) {
    if (!decl) {
      out.compilationError = 'failed to convert to declType for CEL validation rules';
    } else {
      const c = compileRules(rules, node, decl, { plan, envLoader: STORED_EXPRESSIONS });
      out.compiled = c.compiled;
      out.selfType = c.selfType;
      out.usesOldSelf = c.compiled.some((x) => x.usesOldSelf);
    }
  }
  let any = rules.length > 0;
  if (src.items && node.items) {
    const items = buildNode(src.items, node.items, node.items.extensions.embeddedResource, childDecl(decl, 'items'));
    if (items) out.items = items;
  }
  if (src.properties) {
    for (const [k, sub] of src.properties) {
      const prop = node.properties?.get(k);
      // Only the structural spine can be validated.
      if (!prop) continue;
      let fieldDecl: DeclType | undefined;
      if (escapeCelName(k) !== undefined) {
        // Fields CEL cannot see (unknown types) are not validated at all.
        fieldDecl = childDecl(decl, { property: k });
        if (!fieldDecl) continue;
      } else {
        fieldDecl = schemaDeclType(prop, prop.extensions.embeddedResource);
        if (!fieldDecl) continue;
      }
      const p = buildNode(sub, prop, prop.extensions.embeddedResource, fieldDecl);
      if (p) (out.properties ??= new Map()).set(k, p);
    }
  }
  const ap = node.additionalProperties?.structural;
  if (src.additionalProperties && ap) {
    const a = buildNode(src.additionalProperties, ap, ap.extensions.embeddedResource, childDecl(decl, 'additionalProperties'));
    if (a) out.additionalProperties = a;
  }
  for (const branch of src.allOf ?? []) {
    const b = buildNode(branch, node, isResourceRoot, decl);
    if (b) (out.allOf ??= []).push(b);
  }
  any ||= out.items !== undefined || out.properties !== undefined || out.additionalProperties !== undefined || out.allOf !== undefined;
  return any ? out : undefined;
}

/** The result of validating one write. */
interface CelValidationResult {
  errors: FieldError[];
  /** Errors of unchanged values, downgraded by ratcheting (returned to the client as warnings). */
  warnings: string[];
  /** What is left of the cost budget; negative once evaluation stopped early. */
  remainingBudget: number;
}

export interface CelValidator {
  /**
   * Validates obj (old: the stored object on updates) from the root. `ratchet` carries the
   * correlation of obj and old for ratcheting (updates only).
   */
  validate(obj: unknown, old: unknown, ratchet?: Ratchet, budget?: number): CelValidationResult;
}

/**
 * NewValidator for a CRD version's structural schema: undefined when it has no rules. Built once
 * per CRD version; rules compile here, never per request.
 */
export function compileCelValidator(root: Structural): CelValidator | undefined {
  if (!hasRules(root)) return undefined;
  const tree = buildNode(fromStructural(root), root, true, schemaDeclType(root, true));
  if (!tree) return undefined;
  return {
    validate(obj, old, ratchet = NO_RATCHET, budget = RUNTIME_CEL_COST_BUDGET) {
      const st: WalkState = { errors: [], warnings: [], budget };
      walk(tree, '', obj, old, ratchet, st);
      return { errors: st.errors, warnings: st.warnings, remainingBudget: st.budget };
    },
  };
}

interface WalkState {
  errors: FieldError[];
  warnings: string[];
  budget: number;
}

const at = (path: string): string => path || '<nil>';
const childPath = (path: string, name: string): string => (path ? `${path}.${name}` : name);

function walk(n: RuleNode, path: string, obj: unknown, old: unknown, r: Ratchet, st: WalkState): void {
  if (obj === null || obj === undefined) return;
  validateExpressions(n, path, obj, old, r, st);
  if (st.budget < 0) return;
  for (const branch of n.allOf ?? []) {
    // allOf errors are not ratcheted by the schema either.
    walk(branch, path, obj, old, { parent: r.parent }, st);
    if (st.budget < 0) return;
  }
  if (Array.isArray(obj)) {
    if (!n.items) return;
    // Only items of map lists correlate with old items.
    const olds = makeMapList(n.schema, Array.isArray(old) ? old : undefined);
    for (let i = 0; i < obj.length; i++) {
      walk(n.items, `${path}[${i}]`, obj[i], olds.get(obj[i]), ratchetIndex(r, i), st);
      if (st.budget < 0) return;
    }
    return;
  }
  if (!isObject(obj)) return;
  const mapType = n.schema.extensions.mapType;
  const correlatable = mapType === undefined || mapType === 'granular' || mapType === 'atomic';
  const oldMap = correlatable && isObject(old) ? old : undefined;
  if (n.additionalProperties) {
    for (const [k, v] of Object.entries(obj)) {
      walk(n.additionalProperties, `${path}[${k}]`, v, oldMap?.[k], ratchetKey(r, k), st);
      if (st.budget < 0) return;
    }
  }
  if (n.properties) {
    for (const [k, v] of Object.entries(obj)) {
      const sub = n.properties.get(k);
      if (!sub) continue;
      walk(sub, childPath(path, k), v, oldMap?.[k], ratchetKey(r, k), st);
      if (st.budget < 0) return;
    }
  }
}

const ruleErrorString = (rule: ValidationRule): string => (rule.message.length > 0 ? rule.message.trim() : rule.rule.trim());
const ruleMessageOrDefault = (rule: ValidationRule): string => (rule.message.length === 0 ? `failed rule: ${ruleErrorString(rule)}` : rule.message.trim());

/** fieldErrorForReason: the rule's reason picks the error type. */
function errorForReason(path: string, type: string, detail: string, reason: string | undefined): FieldError {
  switch (reason) {
    case 'FieldValueForbidden':
      return forbidden(path, detail);
    case 'FieldValueRequired':
      return required(path, detail);
    case 'FieldValueDuplicate':
      return duplicate(path, type);
    default:
      return invalid(path, type, detail);
  }
}

function validateExpressions(n: RuleNode, path: string, obj: unknown, old: unknown, r: Ratchet, st: WalkState): void {
  const type = n.schema.generic.type;
  const field = at(path);
  if (n.compilationError !== undefined) {
    st.errors.push(invalid(field, type, `rule compiler initialization error: ${n.compilationError}`));
    return;
  }
  if (n.compiled.length === 0) return;
  if (st.budget <= 0) {
    st.errors.push(invalid(field, type, 'validation failed due to running out of cost budget, no further validation rules will be run'));
    st.budget = -1;
    return;
  }
  const hasOld = old !== null && old !== undefined;
  let self: Val | undefined;
  let oldSelf: Val | undefined;
  const selfVal = (): Val => (self ??= jsonToVal(obj, n.selfType!));
  const oldSelfVal = (): Val => (oldSelf ??= jsonToVal(old, n.selfType!));
  for (const c of n.compiled) {
    const rule = c.rule;
    if (c.error) {
      st.errors.push(invalid(field, type, `rule compile error: ${c.error.detail}`));
      continue;
    }
    if (!c.program) continue; // empty rule
    const optionalOldSelf = rule.optionalOldSelf === true;
    // Transition rules run only when there is an old value to compare with, unless oldSelf is optional.
    if (c.usesOldSelf && !hasOld && !optionalOldSelf) continue;
    const vars: Record<string, Val> = { self: selfVal() };
    if (n.usesOldSelf) {
      if (optionalOldSelf) vars['oldSelf'] = hasOld ? new Optional(oldSelfVal()) : Optional.NONE;
      else if (hasOld) vars['oldSelf'] = oldSelfVal();
    }
    const res = evaluate(c.program, vars);
    if (res.cost > st.budget) {
      st.errors.push(invalid(field, type, 'validation failed due to running out of cost budget, no further validation rules will be run'));
      st.budget = -1;
      return;
    }
    st.budget -= res.cost;
    const value = res.value;
    if (value instanceof CelError) {
      const msg = value.message;
      if (msg.startsWith('no such overload')) {
        // Only possible where type checking was bypassed (int-or-string is dyn).
        st.errors.push(invalid(field, type, `'${msg}': call arguments did not match a supported operator, function or macro signature for rule: ${ruleErrorString(rule)}`));
      } else if (msg.startsWith(COST_LIMIT_EXCEEDED)) {
        st.errors.push(invalid(field, type, `'${msg}': no further validation rules will be run due to call cost exceeds limit for rule: ${ruleErrorString(rule)}`));
        st.budget = -1;
        return;
      } else {
        st.errors.push(invalid(field, type, `${msg} evaluating rule: ${ruleErrorString(rule)}`));
      }
      continue;
    }
    if (value === true) continue;
    const errPath = c.fieldPath ? childPath(path, c.fieldPath) : field;
    const add = (e: FieldError): void => {
      // Unchanged values keep their old errors as warnings (transition rules are never ratcheted).
      if (!c.usesOldSelf && shouldRatchet(r)) st.warnings.push(fieldErrorString(e)); // warning.AddWarning(ctx, "", err.Error())
      else st.errors.push(e);
    };
    if (c.messageProgram) {
      const m = evalMessageExpression(c.messageProgram, rule.messageExpression, vars, st.budget);
      if (m.kind === 'stop') {
        add(m.internal ? internalError(errPath, m.detail) : invalid(errPath, type, m.detail));
        st.budget = -1;
        return;
      }
      st.budget = m.remaining;
      add(errorForReason(errPath, type, m.kind === 'ok' ? m.message : ruleMessageOrDefault(rule), rule.reason));
    } else {
      add(errorForReason(errPath, type, ruleMessageOrDefault(rule), rule.reason));
    }
  }
}

/** One evaluation within the per-call limit; an engine failure reads as an evaluation error. */
function evaluate(p: Program, vars: Record<string, Val>): { value: Val; cost: number } {
  try {
    return p.eval(vars, { costLimit: PER_CALL_LIMIT });
  } catch (e) {
    return { value: new CelError(`internal error: ${(e as Error).message}`), cost: 0 };
  }
}

type MessageResult =
  | { kind: 'ok'; message: string; remaining: number }
  /** Evaluated but unusable: the rule's message stands in. */
  | { kind: 'fallback'; remaining: number }
  /** Evaluation must stop. */
  | { kind: 'stop'; detail: string; internal: boolean };

function evalMessageExpression(p: Program, source: string, vars: Record<string, Val>, remaining: number): MessageResult {
  const res = evaluate(p, vars);
  if (res.cost > remaining) {
    return { kind: 'stop', detail: 'messageExpression evaluation failed due to running out of cost budget, no further validation rules will be run', internal: false };
  }
  const left = remaining - res.cost;
  const v = res.value;
  if (v instanceof CelError) {
    if (v.message.startsWith(COST_LIMIT_EXCEEDED)) {
      return { kind: 'stop', detail: `no further validation rules will be run due to call cost exceeds limit for messageExpression: ${goQuote(source)}`, internal: false };
    }
    return { kind: 'fallback', remaining: left };
  }
  if (typeof v !== 'string') return { kind: 'fallback', remaining: left };
  const msg = v.trim();
  if (Buffer.byteLength(msg) > MAX_MESSAGE_EXPRESSION_BYTES || msg.includes('\n') || msg.length === 0) return { kind: 'fallback', remaining: left };
  return { kind: 'ok', message: msg, remaining: left };
}

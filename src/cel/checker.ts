// The CEL type checker, following cel-go's checker/checker.go: identifier and
// function resolution, overload selection with type-parameter unification,
// field selection, aggregate literals, comprehensions and optional syntax.
// Types and references are recorded per node id; afterwards the Kubernetes
// AST validators run (checker-validators.ts).

import type { CheckedAst, ComprehensionExpr, Expr, ParsedAst, Reference } from './ast.js';
import type { FunctionDecl, Overload } from './decls.js';
import type { Env } from './env.js';
import type { Issue, Issues } from './issues.js';
import {
  BOOL, BYTES, DOUBLE, DYN, ERROR, INT, NULL, STRING, UINT, listOf, mapOf, optionalOf, typeParam, type CelType,
} from './types.js';
import {
  Mapping, formatCelType, isAssignable, isAssignableList, isDyn, isDynOrError, isExactType, mostGeneral,
  overloadTypeParams, substitute, typeName, unwrapOptional,
} from './checker-types.js';
import { runValidators, type AstValidator } from './checker-validators.js';

export interface CheckOptions {
  /** cel.CrossTypeNumericComparisons; on in Kubernetes. */
  crossTypeNumericComparisons?: boolean;
  /** AST validators run after a successful check; the Kubernetes set by default. */
  validators?: readonly AstValidator[];
}

const CROSS_TYPE_NUMERIC_OVERLOADS = new Set([
  'less_double_int64', 'less_double_uint64', 'less_equals_double_int64', 'less_equals_double_uint64',
  'greater_double_int64', 'greater_double_uint64', 'greater_equals_double_int64', 'greater_equals_double_uint64',
  'less_int64_double', 'less_int64_uint64', 'less_equals_int64_double', 'less_equals_int64_uint64',
  'greater_int64_double', 'greater_int64_uint64', 'greater_equals_int64_double', 'greater_equals_int64_uint64',
  'less_uint64_double', 'less_uint64_int64', 'less_equals_uint64_double', 'less_equals_uint64_int64',
  'greater_uint64_double', 'greater_uint64_int64', 'greater_equals_uint64_double', 'greater_equals_uint64_int64',
]);

/** Type-checks a parsed expression; returns the checked AST or cel-go's issues. */
export function check(ast: ParsedAst, env: Env, options: CheckOptions = {}): CheckedAst | Issues {
  const c = new Checker(ast, env, options.crossTypeNumericComparisons ?? true);
  const expr = c.check(ast.expr);
  // Bind what type parameters resolved to; the rest become dyn.
  for (const [id, t] of c.types) c.types.set(id, substitute(c.mappings, t, true));
  if (c.issues.length > 0) return { source: ast.sourceInfo.source, issues: c.issues };
  const checked: CheckedAst = { expr, sourceInfo: ast.sourceInfo, types: c.types, references: c.references };
  const issues = runValidators(checked, env, options.validators);
  if (issues.length > 0) return { source: ast.sourceInfo.source, issues };
  return checked;
}

type Scope = Map<string, CelType>;

class Checker {
  readonly types = new Map<number, CelType>();
  readonly references = new Map<number, Reference>();
  readonly issues: Issue[] = [];
  mappings = new Mapping();
  private freeTypeVars = 0;
  private readonly scopes: Scope[] = [];
  /** cel-go drops the overload filter once a comprehension scope is entered. */
  private filterCrossType: boolean;

  constructor(private readonly ast: ParsedAst, private readonly env: Env, crossType: boolean) {
    this.filterCrossType = !crossType;
  }

  private error(id: number, message: string): void {
    this.issues.push({ message, offset: this.ast.sourceInfo.positions.get(id) });
  }

  private setType(e: Expr, t: CelType): void {
    const old = this.types.get(e.id);
    if (old && !isExactType(old, t)) {
      this.error(e.id, `incompatible type already exists for expression: ${e.id} old:${formatCelType(old)}, new:${formatCelType(t)}`);
      return;
    }
    this.types.set(e.id, t);
  }

  private getType(e: Expr): CelType { return this.types.get(e.id) ?? ERROR; }

  private setReference(e: Expr, r: Reference): void { this.references.set(e.id, r); }

  private newTypeVar(): CelType { return typeParam(`_var${this.freeTypeVars++}`); }

  private assignable(t1: CelType, t2: CelType): boolean {
    const m = isAssignable(this.mappings, t1, t2);
    if (m) { this.mappings = m; return true; }
    return false;
  }

  private lookupIdent(name: string): { name: string; type: CelType } | undefined {
    const n = name.startsWith('.') ? name.slice(1) : name;
    for (let i = this.scopes.length - 1; i >= 0; i--) {
      const t = this.scopes[i]!.get(n);
      if (t) return { name: n, type: t };
    }
    const v = this.env.variables.get(n);
    if (v) return { name: n, type: v };
    const id = this.env.idents.get(n);
    if (id) return { name: n, type: id.type };
    return undefined;
  }

  private lookupFunction(name: string): FunctionDecl | undefined {
    return this.env.functions.get(name.startsWith('.') ? name.slice(1) : name);
  }

  private undeclared(e: Expr, name: string): void {
    this.error(e.id, `undeclared reference to '${name}' (in container '')`);
  }

  /** Checks e, returning the node to use in its place (identifiers and
   * namespaced calls are rewritten to their resolved names, as cel-go does). */
  check(e: Expr): Expr {
    switch (e.kind) {
      case 'literal': {
        const v = e.value;
        this.setType(e, v.kind === 'null' ? NULL : v.kind === 'bool' ? BOOL : v.kind === 'int' ? INT : v.kind === 'uint' ? UINT
          : v.kind === 'double' ? DOUBLE : v.kind === 'string' ? STRING : BYTES);
        return e;
      }
      case 'ident': return this.checkIdent(e);
      case 'select': return this.checkSelect(e);
      case 'call': return this.checkCall(e);
      case 'list': return this.checkList(e);
      case 'map': return this.checkMap(e);
      case 'struct': return this.checkStruct(e);
      case 'comprehension': return this.checkComprehension(e);
    }
  }

  private checkIdent(e: Extract<Expr, { kind: 'ident' }>): Expr {
    const found = this.lookupIdent(e.name);
    if (found) {
      this.setType(e, found.type);
      this.setReference(e, { name: found.name });
      return found.name === e.name ? e : { ...e, name: found.name };
    }
    this.setType(e, ERROR);
    this.undeclared(e, e.name);
    return e;
  }

  private checkSelect(e: Extract<Expr, { kind: 'select' }>): Expr {
    const qname = e.testOnly ? undefined : qualifiedName(e);
    if (qname) {
      const found = this.lookupIdent(qname);
      if (found) {
        this.setType(e, found.type);
        this.setReference(e, { name: found.name });
        return { id: e.id, kind: 'ident', name: found.name };
      }
    }
    const [operand, t] = this.checkSelectField(e, e.operand, e.field, false);
    this.setType(e, substitute(this.mappings, e.testOnly ? BOOL : t, false));
    return operand === e.operand ? e : { ...e, operand };
  }

  private checkOptSelect(e: Extract<Expr, { kind: 'call' }>): Expr {
    const [operandExpr, field] = e.args as [Expr, Expr];
    if (field.kind !== 'literal' || field.value.kind !== 'string') {
      this.error(field.id, 'unsupported optional field selection');
      return e;
    }
    const [operand, t] = this.checkSelectField(e, operandExpr, field.value.value, true);
    this.setType(e, substitute(this.mappings, t, false));
    this.setReference(e, { overloadIds: ['select_optional_field'] });
    return operand === operandExpr ? e : { ...e, args: [operand, field] };
  }

  private checkSelectField(e: Expr, operandExpr: Expr, field: string, optional: boolean): [Expr, CelType] {
    const operand = this.check(operandExpr);
    const operandType = substitute(this.mappings, this.getType(operand), false);
    const [target, isOpt] = unwrapOptional(operandType);
    let result: CelType = ERROR;
    switch (target.kind) {
      case 'map':
        result = target.value;
        break;
      case 'object': {
        const f = target.fields.get(field);
        if (f) result = f.type;
        else this.error(e.id, `undefined field '${field}'`);
        break;
      }
      case 'typeParam':
        this.assignable(DYN, target);
        result = DYN;
        break;
      default:
        if (!isDynOrError(target)) this.error(e.id, `type '${formatCelType(target)}' does not support field selection`);
        result = DYN;
    }
    if (isOpt || optional) result = optionalOf(result);
    return [operand, result];
  }

  private checkCall(e: Extract<Expr, { kind: 'call' }>): Expr {
    if (e.fn === '_?._') return this.checkOptSelect(e);
    const args = this.checkAll(e.args);
    if (!e.target) {
      const fn = this.lookupFunction(e.fn);
      const node = args === e.args && (!fn || fn.name === e.fn) ? e : { ...e, fn: fn?.name ?? e.fn, args };
      if (!fn) {
        this.undeclared(node, e.fn);
        this.setType(node, ERROR);
        return node;
      }
      this.resolveOverloadOrError(node, fn, undefined, args);
      return node;
    }
    // a.b.f(x) may name a namespaced function a.b.f rather than f on a.b.
    const prefix = qualifiedName(e.target);
    if (prefix) {
      const fn = this.lookupFunction(`${prefix}.${e.fn}`);
      if (fn) {
        const node: Expr = { id: e.id, kind: 'call', fn: fn.name, args };
        this.resolveOverloadOrError(node, fn, undefined, args);
        return node;
      }
    }
    const target = this.check(e.target);
    const node = target === e.target && args === e.args ? e : { ...e, target, args };
    const fn = this.lookupFunction(e.fn);
    if (fn) {
      this.resolveOverloadOrError(node, fn, target, args);
      return node;
    }
    this.setType(node, ERROR);
    this.undeclared(node, e.fn);
    return node;
  }

  /** Checks each expression, returning the same array when nothing was rewritten. */
  private checkAll(list: Expr[]): Expr[] {
    let out: Expr[] | undefined;
    for (let i = 0; i < list.length; i++) {
      const r = this.check(list[i]!);
      if (r !== list[i] && !out) out = list.slice(0, i);
      if (out) out.push(r);
    }
    return out ?? list;
  }

  private resolveOverloadOrError(e: Expr, fn: FunctionDecl, target: Expr | undefined, args: Expr[]): void {
    const r = this.resolveOverload(e, fn, target, args);
    if (!r) { this.setType(e, ERROR); return; }
    this.setType(e, r.type);
    this.setReference(e, { overloadIds: r.ids });
  }

  private resolveOverload(call: Expr, fn: FunctionDecl, target: Expr | undefined, args: Expr[]): { type: CelType; ids: string[] } | undefined {
    const argTypes: CelType[] = [];
    if (target) argTypes.push(this.getType(target));
    for (const a of args) argTypes.push(this.getType(a));
    let resultType: CelType | undefined;
    const ids: string[] = [];
    for (const o of fn.overloads) {
      if (this.filterCrossType && CROSS_TYPE_NUMERIC_OVERLOADS.has(o.id)) continue;
      if (!!target !== !!o.member) continue;
      if (fn.name === '_&&_' || fn.name === '_||_') {
        let bad = false;
        argTypes.forEach((t, i) => {
          if (!this.assignable(t, BOOL)) {
            this.error(args[i]!.id, `expected type 'bool' but found '${formatCelType(t)}'`);
            bad = true;
          }
        });
        return bad ? undefined : { type: BOOL, ids: [o.id] };
      }
      const [paramTypes, result] = this.instantiate(o);
      const m = isAssignableList(this.mappings, argTypes, paramTypes);
      if (!m) continue;
      this.mappings = m;
      ids.push(o.id);
      const fnResult = substitute(this.mappings, result, false);
      if (!resultType) resultType = fnResult;
      else if (!isDyn(resultType) && !isExactType(fnResult, resultType)) resultType = DYN;
    }
    if (!resultType) {
      const shown = argTypes.map((t) => formatCelType(substitute(this.mappings, t, true)));
      const signature = target ? `${shown[0]}.(${shown.slice(1).join(', ')})` : `(${shown.join(', ')})`;
      this.error(call.id, `found no matching overload for '${fn.name}' applied to '${signature}'`);
      return undefined;
    }
    return { type: resultType, ids };
  }

  /** The overload's parameter and result types with fresh type variables. */
  private instantiate(o: Overload): [CelType[], CelType] {
    const names = overloadTypeParams(o);
    if (names.length === 0) return [o.params, o.result];
    const fresh = new Mapping();
    for (const n of names) fresh.add(typeParam(n), this.newTypeVar());
    return [o.params.map((p) => substitute(fresh, p, false)), substitute(fresh, o.result, false)];
  }

  private checkList(e: Extract<Expr, { kind: 'list' }>): Expr {
    const elements = this.checkAll(e.elements);
    const optionals = e.optionalIndices;
    let elemType: CelType | undefined;
    elements.forEach((el, i) => {
      let t = this.getType(el);
      if (optionals.length > 0 && optionals.includes(i)) {
        const [inner, isOpt] = unwrapOptional(t);
        t = inner;
        if (!isOpt && !isDyn(t)) this.error(el.id, `expected type '${formatCelType(optionalOf(t))}' but found '${formatCelType(t)}'`);
      }
      elemType = this.joinTypes(elemType, t);
    });
    const node = elements === e.elements ? e : { ...e, elements };
    this.setType(node, listOf(elemType ?? this.newTypeVar()));
    return node;
  }

  private checkMap(e: Extract<Expr, { kind: 'map' }>): Expr {
    let keyType: CelType | undefined;
    let valueType: CelType | undefined;
    let changed = false;
    const entries = e.entries.map((en) => {
      const key = this.check(en.key);
      keyType = this.joinTypes(keyType, this.getType(key));
      const value = this.check(en.value);
      let vt = this.getType(value);
      if (en.optional) {
        const [inner, isOpt] = unwrapOptional(vt);
        vt = inner;
        if (!isOpt && !isDyn(vt)) this.error(value.id, `expected type '${formatCelType(optionalOf(vt))}' but found '${formatCelType(vt)}'`);
      }
      valueType = this.joinTypes(valueType, vt);
      if (key === en.key && value === en.value) return en;
      changed = true;
      return { ...en, key, value };
    });
    const node = changed ? { ...e, entries } : e;
    if (!keyType) { keyType = this.newTypeVar(); valueType = this.newTypeVar(); }
    this.setType(node, mapOf(keyType, valueType!));
    return node;
  }

  /** cel-go without HomogeneousAggregateLiterals in the checker: mixed types join to dyn. */
  private joinTypes(previous: CelType | undefined, current: CelType): CelType {
    if (!previous) return current;
    if (this.assignable(previous, current)) return mostGeneral(previous, current);
    return DYN;
  }

  private checkStruct(e: Extract<Expr, { kind: 'struct' }>): Expr {
    const found = this.lookupIdent(e.typeName);
    if (!found) {
      this.undeclared(e, e.typeName);
      this.setType(e, ERROR);
      return e;
    }
    this.setReference(e, { name: found.name });
    let resultType: CelType = ERROR;
    const t = found.type;
    if (t.kind !== 'error') {
      if (t.kind !== 'type') this.error(e.id, `'${typeName(t)}' is not a type`);
      else if (t.param?.kind === 'object') resultType = t.param;
      else this.error(e.id, `'${t.param ? typeName(t.param) : 'type'}' is not a message type`);
    }
    this.setType(e, resultType);
    let changed = false;
    const fields = e.fields.map((f) => {
      const value = this.check(f.value);
      let fieldType: CelType = ERROR;
      if (resultType.kind === 'object') {
        const decl = resultType.fields.get(f.field);
        if (decl) fieldType = decl.type;
        else this.error(f.id, `undefined field '${f.field}'`);
      }
      let vt = this.getType(value);
      if (f.optional) {
        const [inner, isOpt] = unwrapOptional(vt);
        vt = inner;
        if (!isOpt && !isDyn(vt)) this.error(value.id, `expected type '${formatCelType(optionalOf(vt))}' but found '${formatCelType(vt)}'`);
      }
      if (!this.assignable(fieldType, vt)) {
        this.error(f.id, `expected type of field '${f.field}' is '${formatCelType(fieldType)}' but provided type is '${formatCelType(vt)}'`);
      }
      if (value === f.value) return f;
      changed = true;
      return { ...f, value };
    });
    const name = found.name;
    return changed || name !== e.typeName ? { ...e, typeName: name, fields } : e;
  }

  private checkComprehension(e: ComprehensionExpr): Expr {
    const iterRange = this.check(e.iterRange);
    const accuInit = this.check(e.accuInit);
    const rangeType = substitute(this.mappings, this.getType(iterRange), false);
    const accuType = this.getType(accuInit);
    this.filterCrossType = false;
    this.scopes.push(new Map([[e.accuVar, accuType]]));
    let varType: CelType;
    let var2Type: CelType | undefined;
    const twoVars = e.iterVar2 !== undefined;
    switch (rangeType.kind) {
      case 'list':
        varType = rangeType.elem;
        if (twoVars) { var2Type = varType; varType = INT; }
        break;
      case 'map':
        varType = rangeType.key;
        if (twoVars) var2Type = rangeType.value;
        break;
      case 'dyn': case 'error': case 'typeParam':
        this.assignable(DYN, rangeType);
        varType = DYN;
        if (twoVars) var2Type = DYN;
        break;
      default:
        this.error(iterRange.id, `expression of type '${formatCelType(rangeType)}' cannot be range of a comprehension (must be list, map, or dynamic)`);
        varType = ERROR;
        if (twoVars) var2Type = ERROR;
    }
    const loopScope: Scope = new Map([[e.iterVar, varType]]);
    if (twoVars) loopScope.set(e.iterVar2!, var2Type!);
    this.scopes.push(loopScope);
    const loopCondition = this.check(e.loopCondition);
    this.assertType(loopCondition, BOOL);
    const loopStep = this.check(e.loopStep);
    this.assertType(loopStep, accuType);
    this.scopes.pop();
    const result = this.check(e.result);
    this.scopes.pop();
    const node = iterRange === e.iterRange && accuInit === e.accuInit && loopCondition === e.loopCondition
      && loopStep === e.loopStep && result === e.result
      ? e : { ...e, iterRange, accuInit, loopCondition, loopStep, result };
    this.setType(node, substitute(this.mappings, this.getType(result), false));
    return node;
  }

  private assertType(e: Expr, t: CelType): void {
    const actual = this.getType(e);
    if (!this.assignable(t, actual)) {
      this.error(e.id, `expected type '${formatCelType(t)}' but found '${formatCelType(actual)}'`);
    }
  }
}

/** `a.b.c` as a name, when the expression is a chain of plain selects on an identifier. */
function qualifiedName(e: Expr): string | undefined {
  if (e.kind === 'ident') return e.name;
  if (e.kind === 'select' && !e.testOnly) {
    const prefix = qualifiedName(e.operand);
    return prefix === undefined ? undefined : `${prefix}.${e.field}`;
  }
  return undefined;
}


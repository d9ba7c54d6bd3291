// Type relations used by the checker, following cel-go's checker/types.go and
// common/types: kinds, exact and equivalent identity, assignability with type
// parameter unification (a substitution mapping), the most general of two
// unifiable types, and substitution.

import type { Overload } from './decls.js';
import { DYN, type CelType } from './types.js';

/** The type as cel-go's checker prints it in messages (FormatCELType). */
export function formatCelType(t: CelType): string {
  switch (t.kind) {
    case 'primitive': return t.name;
    case 'null': return 'null';
    case 'dyn': return 'dyn';
    case 'error': return '!error!';
    case 'timestamp': return 'timestamp';
    case 'duration': return 'duration';
    case 'typeParam': return t.name;
    case 'object': return t.name;
  }
  const ps = params(t);
  if (ps.length === 0) return typeName(t);
  return `${typeName(t)}(${ps.map(formatCelType).join(', ')})`;
}

/** cel-go's runtime type name (TypeName()). */
export function typeName(t: CelType): string {
  switch (t.kind) {
    case 'primitive': return t.name;
    case 'null': return 'null_type';
    case 'dyn': return 'dyn';
    case 'error': return '*error*';
    case 'timestamp': return 'google.protobuf.Timestamp';
    case 'duration': return 'google.protobuf.Duration';
    case 'list': return 'list';
    case 'map': return 'map';
    case 'type': return 'type';
    case 'opaque': return t.name;
    case 'object': return t.name;
    case 'typeParam': return t.name;
  }
}

const NO_PARAMS: CelType[] = [];

export function params(t: CelType): CelType[] {
  switch (t.kind) {
    case 'list': return [t.elem];
    case 'map': return [t.key, t.value];
    case 'type': return t.param ? [t.param] : NO_PARAMS;
    case 'opaque': return t.params;
    default: return NO_PARAMS;
  }
}

/** A kind key that separates primitives (cel-go's Kind). */
function kindKey(t: CelType): string {
  return t.kind === 'primitive' ? t.name : t.kind;
}

export const isDyn = (t: CelType): boolean => t.kind === 'dyn';
export const isError = (t: CelType): boolean => t.kind === 'error';
export const isDynOrError = (t: CelType): boolean => t.kind === 'dyn' || t.kind === 'error';

export function unwrapOptional(t: CelType): [CelType, boolean] {
  return t.kind === 'opaque' && t.name === 'optional_type' ? [t.params[0] ?? DYN, true] : [t, false];
}

function sameType(a: CelType, b: CelType, checkParamNames: boolean): boolean {
  if (a === b) return true;
  if (kindKey(a) !== kindKey(b)) return false;
  const pa = params(a);
  const pb = params(b);
  if (pa.length !== pb.length) return false;
  if ((checkParamNames || a.kind !== 'typeParam') && typeName(a) !== typeName(b)) return false;
  for (let i = 0; i < pa.length; i++) if (!sameType(pa[i]!, pb[i]!, checkParamNames)) return false;
  return true;
}

/** IsExactType: same kind, name and parameters (type parameter names included). */
export const isExactType = (a: CelType, b: CelType): boolean => sameType(a, b, true);
/** IsEquivalentType: as exact, ignoring type parameter names. */
export const isEquivalentType = (a: CelType, b: CelType): boolean => sameType(a, b, false);

/** common/types IsAssignableType: can `to` hold a value of type `from`. */
function typeAssignableFrom(to: CelType, from: CelType): boolean {
  if (to === from || to.kind === 'dyn' || to.kind === 'typeParam') return true;
  if (kindKey(to) !== kindKey(from) || typeName(to) !== typeName(from)) return false;
  const pt = params(to);
  const pf = params(from);
  if (pt.length !== pf.length) return false;
  for (let i = 0; i < pt.length; i++) if (!typeAssignableFrom(pt[i]!, pf[i]!)) return false;
  return true;
}

/** Type parameter bindings, keyed by the formatted parameter (as cel-go). */
export class Mapping {
  private readonly m = new Map<string, CelType>();
  /** What each add replaced, for rolling back a failed unification (cel-go copies the whole
   * mapping per attempt instead, which makes checking quadratic in the number of calls). */
  private readonly journal: { key: string; prev: CelType | undefined }[] = [];
  add(from: CelType, to: CelType): void {
    const key = formatCelType(from);
    this.journal.push({ key, prev: this.m.get(key) });
    this.m.set(key, to);
  }
  find(from: CelType): CelType | undefined {
    return this.m.size === 0 ? undefined : this.m.get(formatCelType(from));
  }
  mark(): number {
    return this.journal.length;
  }
  /** Undoes the adds since `mark`. */
  rollback(mark: number): void {
    while (this.journal.length > mark) {
      const { key, prev } = this.journal.pop()!;
      if (prev === undefined) this.m.delete(key);
      else this.m.set(key, prev);
    }
  }
}

function isEqualOrLessSpecific(t1: CelType, t2: CelType): boolean {
  if (t1.kind === 'dyn' || t1.kind === 'typeParam') return true;
  if (t2.kind === 'dyn' || t2.kind === 'typeParam') return false;
  if (kindKey(t1) !== kindKey(t2)) return false;
  switch (t1.kind) {
    case 'opaque': {
      const p1 = t1.params;
      const p2 = params(t2);
      if (typeName(t1) !== typeName(t2) || p1.length !== p2.length) return false;
      return p1.every((p, i) => isEqualOrLessSpecific(p, p2[i]!));
    }
    case 'list': return isEqualOrLessSpecific(t1.elem, (t2 as typeof t1).elem);
    case 'map': {
      const m2 = t2 as typeof t1;
      return isEqualOrLessSpecific(t1.key, m2.key) && isEqualOrLessSpecific(t1.value, m2.value);
    }
    case 'type': return true;
    default: return isExactType(t1, t2);
  }
}

/** The more general of two types known to unify. */
export function mostGeneral(t1: CelType, t2: CelType): CelType {
  return isEqualOrLessSpecific(t1, t2) ? t1 : t2;
}

function isLegacyNullable(t: CelType): boolean {
  return t.kind === 'opaque' || t.kind === 'object' || t.kind === 'duration' || t.kind === 'timestamp';
}

function assignableNull(t: CelType): boolean {
  return isLegacyNullable(t) || typeAssignableFrom(t, { kind: 'null' });
}

function internalIsAssignable(m: Mapping, t1: CelType, t2: CelType): boolean {
  if (t2.kind === 'typeParam') {
    const [valid, t2HasSub] = isValidTypeSubstitution(m, t1, t2);
    if (valid) return true;
    if (t2HasSub) return false;
  }
  if (t1.kind === 'typeParam') return isValidTypeSubstitution(m, t2, t1)[0];
  if (isDynOrError(t1) || isDynOrError(t2)) return true;
  if (t1.kind === 'null') return assignableNull(t2);
  if (t2.kind === 'null') return assignableNull(t1);
  switch (t1.kind) {
    case 'primitive': case 'duration': case 'timestamp': case 'object':
      return typeAssignableFrom(t2, t1);
    case 'type':
      return t2.kind === 'type';
    case 'opaque': case 'list': case 'map':
      return kindKey(t1) === kindKey(t2) && typeName(t1) === typeName(t2) && internalIsAssignableList(m, params(t1), params(t2));
    default:
      return false;
  }
}

function isValidTypeSubstitution(m: Mapping, t1: CelType, t2: CelType): [valid: boolean, hasSub: boolean] {
  if (kindKey(t1) === kindKey(t2) && isExactType(t1, t2)) return [true, true];
  const t2Sub = m.find(t2);
  if (t2Sub) {
    if (kindKey(t1) === kindKey(t2Sub) && isExactType(t1, t2Sub)) return [true, true];
    if (internalIsAssignable(m, t1, t2Sub)) {
      const t2New = mostGeneral(t1, t2Sub);
      if (notReferencedIn(m, t2, t2New)) m.add(t2, t2New);
      return [true, true];
    }
    return [false, true];
  }
  if (notReferencedIn(m, t2, t1)) {
    m.add(t2, t1);
    return [true, false];
  }
  return [false, false];
}

function internalIsAssignableList(m: Mapping, l1: CelType[], l2: CelType[]): boolean {
  if (l1.length !== l2.length) return false;
  for (let i = 0; i < l1.length; i++) if (!internalIsAssignable(m, l1[i]!, l2[i]!)) return false;
  return true;
}

/** The occurs check of unification. */
function notReferencedIn(m: Mapping, t: CelType, within: CelType): boolean {
  if (isExactType(t, within)) return false;
  switch (within.kind) {
    case 'typeParam': {
      const sub = m.find(within);
      return sub ? notReferencedIn(m, t, sub) : true;
    }
    case 'opaque': case 'list': case 'map': case 'type':
      return params(within).every((p) => notReferencedIn(m, t, p));
    default:
      return true;
  }
}

/** An updated mapping if t1 is assignable to t2, else undefined. */
/** `m` updated in place if t1 is assignable to t2; else undefined, with `m` as it was. */
export function isAssignable(m: Mapping, t1: CelType, t2: CelType): Mapping | undefined {
  const mark = m.mark();
  if (internalIsAssignable(m, t1, t2)) return m;
  m.rollback(mark);
  return undefined;
}

export function isAssignableList(m: Mapping, l1: CelType[], l2: CelType[]): Mapping | undefined {
  const mark = m.mark();
  if (internalIsAssignableList(m, l1, l2)) return m;
  m.rollback(mark);
  return undefined;
}

/** Replaces bound type parameters (and unbound ones by dyn when toDyn). Types
 * without parameters to replace come back as the same object, keeping any
 * schema details (list semantics, size bounds) they carry. */
export function substitute(m: Mapping, t: CelType, toDyn: boolean): CelType {
  const sub = m.find(t);
  if (sub) return substitute(m, sub, toDyn);
  switch (t.kind) {
    case 'typeParam': return toDyn ? DYN : t;
    case 'list': {
      const e = substitute(m, t.elem, toDyn);
      return e === t.elem ? t : { ...t, elem: e };
    }
    case 'map': {
      const k = substitute(m, t.key, toDyn);
      const v = substitute(m, t.value, toDyn);
      return k === t.key && v === t.value ? t : { ...t, key: k, value: v };
    }
    case 'type': {
      if (!t.param) return t;
      const p = substitute(m, t.param, toDyn);
      return p === t.param ? t : { kind: 'type', param: p };
    }
    case 'opaque': {
      let changed = false;
      const ps = t.params.map((p) => { const s = substitute(m, p, toDyn); if (s !== p) changed = true; return s; });
      return changed ? { kind: 'opaque', name: t.name, params: ps } : t;
    }
    default: return t;
  }
}

const typeParamCache = new WeakMap<Overload, string[]>();

/** The type parameter names an overload's signature mentions. */
export function overloadTypeParams(o: Overload): string[] {
  let names = typeParamCache.get(o);
  if (!names) {
    const seen = new Set<string>();
    const visit = (t: CelType): void => {
      if (t.kind === 'typeParam') seen.add(t.name);
      else for (const p of params(t)) visit(p);
    };
    o.params.forEach(visit);
    visit(o.result);
    names = [...seen];
    typeParamCache.set(o, names);
  }
  return names;
}

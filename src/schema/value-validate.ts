// The runtime of the OpenAPI value validator kube-apiserver runs on custom resources
// (k8s.io/kube-openapi pkg/validation/validate, as apiextensions' ValidateCustomResource drives
// it): the per-run state, and the helpers the generated validators (value-codegen.ts) call to
// report errors and to run logical junctors. Messages, error order, MatchCount-based anyOf/oneOf
// error selection and the conversion into field errors (kubeOpenAPIResultToFieldErrors) follow
// kube 1.33. Paths are a stack of segments, rendered only when an error is reported.
import { RE2JS } from 're2js';
import {
  type FieldError,
  goQuote,
  invalid,
  notSupported,
  required as requiredError,
  tooLong,
  tooMany,
  typeInvalid,
} from '../api/field-error.js';
import { goBadValue, goFloat, goV, isFloat64AJSONInteger, isGoInt, jsonEqual, runeCount } from './value-go.js';

export type JSONSchemaProps = Record<string, unknown>;

interface ReportedError {
  /** kube-openapi's message: what Result.AddErrors de-duplicates on. */
  msg: string;
  fe: FieldError;
}

export const SEG_RAW = 0; // a property suffix rendered at compile time ("name" or ".name")
export const SEG_KEY = 1; // an additionalProperties key: ".key"
export const SEG_INDEX = 2; // "[i]"

/** Mutable state of one validation run; one per compiled schema, reset per call. */
export class ValidationState {
  segs: Array<string | number> = [];
  kinds: number[] = [];
  depth = 0;
  errs: ReportedError[] | null = null;
  /** Errors reported so far (counted even while probing). */
  nerr = 0;
  /** Probing a junctor branch: errors are only counted, their messages never built. */
  probe = false;
  /** kube-openapi's Result.MatchCount, summed over the run (kept only where anyOf/oneOf need it). */
  mc = 0;
  /** The field path the schema's root stands for ('' for a whole object: root errors then show as <nil>). */
  prefix = '';

  reset(prefix: string): void {
    this.depth = 0;
    this.errs = null;
    this.nerr = 0;
    this.probe = false;
    this.mc = 0;
    this.prefix = prefix;
  }
}

export type Check = (v: unknown, st: ValidationState) => void;

/** The kube-openapi path of the value being validated ("spec.items[0]"; additionalProperties keys get a '.'). */
function pathName(st: ValidationState): string {
  let s = '';
  for (let i = 0; i < st.depth; i++) {
    const k = st.kinds[i];
    const v = st.segs[i];
    s += k === SEG_RAW ? (v as string) : k === SEG_KEY ? '.' + (v as string) : `[${v as number}]`;
  }
  return s;
}

/** kubeOpenAPIResultToFieldErrors' field path for an error named `name`. */
function fieldOf(st: ValidationState, name: string): string {
  if (name === '' || name === '.') return st.prefix || '<nil>';
  const t = name.charCodeAt(0) === 46 ? name.slice(1) : name;
  return st.prefix ? `${st.prefix}.${t}` : t;
}

function report(st: ValidationState, msg: string, fe: FieldError): void {
  st.nerr++;
  (st.errs ??= []).push({ msg, fe });
}

/** While probing, an error is only counted: true means the caller has nothing more to do. */
function probing(st: ValidationState): boolean {
  if (!st.probe) return false;
  st.nerr++;
  return true;
}

function reportInvalid(st: ValidationState, name: string, value: unknown, msg: string): void {
  report(st, msg, invalid(fieldOf(st, name), value, msg));
}

/** Errors kube-openapi reports as plain errors (anyOf/oneOf/allOf/not): field.Invalid(fldPath, "", msg). */
function reportComposite(st: ValidationState, msg: () => string): void {
  if (probing(st)) return;
  const m = msg();
  report(st, m, invalid(st.prefix || '<nil>', '', m));
}

/** Runs a branch while probing: whether it failed, and its MatchCount; nothing is kept. */
function probe(branch: Check, v: unknown, st: ValidationState): [failed: boolean, mc: number] {
  const mc0 = st.mc;
  const e0 = st.nerr;
  const p0 = st.probe;
  st.probe = true;
  branch(v, st);
  st.probe = p0;
  const r: [boolean, number] = [st.nerr !== e0, st.mc - mc0];
  st.nerr = e0;
  st.mc = mc0;
  return r;
}

/** Reports the errors of the branch kube-openapi keeps (it runs again, this time for real). */
function rerun(branch: Check, mc: number, v: unknown, st: ValidationState): void {
  const mc0 = st.mc;
  if (st.probe) st.nerr++;
  else branch(v, st);
  st.mc = mc0 + mc;
}

// ---- patterns: RE2 semantics, compiled once per distinct pattern ----

const PATTERN_MEMO_MAX = 4096;
const PATTERN_MEMO_LEN = 256;
/**
 * Distinct patterns kept compiled. The compiled schemas keep the matchers they took, so forgetting one here only
 * means compiling it again for a new schema: CRDs created and deleted with ever new patterns cannot grow this.
 */
const PATTERN_CACHE_MAX = 8192;
const patternCache = new Map<string, ((s: string) => boolean) | Error>();

/** Patterns kept compiled now (tests). */
export const compiledPatterns = (): number => patternCache.size;

/**
 * Go's regexp MatchString for a schema pattern (RE2: linear time). RE2 in JavaScript is slow, so
 * results for short strings are memoized per pattern: values repeat a lot across objects.
 */
export function compilePattern(pattern: string): ((s: string) => boolean) | Error {
  let fn = patternCache.get(pattern);
  if (fn) return fn;
  try {
    const re = RE2JS.compile(pattern);
    const memo = new Map<string, boolean>();
    fn = (s: string): boolean => {
      if (s.length > PATTERN_MEMO_LEN) return re.test(s);
      let r = memo.get(s);
      if (r === undefined) {
        r = re.test(s);
        if (memo.size >= PATTERN_MEMO_MAX) memo.clear();
        memo.set(s, r);
      }
      return r;
    };
  } catch (e) {
    fn = e instanceof Error ? e : new Error(String(e));
  }
  // The oldest compiled goes first (a Map keeps insertion order).
  if (patternCache.size >= PATTERN_CACHE_MAX) patternCache.delete(patternCache.keys().next().value!);
  patternCache.set(pattern, fn);
  return fn;
}

// ---- enum ----

/** Go's string(rune(n)) for an int64. */
function runeString(n: number): string {
  if (n < 0 || n > 0x10ffff || (n >= 0xd800 && n <= 0xdfff)) return '\ufffd';
  return String.fromCodePoint(n);
}

/** basicCommonValidator: reflect.DeepEqual after converting the value to the enum entry's Go type. */
function enumMatches(data: unknown, ev: unknown): boolean {
  if (ev === null || data === null) return false;
  switch (typeof ev) {
    case 'string':
      if (typeof data === 'string') return data === ev;
      if (typeof data === 'bigint') return ev === '\ufffd'; // beyond any rune
      return typeof data === 'number' && isGoInt(data) && runeString(data) === ev; // int64 → string converts
    case 'number':
      if (typeof data === 'bigint') return !isGoInt(ev) && Number(data) === ev; // int64 → float64
      if (typeof data !== 'number') return false;
      if (isGoInt(ev) && !isGoInt(data)) return Math.trunc(data) === ev; // float64 → int64 truncates
      return data === ev;
    case 'bigint':
      if (typeof data === 'bigint') return data === ev;
      // float64 → int64 truncates (a float beyond int64 converts to no int64 we hold as a bigint)
      return typeof data === 'number' && Number.isFinite(data) && !isGoInt(data) && BigInt(Math.trunc(data)) === ev;
    case 'boolean':
      return data === ev;
    default:
      if (typeof data !== 'object' || Array.isArray(data) !== Array.isArray(ev)) return false;
      return jsonEqual(data, ev);
  }
}

// ---- junctors ----

export interface Junctors {
  anyOf: Check[] | null;
  oneOf: Check[] | null;
  allOf: Check[] | null;
  not: Check | null;
}

/** schemaPropsValidator.Validate. Failing anyOf/oneOf/not branches are probed, not reported. */
function junctors(v: unknown, st: ValidationState, j: Junctors): void {
  if (j.anyOf !== null) {
    let best = -1;
    let bestMc = 0;
    let successMc = -1;
    for (let i = 0; i < j.anyOf.length; i++) {
      const [failed, mc] = probe(j.anyOf[i]!, v, st);
      if (!failed) {
        successMc = mc;
        break;
      }
      // MatchCount picks the errors of the branch that got furthest (the first of equals).
      if (best < 0 || mc > bestMc) {
        best = i;
        bestMc = mc;
      }
    }
    if (successMc < 0) {
      reportComposite(st, () => `${goQuote(pathName(st))} must validate at least one schema (anyOf)`);
      if (best >= 0) rerun(j.anyOf[best]!, bestMc, v, st);
    } else {
      st.mc += successMc;
    }
  }
  if (j.oneOf !== null) {
    let best = -1;
    let bestMc = 0;
    let firstSuccessMc = -1;
    let validated = 0;
    for (let i = 0; i < j.oneOf.length; i++) {
      const [failed, mc] = probe(j.oneOf[i]!, v, st);
      if (!failed) {
        validated++;
        best = -1;
        if (firstSuccessMc < 0) firstSuccessMc = mc;
        continue;
      }
      if (validated === 0 && (best < 0 || mc > bestMc)) {
        best = i;
        bestMc = mc;
      }
    }
    if (validated !== 1) {
      const found = validated === 0 ? 'Found none valid' : `Found ${validated} valid alternatives`;
      reportComposite(st, () => `${goQuote(pathName(st))} must validate one and only one schema (oneOf). ${found}`);
      if (best >= 0) rerun(j.oneOf[best]!, bestMc, v, st);
    } else {
      st.mc += firstSuccessMc;
    }
  }
  if (j.allOf !== null) {
    let validated = 0;
    for (const branch of j.allOf) {
      const e0 = st.nerr;
      branch(v, st);
      if (st.nerr === e0) validated++;
    }
    if (validated !== j.allOf.length) {
      reportComposite(st, () => `${goQuote(pathName(st))} must validate all the schemas (allOf)${validated === 0 ? '. None validated' : ''}`);
    }
  }
  if (j.not !== null) {
    const [failed] = probe(j.not, v, st);
    if (!failed) reportComposite(st, () => `${goQuote(pathName(st))} must not validate the schema (not)`);
  }
}

// ---- the helpers generated validators call (all on the error path, except the few predicates) ----

export const helpers = {
  runeCount,
  isFloat64AJSONInteger,
  junctors,
  enumAny(v: unknown, values: readonly unknown[]): boolean {
    for (const ev of values) if (enumMatches(v, ev)) return true;
    return false;
  },
  hasDuplicates(v: readonly unknown[]): boolean {
    for (let i = 1; i < v.length; i++) for (let j = 0; j < i; j++) if (jsonEqual(v[i], v[j])) return true;
    return false;
  },
  /** typeValidator's InvalidType: the value reported is the type (or format) name found. */
  typeFail(st: ValidationState, typeName: string, found: string): void {
    if (probing(st)) return;
    const name = pathName(st);
    const msg = `${name} in body must be of type ${typeName}: ${goQuote(found)}`;
    report(st, msg, typeInvalid(fieldOf(st, name), found, msg));
  },
  enumFail(st: ValidationState, v: unknown, values: readonly unknown[], valueStrings: readonly string[]): void {
    if (probing(st)) return;
    const name = pathName(st);
    const msg = `${name} in body should be one of ${goV(values)}`;
    report(st, msg, notSupported(fieldOf(st, name), goBadValue(v), valueStrings));
  },
  tooLong(st: ValidationState, max: number): void {
    if (probing(st)) return;
    const name = pathName(st);
    report(st, `${name} in body should be at most ${max} chars long`, tooLong(fieldOf(st, name), '', max));
  },
  tooShort(st: ValidationState, min: number, v: string): void {
    if (probing(st)) return;
    const name = pathName(st);
    reportInvalid(st, name, v, `${name} in body should be at least ${min} chars long`);
  },
  patternFail(st: ValidationState, v: string, pattern: string): void {
    if (probing(st)) return;
    const name = pathName(st);
    reportInvalid(st, name, v, `${name} in body should match '${pattern}'`);
  },
  patternInvalid(st: ValidationState, v: string, pattern: string, err: Error): void {
    if (probing(st)) return;
    const name = pathName(st);
    reportInvalid(st, name, v, `${name} in body should match '${pattern}, but pattern is invalid: ${err.message}'`);
  },
  formatFail(st: ValidationState, format: string, v: string): void {
    if (probing(st)) return;
    const name = pathName(st);
    const msg = `${name} in body must be of type ${format}: ${goQuote(v)}`;
    report(st, msg, typeInvalid(fieldOf(st, name), v, msg));
  },
  /** `factor` is the multipleOf as the check used it: int64(multipleOf) for integers, else the float. */
  multipleOfNotPositive(st: ValidationState, factor: number, isInt: boolean): void {
    if (probing(st)) return;
    const name = pathName(st);
    reportInvalid(st, name, goBadValue(factor), `factor MultipleOf declared for ${name} must be positive: ${isInt ? String(factor) : goFloat(factor)}`);
  },
  notMultipleOf(st: ValidationState, v: number | bigint, factor: string): void {
    if (probing(st)) return;
    const name = pathName(st);
    reportInvalid(st, name, goBadValue(v), `${name} in body should be a multiple of ${factor}`);
  },
  /** A minimum/maximum failure; `bound` is printed as kube does for the value's Go type. */
  boundFail(st: ValidationState, v: number | bigint, isInt: boolean, bound: number | bigint, max: boolean, exclusive: boolean): void {
    if (probing(st)) return;
    const name = pathName(st);
    const b = isInt ? String(bound) : goFloat(Number(bound));
    const rel = max ? (exclusive ? 'less than' : 'less than or equal to') : exclusive ? 'greater than' : 'greater than or equal to';
    reportInvalid(st, name, goBadValue(v), `${name} in body should be ${rel} ${b}`);
  },
  minItems(st: ValidationState, n: number, min: number): void {
    if (probing(st)) return;
    const name = pathName(st);
    reportInvalid(st, name, n, `${name} in body should have at least ${min} items`);
  },
  maxItems(st: ValidationState, n: number, max: number): void {
    if (probing(st)) return;
    const name = pathName(st);
    report(st, `${name} in body should have at most ${max} items`, tooMany(fieldOf(st, name), n, max));
  },
  uniqueItems(st: ValidationState): void {
    if (probing(st)) return;
    const name = pathName(st);
    reportInvalid(st, name, '', `${name} in body shouldn't contain duplicates`);
  },
  minProperties(st: ValidationState, n: number, min: number): void {
    if (probing(st)) return;
    const name = pathName(st);
    reportInvalid(st, name, n, `${name} in body should have at least ${min} properties`);
  },
  maxProperties(st: ValidationState, n: number, max: number): void {
    if (probing(st)) return;
    const name = pathName(st);
    report(st, `${name} in body should have at most ${max} properties`, tooMany(fieldOf(st, name), n, max));
  },
  forbiddenProperty(st: ValidationState, k: string): void {
    if (probing(st)) return;
    const name = pathName(st);
    reportInvalid(st, name, k, `${name}.${k} in body is a forbidden property`);
  },
  required(st: ValidationState, k: string): void {
    if (probing(st)) return;
    const name = `${pathName(st)}.${k}`;
    report(st, `${name} in body is required`, requiredError(fieldOf(st, name), ''));
  },
};

export type Helpers = typeof helpers;

/**
 * Runs a compiled validator and returns kube's field errors (Result.AddErrors drops repeated
 * messages, keeping the first).
 */
export function runValueValidator(check: Check, st: ValidationState, value: unknown, prefix = ''): FieldError[] {
  st.reset(prefix);
  check(value, st);
  const errs = st.errs;
  if (errs === null) return [];
  st.errs = null;
  if (errs.length === 1) return [errs[0]!.fe];
  const seen = new Set<string>();
  const out: FieldError[] = [];
  for (const e of errs) {
    if (seen.has(e.msg)) continue;
    seen.add(e.msg);
    out.push(e.fe);
  }
  return out;
}

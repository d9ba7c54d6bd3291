// Label selectors (k8s.io/apimachinery/pkg/labels), field selectors (pkg/fields) and
// metav1.LabelSelector conversion, with the apiserver's parse errors word for word.
import { type FieldError, forbidden, goQuote, invalid, required } from '../api/field-error.js';
import { type StatusError, badRequest } from '../api/status.js';
import { isQualifiedName, isValidLabelValue } from '../schema/names.js';
import { compareGoStrings, goStringSlice, validateLabelName, validateLabels } from '../schema/objectmeta.js';

// ---------------------------------------------------------------- label selectors

type LabelOperator = '=' | '==' | '!=' | 'in' | 'notin' | 'exists' | '!' | 'gt' | 'lt';

interface Requirement {
  readonly key: string;
  readonly operator: LabelOperator;
  /** As given: the parser passes them sorted and de-duplicated, matchExpressions as written. */
  readonly values: readonly string[];
}

export interface LabelSelector {
  /** AND of requirements, sorted by key. */
  readonly requirements: readonly Requirement[];
  /** labels.Nothing(): what a nil metav1.LabelSelector converts to. */
  readonly nothing?: boolean;
}

const everythingLabels: LabelSelector = { requirements: [] };
const nothingLabels: LabelSelector = { requirements: [], nothing: true };

const binaryOperators = ['in', 'notin', '=', '==', '!=', 'gt', 'lt'];
const validOperators = [...binaryOperators, 'exists', '!'];

/** A labels.NewRequirement failure; its message is Go's aggregated field error text. */
export class SelectorError extends Error {}

/** Go's field error text for a value printed with %#v / %q, and an aggregate of several. */
const fieldInvalid = (path: string, shownValue: string, detail: string): string => `${path}: Invalid value: ${shownValue}: ${detail}`;

function aggregateMessages(msgs: string[]): string {
  const unique = [...new Set(msgs)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

/** strconv.ParseInt(s, 10, 64). */
function parseInt64(s: string): bigint | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = BigInt(s);
  return n < INT64_MIN || n > INT64_MAX ? undefined : n;
}

function labelKeyError(key: string, path: string): string | undefined {
  const errs = isQualifiedName(key);
  return errs.length ? fieldInvalid(path, goQuote(key), errs.join('; ')) : undefined;
}

/**
 * labels.NewRequirement: validates and builds one requirement. `path` is the field path prefix
 * ("" renders as in Go with a nil path: `key`, `values[0][key]`).
 */
export function newRequirement(key: string, operator: string, values: readonly string[] | undefined, path = ''): Requirement {
  const child = (name: string): string => (path ? `${path}.${name}` : name);
  const errs: string[] = [];
  const keyErr = labelKeyError(key, child('key'));
  if (keyErr) errs.push(keyErr);
  const vals = values ?? [];
  const valuePath = child('values');
  switch (operator) {
    case 'in':
    case 'notin':
      if (vals.length === 0) errs.push(fieldInvalid(valuePath, goStringSlice(values), "for 'in', 'notin' operators, values set can't be empty"));
      break;
    case '=':
    case '==':
    case '!=':
      if (vals.length !== 1) errs.push(fieldInvalid(valuePath, goStringSlice(values), 'exact-match compatibility requires one single value'));
      break;
    case 'exists':
    case '!':
      if (vals.length !== 0) errs.push(fieldInvalid(valuePath, goStringSlice(values), 'values set must be empty for exists and does not exist'));
      break;
    case 'gt':
    case 'lt':
      if (vals.length !== 1) errs.push(fieldInvalid(valuePath, goStringSlice(values), "for 'Gt', 'Lt' operators, exactly one value is required"));
      vals.forEach((v, i) => {
        if (parseInt64(v) === undefined) errs.push(fieldInvalid(`${valuePath}[${i}]`, goQuote(v), "for 'Gt', 'Lt' operators, the value must be an integer"));
      });
      break;
    default:
      errs.push(`${child('operator')}: Unsupported value: ${goQuote(operator)}: supported values: ${validOperators.map(goQuote).join(', ')}`);
  }
  vals.forEach((v, i) => {
    const msgs = isValidLabelValue(v);
    if (msgs.length) errs.push(fieldInvalid(`${valuePath}[${i}][${key}]`, goQuote(v), msgs.join('; ')));
  });
  if (errs.length) throw new SelectorError(aggregateMessages(errs));
  return { key, operator: operator as LabelOperator, values: [...vals] };
}

// ---- lexer and parser (labels.Parse) ----

const enum Tok {
  Error,
  End,
  ClosedPar,
  Comma,
  DoesNotExist,
  DoubleEquals,
  Equals,
  GreaterThan,
  Identifier,
  In,
  LessThan,
  NotEquals,
  NotIn,
  OpenPar,
}

const string2token: Record<string, Tok> = {
  ')': Tok.ClosedPar,
  ',': Tok.Comma,
  '!': Tok.DoesNotExist,
  '==': Tok.DoubleEquals,
  '=': Tok.Equals,
  '>': Tok.GreaterThan,
  in: Tok.In,
  '<': Tok.LessThan,
  '!=': Tok.NotEquals,
  notin: Tok.NotIn,
  '(': Tok.OpenPar,
};

const isWhitespace = (ch: string): boolean => ch === ' ' || ch === '\t' || ch === '\r' || ch === '\n';
const isSpecialSymbol = (ch: string): boolean => '=!(),><'.includes(ch) && ch !== '';
const NUL = '\0';

interface Item {
  tok: Tok;
  lit: string;
}

function lex(s: string): Item[] {
  let pos = 0;
  // Like Go's Lexer.read: NUL at the end, and a NUL byte in the input reads as the end too.
  const read = (): string => (pos < s.length ? s[pos++]! : NUL);
  const unread = (): void => void pos--;
  const own = (k: string): Tok | undefined => (Object.prototype.hasOwnProperty.call(string2token, k) ? string2token[k] : undefined);

  const scanIdOrKeyword = (): Item => {
    let buf = '';
    for (;;) {
      const ch = read();
      if (ch === NUL) break;
      if (isSpecialSymbol(ch) || isWhitespace(ch)) {
        unread();
        break;
      }
      buf += ch;
    }
    const t = own(buf);
    return t !== undefined ? { tok: t, lit: buf } : { tok: Tok.Identifier, lit: buf };
  };

  const scanSpecialSymbol = (): Item => {
    let last: Item | undefined;
    let buf = '';
    for (;;) {
      const ch = read();
      if (ch === NUL) break;
      if (isSpecialSymbol(ch)) {
        buf += ch;
        const t = own(buf);
        if (t !== undefined) last = { tok: t, lit: buf };
        else if (last) {
          unread();
          break;
        }
      } else {
        unread();
        break;
      }
    }
    return last ?? { tok: Tok.Error, lit: `error expected: keyword found '${buf}'` };
  };

  const items: Item[] = [];
  for (;;) {
    let ch = read();
    while (isWhitespace(ch)) ch = read();
    let item: Item;
    if (ch === NUL) item = { tok: Tok.End, lit: '' };
    else {
      unread();
      item = isSpecialSymbol(ch) ? scanSpecialSymbol() : scanIdOrKeyword();
    }
    items.push(item);
    if (item.tok === Tok.End) return items;
  }
}

class LabelParser {
  private position = 0;
  constructor(private readonly items: Item[]) {}

  private at(i: number, values: boolean): Item {
    const it = this.items[i]!;
    // In a values context "in" and "notin" are plain identifiers.
    if (values && (it.tok === Tok.In || it.tok === Tok.NotIn)) return { tok: Tok.Identifier, lit: it.lit };
    return it;
  }
  private lookahead(values = true): Item {
    return this.at(this.position, values);
  }
  private consume(values = true): Item {
    return this.at(this.position++, values);
  }

  parse(): Requirement[] {
    const reqs: Requirement[] = [];
    for (;;) {
      const { tok, lit } = this.lookahead();
      if (tok === Tok.Identifier || tok === Tok.DoesNotExist) {
        let r: Requirement;
        try {
          r = this.parseRequirement();
        } catch (e) {
          throw new SelectorError(`unable to parse requirement: ${(e as Error).message}`);
        }
        reqs.push(r);
        const t = this.consume();
        if (t.tok === Tok.End) return reqs;
        if (t.tok === Tok.Comma) {
          const t2 = this.lookahead();
          if (t2.tok !== Tok.Identifier && t2.tok !== Tok.DoesNotExist) {
            throw new SelectorError(`found '${t2.lit}', expected: identifier after ','`);
          }
        } else {
          throw new SelectorError(`found '${t.lit}', expected: ',' or 'end of string'`);
        }
      } else if (tok === Tok.End) {
        return reqs;
      } else {
        throw new SelectorError(`found '${lit}', expected: !, identifier, or 'end of string'`);
      }
    }
  }

  private parseRequirement(): Requirement {
    const { key, operator } = this.parseKeyAndInferOperator();
    if (operator === 'exists' || operator === '!') return newRequirement(key, operator, []);
    const op = this.parseOperator();
    const values = op === 'in' || op === 'notin' ? this.parseValues() : this.parseExactValue();
    return newRequirement(key, op, [...values].sort(compareGoStrings));
  }

  private parseKeyAndInferOperator(): { key: string; operator: LabelOperator | '' } {
    let operator: LabelOperator | '' = '';
    let t = this.consume();
    if (t.tok === Tok.DoesNotExist) {
      operator = '!';
      t = this.consume();
    }
    if (t.tok !== Tok.Identifier) throw new Error(`found '${t.lit}', expected: identifier`);
    // The parser's own path is nil, which Go prints as "<nil>".
    const keyErr = labelKeyError(t.lit, '<nil>');
    if (keyErr) throw new Error(keyErr);
    const next = this.lookahead().tok;
    if ((next === Tok.End || next === Tok.Comma) && operator !== '!') operator = 'exists';
    return { key: t.lit, operator };
  }

  private parseOperator(): LabelOperator {
    const { tok, lit } = this.consume(false);
    switch (tok) {
      case Tok.In:
        return 'in';
      case Tok.Equals:
        return '=';
      case Tok.DoubleEquals:
        return '==';
      case Tok.GreaterThan:
        return 'gt';
      case Tok.LessThan:
        return 'lt';
      case Tok.NotIn:
        return 'notin';
      case Tok.NotEquals:
        return '!=';
      default:
        throw new Error(`found '${lit}', expected: ${binaryOperators.join(', ')}`);
    }
  }

  private parseValues(): Set<string> {
    const open = this.consume();
    if (open.tok !== Tok.OpenPar) throw new Error(`found '${open.lit}' expected: '('`);
    const { tok, lit } = this.lookahead();
    if (tok === Tok.Identifier || tok === Tok.Comma) {
      const s = this.parseIdentifiersList();
      if (this.consume().tok !== Tok.ClosedPar) throw new Error(`found '${lit}', expected: ')'`);
      return s;
    }
    if (tok === Tok.ClosedPar) {
      this.consume();
      return new Set(['']);
    }
    throw new Error(`found '${lit}', expected: ',', ')' or identifier`);
  }

  private parseIdentifiersList(): Set<string> {
    const s = new Set<string>();
    for (;;) {
      const { tok, lit } = this.consume();
      if (tok === Tok.Identifier) {
        s.add(lit);
        const t2 = this.lookahead();
        if (t2.tok === Tok.Comma) continue;
        if (t2.tok === Tok.ClosedPar) return s;
        throw new Error(`found '${t2.lit}', expected: ',' or ')'`);
      } else if (tok === Tok.Comma) {
        if (s.size === 0) s.add(''); // "(,"
        const t2 = this.lookahead().tok;
        if (t2 === Tok.ClosedPar) {
          s.add(''); // ",)"
          return s;
        }
        if (t2 === Tok.Comma) {
          this.consume();
          s.add(''); // ",,"
        }
      } else {
        throw new Error(`found '${lit}', expected: ',', or identifier`);
      }
    }
  }

  private parseExactValue(): Set<string> {
    const la = this.lookahead().tok;
    if (la === Tok.End || la === Tok.Comma) return new Set(['']);
    const { tok, lit } = this.consume();
    if (tok === Tok.Identifier) return new Set([lit]);
    throw new Error(`found '${lit}', expected: identifier`);
  }
}

const byKey = (a: Requirement, b: Requirement): number => compareGoStrings(a.key, b.key);

/** labels.Parse; throws SelectorError with Go's message. */
export function parseLabelSelectorOrThrow(selector: string): LabelSelector {
  const reqs = new LabelParser(lex(selector)).parse();
  return { requirements: reqs.sort(byKey) };
}

/** labels.Parse for a `?labelSelector=` query: a bad selector is a 400 BadRequest with Go's message. */
export function parseLabelSelector(selector: string): LabelSelector {
  try {
    return parseLabelSelectorOrThrow(selector);
  } catch (e) {
    if (e instanceof SelectorError) throw labelSelectorBadRequest(e);
    throw e;
  }
}

const labelSelectorBadRequest = (e: SelectorError): StatusError => badRequest(e.message);

function requirementMatches(r: Requirement, labels: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, r.key);
  const v = has ? labels[r.key]! : '';
  switch (r.operator) {
    case 'in':
    case '=':
    case '==':
      return has && r.values.includes(v);
    case 'notin':
    case '!=':
      return !has || !r.values.includes(v);
    case 'exists':
      return has;
    case '!':
      return !has;
    case 'gt':
    case 'lt': {
      if (!has || r.values.length !== 1) return false;
      const lv = parseInt64(v);
      const rv = parseInt64(r.values[0]!);
      if (lv === undefined || rv === undefined) return false;
      return r.operator === 'gt' ? lv > rv : lv < rv;
    }
  }
}

/** Selector.Matches over an object's labels (absent labels match as an empty set). */
export function matchesLabels(selector: LabelSelector, labels: Record<string, string> | undefined | null): boolean {
  if (selector.nothing) return false;
  const ls = labels ?? {};
  return selector.requirements.every((r) => requirementMatches(r, ls));
}

/**
 * The selector's requirements that an object meets only by having a label (`k=v`, `k==v`, `k in (...)`,
 * `k`): what a label index can look up. The others (`!=`, `notin`, `!k`, `>`, `<`) match objects without the
 * label too, so they only filter what the first ones found.
 */
export function positiveRequirements(s: LabelSelector): { key: string; values?: readonly string[] }[] {
  if (s.nothing) return [];
  const out: { key: string; values?: readonly string[] }[] = [];
  for (const r of s.requirements) {
    if (r.operator === 'exists') out.push({ key: r.key });
    else if (r.operator === '=' || r.operator === '==' || r.operator === 'in') out.push({ key: r.key, values: r.values });
  }
  return out;
}

/** True when the selector does not restrict anything (labels.Selector.Empty). */
export const isEverythingLabels = (s: LabelSelector): boolean => !s.nothing && s.requirements.length === 0;

const opText: Record<LabelOperator, string> = {
  '=': '=',
  '==': '==',
  '!=': '!=',
  in: ' in ',
  notin: ' notin ',
  gt: '>',
  lt: '<',
  exists: '',
  '!': '',
};

/** Requirement.String(): values printed sorted when there are several. */
function requirementString(r: Requirement): string {
  let s = (r.operator === '!' ? '!' : '') + r.key;
  if (r.operator === 'exists' || r.operator === '!') return s;
  s += opText[r.operator];
  const vals = r.values.length === 1 ? r.values[0]! : [...r.values].sort(compareGoStrings).join(',');
  return r.operator === 'in' || r.operator === 'notin' ? `${s}(${vals})` : s + vals;
}

/** Selector.String(): requirements joined by ','; "" for both Everything and Nothing. */
export const labelSelectorString = (s: LabelSelector): string => (s.nothing ? '' : s.requirements.map(requirementString).join(','));

// ---- metav1.LabelSelector ----

interface MetaLabelSelectorRequirement {
  key: string;
  operator: string;
  values?: string[] | null;
}

interface MetaLabelSelector {
  matchLabels?: Record<string, string> | null;
  matchExpressions?: MetaLabelSelectorRequirement[] | null;
}

const metaOperators: Record<string, LabelOperator> = { In: 'in', NotIn: 'notin', Exists: 'exists', DoesNotExist: '!' };

/** metav1.LabelSelectorAsSelector: nil selects nothing, empty selects everything. Throws SelectorError. */
export function labelSelectorAsSelector(ps: MetaLabelSelector | null | undefined): LabelSelector {
  if (ps === null || ps === undefined) return nothingLabels;
  const matchLabels = Object.entries(ps.matchLabels ?? {});
  const exprs = ps.matchExpressions ?? [];
  if (matchLabels.length + exprs.length === 0) return everythingLabels;
  const reqs: Requirement[] = [];
  for (const [k, v] of matchLabels) reqs.push(newRequirement(k, '=', [v]));
  for (const e of exprs) {
    const op = Object.prototype.hasOwnProperty.call(metaOperators, e.operator) ? metaOperators[e.operator] : undefined;
    if (!op) throw new SelectorError(`${goQuote(e.operator)} is not a valid label selector operator`);
    // Go copies the values with append([]string(nil), ...): an empty list becomes nil.
    reqs.push(newRequirement(e.key, op, e.values && e.values.length > 0 ? [...e.values] : undefined));
  }
  return { requirements: reqs.sort(byKey) };
}

/** metav1.FormatLabelSelector: "<none>" when empty, "<error>" when it does not convert. */
export function formatLabelSelector(ps: MetaLabelSelector | null | undefined): string {
  let s: string;
  try {
    s = labelSelectorString(labelSelectorAsSelector(ps));
  } catch {
    return '<error>';
  }
  return s === '' ? '<none>' : s;
}

interface LabelSelectorValidationOptions {
  allowInvalidLabelValueInSelector?: boolean;
  allowUnknownOperatorInRequirement?: boolean;
}

/** metav1validation.ValidateLabelSelector. */
export function validateLabelSelector(
  ps: MetaLabelSelector | null | undefined,
  fldPath: string,
  opts: LabelSelectorValidationOptions = {},
): FieldError[] {
  const errs: FieldError[] = [];
  if (!ps) return errs;
  errs.push(...validateLabels(ps.matchLabels ?? undefined, `${fldPath}.matchLabels`));
  (ps.matchExpressions ?? []).forEach((sr, i) => {
    const p = `${fldPath}.matchExpressions[${i}]`;
    const values = sr.values ?? [];
    switch (sr.operator) {
      case 'In':
      case 'NotIn':
        if (values.length === 0) errs.push(required(`${p}.values`, "must be specified when `operator` is 'In' or 'NotIn'"));
        break;
      case 'Exists':
      case 'DoesNotExist':
        if (values.length > 0) errs.push(forbidden(`${p}.values`, "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
        break;
      default:
        if (!opts.allowUnknownOperatorInRequirement) errs.push(invalid(`${p}.operator`, sr.operator, 'not a valid selector operator'));
    }
    errs.push(...validateLabelName(sr.key, `${p}.key`));
    if (!opts.allowInvalidLabelValueInSelector) {
      values.forEach((v, j) => {
        for (const msg of isValidLabelValue(v)) errs.push(invalid(`${p}.values[${j}]`, v, msg));
      });
    }
  });
  return errs;
}

// ---------------------------------------------------------------- field selectors

interface FieldRequirement {
  readonly field: string;
  /** '=' and '==' both mean equality. */
  readonly operator: '=' | '!=';
  readonly value: string;
}

interface FieldSelector {
  /** AND of terms, in the parser's (sorted) order. */
  readonly requirements: readonly FieldRequirement[];
}


/** fields.EscapeValue: backslash-escape '\', ',' and '='. */
const escapeFieldValue = (s: string): string => s.replace(/[\\,=]/g, (c) => '\\' + c);

/** fields.UnescapeValue; throws SelectorError. */
function unescapeFieldValue(s: string): string {
  if (!/[\\,=]/.test(s)) return s;
  let out = '';
  let inSlash = false;
  for (const c of s) {
    if (inSlash) {
      if (c === '\\' || c === ',' || c === '=') out += c;
      else throw new SelectorError(`invalid field selector: invalid escape sequence: \\${c}`);
      inSlash = false;
      continue;
    }
    if (c === '\\') inSlash = true;
    // Go prints the rune with %v: its code point number.
    else if (c === ',' || c === '=') throw new SelectorError(`invalid field selector: unescaped character in value: ${c.codePointAt(0)}`);
    else out += c;
  }
  if (inSlash) throw new SelectorError('invalid field selector: invalid escape sequence: \\');
  return out;
}

/** Split on unescaped commas, keeping the escapes. */
function splitTerms(s: string): string[] {
  if (s === '') return [];
  const terms: string[] = [];
  let start = 0;
  let inSlash = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (inSlash) inSlash = false;
    else if (c === '\\') inSlash = true;
    else if (c === ',') {
      terms.push(s.slice(start, i));
      start = i + 1;
    }
  }
  terms.push(s.slice(start));
  return terms;
}

const termOperators = ['!=', '==', '='] as const;

function splitTerm(term: string): { lhs: string; op: (typeof termOperators)[number]; rhs: string } | undefined {
  for (let i = 0; i < term.length; i++) {
    for (const op of termOperators) {
      if (term.startsWith(op, i)) return { lhs: term.slice(0, i), op, rhs: term.slice(i + op.length) };
    }
  }
  return undefined;
}

/** fields.ParseSelector; throws SelectorError with Go's message. */
export function parseFieldSelectorOrThrow(selector: string): FieldSelector {
  const parts = splitTerms(selector).sort(compareGoStrings);
  const reqs: FieldRequirement[] = [];
  for (const part of parts) {
    if (part === '') continue;
    const t = splitTerm(part);
    if (!t) throw new SelectorError(`invalid selector: '${selector}'; can't understand '${part}'`);
    const value = unescapeFieldValue(t.rhs);
    // A term with neither field nor value ("=") transforms to Everything and drops out.
    if (t.lhs === '' && value === '') continue;
    reqs.push({ field: t.lhs, operator: t.op === '!=' ? '!=' : '=', value });
  }
  return { requirements: reqs };
}

/** fields.ParseSelector for a `?fieldSelector=` query: errors are 400 BadRequest with Go's message. */
export function parseFieldSelector(selector: string): FieldSelector {
  try {
    return parseFieldSelectorOrThrow(selector);
  } catch (e) {
    if (e instanceof SelectorError) throw badRequest(e.message);
    throw e;
  }
}

/** Selector.Matches over an object's field set; absent fields read as "". */
export function matchFields(selector: FieldSelector, fields: Record<string, string>): boolean {
  return selector.requirements.every((r) => {
    const v = Object.prototype.hasOwnProperty.call(fields, r.field) ? fields[r.field]! : '';
    return r.operator === '=' ? v === r.value : v !== r.value;
  });
}

export const fieldSelectorString = (s: FieldSelector): string =>
  s.requirements.map((r) => `${r.field}${r.operator}${escapeFieldValue(r.value)}`).join(',');


/** Selector.RequiresExactMatch: the value an `=` term demands of `field`, if any. */
export function fieldRequiresExactMatch(s: FieldSelector, field: string): string | undefined {
  return s.requirements.find((r) => r.field === field && r.operator === '=')?.value;
}

/**
 * Selector.Transform: rewrite each term's field and value (the apiserver's ConvertFieldLabel
 * step); a term turned into an empty field and value drops out. `fn` throws to reject a term,
 * and the apiserver answers that with 400 BadRequest and the error text.
 */
export function transformFieldSelector(s: FieldSelector, fn: (field: string, value: string) => [string, string]): FieldSelector {
  const reqs: FieldRequirement[] = [];
  for (const r of s.requirements) {
    const [field, value] = fn(r.field, r.value);
    if (field === '' && value === '') continue;
    reqs.push({ field, operator: r.operator, value });
  }
  return { requirements: reqs };
}

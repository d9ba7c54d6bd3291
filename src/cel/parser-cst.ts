// Recursive descent over CEL.g4 producing a concrete syntax tree, with the
// error reporting and recovery of ANTLR's DefaultErrorStrategy as cel-go
// configures it (sync at block starts, single-token deletion and insertion,
// "no viable alternative", recovery by follow sets, recovery and lookahead
// limits, rule-depth limit). The AST is built from this tree afterwards, as
// cel-go's visitor does, so that node ids come out in cel-go's order.

import { T, errorDisplay, tokenTypeName, type LexError, type Token } from './lexer.js';

// ---- Concrete syntax tree (ANTLR contexts after cel-go's unnest) ----------

export type Cst =
  | { k: 'ternary'; start: Token; cond: Cst; op: Token; e1?: Cst; e2?: Cst }
  | { k: 'or' | 'and'; start: Token; first: Cst; ops: Token[]; rest: Cst[] }
  | { k: 'binary'; start: Token; lhs: Cst; op: Token; rhs?: Cst }
  | { k: 'not' | 'neg'; start: Token; ops: Token[]; member?: Cst }
  | { k: 'select'; start: Token; member: Cst; op: Token; opt?: Token; id?: Token }
  | { k: 'memberCall'; start: Token; member: Cst; op: Token; id?: Token; open?: Token; args?: Cst[] }
  | { k: 'index'; start: Token; member: Cst; op: Token; opt?: Token; index?: Cst }
  | { k: 'ident'; start: Token; dot?: Token; id?: Token }
  | { k: 'globalCall'; start: Token; dot?: Token; id?: Token; op?: Token; args?: Cst[] }
  | { k: 'list'; start: Token; op: Token; elems?: OptExpr[] }
  | { k: 'map'; start: Token; op: Token; entries?: MapInit[] }
  | { k: 'message'; start: Token; dot?: Token; ids: Token[]; op?: Token; fields?: FieldInit[] }
  | { k: 'literal'; start: Token; lit: LitKind; sign?: Token; tok?: Token }
  /** A rule that failed before choosing an alternative. */
  | { k: 'error'; start: Token };

type LitKind = 'int' | 'uint' | 'double' | 'string' | 'bytes' | 'true' | 'false' | 'null';
export interface OptExpr { start: Token; opt?: Token; e?: Cst }
export interface MapInit { key: OptExpr; col?: Token; value?: Cst }
export interface FieldInit { start: Token; opt?: Token; id?: Token; col?: Token; value?: Cst }

// ---- Token sets -------------------------------------------------------------

type TSet = ReadonlySet<number>;
const set = (...ts: number[]): TSet => new Set(ts);
const union = (...sets: Iterable<number>[]): TSet => { const s = new Set<number>(); for (const x of sets) for (const t of x) s.add(t); return s; };

const LITERAL_START = [T.MINUS, T.CEL_TRUE, T.CEL_FALSE, T.NUL, T.NUM_FLOAT, T.NUM_INT, T.NUM_UINT, T.STRING, T.BYTES];
const FIRST_MEMBER = set(T.LBRACKET, T.LBRACE, T.LPAREN, T.DOT, T.IDENTIFIER, ...LITERAL_START);
const FIRST_EXPR = union(FIRST_MEMBER, [T.EXCLAM]);
const FIRST_LITERAL = set(...LITERAL_START);
const FIRST_OPT_EXPR = union(FIRST_EXPR, [T.QUESTIONMARK]);
const RELOPS = set(T.EQUALS, T.NOT_EQUALS, T.IN, T.LESS, T.LESS_EQUALS, T.GREATER_EQUALS, T.GREATER);
const MULOPS = set(T.STAR, T.SLASH, T.PERCENT);
const CALCOPS = set(T.STAR, T.SLASH, T.PERCENT, T.PLUS, T.MINUS);
const MEMBER_LOOP = set(T.DOT, T.LBRACKET);
const ESC_IDENTS = set(T.IDENTIFIER, T.ESC_IDENTIFIER);
const OPT_FIELD = set(T.QUESTIONMARK, T.IDENTIFIER, T.ESC_IDENTIFIER);
const CALL_ARGS = union(FIRST_EXPR, [T.RPAREN]);
const INDEX_START = FIRST_OPT_EXPR;
const LIST_BODY = union(FIRST_OPT_EXPR, [T.COMMA, T.RPRACKET]);
const MAP_BODY = union(FIRST_OPT_EXPR, [T.COMMA, T.RBRACE]);
const MSG_BODY = union(OPT_FIELD, [T.COMMA, T.RBRACE]);
const LIST_END = set(T.COMMA, T.RPRACKET);
const MAP_END = set(T.COMMA, T.RBRACE);
const MSG_LOOP = set(T.DOT, T.LBRACE);
const NOT_LOOP = union(FIRST_MEMBER, [T.EXCLAM]);
const NEG_LOOP = FIRST_MEMBER;
const EMPTY: TSet = new Set();
const F_EOF = set(T.EOF), F_QUESTION = set(T.QUESTIONMARK), F_COLON = set(T.COLON), F_OR = set(T.LOGICAL_OR),
  F_AND = set(T.LOGICAL_AND), F_RPAREN = set(T.RPAREN), F_RBRACKET = set(T.RPRACKET), F_COMMA = set(T.COMMA);

/** ANTLR's IntervalSet rendering: `X` alone, `{X, Y}` otherwise, by token type. */
function formatTokenSet(s: TSet): string {
  const names = [...s].sort((a, b) => a - b).map(tokenTypeName);
  return names.length === 1 ? names[0]! : `{${names.join(', ')}}`;
}

function tokenDisplay(t: Token): string {
  return t.type === T.EOF ? "'<EOF>'" : `'${errorDisplay(t.text)}'`;
}

// ---- Errors -----------------------------------------------------------------

class RecognitionError {
  constructor(
    readonly kind: 'mismatch' | 'noViable',
    readonly offending: Token,
    readonly expected?: TSet,
    readonly startToken?: Token,
  ) {}
}

/** Parsing stops: a limit was hit. `internal` is reported without location. */
export class ParseAbort {
  constructor(readonly internal?: string) {}
}

interface SyntaxIssue { offset: number; message: string }

interface CstLimits {
  maxRecursionDepth: number;
  errorRecoveryLimit: number;
  errorRecoveryLookaheadTokenLimit: number;
  errorReportingLimit: number;
}

const enum Rule { Start, Expr, Or, And, Relation, Calc, Unary, Member, Primary, ExprList, ListInit, FieldInits, OptField, MapInits, EscapeIdent, OptExpr, Literal, COUNT }

const RESERVED_NO_VIABLE = /no viable alternative at input '.(true|false|null)'/g;

export class CstParser {
  private pos = 0;
  private fetched = -1;
  private nextLexError = 0;
  private readonly follow: TSet[] = [];
  private readonly depth = new Int32Array(Rule.COUNT);
  private recoveryMode = false;
  private lastErrorIndex = -1;
  private lastErrorStates: Set<string> | undefined;
  private recoveryAttempts = 0;
  private reports = 0;
  readonly errors: SyntaxIssue[] = [];

  constructor(
    private readonly tokens: Token[],
    private readonly lexErrors: LexError[],
    private readonly source: string,
    private readonly limits: CstLimits,
  ) {}

  /** Parses `start: expr EOF`. Throws ParseAbort when a limit stops parsing. */
  parseStart(): Cst | undefined {
    this.enter(Rule.Start);
    let e: Cst | undefined;
    try {
      e = this.popAfter(this.pushFollow(F_EOF), this.expr());
      this.match(T.EOF, EMPTY);
    } catch (x) { this.handle(x, 'start'); }
    this.exit(Rule.Start);
    return e;
  }

  // ---- token access ----

  private LT(k: number): Token {
    const i = Math.min(this.pos + k - 1, this.tokens.length - 1);
    if (i > this.fetched) this.fetch(i);
    return this.tokens[i]!;
  }
  private LA(k: number): number { return this.LT(k).type; }

  /** Lexer errors surface as the token stream reaches them, as with ANTLR's lazy lexing. */
  private fetch(i: number): void {
    this.fetched = i;
    while (this.nextLexError < this.lexErrors.length && this.lexErrors[this.nextLexError]!.beforeToken <= i) {
      const e = this.lexErrors[this.nextLexError++]!;
      this.syntaxError(e.offset, e.message);
    }
  }

  private consume(): Token {
    const t = this.LT(1);
    if (t.type !== T.EOF) this.pos++;
    return t;
  }

  // ---- rule bookkeeping ----

  private enter(r: Rule): void {
    if (++this.depth[r]! > this.limits.maxRecursionDepth) {
      throw new ParseAbort(`expression recursion limit exceeded: ${this.limits.maxRecursionDepth}`);
    }
  }
  private exit(r: Rule): void { this.depth[r]!--; }

  /** Sub-rules are invoked as popAfter(pushFollow(follow), rule()), recording
   * what may follow the rule for error recovery. Rules catch their own
   * recognition errors, and an abort discards the stack, so no finally is needed. */
  private pushFollow(follow: TSet): void { this.follow.push(follow); }
  private popAfter<R>(_pushed: void, result: R): R {
    this.follow.pop();
    return result;
  }

  private recoverySet(): Set<number> {
    const s = new Set<number>();
    for (const f of this.follow) for (const t of f) s.add(t);
    return s;
  }

  // ---- error strategy ----

  private syntaxError(offset: number, msg: string): void {
    if (msg.includes('no viable alternative')) msg = msg.replace(RESERVED_NO_VIABLE, "mismatched input '$1' expecting IDENTIFIER");
    if (this.reports < this.limits.errorReportingLimit) {
      this.reports++;
      this.errors.push({ offset, message: `Syntax error: ${msg}` });
      return;
    }
    this.errors.push({ offset, message: `Syntax error: More than ${this.limits.errorReportingLimit} syntax errors` });
    throw new ParseAbort();
  }

  private handle(x: unknown, site: string): void {
    if (!(x instanceof RecognitionError)) throw x;
    this.reportError(x);
    this.recover(site);
  }

  private reportError(e: RecognitionError): void {
    if (this.recoveryMode) return;
    this.recoveryMode = true;
    if (e.kind === 'noViable') {
      const start = e.startToken!;
      const input = start.type === T.EOF ? '<EOF>' : this.textBetween(start, e.offending);
      this.syntaxError(e.offending.offset, `no viable alternative at input '${errorDisplay(input)}'`);
    } else {
      this.syntaxError(e.offending.offset, `mismatched input ${tokenDisplay(e.offending)} expecting ${formatTokenSet(e.expected!)}`);
    }
  }

  /** Token text from start through stop, with the whitespace and comments between them (ANTLR getText). */
  private textBetween(start: Token, stop: Token): string {
    let out = '';
    for (let i = start.index; i <= stop.index && i < this.tokens.length; i++) {
      const t = this.tokens[i]!;
      if (t.type === T.EOF) break;
      out += t.text;
      const next = this.tokens[i + 1];
      if (i < stop.index && next) out += hiddenText(this.source.slice(t.end, next.start));
    }
    return out;
  }

  private endErrorCondition(): void {
    this.recoveryMode = false;
    this.lastErrorStates = undefined;
    this.lastErrorIndex = -1;
  }

  private checkAttempts(): void {
    if (this.recoveryAttempts === this.limits.errorRecoveryLimit) {
      this.recoveryAttempts++;
      this.syntaxError(this.LT(1).offset, `error recovery attempt limit exceeded: ${this.limits.errorRecoveryLimit}`);
      throw new ParseAbort();
    }
    this.recoveryAttempts++;
  }

  /** A consume made while recovering, bounded by the lookahead limit. */
  private recoveryConsume(count: { n: number }): void {
    if (count.n >= this.limits.errorRecoveryLookaheadTokenLimit) {
      throw new ParseAbort(`error recovery token lookahead limit exceeded: ${this.limits.errorRecoveryLookaheadTokenLimit}`);
    }
    count.n++;
    this.consume();
  }

  private recover(site: string): void {
    this.checkAttempts();
    const count = { n: 0 };
    if (this.lastErrorIndex === this.pos && this.lastErrorStates?.has(site)) this.recoveryConsume(count);
    this.lastErrorIndex = this.pos;
    (this.lastErrorStates ??= new Set()).add(site);
    const stop = this.recoverySet();
    while (this.LA(1) !== T.EOF && !stop.has(this.LA(1))) this.recoveryConsume(count);
  }

  private reportUnwantedToken(expected: TSet): void {
    if (this.recoveryMode) return;
    this.recoveryMode = true;
    this.syntaxError(this.LT(1).offset, `extraneous input ${tokenDisplay(this.LT(1))} expecting ${formatTokenSet(expected)}`);
  }

  private singleTokenDeletion(expected: TSet, count?: { n: number }): boolean {
    if (!expected.has(this.LA(2))) return false;
    this.reportUnwantedToken(expected);
    if (count) this.recoveryConsume(count); else this.consume();
    this.endErrorCondition();
    return true;
  }

  /** DefaultErrorStrategy.sync at a block start (or a loop back when loopBack). */
  private sync(expected: TSet, loopBack = false): void {
    if (this.recoveryMode) return;
    const la = this.LA(1);
    if (expected.has(la)) return;
    if (!loopBack) {
      if (this.singleTokenDeletion(expected)) return;
      throw new RecognitionError('mismatch', this.LT(1), expected);
    }
    this.reportUnwantedToken(expected);
    const stop = union(expected, this.recoverySet());
    while (this.LA(1) !== T.EOF && !stop.has(this.LA(1))) this.consume();
  }

  /** Matches a token, or recovers inline by deleting or conjuring one token.
   * `after` is what may follow the token within its rule (the rest of the
   * context is approximated by the recovery set). */
  private match(type: T, after: TSet, ruleMayEnd = false): Token {
    if (this.LA(1) === type) {
      this.endErrorCondition();
      return this.consume();
    }
    this.checkAttempts();
    const count = { n: 0 };
    if (this.singleTokenDeletion(set(type), count)) {
      const t = this.LT(1);
      this.recoveryConsume(count);
      return t;
    }
    const follow = ruleMayEnd ? union(after, this.recoverySet()) : after;
    if (follow.has(this.LA(1))) {
      if (!this.recoveryMode) {
        this.recoveryMode = true;
        this.syntaxError(this.LT(1).offset, `missing ${formatTokenSet(set(type))} at ${tokenDisplay(this.LT(1))}`);
      }
      const cur = this.LT(1);
      return { type, text: `<missing ${tokenTypeName(type)}>`, offset: cur.offset, start: cur.start, end: cur.start, index: -1 };
    }
    throw new RecognitionError('mismatch', this.LT(1), set(type));
  }

  private noViable(start: Token, offending: Token): RecognitionError {
    return new RecognitionError('noViable', offending, undefined, start);
  }

  // ---- rules ----

  private expr(): Cst {
    this.enter(Rule.Expr);
    const start = this.LT(1);
    let result: Cst = { k: 'error', start };
    try {
      const cond = this.popAfter(this.pushFollow(F_QUESTION), this.conditionalOr());
      result = cond;
      if (this.LA(1) === T.QUESTIONMARK) {
        const node: Cst = { k: 'ternary', start, cond, op: this.match(T.QUESTIONMARK, FIRST_EXPR) };
        result = node;
        node.e1 = this.popAfter(this.pushFollow(F_COLON), this.conditionalOr());
        this.match(T.COLON, FIRST_EXPR);
        node.e2 = this.popAfter(this.pushFollow(EMPTY), this.expr());
      }
    } catch (x) { this.handle(x, 'expr'); }
    this.exit(Rule.Expr);
    return result;
  }

  private conditionalOr(): Cst { return this.logical(Rule.Or, T.LOGICAL_OR, F_OR, 'or'); }
  private conditionalAnd(): Cst { return this.logical(Rule.And, T.LOGICAL_AND, F_AND, 'and'); }

  private logical(rule: Rule, op: T, follow: TSet, k: 'or' | 'and'): Cst {
    this.enter(rule);
    const start = this.LT(1);
    const first = this.popAfter(this.pushFollow(follow), k === 'or' ? this.conditionalAnd() : this.relation(0));
    let result = first;
    try {
      while (this.LA(1) === op) {
        if (result === first) result = { k, start, first, ops: [], rest: [] };
        const node = result as Extract<Cst, { k: 'or' | 'and' }>;
        node.ops.push(this.match(op, EMPTY));
        node.rest.push(this.popAfter(this.pushFollow(follow), k === 'or' ? this.conditionalAnd() : this.relation(0)));
      }
    } catch (x) { this.handle(x, k); }
    this.exit(rule);
    return result;
  }

  private relation(p: number): Cst {
    this.enter(Rule.Relation);
    const start = this.LT(1);
    let lhs = this.popAfter(this.pushFollow(RELOPS), this.calc(0));
    try {
      while (RELOPS.has(this.LA(1)) && 1 >= p) {
        const node: Cst = { k: 'binary', start, lhs, op: this.takeOperator() };
        lhs = node;
        node.rhs = this.popAfter(this.pushFollow(RELOPS), this.relation(2));
      }
    } catch (x) { this.handle(x, 'relation'); }
    this.exit(Rule.Relation);
    return lhs;
  }

  private calc(p: number): Cst {
    this.enter(Rule.Calc);
    const start = this.LT(1);
    let lhs = this.popAfter(this.pushFollow(CALCOPS), this.unary());
    try {
      for (;;) {
        const la = this.LA(1);
        let next: number;
        if (MULOPS.has(la) && 2 >= p) next = 3;
        else if ((la === T.PLUS || la === T.MINUS) && 1 >= p) next = 2;
        else break;
        const node: Cst = { k: 'binary', start, lhs, op: this.takeOperator() };
        lhs = node;
        node.rhs = this.popAfter(this.pushFollow(CALCOPS), this.calc(next));
      }
    } catch (x) { this.handle(x, 'calc'); }
    this.exit(Rule.Calc);
    return lhs;
  }

  /** Operators in relation and calc are taken with ReportMatch + Consume. */
  private takeOperator(): Token {
    this.endErrorCondition();
    return this.consume();
  }

  private unary(): Cst {
    this.enter(Rule.Unary);
    const start = this.LT(1);
    let result: Cst = { k: 'error', start };
    try {
      this.sync(FIRST_EXPR);
      const la = this.LA(1);
      if (la === T.EXCLAM) {
        const node: Cst = { k: 'not', start, ops: [] };
        result = node;
        do {
          node.ops.push(this.match(T.EXCLAM, NOT_LOOP));
          this.sync(NOT_LOOP, true);
        } while (this.LA(1) === T.EXCLAM);
        node.member = this.popAfter(this.pushFollow(EMPTY), this.member());
      } else if (la === T.MINUS && !isNumber(this.LA(2))) {
        const la2 = this.LA(2);
        if (!(la2 === T.MINUS || FIRST_MEMBER.has(la2))) throw this.noViable(this.LT(1), this.LT(2));
        const node: Cst = { k: 'neg', start, ops: [] };
        result = node;
        for (;;) {
          node.ops.push(this.match(T.MINUS, NEG_LOOP));
          this.sync(NEG_LOOP, true);
          // Another '-' continues the run, even before a number (ANTLR picks the first alternative).
          if (this.LA(1) === T.MINUS) {
            const l2 = this.LA(2);
            if (isNumber(l2) || l2 === T.MINUS || FIRST_MEMBER.has(l2)) continue;
            throw this.noViable(this.LT(1), this.LT(2));
          }
          if (FIRST_MEMBER.has(this.LA(1))) break;
          throw this.noViable(this.LT(1), this.LT(1));
        }
        node.member = this.popAfter(this.pushFollow(EMPTY), this.member());
      } else {
        if (!FIRST_MEMBER.has(la)) throw this.noViable(this.LT(1), this.LT(1));
        result = this.popAfter(this.pushFollow(EMPTY), this.member());
      }
    } catch (x) { this.handle(x, 'unary'); }
    this.exit(Rule.Unary);
    return result;
  }

  private member(): Cst {
    this.enter(Rule.Member);
    const start = this.LT(1);
    let node = this.popAfter(this.pushFollow(MEMBER_LOOP), this.primary());
    try {
      for (;;) {
        const la = this.LA(1);
        if (la === T.LBRACKET) {
          const n: Cst = { k: 'index', start, member: node, op: this.match(T.LBRACKET, INDEX_START) };
          node = n;
          this.sync(INDEX_START);
          if (this.LA(1) === T.QUESTIONMARK) n.opt = this.match(T.QUESTIONMARK, FIRST_EXPR);
          n.index = this.popAfter(this.pushFollow(F_RBRACKET), this.expr());
          this.match(T.RPRACKET, MEMBER_LOOP, true);
        } else if (la === T.DOT) {
          const la2 = this.LA(2);
          if (la2 === T.IDENTIFIER && this.LA(3) === T.LPAREN) {
            const n: Cst = { k: 'memberCall', start, member: node, op: this.match(T.DOT, EMPTY) };
            node = n;
            n.id = this.match(T.IDENTIFIER, EMPTY);
            n.open = this.match(T.LPAREN, CALL_ARGS);
            this.sync(CALL_ARGS);
            if (FIRST_EXPR.has(this.LA(1))) n.args = this.popAfter(this.pushFollow(F_RPAREN), this.exprList());
            this.match(T.RPAREN, MEMBER_LOOP, true);
          } else if (la2 === T.IDENTIFIER || la2 === T.ESC_IDENTIFIER || la2 === T.QUESTIONMARK) {
            if (la2 === T.QUESTIONMARK && !ESC_IDENTS.has(this.LA(3))) throw this.noViable(this.LT(1), this.LT(3));
            const n: Cst = { k: 'select', start, member: node, op: this.match(T.DOT, OPT_FIELD) };
            node = n;
            this.sync(OPT_FIELD);
            if (this.LA(1) === T.QUESTIONMARK) n.opt = this.match(T.QUESTIONMARK, ESC_IDENTS);
            n.id = this.popAfter(this.pushFollow(EMPTY), this.escapeIdent());
          } else {
            throw this.noViable(this.LT(1), this.LT(2));
          }
        } else {
          break;
        }
      }
    } catch (x) { this.handle(x, 'member'); }
    this.exit(Rule.Member);
    return node;
  }

  private primary(): Cst {
    this.enter(Rule.Primary);
    const start = this.LT(1);
    let result: Cst = { k: 'error', start };
    try {
      this.sync(FIRST_MEMBER);
      const la = this.LA(1);
      if (la === T.DOT || la === T.IDENTIFIER) {
        const k = la === T.DOT ? 2 : 1;
        if (this.LA(k) !== T.IDENTIFIER) throw this.noViable(this.LT(1), this.LT(k));
        if (this.LA(k + 1) === T.LPAREN) {
          const n: Cst = { k: 'globalCall', start };
          result = n;
          if (la === T.DOT) n.dot = this.match(T.DOT, EMPTY);
          n.id = this.match(T.IDENTIFIER, EMPTY);
          n.op = this.match(T.LPAREN, CALL_ARGS);
          this.sync(CALL_ARGS);
          if (FIRST_EXPR.has(this.LA(1))) n.args = this.popAfter(this.pushFollow(F_RPAREN), this.exprList());
          this.match(T.RPAREN, EMPTY, true);
        } else {
          let j = k + 1;
          while (this.LA(j) === T.DOT && this.LA(j + 1) === T.IDENTIFIER) j += 2;
          if (this.LA(j) === T.LBRACE) result = this.message(start);
          else {
            const n: Cst = { k: 'ident', start };
            result = n;
            if (la === T.DOT) n.dot = this.match(T.DOT, EMPTY);
            n.id = this.match(T.IDENTIFIER, EMPTY);
          }
        }
      } else if (la === T.LPAREN) {
        this.match(T.LPAREN, FIRST_EXPR);
        const inner = this.popAfter(this.pushFollow(F_RPAREN), this.expr());
        result = inner;
        this.match(T.RPAREN, EMPTY, true);
      } else if (la === T.LBRACKET) {
        const n: Cst = { k: 'list', start, op: this.match(T.LBRACKET, LIST_BODY) };
        result = n;
        this.sync(LIST_BODY);
        if (FIRST_OPT_EXPR.has(this.LA(1))) n.elems = this.popAfter(this.pushFollow(LIST_END), this.listInit());
        this.sync(LIST_END);
        if (this.LA(1) === T.COMMA) this.match(T.COMMA, F_RBRACKET);
        this.match(T.RPRACKET, EMPTY, true);
      } else if (la === T.LBRACE) {
        const n: Cst = { k: 'map', start, op: this.match(T.LBRACE, MAP_BODY) };
        result = n;
        this.sync(MAP_BODY);
        if (FIRST_OPT_EXPR.has(this.LA(1))) n.entries = this.popAfter(this.pushFollow(MAP_END), this.mapInitializerList());
        this.sync(MAP_END);
        if (this.LA(1) === T.COMMA) this.match(T.COMMA, set(T.RBRACE));
        this.match(T.RBRACE, EMPTY, true);
      } else if (FIRST_LITERAL.has(la)) {
        result = this.popAfter(this.pushFollow(EMPTY), this.literal());
      } else {
        throw this.noViable(this.LT(1), this.LT(1));
      }
    } catch (x) { this.handle(x, 'primary'); }
    this.exit(Rule.Primary);
    return result;
  }

  /** `.`? IDENT (. IDENT)* { fields } — throws to primary's handler. */
  private message(start: Token): Cst {
    const n: Cst = { k: 'message', start, ids: [] };
    try {
      if (this.LA(1) === T.DOT) n.dot = this.match(T.DOT, EMPTY);
      n.ids.push(this.match(T.IDENTIFIER, MSG_LOOP));
      this.sync(MSG_LOOP);
      while (this.LA(1) === T.DOT) {
        this.match(T.DOT, EMPTY);
        n.ids.push(this.match(T.IDENTIFIER, MSG_LOOP));
        this.sync(MSG_LOOP, true);
      }
      n.op = this.match(T.LBRACE, MSG_BODY);
      this.sync(MSG_BODY);
      if (OPT_FIELD.has(this.LA(1))) n.fields = this.popAfter(this.pushFollow(MAP_END), this.fieldInitializerList());
      this.sync(MAP_END);
      if (this.LA(1) === T.COMMA) this.match(T.COMMA, set(T.RBRACE));
      this.match(T.RBRACE, EMPTY, true);
    } catch (x) {
      this.handle(x, 'primary');
    }
    return n;
  }

  private exprList(): Cst[] {
    this.enter(Rule.ExprList);
    const items: Cst[] = [];
    try {
      items.push(this.popAfter(this.pushFollow(F_COMMA), this.expr()));
      while (this.LA(1) === T.COMMA) {
        this.match(T.COMMA, FIRST_EXPR);
        items.push(this.popAfter(this.pushFollow(F_COMMA), this.expr()));
      }
    } catch (x) { this.handle(x, 'exprList'); }
    this.exit(Rule.ExprList);
    return items;
  }

  private listInit(): OptExpr[] {
    this.enter(Rule.ListInit);
    const items: OptExpr[] = [];
    try {
      items.push(this.popAfter(this.pushFollow(F_COMMA), this.optExpr()));
      while (this.LA(1) === T.COMMA && FIRST_OPT_EXPR.has(this.LA(2))) {
        this.match(T.COMMA, FIRST_OPT_EXPR);
        items.push(this.popAfter(this.pushFollow(F_COMMA), this.optExpr()));
      }
    } catch (x) { this.handle(x, 'listInit'); }
    this.exit(Rule.ListInit);
    return items;
  }

  private fieldInitializerList(): FieldInit[] {
    this.enter(Rule.FieldInits);
    const fields: FieldInit[] = [];
    try {
      do {
        if (fields.length > 0) this.match(T.COMMA, OPT_FIELD);
        const f: FieldInit = { start: this.LT(1) };
        fields.push(f);
        this.popAfter(this.pushFollow(F_COLON), this.optField(f));
        f.col = this.match(T.COLON, FIRST_EXPR);
        f.value = this.popAfter(this.pushFollow(F_COMMA), this.expr());
      } while (this.LA(1) === T.COMMA && OPT_FIELD.has(this.LA(2)));
    } catch (x) { this.handle(x, 'fieldInits'); }
    this.exit(Rule.FieldInits);
    return fields;
  }

  private optField(f: FieldInit): void {
    this.enter(Rule.OptField);
    try {
      this.sync(OPT_FIELD);
      if (this.LA(1) === T.QUESTIONMARK) f.opt = this.match(T.QUESTIONMARK, ESC_IDENTS);
      f.id = this.popAfter(this.pushFollow(EMPTY), this.escapeIdent());
    } catch (x) { this.handle(x, 'optField'); }
    this.exit(Rule.OptField);
  }

  private mapInitializerList(): MapInit[] {
    this.enter(Rule.MapInits);
    const entries: MapInit[] = [];
    try {
      do {
        if (entries.length > 0) this.match(T.COMMA, FIRST_OPT_EXPR);
        const en: MapInit = { key: { start: this.LT(1) } };
        entries.push(en);
        en.key = this.popAfter(this.pushFollow(F_COLON), this.optExpr());
        en.col = this.match(T.COLON, FIRST_EXPR);
        en.value = this.popAfter(this.pushFollow(F_COMMA), this.expr());
      } while (this.LA(1) === T.COMMA && FIRST_OPT_EXPR.has(this.LA(2)));
    } catch (x) { this.handle(x, 'mapInits'); }
    this.exit(Rule.MapInits);
    return entries;
  }

  private escapeIdent(): Token | undefined {
    this.enter(Rule.EscapeIdent);
    let t: Token | undefined;
    try {
      this.sync(ESC_IDENTS);
      if (!ESC_IDENTS.has(this.LA(1))) throw this.noViable(this.LT(1), this.LT(1));
      t = this.match(this.LA(1), EMPTY);
    } catch (x) { this.handle(x, 'escapeIdent'); }
    this.exit(Rule.EscapeIdent);
    return t;
  }

  private optExpr(): OptExpr {
    this.enter(Rule.OptExpr);
    const o: OptExpr = { start: this.LT(1) };
    try {
      this.sync(FIRST_OPT_EXPR);
      if (this.LA(1) === T.QUESTIONMARK) o.opt = this.match(T.QUESTIONMARK, FIRST_EXPR);
      o.e = this.popAfter(this.pushFollow(EMPTY), this.expr());
    } catch (x) { this.handle(x, 'optExpr'); }
    this.exit(Rule.OptExpr);
    return o;
  }

  private literal(): Cst {
    this.enter(Rule.Literal);
    const start = this.LT(1);
    let result: Cst = { k: 'error', start };
    try {
      this.sync(FIRST_LITERAL);
      const la = this.LA(1);
      let lit: LitKind;
      if (la === T.MINUS) {
        const la2 = this.LA(2);
        if (la2 === T.NUM_INT) lit = 'int';
        else if (la2 === T.NUM_FLOAT) lit = 'double';
        else throw this.noViable(this.LT(1), this.LT(2));
      } else {
        const k = LITERAL_KINDS[la];
        if (!k) throw this.noViable(this.LT(1), this.LT(1));
        lit = k;
      }
      const n: Cst = { k: 'literal', start, lit };
      result = n;
      if (la === T.MINUS) n.sign = this.match(T.MINUS, EMPTY);
      n.tok = this.match(this.LA(1), EMPTY);
    } catch (x) { this.handle(x, 'literal'); }
    this.exit(Rule.Literal);
    return result;
  }
}

/** The whitespace and comments of a gap between tokens, without characters the lexer rejected. */
function hiddenText(gap: string): string {
  if (/^(?:[ \t\r\n\f]|\/\/[^\n]*)*$/.test(gap)) return gap;
  return gap.replace(/[^ \t\r\n\f]/g, '');
}

const LITERAL_KINDS: Partial<Record<number, LitKind>> = {
  [T.NUM_INT]: 'int', [T.NUM_UINT]: 'uint', [T.NUM_FLOAT]: 'double', [T.STRING]: 'string',
  [T.BYTES]: 'bytes', [T.CEL_TRUE]: 'true', [T.CEL_FALSE]: 'false', [T.NUL]: 'null',
};

function isNumber(t: number): boolean { return t === T.NUM_INT || t === T.NUM_FLOAT; }

// CEL parsing: lexing, the concrete syntax tree, and cel-go's visitor that
// turns it into the AST (ids, positions, macro expansion, literal decoding and
// the errors cel-go's parser reports).

import type { Expr, Literal, MapEntry, ParsedAst, StructField } from './ast.js';
import type { Issue, Issues } from './issues.js';
import { lex, T, type Token } from './lexer.js';
import { DEFAULT_MACROS, findMacro, macroTable, type Macro, type MacroTable } from './macros.js';
import { AstFactory, MacroHelper } from './parser-ast.js';
import { CstParser, ParseAbort, type Cst, type FieldInit, type MapInit, type OptExpr } from './parser-cst.js';
import { unescape } from './unescape.js';

export interface ParseOptions {
  /** Nesting limit, for both the grammar rules and the AST visitor (cel-go default 250). */
  maxRecursionDepth?: number;
  errorRecoveryLimit?: number;
  errorRecoveryLookaheadTokenLimit?: number;
  errorReportingLimit?: number;
  expressionSizeCodePointLimit?: number;
  /** `.?f`, `[?i]`, `[?e]`, `{?k: v}`; on in Kubernetes (cel.OptionalTypes). */
  enableOptionalSyntax?: boolean;
  /** Backquoted identifiers; off in Kubernetes. */
  enableIdentEscapeSyntax?: boolean;
  /** Record each macro call as written, in SourceInfo.macroCalls. */
  populateMacroCalls?: boolean;
  macros?: readonly Macro[];
  /** `@result` (cel-go default) or the legacy `__result__`. */
  accumulatorName?: string;
}

const RESERVED = new Set([
  'as', 'break', 'const', 'continue', 'else', 'false', 'for', 'function', 'if', 'import', 'in', 'let',
  'loop', 'package', 'namespace', 'null', 'return', 'true', 'var', 'void', 'while',
]);

const OPERATORS: Record<string, string> = {
  '<': '_<_', '<=': '_<=_', '>=': '_>=_', '>': '_>_', '==': '_==_', '!=': '_!=_', in: '@in',
  '*': '_*_', '/': '_/_', '%': '_%_', '+': '_+_', '-': '_-_',
};

const DEFAULT_TABLE = macroTable(DEFAULT_MACROS);
const tableCache = new WeakMap<readonly Macro[], MacroTable>();

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** Parses CEL source into an AST, or returns the issues cel-go would report. */
export function parse(source: string, options: ParseOptions = {}): ParsedAst | Issues {
  const maxDepth = options.maxRecursionDepth ?? 250;
  const sizeLimit = options.expressionSizeCodePointLimit ?? 100_000;
  const codePoints = countCodePoints(source);
  if (codePoints > sizeLimit) {
    return { source, issues: [{ message: `expression code point size exceeds limit: size: ${codePoints}, limit ${sizeLimit}` }] };
  }
  const { tokens, errors: lexErrors } = lex(source);
  const cst = new CstParser(tokens, lexErrors, source, {
    maxRecursionDepth: maxDepth,
    errorRecoveryLimit: options.errorRecoveryLimit ?? 30,
    errorRecoveryLookaheadTokenLimit: options.errorRecoveryLookaheadTokenLimit ?? 256,
    errorReportingLimit: options.errorReportingLimit ?? 100,
  });
  const issues: Issue[] = [];
  let tree: Cst | undefined;
  try {
    tree = cst.parseStart();
  } catch (x) {
    if (!(x instanceof ParseAbort)) throw x;
    issues.push(...cst.errors);
    if (x.internal) issues.push({ message: x.internal });
    return { source, issues };
  }
  issues.push(...cst.errors);
  let table = DEFAULT_TABLE;
  if (options.macros) {
    table = tableCache.get(options.macros) ?? macroTable(options.macros);
    tableCache.set(options.macros, table);
  }
  const v = new Visitor(new AstFactory(options.accumulatorName ?? '@result'), table, issues, {
    maxDepth,
    optional: options.enableOptionalSyntax ?? true,
    identEscape: options.enableIdentEscapeSyntax ?? false,
    macroCalls: options.populateMacroCalls ?? false,
  });
  let expr: Expr;
  try {
    expr = v.visit(tree);
  } catch (x) {
    if (!(x instanceof ParseAbort)) throw x;
    if (x.internal) issues.push({ message: x.internal });
    return { source, issues };
  }
  if (issues.length > 0) return { source, issues };
  return { expr, sourceInfo: { source, positions: v.f.positions, macroCalls: v.f.macroCalls } };
}

function countCodePoints(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) { n--; i++; }
    }
  }
  return n;
}

interface VisitorOptions { maxDepth: number; optional: boolean; identEscape: boolean; macroCalls: boolean }

type Where = Token | Cst | OptExpr | FieldInit | number;

/** cel-go's parser visitor over the concrete syntax tree. */
class Visitor {
  private depth = 0;

  constructor(
    readonly f: AstFactory,
    private readonly macros: MacroTable,
    private readonly issues: Issue[],
    private readonly o: VisitorOptions,
  ) {}

  private offset(w: Where): number {
    if (typeof w === 'number') return w;
    if ('offset' in w) return w.offset;
    return w.start.offset;
  }

  private id(w: Where): number { return this.f.id(this.offset(w)); }

  /** An error placeholder (cel-go's unspecified expression). */
  private newExpr(w: Where): Expr { return this.f.call(this.id(w), '<<error>>', []); }

  private reportError(w: Where, message: string): Expr {
    const e = this.newExpr(w);
    this.issues.push({ message, offset: this.offset(w) });
    return e;
  }

  visit(n: Cst | undefined): Expr {
    if (!n) return this.unknown();
    switch (n.k) {
      case 'ternary': case 'binary': case 'select': case 'memberCall': case 'index': {
        if (++this.depth > this.o.maxDepth) throw new ParseAbort('max recursion depth exceeded');
        const out = this.visitCounted(n);
        this.depth--;
        return out;
      }
      case 'or': case 'and': return this.visitLogical(n);
      case 'not': case 'neg': return this.visitUnary(n);
      case 'ident': return this.visitIdent(n);
      case 'globalCall': return this.visitGlobalCall(n);
      case 'list': return this.visitList(n);
      case 'map': return this.visitMap(n);
      case 'message': return this.visitMessage(n);
      case 'literal': return this.visitLiteral(n);
      case 'error': return this.unknown();
    }
  }

  private unknown(): Expr {
    if (this.issues.length === 0) return this.reportError(-1, 'unknown parse element encountered: <<nil>>');
    return this.f.call(this.f.id(-1), '<<error>>', []);
  }

  private visitCounted(n: Extract<Cst, { k: 'ternary' | 'binary' | 'select' | 'memberCall' | 'index' }>): Expr {
    switch (n.k) {
      case 'ternary': {
        const cond = this.visit(n.cond);
        const opId = this.id(n.op);
        const e1 = this.visit(n.e1);
        const e2 = this.visit(n.e2);
        return this.globalCallOrMacro(opId, '_?_:_', [cond, e1, e2]);
      }
      case 'binary': {
        const op = OPERATORS[n.op.text];
        if (!op) return this.reportError(n, 'operator not found');
        const lhs = this.visit(n.lhs);
        const opId = this.id(n.op);
        const rhs = this.visit(n.rhs);
        return this.globalCallOrMacro(opId, op, [lhs, rhs]);
      }
      case 'select': {
        const operand = this.visit(n.member);
        if (!n.id) return this.newExpr(n);
        const field = this.normalizeIdent(n.id);
        if (n.opt) {
          if (!this.o.optional) return this.reportError(n.op, "unsupported syntax '.?'");
          const lit = this.f.literal(this.id(n.id), { kind: 'string', value: field });
          return this.f.call(this.id(n.op), '_?._', [operand, lit]);
        }
        return this.f.select(this.id(n.op), operand, field);
      }
      case 'memberCall': {
        const operand = this.visit(n.member);
        if (!n.id) return this.newExpr(n);
        const opId = this.id(n.open ?? n.id);
        const args = this.visitExprs(n.args);
        return this.receiverCallOrMacro(opId, n.id.text, operand, args);
      }
      case 'index': {
        const target = this.visit(n.member);
        const opId = this.id(n.op);
        const index = this.visit(n.index);
        let fn = '_[_]';
        if (n.opt) {
          if (!this.o.optional) return this.reportError(n.op, "unsupported syntax '[?'");
          fn = '_[?_]';
        }
        return this.globalCallOrMacro(opId, fn, [target, index]);
      }
    }
  }

  private normalizeIdent(t: Token | undefined): string {
    if (!t) { this.reportError(-1, 'unsupported ident kind'); return ''; }
    if (t.type === T.ESC_IDENTIFIER) {
      if (!this.o.identEscape) { this.reportError(t, "unsupported syntax: '`'"); return ''; }
      return t.text.slice(1, -1);
    }
    return t.text;
  }

  private visitLogical(n: Extract<Cst, { k: 'or' | 'and' }>): Expr {
    const fn = n.k === 'or' ? '_||_' : '_&&_';
    const terms = [this.visit(n.first)];
    const ops: number[] = [];
    for (let i = 0; i < n.ops.length; i++) {
      if (i >= n.rest.length) return this.reportError(n, `unexpected character, wanted '${n.k === 'or' ? '||' : '&&'}'`);
      terms.push(this.visit(n.rest[i]));
      ops.push(this.id(n.ops[i]!));
    }
    if (ops.length === 0) return terms[0]!;
    // cel-go balances chains of the same logical operator.
    const balanced = (lo: number, hi: number): Expr => {
      const mid = (lo + hi + 1) >> 1;
      const left = mid === lo ? terms[mid]! : balanced(lo, mid - 1);
      const right = mid === hi ? terms[mid + 1]! : balanced(mid + 1, hi);
      return this.f.call(ops[mid]!, fn, [left, right]);
    };
    return balanced(0, ops.length - 1);
  }

  private visitUnary(n: Extract<Cst, { k: 'not' | 'neg' }>): Expr {
    if (n.ops.length % 2 === 0) return this.visit(n.member);
    const opId = this.id(n.ops[0]!);
    const target = this.visit(n.member);
    return this.globalCallOrMacro(opId, n.k === 'not' ? '!_' : '-_', [target]);
  }

  private visitIdent(n: Extract<Cst, { k: 'ident' }>): Expr {
    if (!n.id) return this.newExpr(n);
    if (RESERVED.has(n.id.text)) return this.reportError(n, `reserved identifier: ${n.id.text}`);
    return this.f.ident(this.id(n.id), (n.dot ? '.' : '') + n.id.text);
  }

  private visitGlobalCall(n: Extract<Cst, { k: 'globalCall' }>): Expr {
    if (!n.id) return this.newExpr(n);
    if (RESERVED.has(n.id.text)) return this.reportError(n, `reserved identifier: ${n.id.text}`);
    const opId = this.id(n.op ?? n);
    return this.globalCallOrMacro(opId, (n.dot ? '.' : '') + n.id.text, this.visitExprs(n.args));
  }

  private visitExprs(args: Cst[] | undefined): Expr[] {
    return args ? args.map((a) => this.visit(a)) : [];
  }

  private visitList(n: Extract<Cst, { k: 'list' }>): Expr {
    const listId = this.id(n.op);
    const elements: Expr[] = [];
    const optionals: number[] = [];
    for (let i = 0; i < (n.elems?.length ?? 0); i++) {
      const el = n.elems![i]!;
      elements.push(this.visit(el.e));
      if (el.opt) {
        if (!this.o.optional) { this.reportError(el.opt, "unsupported syntax '?'"); continue; }
        optionals.push(i);
      }
    }
    return this.f.list(listId, elements, optionals);
  }

  private visitMap(n: Extract<Cst, { k: 'map' }>): Expr {
    const mapId = this.id(n.op);
    return this.f.map(mapId, this.visitMapEntries(n.entries));
  }

  private visitMapEntries(entries: MapInit[] | undefined): MapEntry[] {
    if (!entries) return [];
    const out: MapEntry[] = [];
    for (const en of entries) {
      if (!en.col) break;
      const colId = this.id(en.col);
      if (!en.value) return [];
      const optional = en.key.opt !== undefined;
      if (!this.o.optional && optional) { this.reportError(en.key, "unsupported syntax '?'"); continue; }
      const key = this.visit(en.key.e);
      const value = this.visit(en.value);
      out.push({ id: colId, key, value, optional });
    }
    return out;
  }

  private visitMessage(n: Extract<Cst, { k: 'message' }>): Expr {
    const name = (n.dot ? '.' : '') + n.ids.map((t) => t.text).join('.');
    const objId = this.id(n.op ?? n);
    return this.f.struct(objId, name, this.visitFields(n.fields));
  }

  private visitFields(fields: FieldInit[] | undefined): StructField[] {
    if (!fields) return [];
    const out: StructField[] = [];
    for (const fl of fields) {
      if (!fl.col || !fl.value) return [];
      const initId = this.id(fl.col);
      const optional = fl.opt !== undefined;
      if (!this.o.optional && optional) { this.reportError(fl, "unsupported syntax '?'"); continue; }
      if (!fl.id) { this.reportError(fields[0]!, 'unsupported ident kind'); continue; }
      let name = fl.id.text;
      if (fl.id.type === T.ESC_IDENTIFIER) {
        if (!this.o.identEscape) { this.reportError(fields[0]!, "unsupported syntax: '`'"); continue; }
        name = name.slice(1, -1);
      }
      const value = this.visit(fl.value);
      out.push({ id: initId, field: name, value, optional });
    }
    return out;
  }

  private visitLiteral(n: Extract<Cst, { k: 'literal' }>): Expr {
    const text = n.tok?.text ?? '';
    const lit = (value: Literal): Expr => this.f.literal(this.id(n), value);
    switch (n.lit) {
      case 'int': {
        let digits = text;
        let hex = false;
        if (digits.startsWith('0x')) { hex = true; digits = digits.slice(2); }
        let v = BigInt(hex ? `0x${digits}` : digits);
        if (n.sign) v = -v;
        if (v < INT64_MIN || v > INT64_MAX) return this.reportError(n, 'invalid int literal');
        return lit({ kind: 'int', value: v });
      }
      case 'uint': {
        const digits = text.slice(0, -1);
        const v = BigInt(digits);
        if (v > UINT64_MAX) return this.reportError(n, 'invalid uint literal');
        return lit({ kind: 'uint', value: v });
      }
      case 'double': {
        const v = Number((n.sign ? '-' : '') + text);
        if (!Number.isFinite(v)) return this.reportError(n, 'invalid double literal');
        return lit({ kind: 'double', value: v });
      }
      case 'string': {
        const r = unescape(text, false);
        if ('error' in r) { this.reportError(n, r.error); return lit({ kind: 'string', value: text }); }
        return lit({ kind: 'string', value: r.value as string });
      }
      case 'bytes': {
        const r = unescape(text.slice(1), true);
        if ('error' in r) { this.reportError(n, r.error); return lit({ kind: 'bytes', value: new TextEncoder().encode(text.slice(1)) }); }
        return lit({ kind: 'bytes', value: r.value as Uint8Array });
      }
      case 'true': return lit({ kind: 'bool', value: true });
      case 'false': return lit({ kind: 'bool', value: false });
      case 'null': return lit({ kind: 'null' });
    }
  }

  private globalCallOrMacro(id: number, fn: string, args: Expr[]): Expr {
    return this.expandMacro(id, fn, undefined, args) ?? this.f.call(id, fn, args);
  }

  private receiverCallOrMacro(id: number, fn: string, target: Expr, args: Expr[]): Expr {
    return this.expandMacro(id, fn, target, args) ?? this.f.call(id, fn, args, target);
  }

  private expandMacro(id: number, fn: string, target: Expr | undefined, args: Expr[]): Expr | undefined {
    const macro = findMacro(this.macros, fn, args.length, target !== undefined);
    if (!macro) return undefined;
    const r = macro.expand(new MacroHelper(this.f, id), target, args);
    if (r === undefined) return undefined;
    if ('macroError' in r) {
      const at = this.f.positions.get(r.id) ?? this.f.offsetOf(id);
      this.f.deleteId(id);
      return this.reportError(at, r.macroError);
    }
    if (this.o.macroCalls) {
      this.f.macroCalls.set(r.id, target ? { id: 0, kind: 'call', fn, target, args } : { id: 0, kind: 'call', fn, args });
    }
    this.f.deleteId(id);
    return r;
  }
}

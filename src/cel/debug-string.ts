// cel-go's debug.ToDebugString / ToAdornedDebugString: an indented rendering
// of the AST used by cel-go's tests (and the cel-spec test data), optionally
// adorned per node with its kind, or its checked type and reference.

import type { Expr, Literal, MapEntry, StructField } from './ast.js';
import { isPrintChar } from '../util/unicode-print.js';

/** Text appended after each node (and after each map/struct entry). */
type Adorner = (node: Expr | MapEntry | StructField, isEntry: boolean) => string;

const noAdorner: Adorner = () => '';

export function debugString(expr: Expr, adorner: Adorner = noAdorner): string {
  const w = new Writer(adorner);
  w.buffer(expr);
  return w.out;
}

/** The adorner of cel-go's parser tests: `^#*expr.Expr_IdentExpr#`. */
export const kindAdorner: Adorner = (node, isEntry) => {
  if (isEntry) return '^#*expr.Expr_CreateStruct_Entry#';
  const e = node as Expr;
  return `^#*expr.${exprKindName(e)}#`;
};

function exprKindName(e: Expr): string {
  switch (e.kind) {
    case 'literal': return LITERAL_KIND[e.value.kind];
    case 'ident': return 'Expr_IdentExpr';
    case 'select': return 'Expr_SelectExpr';
    case 'call': return 'Expr_CallExpr';
    case 'list': return 'Expr_ListExpr';
    case 'map': case 'struct': return 'Expr_StructExpr';
    case 'comprehension': return 'Expr_ComprehensionExpr';
  }
}

const LITERAL_KIND: Record<Literal['kind'], string> = {
  null: 'Constant_NullValue', bool: 'Constant_BoolValue', int: 'Constant_Int64Value', uint: 'Constant_Uint64Value',
  double: 'Constant_DoubleValue', string: 'Constant_StringValue', bytes: 'Constant_BytesValue',
};

class Writer {
  out = '';
  private indent = 0;
  private lineStart = true;

  constructor(private readonly adorner: Adorner) {}

  buffer(e: Expr): void {
    switch (e.kind) {
      case 'literal': this.append(formatLiteral(e.value)); break;
      case 'ident': this.append(e.name); break;
      case 'select':
        this.buffer(e.operand);
        this.append('.');
        this.append(e.field);
        if (e.testOnly) this.append('~test-only~');
        break;
      case 'call':
        if (e.target) { this.buffer(e.target); this.append('.'); }
        this.append(e.fn);
        this.append('(');
        if (e.args.length > 0) {
          this.indent++;
          this.line();
          e.args.forEach((a, i) => {
            if (i > 0) { this.append(','); this.line(); }
            this.buffer(a);
          });
          this.indent--;
          this.line();
        }
        this.append(')');
        break;
      case 'list':
        this.append('[');
        if (e.elements.length > 0) {
          this.line();
          this.indent++;
          e.elements.forEach((a, i) => {
            if (i > 0) { this.append(','); this.line(); }
            this.buffer(a);
          });
          this.indent--;
          this.line();
        }
        this.append(']');
        break;
      case 'map':
        this.append('{');
        this.entries(e.entries, (en) => { this.buffer(en.key); this.append(':'); this.buffer(en.value); });
        this.append('}');
        break;
      case 'struct':
        this.append(e.typeName);
        this.append('{');
        this.entries(e.fields, (f) => { this.append(f.field); this.append(':'); this.buffer(f.value); });
        this.append('}');
        break;
      case 'comprehension':
        this.append('__comprehension__(');
        this.indent++;
        this.line();
        this.append('// Variable'); this.line();
        this.append(e.iterVar); this.append(','); this.line();
        if (e.iterVar2) { this.append(e.iterVar2); this.append(','); this.line(); }
        this.append('// Target'); this.line();
        this.buffer(e.iterRange); this.append(','); this.line();
        this.append('// Accumulator'); this.line();
        this.append(e.accuVar); this.append(','); this.line();
        this.append('// Init'); this.line();
        this.buffer(e.accuInit); this.append(','); this.line();
        this.append('// LoopCondition'); this.line();
        this.buffer(e.loopCondition); this.append(','); this.line();
        this.append('// LoopStep'); this.line();
        this.buffer(e.loopStep); this.append(','); this.line();
        this.append('// Result'); this.line();
        this.buffer(e.result);
        this.append(')');
        this.indent--;
        break;
    }
    this.append(this.adorner(e, false));
  }

  private entries<E extends MapEntry | StructField>(list: E[], body: (en: E) => void): void {
    if (list.length === 0) return;
    this.line();
    this.indent++;
    list.forEach((en, i) => {
      if (i > 0) { this.append(','); this.line(); }
      if (en.optional) this.append('?');
      body(en);
      this.append(this.adorner(en, true));
    });
    this.indent--;
    this.line();
  }

  private append(s: string): void {
    if (this.lineStart) {
      this.lineStart = false;
      this.out += '  '.repeat(this.indent);
    }
    this.out += s;
  }

  private line(): void {
    this.out += '\n';
    this.lineStart = true;
  }
}

function formatLiteral(v: Literal): string {
  switch (v.kind) {
    case 'null': return 'null';
    case 'bool': return v.value ? 'true' : 'false';
    case 'int': return v.value.toString();
    case 'uint': return `${v.value}u`;
    case 'double': return formatDouble(v.value);
    case 'string': return goQuote([...v.value].map((c) => ({ r: c.codePointAt(0)!, raw: -1 })));
    case 'bytes': return `b${goQuote(decodeUtf8(v.value))}`;
  }
}

/** Go's %v for a float64 (strconv 'g' with the shortest digits). */
function formatDouble(v: number): string {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return '+Inf';
  if (v === -Infinity) return '-Inf';
  if (v === 0) return Object.is(v, -0) ? '-0' : '0';
  const [mant, expText] = v.toExponential().split('e') as [string, string];
  const exp = Number(expText);
  if (exp < -4 || exp >= 6) {
    return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  }
  return String(v);
}

/** A rune, or (raw >= 0) an undecodable byte. */
interface Rune { r: number; raw: number }

function decodeUtf8(b: Uint8Array): Rune[] {
  const out: Rune[] = [];
  let i = 0;
  while (i < b.length) {
    const c = b[i]!;
    let need = 0;
    let min = 0;
    let r = 0;
    if (c < 0x80) { out.push({ r: c, raw: -1 }); i++; continue; }
    if (c >= 0xc2 && c <= 0xdf) { need = 1; r = c & 0x1f; min = 0x80; }
    else if (c >= 0xe0 && c <= 0xef) { need = 2; r = c & 0x0f; min = 0x800; }
    else if (c >= 0xf0 && c <= 0xf4) { need = 3; r = c & 0x07; min = 0x10000; }
    let ok = need > 0 && i + need < b.length;
    if (ok) {
      for (let k = 1; k <= need; k++) {
        const d = b[i + k];
        if (d === undefined || (d & 0xc0) !== 0x80) { ok = false; break; }
        r = (r << 6) | (d & 0x3f);
      }
    }
    if (ok && (r < min || r > 0x10ffff || (r >= 0xd800 && r <= 0xdfff))) ok = false;
    if (!ok) { out.push({ r: 0xfffd, raw: c }); i++; continue; }
    out.push({ r, raw: -1 });
    i += need + 1;
  }
  return out;
}

/** strconv.Quote. */
function goQuote(runes: Rune[]): string {
  let s = '"';
  for (const { r, raw } of runes) {
    if (raw >= 0) { s += `\\x${hex(raw, 2)}`; continue; }
    if (r === 0x22 || r === 0x5c) { s += `\\${String.fromCodePoint(r)}`; continue; }
    if (r === 0x20 || (r > 0x20 && r !== 0x7f && isPrintChar(String.fromCodePoint(r)))) {
      s += String.fromCodePoint(r);
      continue;
    }
    switch (r) {
      case 7: s += '\\a'; continue;
      case 8: s += '\\b'; continue;
      case 12: s += '\\f'; continue;
      case 10: s += '\\n'; continue;
      case 13: s += '\\r'; continue;
      case 9: s += '\\t'; continue;
      case 11: s += '\\v'; continue;
    }
    if (r < 0x20 || r === 0x7f) s += `\\x${hex(r, 2)}`;
    else if (r < 0x10000) s += `\\u${hex(r, 4)}`;
    else s += `\\U${hex(r, 8)}`;
  }
  return `${s}"`;
}

const hex = (n: number, w: number): string => n.toString(16).padStart(w, '0');

/** cel-go's checker printer: `~type` and `^reference` (overload ids sorted). */
export function checkedAdorner(ast: import('./ast.js').CheckedAst, formatType: (t: import('./types.js').CelType) => string): Adorner {
  return (node, isEntry) => {
    if (isEntry) return '';
    const e = node as Expr;
    let out = '';
    const t = ast.types.get(e.id);
    if (t) out += `~${formatType(t)}`;
    if (e.kind === 'ident' || e.kind === 'call' || e.kind === 'list' || e.kind === 'struct' || e.kind === 'select') {
      const r = ast.references.get(e.id);
      if (r) {
        if (r.overloadIds && r.overloadIds.length > 0) out += `^${[...r.overloadIds].sort().join('|')}`;
        else if (r.name !== undefined) out += `^${r.name}`;
      }
    }
    return out;
  };
}

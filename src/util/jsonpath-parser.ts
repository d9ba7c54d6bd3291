// The template grammar of k8s.io/client-go/util/jsonpath (parser.go): literal text with `{...}` actions
// holding fields, `..`, `*`, `[i]`/`[a:b:c]` slices, `[x,y]` unions, `['a.b']` keys (which split at dots, as
// in kube), `[?(@.x op v)]` filters, quoted text, numbers, booleans and the range/end identifiers. Error
// messages are kube's; the parser follows its rune-by-rune scan so edge cases parse (or fail) the same.
import { isPrintChar } from './unicode-print.js';

export interface ListNode {
  type: 'list';
  nodes: JsonPathNode[];
}

/** One of [start, end, step]; `derived` marks an end computed from a lone index ([i] means [i:i+1]). */
interface ArrayParam {
  value: number;
  known: boolean;
  derived: boolean;
}

export type JsonPathNode =
  | ListNode
  | { type: 'text'; text: string }
  | { type: 'field'; name: string }
  | { type: 'identifier'; name: string }
  | { type: 'array'; params: [ArrayParam, ArrayParam, ArrayParam] }
  | { type: 'filter'; left: ListNode; right: ListNode; operator: string }
  | { type: 'int'; value: number }
  | { type: 'float'; value: number }
  | { type: 'bool'; value: boolean }
  | { type: 'wildcard' }
  | { type: 'recursive' }
  | { type: 'union'; nodes: ListNode[] };

export class JsonPathParseError extends Error {}

const EOF = '';

const list = (): ListNode => ({ type: 'list', nodes: [] });

/** Parses a whole template; the root list holds text nodes and one list per action. */
export function parseTemplate(text: string): ListNode {
  return new Parser(text).parse();
}

/** parseAction: the nodes of `{text}`, as filters, unions and bracketed keys parse their parts. */
function parseAction(text: string): ListNode {
  return parseTemplate(`{${text}}`).nodes[0] as ListNode;
}

const isSpace = (r: string): boolean => r === ' ' || r === '\t';
const isEndOfLine = (r: string): boolean => r === '\r' || r === '\n';
const isDigit = (r: string): boolean => /^\p{Nd}$/u.test(r);
const isAlphaNumeric = (r: string): boolean => r === '_' || /^[\p{L}\p{Nd}]$/u.test(r);

/** Where an identifier or field name ends. */
function isTerminator(r: string): boolean {
  if (isSpace(r) || isEndOfLine(r)) return true;
  return r === EOF || '.,[]$@{}'.includes(r);
}

const DICT_KEY = /^'([^']*)'$/;
const SLICE = /^(-?[0-9]*)(:-?[0-9]*)?(:-?[0-9]*)?$/;
const FILTER = /^([^!<>=]+)([!<>=]+)(.+?)$/;
const INT = /^[+-]?[0-9]+$/;
const FLOAT = /^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)$/;

/** Go's %#U: `U+002A '*'` (the quoted character only when printable). */
function goRuneName(r: string): string {
  const cp = r.codePointAt(0)!;
  const hex = cp.toString(16).toUpperCase().padStart(4, '0');
  return isPrintChar(r) ? `U+${hex} '${r}'` : `U+${hex}`;
}

/** strconv.Atoi: decimal, optional sign, 64-bit range. */
function atoi(s: string): number | undefined {
  if (!INT.test(s)) return undefined;
  const n = BigInt(s);
  if (n < -(2n ** 63n) || n >= 2n ** 63n) return undefined;
  return Number(n);
}

class Parser {
  private pos = 0;
  private start = 0;
  private width = 0;
  private readonly root = list();

  constructor(private readonly input: string) {}

  parse(): ListNode {
    this.parseText();
    return this.root;
  }

  private next(): string {
    if (this.pos >= this.input.length) {
      this.width = 0;
      return EOF;
    }
    const r = String.fromCodePoint(this.input.codePointAt(this.pos)!);
    this.width = r.length;
    this.pos += r.length;
    return r;
  }

  private backup(): void {
    this.pos -= this.width;
  }

  private peek(): string {
    const r = this.next();
    this.backup();
    return r;
  }

  private consumeText(): string {
    const value = this.input.slice(this.start, this.pos);
    this.start = this.pos;
    return value;
  }

  private rest(): string {
    return this.input.slice(this.pos);
  }

  /** Literal text up to each `{`, then the action it opens. */
  private parseText(): void {
    for (;;) {
      const open = this.input.indexOf('{', this.pos);
      if (open < 0) {
        this.pos = this.input.length;
        if (this.pos > this.start) this.root.nodes.push({ type: 'text', text: this.consumeText() });
        return;
      }
      this.pos = open;
      if (this.pos > this.start) this.root.nodes.push({ type: 'text', text: this.consumeText() });
      this.pos += 1;
      this.consumeText();
      const action = list();
      this.root.nodes.push(action);
      this.parseInsideAction(action);
    }
  }

  /** Tokens of one action, up to and including its `}`. */
  private parseInsideAction(cur: ListNode): void {
    for (;;) {
      const rest = this.rest();
      if (rest.startsWith('}')) {
        this.pos += 1;
        this.consumeText();
        return;
      }
      if (rest.startsWith('[?(')) {
        this.parseFilter(cur);
        continue;
      }
      if (rest.startsWith('..')) {
        this.parseRecursive(cur);
        continue;
      }
      const r = this.next();
      if (r === EOF || isEndOfLine(r)) throw new JsonPathParseError('unclosed action');
      if (r === ' ' || r === '@' || r === '$') {
        this.consumeText(); // `@` and `$` name the current object: nothing to add
      } else if (r === '[') {
        this.parseArray(cur);
      } else if (r === '"' || r === "'") {
        this.parseQuote(cur, r);
      } else if (r === '.') {
        this.parseField(cur);
      } else if (r === '+' || r === '-' || isDigit(r)) {
        this.backup();
        this.parseNumber(cur);
      } else if (isAlphaNumeric(r)) {
        this.backup();
        this.parseIdentifier(cur);
      } else {
        throw new JsonPathParseError(`unrecognized character in action: ${goRuneName(r)}`);
      }
    }
  }

  private parseIdentifier(cur: ListNode): void {
    while (!isTerminator(this.next()));
    this.backup();
    const value = this.consumeText();
    if (value === 'true' || value === 'false') cur.nodes.push({ type: 'bool', value: value === 'true' });
    else cur.nodes.push({ type: 'identifier', name: value });
  }

  private parseRecursive(cur: ListNode): void {
    if (cur.nodes.at(-1)?.type === 'recursive') throw new JsonPathParseError('invalid multiple recursive descent');
    this.pos += 2;
    this.consumeText();
    cur.nodes.push({ type: 'recursive' });
    if (isAlphaNumeric(this.peek())) this.parseField(cur);
  }

  private parseNumber(cur: ListNode): void {
    const sign = this.peek();
    if (sign === '+' || sign === '-') this.next();
    for (;;) {
      const r = this.next();
      if (r !== '.' && !isDigit(r)) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    const i = atoi(value);
    if (i !== undefined) cur.nodes.push({ type: 'int', value: i });
    else if (FLOAT.test(value) && Number.isFinite(Number(value))) cur.nodes.push({ type: 'float', value: Number(value) });
    else throw new JsonPathParseError(`cannot parse number ${value}`);
  }

  private parseArray(cur: ListNode): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || r === '\n') throw new JsonPathParseError('unterminated array');
      if (r === ']') break;
    }
    let text = this.consumeText().slice(1, -1);
    if (text === '*') text = ':';

    const parts = text.split(',');
    if (parts.length > 1) {
      cur.nodes.push({ type: 'union', nodes: parts.map((p) => parseAction(`[${p.replace(/^ +| +$/g, '')}]`)) });
      return;
    }

    const key = DICT_KEY.exec(text);
    if (key) {
      cur.nodes.push(...parseAction(`.${key[1]}`).nodes);
      return;
    }

    const m = SLICE.exec(text);
    if (!m) throw new JsonPathParseError(`invalid array index ${text}`);
    const params: ArrayParam[] = [];
    for (let i = 0; i < 3; i++) {
      let v = m[i + 1] ?? '';
      if (v !== '') {
        if (i > 0) v = v.slice(1);
        if (i > 0 && v === '') {
          params.push({ value: 0, known: false, derived: false });
        } else {
          const n = atoi(v);
          if (n === undefined) throw new JsonPathParseError(`array index ${v} is not a number`);
          params.push({ value: n, known: true, derived: false });
        }
      } else if (i === 1) {
        params.push({ value: params[0]!.value + 1, known: true, derived: true });
      } else {
        params.push({ value: 0, known: false, derived: false });
      }
    }
    cur.nodes.push({ type: 'array', params: params as [ArrayParam, ArrayParam, ArrayParam] });
  }

  private parseFilter(cur: ListNode): void {
    this.pos += 3;
    this.consumeText();
    // A `)` closes the filter unless it sits inside the (single) quoted operand.
    let begin = false;
    let end = false;
    let pair = '';
    for (;;) {
      const r = this.next();
      if (r === EOF || r === '\n') throw new JsonPathParseError('unterminated filter');
      if (r === '"' || r === "'") {
        if (!begin) {
          begin = true;
          pair = r;
          continue;
        }
        if (this.input[this.pos - 2] !== '\\' && r === pair) end = true;
      } else if (r === ')' && begin === end) {
        break;
      }
    }
    if (this.next() !== ']') throw new JsonPathParseError('unclosed array expect ]');
    const text = this.consumeText().slice(0, -2);
    const m = FILTER.exec(text);
    if (!m) {
      cur.nodes.push({ type: 'filter', left: parseAction(text), right: list(), operator: 'exists' });
    } else {
      cur.nodes.push({ type: 'filter', left: parseAction(m[1]!), right: parseAction(m[3]!), operator: m[2]! });
    }
  }

  private parseQuote(cur: ListNode, quote: string): void {
    for (;;) {
      const r = this.next();
      if (r === EOF || r === '\n') throw new JsonPathParseError('unterminated quoted string');
      if (r === quote && this.input[this.pos - 2] !== '\\') break;
    }
    const value = this.consumeText();
    const s = unquoteExtend(value);
    if (s === undefined) throw new JsonPathParseError(`unquote string ${value} error invalid syntax`);
    cur.nodes.push({ type: 'text', text: s });
  }

  private parseField(cur: ListNode): void {
    this.consumeText();
    // A backslash escapes the next character (`kubernetes\.io`); all backslashes are then dropped.
    for (;;) {
      const r = this.next();
      if (r === '\\') this.next();
      else if (isTerminator(r)) {
        this.backup();
        break;
      }
    }
    const value = this.consumeText();
    if (value === '*') cur.nodes.push({ type: 'wildcard' });
    else cur.nodes.push({ type: 'field', name: value.replaceAll('\\', '') });
  }
}

const SIMPLE_ESCAPES: Record<string, number> = { a: 7, b: 8, f: 12, n: 10, r: 13, t: 9, v: 11, '\\': 92 };

/** UnquoteExtend: strconv.Unquote that also takes single quotes; undefined where Go reports invalid syntax. */
function unquoteExtend(s: string): string | undefined {
  const quote = s[0];
  if (s.length < 2 || (quote !== '"' && quote !== "'") || s.at(-1) !== quote) return undefined;
  let body = s.slice(1, -1);
  if (!body.includes('\\') && !body.includes(quote)) return body;
  const bytes: number[] = [];
  const utf8 = (text: string): void => {
    bytes.push(...Buffer.from(text, 'utf8'));
  };
  while (body.length > 0) {
    const c = body[0]!;
    if (c === quote) return undefined;
    if (c !== '\\') {
      const ch = String.fromCodePoint(body.codePointAt(0)!);
      utf8(ch);
      body = body.slice(ch.length);
      continue;
    }
    if (body.length <= 1) return undefined;
    const e = body[1]!;
    body = body.slice(2);
    if (e in SIMPLE_ESCAPES) {
      bytes.push(SIMPLE_ESCAPES[e]!);
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const n = e === 'x' ? 2 : e === 'u' ? 4 : 8;
      const hex = body.slice(0, n);
      if (hex.length < n || !/^[0-9a-fA-F]+$/.test(hex)) return undefined;
      body = body.slice(n);
      const v = parseInt(hex, 16);
      if (e === 'x') bytes.push(v); // a single byte, possibly not UTF-8
      else if (v > 0x10ffff || (v >= 0xd800 && v <= 0xdfff)) return undefined;
      else utf8(String.fromCodePoint(v));
    } else if (e >= '0' && e <= '7') {
      const oct = e + body.slice(0, 2);
      if (!/^[0-7]{3}$/.test(oct)) return undefined;
      body = body.slice(2);
      const v = parseInt(oct, 8);
      if (v > 255) return undefined;
      bytes.push(v);
    } else if (e === "'" || e === '"') {
      if (e !== quote) return undefined;
      bytes.push(e.charCodeAt(0));
    } else {
      return undefined;
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

// A native JavaScript RegExp for RE2 patterns where one provably answers `matches` exactly as
// RE2 would, and fast: re2js is an interpreter and costs about ten times as much per test, and
// `matches` runs in many validation rules on every write.
//
// Only a boolean "is there a match" is ever asked, so capture groups, laziness and leftmost-first
// preferences do not matter; what matters is the set of strings matched and the running time.
// The translation accepts a conservative subset of RE2 syntax whose JavaScript meaning (with the
// `u` flag, which matches code points as RE2 does) is the same: literals, `.`, classes with
// ranges, \d \w \s \b and their negations, anchors ^ and $, groups, alternation and the
// repetition operators. Flags, Unicode classes, POSIX classes, \Q..\E, \A, \z, hex and octal
// escapes are left to re2js. JavaScript backtracks, so a pattern is accepted only when the
// backtracking is bounded by its shape: at most one unbounded repetition, not nested inside
// another repetition or holding a choice, few other choices, and a pattern with an unbounded
// repetition must be anchored with a leading `^` (V8 then tries only the first position).

/** Paths a backtracking match may explore per start position: with a loop or at every position
 * of the input this multiplies the input's length (RE2's worst case, too, is the input's length
 * times the pattern's size), else it only bounds the work of the one attempt. */
const MAX_CHOICES_PER_POSITION = 64;
const MAX_CHOICES_ANCHORED = 4096;

interface Shape {
  /** JavaScript source of the node. */
  src: string;
  /** Unbounded repetitions inside. */
  loops: number;
  /** Distinct ways to match the node's bounded choices (saturating). */
  choices: number;
  /** The node can only match the empty string at a position (anchors, \b). */
  assertion: boolean;
}

class Unsupported extends Error {}

const unsupported = (): never => {
  throw new Unsupported();
};

const cap = (n: number): number => (n > 1e12 ? 1e12 : n);

/** A literal code point as JavaScript regex source (letters and digits as themselves). */
function lit(cp: number): string {
  if ((cp >= 0x30 && cp <= 0x39) || (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a)) return String.fromCodePoint(cp);
  return `\\u{${cp.toString(16)}}`;
}

/** RE2's \s: [\t\n\f\r ] (JavaScript's \s is wider). */
const SPACE_SET = '\\u{9}\\u{a}\\u{c}\\u{d}\\u{20}';

/** Go's single-letter escapes of control characters. */
const CONTROL_ESCAPES: Record<string, number> = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 };

const isPunct = (cp: number): boolean =>
  (cp >= 0x21 && cp <= 0x2f) || (cp >= 0x3a && cp <= 0x40) || (cp >= 0x5b && cp <= 0x60) || (cp >= 0x7b && cp <= 0x7e);

class Translator {
  private pos = 0;
  private readonly cps: number[];

  constructor(pattern: string) {
    this.cps = Array.from(pattern, (c) => c.codePointAt(0)!);
  }

  private peek(offset = 0): number | undefined {
    return this.cps[this.pos + offset];
  }

  private next(): number {
    const c = this.cps[this.pos++];
    return c === undefined ? unsupported() : c;
  }

  private eat(ch: string): boolean {
    if (this.peek() === ch.codePointAt(0)) {
      this.pos++;
      return true;
    }
    return false;
  }

  translate(): { src: string; loops: number; choices: number; anchored: boolean } {
    const top = this.alternation();
    if (this.pos !== this.cps.length) unsupported();
    return { src: top.shape.src, loops: top.shape.loops, choices: top.shape.choices, anchored: top.anchored };
  }

  /** alt := concat ('|' concat)*; `anchored` when there is one branch and it starts with ^. */
  private alternation(): { shape: Shape; anchored: boolean } {
    const branches = [this.concatenation()];
    while (this.eat('|')) branches.push(this.concatenation());
    const shape: Shape = {
      src: branches.map((b) => b.shape.src).join('|'),
      loops: branches.reduce((n, b) => n + b.shape.loops, 0),
      choices: cap(branches.reduce((n, b) => n + b.shape.choices, 0)),
      assertion: false,
    };
    return { shape, anchored: branches.length === 1 && branches[0]!.anchored };
  }

  private concatenation(): { shape: Shape; anchored: boolean } {
    let src = '';
    let loops = 0;
    let choices = 1;
    let anchored = false;
    let first = true;
    for (;;) {
      const c = this.peek();
      if (c === undefined || c === 0x7c /* | */ || c === 0x29 /* ) */) break;
      const startsWithCaret = c === 0x5e;
      const piece = this.repetition(this.atom());
      if (first && startsWithCaret) anchored = true;
      first = false;
      src += piece.src;
      loops += piece.loops;
      choices = cap(choices * piece.choices);
    }
    return { shape: { src, loops, choices, assertion: false }, anchored };
  }

  private atom(): Shape {
    const c = this.next();
    switch (c) {
      case 0x28: /* ( */ {
        if (this.eat('?')) {
          // Only non-capturing and named groups; flags change the meaning.
          if (this.eat(':')) {
            // (?:re)
          } else if (this.eat('P') || this.peek() === 0x3c) {
            if (!this.eat('<')) unsupported();
            while (this.next() !== 0x3e /* > */);
          } else unsupported();
        }
        const inner = this.alternation().shape;
        if (!this.eat(')')) unsupported();
        return { src: `(?:${inner.src})`, loops: inner.loops, choices: inner.choices, assertion: false };
      }
      case 0x5b: /* [ */ return this.charClass();
      case 0x2e: /* . */ return single('[^\\n]');
      case 0x5e: /* ^ */ return { src: '^', loops: 0, choices: 1, assertion: true };
      case 0x24: /* $ */ return { src: '$', loops: 0, choices: 1, assertion: true };
      case 0x5c: /* \ */ return this.escape();
      case 0x2a: case 0x2b: case 0x3f: case 0x7b: case 0x29: case 0x7c:
        return unsupported();
      default:
        return single(lit(c));
    }
  }

  private escape(): Shape {
    const c = this.next();
    switch (String.fromCodePoint(c)) {
      case 'd': return single('\\d');
      case 'D': return single('\\D');
      case 'w': return single('\\w');
      case 'W': return single('\\W');
      case 's': return single(`[${SPACE_SET}]`);
      case 'S': return single(`[^${SPACE_SET}]`);
      case 'b': return { src: '\\b', loops: 0, choices: 1, assertion: true };
      case 'B': return { src: '\\B', loops: 0, choices: 1, assertion: true };
    }
    return single(lit(this.escapedChar(c)));
  }

  /** The character an escape other than a class stands for: punctuation or a control letter. */
  private escapedChar(c: number): number {
    if (isPunct(c)) return c;
    const control = CONTROL_ESCAPES[String.fromCodePoint(c)];
    return control ?? unsupported();
  }

  /** A class, as Go's parser reads it in Perl mode: `]` first is literal, `-` makes a range
   * unless it is last. */
  private charClass(): Shape {
    let src = '[';
    if (this.eat('^')) src += '^';
    let first = true;
    while (first || this.peek() !== 0x5d /* ] */) {
      if (this.peek() === undefined) unsupported();
      if (this.peek() === 0x5b && this.peek(1) === 0x3a) unsupported(); // [:alpha:]
      if (this.peek() === 0x5c) {
        const e = this.peek(1);
        const name = e === undefined ? '' : String.fromCodePoint(e);
        if (name === 'd' || name === 'D' || name === 'w' || name === 'W' || name === 's') {
          this.pos += 2;
          src += name === 's' ? SPACE_SET : `\\${name}`;
          first = false;
          continue;
        }
        if (name === 'S' || name === 'p' || name === 'P') unsupported();
      }
      const lo = this.classChar();
      let hi = lo;
      if (this.peek() === 0x2d /* - */ && this.peek(1) !== undefined && this.peek(1) !== 0x5d) {
        this.pos++;
        hi = this.classChar();
        if (hi < lo) unsupported();
      }
      src += lo === hi ? lit(lo) : `${lit(lo)}-${lit(hi)}`;
      first = false;
    }
    this.pos++; // ]
    return single(`${src}]`);
  }

  private classChar(): number {
    const c = this.next();
    if (c !== 0x5c) return c;
    return this.escapedChar(this.next());
  }

  /** The repetition operators after an atom, with RE2's limit of 1000. */
  private repetition(atom: Shape): Shape {
    let min: number;
    let max: number;
    const c = this.peek();
    if (c === 0x2a) [min, max] = [0, Infinity];
    else if (c === 0x2b) [min, max] = [1, Infinity];
    else if (c === 0x3f) [min, max] = [0, 1];
    else if (c === 0x7b) {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(String.fromCodePoint(...this.cps.slice(this.pos, this.pos + 12)));
      if (!m) unsupported();
      min = Number(m![1]);
      max = m![2] === undefined ? min : m![3] === '' ? Infinity : Number(m![3]);
      if (min > 1000 || max < min || (max !== Infinity && max > 1000)) unsupported();
      this.pos += m![0].length - 1;
    } else return atom;
    this.pos++;
    const lazy = this.eat('?');
    if (atom.assertion) unsupported();
    const next = this.peek();
    if (next === 0x2a || next === 0x2b || next === 0x3f || next === 0x7b) unsupported();
    const quant = `${c === 0x7b ? `{${min}${max === min ? '' : `,${max === Infinity ? '' : max}`}}` : String.fromCodePoint(c)}${lazy ? '?' : ''}`;
    const src = `${atom.src}${quant}`;
    if (max === Infinity) {
      // A loop whose body holds another loop or a choice can backtrack exponentially.
      if (atom.loops > 0 || atom.choices > 1) unsupported();
      return { src, loops: 1, choices: 1, assertion: false };
    }
    if (atom.loops > 0 && max > 1) unsupported();
    let choices = 0;
    for (let k = min; k <= max; k++) choices = cap(choices + atom.choices ** k);
    return { src, loops: atom.loops, choices, assertion: false };
  }
}

const single = (src: string): Shape => ({ src, loops: 0, choices: 1, assertion: false });

/** A RegExp matching exactly the strings the (valid) RE2 pattern matches somewhere, with running
 * time linear in the input, or undefined when that cannot be shown. */
export function nativeRegex(pattern: string): RegExp | undefined {
  try {
    const t = new Translator(pattern).translate();
    if (t.loops > 1) return undefined;
    if (t.loops === 1 && (!t.anchored || t.choices > MAX_CHOICES_PER_POSITION)) return undefined;
    if (t.loops === 0 && t.choices > (t.anchored ? MAX_CHOICES_ANCHORED : MAX_CHOICES_PER_POSITION)) return undefined;
    return new RegExp(t.src, 'u');
  } catch {
    return undefined;
  }
}

// Nesting depth of request bodies, checked before any recursive walker sees them. Go's encoding/json and
// sigs.k8s.io/json refuse input nested deeper than 10,000 arrays/objects (`invalid character '[' exceeded
// max depth`), which kube answers with a 400. Node cannot go that deep: V8's own JSON.stringify and
// structuredClone overflow the call stack near 4,000 levels, and the server's walkers (pruning, field
// sets, patches, CEL) recurse with several frames a level; the yaml package's composer and stringifier
// (YAML responses) overflow near 800 levels, and an overflow inside its parser has been seen to abort the
// process. So bodies are refused, in Go's and go-yaml's words, beyond MAX_BODY_DEPTH (JSON) and
// MAX_YAML_DEPTH: far beyond real objects, well inside what every walker handles. (A map's managedFields
// nest a few levels deeper than the map, so an object at the limit reads back slightly deeper; kube's own
// limit has the same edge.)

/** encoding/json's maxNestingDepth. */
export const GO_MAX_NESTING_DEPTH = 10000;

/** The deepest JSON body the server accepts (kube: GO_MAX_NESTING_DEPTH); see the file comment. */
export const MAX_BODY_DEPTH = 500;

/** The deepest YAML body: the yaml package parses (and writes responses) recursively. */
export const MAX_YAML_DEPTH = 500;

/**
 * The index of the first opening bracket in JSON(-like) text that nests deeper than `max`, or -1. Brackets
 * inside double-quoted strings do not count. One pass over the char codes, no allocation.
 */
export function jsonDepthOffset(text: string, max = MAX_BODY_DEPTH): number {
  // Text with no more than max opening brackets (strings included) cannot nest deeper: counting them with
  // indexOf is native and clears common bodies at a small fraction of JSON.parse's cost.
  if (text.length <= max || !moreThan(text, '{', '[', max)) return -1;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) i = closingQuote(text, i);
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return i;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return -1;
}

/** The index of the quote closing the JSON string whose opening quote is at `open` (text.length if none). */
export function closingQuote(text: string, open: number): number {
  // indexOf finds quotes natively (strings are most of stored JSON); a quote after an odd run of backslashes is escaped.
  for (let i = text.indexOf('"', open + 1); i >= 0; i = text.indexOf('"', i + 1)) {
    let b = i - 1;
    while (b > open && text.charCodeAt(b) === 0x5c /* \ */) b--;
    if ((i - 1 - b) % 2 === 0) return i;
  }
  return text.length;
}

/** Whether text holds more than n of the characters a and b together. */
function moreThan(text: string, a: string, b: string, n: number): boolean {
  let count = 0;
  for (const c of [a, b]) {
    for (let i = text.indexOf(c); i >= 0; i = text.indexOf(c, i + 1)) if (++count > n) return true;
  }
  return false;
}

/** encoding/json's scanner error for the bracket at `offset` (one past the limit). */
export const maxDepthMessage = (text: string, offset: number): string => `invalid character '${text[offset]}' exceeded max depth`;

/** go-yaml's error for YAML nested beyond its limit (10,000 there), with the server's limit. */
export const yamlMaxDepthMessage = `yaml: exceeded max depth of ${MAX_YAML_DEPTH}`;

/** Whether a decoded value nests arrays/objects deeper than `max`; an explicit stack, never recursion. */
export function valueDepthExceeds(v: unknown, max = MAX_BODY_DEPTH): boolean {
  if (typeof v !== 'object' || v === null) return false;
  const todo: [object, number][] = [[v, 1]];
  while (todo.length > 0) {
    const [x, d] = todo.pop()!;
    if (d > max) return true;
    for (const e of Object.values(x)) if (typeof e === 'object' && e !== null) todo.push([e as object, d + 1]);
  }
  return false;
}

/**
 * Whether YAML text may nest deeper than `max`: an upper bound, never an underestimate (the yaml package
 * must not see such text). Per line: twice the number of enclosing indentation levels (a block sequence may
 * sit at its key's indentation), plus the block indicators on the line, plus the flow depth. Brackets count
 * outside quoted scalars and comments; block scalars' content lines are text.
 */
export function yamlDepthExceeds(text: string, max = MAX_YAML_DEPTH): boolean {
  if (text.length <= max / 2) return false;
  const indents: number[] = [];
  let flow = 0;
  let quote = 0; // the open quote character (0x22 or 0x27) of a scalar spanning lines, or 0
  let scalarAbove = -1; // lines indented deeper than this are a block scalar's content
  const n = text.length;
  for (let start = 0; start < n; ) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = n;
    let i = start;
    while (i < end && (text.charCodeAt(i) === 0x20 || text.charCodeAt(i) === 0x09)) i++;
    const indent = i - start;
    const blank = i >= end || text.charCodeAt(i) === 0x0d || text.charCodeAt(i) === 0x23; /* # */
    if (scalarAbove >= 0 && (blank || indent > scalarAbove)) {
      start = end + 1;
      continue;
    }
    scalarAbove = -1;
    if (blank && quote === 0) {
      start = end + 1;
      continue;
    }
    if (quote === 0) {
      while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop();
      indents.push(indent);
    }
    let indicators = 0;
    let parentCol = indent;
    let lastToken = -1; // the last character outside quotes and comments
    for (; i < end; i++) {
      const c = text.charCodeAt(i);
      const prev = i > start ? text.charCodeAt(i - 1) : 0x20;
      const next = i + 1 < end ? text.charCodeAt(i + 1) : 0x20;
      if (quote !== 0) {
        if (c === 0x5c && quote === 0x22) i++;
        else if (c === quote) {
          if (quote === 0x27 && next === 0x27) i++; // '' inside a single-quoted scalar
          else quote = 0;
        }
        continue;
      }
      const boundary = prev === 0x20 || prev === 0x09 || i === start || (flow > 0 && (prev === 0x5b || prev === 0x7b || prev === 0x2c || prev === 0x3a));
      if ((c === 0x22 || c === 0x27) && boundary) quote = c;
      else if (c === 0x23 && (prev === 0x20 || prev === 0x09 || i === start)) break;
      else if (c === 0x5b || c === 0x7b) {
        if (2 * indents.length + indicators + ++flow > max) return true;
      } else if (c === 0x5d || c === 0x7d) flow = Math.max(0, flow - 1);
      else if (flow === 0 && (c === 0x2d || c === 0x3f || c === 0x3a) && (next === 0x20 || next === 0x09 || next === 0x0d)) {
        if (2 * indents.length + ++indicators > max) return true;
        // A sequence entry's or complex key's node starts at the next token: its block scalar is deeper.
        if (c !== 0x3a) {
          let j = i + 1;
          while (j < end && (text.charCodeAt(j) === 0x20 || text.charCodeAt(j) === 0x09)) j++;
          parentCol = j - start;
        }
      }
      if (c !== 0x20 && c !== 0x09 && c !== 0x0d) lastToken = i;
    }
    // A block scalar indicator ends the line: `|`, `>`, with chomping and indentation indicators.
    if (quote === 0 && lastToken >= 0) {
      let j = lastToken;
      while (j > start && /[-+1-9]/.test(text[j]!)) j--;
      const c = text.charCodeAt(j);
      if ((c === 0x7c || c === 0x3e) && flow === 0) scalarAbove = parentCol;
    }
    if (2 * indents.length + indicators + flow > max) return true;
    start = end + 1;
  }
  return false;
}

// A validation rule's fieldPath (`.spec.foo`, `['key.with.dots']`) resolved against the rule's
// schema as cel.ValidFieldPath resolves it, and rendered as the field.Path kube appends to the
// node's path when the rule fails: properties as children, additionalProperties keys as `[key]`.
import type { Structural } from '../schema/structural-model.js';

/** The scanner of ValidFieldPath: '.', '[' and ']' are tokens; a token starting with a quote runs to its closing quote. */
export function scanFieldPath(p: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < p.length) {
    const c = p[i]!;
    if (c === "'") {
      let j = i + 1;
      while (j < p.length && !(p[j] === "'" && p[j - 1] !== '\\')) j++;
      out.push(p.slice(i, Math.min(j + 1, p.length)));
      i = j + 1;
    } else if (c === '.' || c === '[' || c === ']') {
      out.push(c);
      i++;
    } else {
      let j = i;
      while (j < p.length && !'.[]'.includes(p[j]!)) j++;
      out.push(p.slice(i, j));
      i = j;
    }
  }
  return out;
}

const ESCAPES: Record<string, string> = { a: '\x07', b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v', "'": "'", '\\': '\\' };

/** Go's strconv-style unescaping of a single-quoted fieldPath segment. */
export function unescapeSingleQuote(s: string): string | { error: string } {
  let error: string | undefined;
  // Go's `.` stops at \n only.
  const out = s.replace(/\\[^\n]/gu, (m) => {
    const r = ESCAPES[m[1]!];
    if (r === undefined) {
      error = `invalid escape char ${m}`;
      return '';
    }
    return r;
  });
  return error === undefined ? out : { error };
}

/** The normalized field path (field.Path.String()), or undefined when the path does not resolve. */
export function normalizeRuleFieldPath(jsonPath: string, schema: Structural): string | undefined {
  const tokens = scanFieldPath(jsonPath);
  let node: Structural | undefined = schema;
  let out = '';
  const step = (name: string): boolean => {
    if (!node) return false;
    if (node.properties) {
      node = node.properties.get(name);
      out = out ? `${out}.${name}` : name;
      return node !== undefined;
    }
    if (node.additionalProperties) {
      node = node.additionalProperties.structural;
      out = `${out}[${name}]`;
      return true;
    }
    return false;
  };
  let t = 0;
  while (t < tokens.length) {
    const tok = tokens[t++]!;
    if (tok === '[') {
      const quoted = tokens[t++];
      if (quoted === undefined || quoted.length < 2 || quoted[0] !== "'" || quoted[quoted.length - 1] !== "'") return undefined;
      const name = unescapeSingleQuote(quoted.slice(1, -1));
      if (typeof name !== 'string' || !step(name)) return undefined;
      if (tokens[t++] !== ']') return undefined;
    } else if (tok === '.') {
      const name = tokens[t++];
      if (name === undefined || !step(name)) return undefined;
    } else {
      return undefined;
    }
  }
  return out;
}

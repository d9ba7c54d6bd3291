// Resolving a selectable field's JSON path in a CRD schema, as cel.ValidFieldPath does on the
// structural schema (with array notation disallowed), with its error texts.
import type { JSONSchemaProps } from './types.js';

type ResolvedField = { path: string; root: string; type: string | undefined } | { error: string };

type Node = Record<string, unknown> | undefined;
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The structural schema keeps properties only when there are some. */
const hasProperties = (s: Node): boolean => isObj(s?.['properties']) && Object.keys(s['properties'] as object).length > 0;

/** Split like ValidFieldPath's scanner: '.', '[' and ']' are tokens; a leading quote runs to its closing quote. */
function tokenize(p: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < p.length) {
    const c = p[i]!;
    if (c === '.' || c === '[' || c === ']') {
      out.push(c);
      i++;
      continue;
    }
    if (c === "'") {
      let j = i + 1;
      while (j < p.length && !(p[j] === "'" && p[j - 1] !== '\\')) j++;
      out.push(p.slice(i, Math.min(j + 1, p.length)));
      i = j + 1;
      continue;
    }
    let j = i;
    while (j < p.length && !'.[]'.includes(p[j]!)) j++;
    out.push(p.slice(i, j));
    i = j;
  }
  return out;
}

export function selectableFieldErrors(jsonPath: string, schema: JSONSchemaProps | undefined): ResolvedField {
  let node: Node = schema;
  let path = '';
  let root = '';
  const tokens = tokenize(jsonPath);
  let t = 0;
  const step = (name: string): string | undefined => {
    if (node === undefined) return 'does not refer to a valid field';
    if (hasProperties(node)) {
      path = path ? `${path}.${name}` : name;
      const next = (node['properties'] as Record<string, unknown>)[name];
      if (!isObj(next)) return 'does not refer to a valid field';
      node = next;
    } else if (node['additionalProperties'] !== undefined && node['additionalProperties'] !== null) {
      path = `${path}[${name}]`;
      const ap = node['additionalProperties'];
      node = isObj(ap) ? ap : undefined;
    } else {
      return 'does not refer to a valid field';
    }
    if (!root) root = path;
    return undefined;
  };
  while (t < tokens.length) {
    const tok = tokens[t++]!;
    if (tok === '[') return { error: 'array notation is not allowed' };
    if (tok !== '.') return { error: `expected [ or . but got: ${tok}` };
    if (t >= tokens.length) return { error: 'unexpected end of JSON path' };
    const err = step(tokens[t++]!);
    if (err) return { error: err };
  }
  const type = node && typeof node['type'] === 'string' ? (node['type'] as string) : undefined;
  return { path, root, type };
}

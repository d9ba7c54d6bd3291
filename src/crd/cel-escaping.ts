// Property names as CEL field names (k8s.io/apiserver pkg/cel/escaping.go): schema property names
// may contain characters CEL identifiers cannot, so '__', '.', '-' and '/' are spelled out, and a
// name that is exactly a CEL reserved word is wrapped in '__'. Other names are not accessible.

/** The RESERVED symbols of the CEL lexer ('namespace' is common in Kubernetes schemas). */
const CEL_RESERVED_SYMBOLS: ReadonlySet<string> = new Set([
  'true', 'false', 'null', 'in',
  'as', 'break', 'const', 'continue', 'else',
  'for', 'function', 'if', 'import', 'let',
  'loop', 'package', 'namespace', 'return',
  'var', 'void', 'while',
]);

const PLAIN = /^[a-zA-Z0-9_]*$/;
const EXPAND = /__|[-./]|[^a-zA-Z0-9\-./_]/g;
const ESCAPES: Record<string, string> = { __: '__underscores__', '.': '__dot__', '-': '__dash__', '/': '__slash__' };

/**
 * The CEL identifier for a property name, or undefined when the name is not of the accessible form
 * `[a-zA-Z_.-/][a-zA-Z0-9_.-/]*`.
 */
export function escapeCelName(name: string): string | undefined {
  if (name.length === 0) return undefined;
  const c0 = name.charCodeAt(0);
  if (c0 >= 48 && c0 <= 57) return undefined;
  if (CEL_RESERVED_SYMBOLS.has(name)) return `__${name}__`;
  if (PLAIN.test(name) && !name.includes('__')) return name;
  let ok = true;
  const out = name.replace(EXPAND, (m) => {
    const r = ESCAPES[m];
    if (r === undefined) ok = false;
    return r ?? '';
  });
  return ok ? out : undefined;
}

const UNEXPAND = /__[^_]+__/g;
const UNESCAPES: Record<string, string> = { underscores: '__', dot: '.', dash: '-', slash: '/' };

/** The property name an escaped CEL identifier stands for, or undefined for an invalid escape. */
export function unescapeCelName(escaped: string): string | undefined {
  let ok = true;
  const out = escaped.replace(UNEXPAND, (m) => {
    const inner = m.slice(2, -2);
    const r = UNESCAPES[inner];
    if (r !== undefined) return r;
    // A reserved word is only escaped as the whole name.
    if (CEL_RESERVED_SYMBOLS.has(inner) && m.length === escaped.length) return inner;
    ok = false;
    return '';
  });
  return ok ? out : undefined;
}

// The JSONPath subset Kubernetes printer columns use (client-go util/jsonpath): field access, quoted
// fields, indexes and slices, wildcards, recursive descent and filters like [?(@.type=="Ready")].

export type Step =
  | { kind: 'field'; name: string }
  | { kind: 'index'; start?: number; end?: number; single: boolean }
  | { kind: 'wildcard' }
  | { kind: 'recursive' }
  | { kind: 'filter'; path: Step[]; op?: string; value?: string | number | boolean };

export function parseJsonPath(expr: string): Step[] {
  let s = expr.trim();
  if (s.startsWith('{') && s.endsWith('}')) s = s.slice(1, -1).trim();
  if (s.startsWith('$')) s = s.slice(1);
  const steps: Step[] = [];
  let i = 0;
  while (i < s.length) {
    const ch = s[i];
    if (ch === '.') {
      if (s[i + 1] === '.') {
        steps.push({ kind: 'recursive' });
        i += 2;
        continue;
      }
      i++;
      let j = i;
      while (j < s.length && s[j] !== '.' && s[j] !== '[') j++;
      const name = s.slice(i, j);
      if (name === '*') steps.push({ kind: 'wildcard' });
      else if (name) steps.push({ kind: 'field', name });
      i = j;
    } else if (ch === '[') {
      const close = findClose(s, i);
      const inner = s.slice(i + 1, close).trim();
      i = close + 1;
      if (inner === '*') steps.push({ kind: 'wildcard' });
      else if (inner.startsWith('?(') && inner.endsWith(')')) steps.push(parseFilter(inner.slice(2, -1)));
      else if (/^'.*'$|^".*"$/.test(inner)) steps.push({ kind: 'field', name: inner.slice(1, -1) });
      else if (/^-?\d*(:-?\d*)?$/.test(inner)) {
        const [a, b] = inner.split(':');
        if (b === undefined) steps.push({ kind: 'index', start: Number(a), single: true });
        else steps.push({ kind: 'index', start: a ? Number(a) : undefined, end: b ? Number(b) : undefined, single: false });
      } else throw new Error(`invalid array index ${inner}`);
    } else if (/\s/.test(ch!)) {
      i++;
    } else {
      // A bare leading field name, e.g. "spec.replicas".
      let j = i;
      while (j < s.length && s[j] !== '.' && s[j] !== '[') j++;
      steps.push({ kind: 'field', name: s.slice(i, j) });
      i = j;
    }
  }
  return steps;
}

function findClose(s: string, open: number): number {
  let depth = 0;
  let quote = '';
  for (let i = open; i < s.length; i++) {
    const c = s[i];
    if (quote) {
      if (c === quote) quote = '';
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '[') depth++;
    else if (c === ']' && --depth === 0) return i;
  }
  throw new Error('unterminated array');
}

function parseFilter(body: string): Step {
  const m = /^@((?:\.[^\s=!<>]+|\[[^\]]*\])*)\s*(==|!=|<=|>=|<|>)?\s*(.*)$/.exec(body.trim());
  if (!m) throw new Error(`unrecognized filter ${body}`);
  const path = parseJsonPath(m[1] ?? '');
  if (!m[2]) return { kind: 'filter', path };
  const raw = (m[3] ?? '').trim();
  let value: string | number | boolean;
  if (/^'.*'$|^".*"$/.test(raw)) value = raw.slice(1, -1);
  else if (raw === 'true' || raw === 'false') value = raw === 'true';
  else if (raw !== '' && !Number.isNaN(Number(raw))) value = Number(raw);
  else value = raw;
  return { kind: 'filter', path, op: m[2], value };
}

export function evalJsonPath(steps: Step[], root: unknown): unknown[] {
  let cur: unknown[] = [root];
  for (const step of steps) {
    const next: unknown[] = [];
    for (const v of cur) applyStep(step, v, next);
    cur = next;
  }
  return cur;
}

function applyStep(step: Step, v: unknown, out: unknown[]): void {
  switch (step.kind) {
    case 'field':
      if (v && typeof v === 'object' && !Array.isArray(v) && step.name in (v as object)) out.push((v as Record<string, unknown>)[step.name]);
      return;
    case 'wildcard':
      if (Array.isArray(v)) out.push(...v);
      else if (v && typeof v === 'object') out.push(...Object.values(v));
      return;
    case 'recursive':
      collectAll(v, out);
      return;
    case 'index': {
      if (!Array.isArray(v)) return;
      const n = v.length;
      const norm = (x: number): number => (x < 0 ? x + n : x);
      if (step.single) {
        const idx = norm(step.start ?? 0);
        if (idx >= 0 && idx < n) out.push(v[idx]);
        return;
      }
      const start = Math.max(0, norm(step.start ?? 0));
      const end = Math.min(n, norm(step.end ?? n));
      for (let k = start; k < end; k++) out.push(v[k]);
      return;
    }
    case 'filter': {
      const items = Array.isArray(v) ? v : v && typeof v === 'object' ? Object.values(v) : [];
      for (const item of items) {
        const found = evalJsonPath(step.path, item);
        if (!step.op) {
          if (found.length > 0) out.push(item);
          continue;
        }
        if (found.some((f) => compare(f, step.op!, step.value!))) out.push(item);
      }
      return;
    }
  }
}

function collectAll(v: unknown, out: unknown[]): void {
  out.push(v);
  if (Array.isArray(v)) for (const x of v) collectAll(x, out);
  else if (v && typeof v === 'object') for (const x of Object.values(v)) collectAll(x, out);
}

function compare(a: unknown, op: string, b: string | number | boolean): boolean {
  switch (op) {
    case '==':
      return a === b || (typeof a === 'number' && typeof b === 'string' && String(a) === b);
    case '!=':
      return !(a === b);
    case '<':
      return typeof a === 'number' && typeof b === 'number' && a < b;
    case '>':
      return typeof a === 'number' && typeof b === 'number' && a > b;
    case '<=':
      return typeof a === 'number' && typeof b === 'number' && a <= b;
    case '>=':
      return typeof a === 'number' && typeof b === 'number' && a >= b;
    default:
      return false;
  }
}

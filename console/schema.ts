// OpenAPI v3 schemas as a CRD holds them (structural) and as /openapi/v3 publishes built-ins (with $ref):
// the children a tree node shows, the constraints it lists, and a flat view of a schema to compare versions.

export interface ValidationRule {
  rule: string;
  message?: string;
  messageExpression?: string;
  reason?: string;
  fieldPath?: string;
  optionalOldSelf?: boolean;
}

export interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  description?: string;
  title?: string;
  properties?: Record<string, Schema>;
  items?: Schema;
  additionalProperties?: Schema | boolean;
  required?: string[];
  default?: unknown;
  enum?: unknown[];
  pattern?: string;
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean;
  exclusiveMaximum?: boolean;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  minProperties?: number;
  maxProperties?: number;
  allOf?: Schema[];
  anyOf?: Schema[];
  oneOf?: Schema[];
  not?: Schema;
  'x-kubernetes-validations'?: ValidationRule[];
  'x-kubernetes-list-type'?: string;
  'x-kubernetes-list-map-keys'?: string[];
  'x-kubernetes-map-type'?: string;
  'x-kubernetes-int-or-string'?: boolean;
  'x-kubernetes-preserve-unknown-fields'?: boolean;
  'x-kubernetes-embedded-resource'?: boolean;
}

/** Finds a schema by its $ref ('#/components/schemas/<name>'); built-ins' schemas refer to each other. */
export type Resolve = (ref: string) => Schema | undefined;

/** The schema with a $ref (direct, or the single allOf member kube-openapi emits) replaced by its target, merged with the local keywords. */
export function deref(s: Schema, resolve: Resolve, depth = 0): Schema {
  const ref = s.$ref ?? (s.allOf?.length === 1 ? s.allOf[0]!.$ref : undefined);
  if (!ref || depth > 8) return s;
  const target = resolve(ref);
  if (!target) return s;
  const { $ref: _r, allOf: _a, ...local } = s;
  return { ...deref(target, resolve, depth + 1), ...local };
}

/** A child node of the tree: a property, the items of a list ([]) or the values of a map ({key}). */
export interface Child {
  name: string;
  schema: Schema;
  required: boolean;
}

export function childrenOf(s: Schema, resolve: Resolve): Child[] {
  const out: Child[] = [];
  const req = new Set(s.required ?? []);
  for (const [name, p] of Object.entries(s.properties ?? {})) out.push({ name, schema: deref(p, resolve), required: req.has(name) });
  if (s.items) out.push({ name: '[]', schema: deref(s.items, resolve), required: false });
  if (s.additionalProperties && typeof s.additionalProperties === 'object') out.push({ name: '{key}', schema: deref(s.additionalProperties, resolve), required: false });
  return out;
}

/** The type as kubectl explain names it: string, integer/int64, []string, map[string]object, IntOrString... */
export function typeLabel(s: Schema, resolve: Resolve): string {
  if (s['x-kubernetes-int-or-string']) return 'IntOrString';
  const base = s.format ? `${s.type ?? ''}/${s.format}` : s.type ?? '';
  if (s.type === 'array' && s.items) return `[]${typeLabel(deref(s.items, resolve), resolve)}`;
  if (s.type === 'object' && s.additionalProperties && typeof s.additionalProperties === 'object' && !s.properties) {
    return `map[string]${typeLabel(deref(s.additionalProperties, resolve), resolve)}`;
  }
  if (!base && s['x-kubernetes-preserve-unknown-fields']) return 'any';
  return base || (s.properties ? 'object' : '');
}

/** The constraints on a value besides its type, as short labelled strings. */
export function constraintsOf(s: Schema): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  const add = (label: string, v: unknown): void => {
    if (v !== undefined) out.push([label, typeof v === 'string' ? v : JSON.stringify(v)]);
  };
  add('default', s.default);
  if (s.enum) out.push(['enum', s.enum.map((v) => JSON.stringify(v)).join(', ')]);
  add('pattern', s.pattern);
  add(s.exclusiveMinimum ? 'exclusive minimum' : 'minimum', s.minimum);
  add(s.exclusiveMaximum ? 'exclusive maximum' : 'maximum', s.maximum);
  add('multiple of', s.multipleOf);
  add('min length', s.minLength);
  add('max length', s.maxLength);
  add('min items', s.minItems);
  add('max items', s.maxItems);
  add('min properties', s.minProperties);
  add('max properties', s.maxProperties);
  if (s.uniqueItems) out.push(['unique items', 'true']);
  if (s.nullable) out.push(['nullable', 'true']);
  add('list type', s['x-kubernetes-list-type']);
  if (s['x-kubernetes-list-map-keys']) out.push(['list map keys', s['x-kubernetes-list-map-keys'].join(', ')]);
  add('map type', s['x-kubernetes-map-type']);
  if (s['x-kubernetes-preserve-unknown-fields']) out.push(['preserves unknown fields', 'true']);
  if (s['x-kubernetes-embedded-resource']) out.push(['embedded resource', 'true']);
  for (const k of ['oneOf', 'anyOf', 'allOf'] as const) {
    const alts = s[k];
    if (alts?.length && !(k === 'allOf' && alts.length === 1 && alts[0]!.$ref)) out.push([k, alts.map((a) => JSON.stringify(a)).join(' | ')]);
  }
  if (s.not) out.push(['not', JSON.stringify(s.not)]);
  return out;
}

/** Each field's path → a one-line summary of it (type, required, constraints, rules), for comparing versions. */
export function flatten(root: Schema, resolve: Resolve, limit = 20000): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (s: Schema, path: string, required: boolean, depth: number): void => {
    if (out.size >= limit || depth > 30) return;
    const rules = (s['x-kubernetes-validations'] ?? []).map((r) => `rule ${r.rule}`);
    const parts = [typeLabel(s, resolve), required ? 'required' : '', ...constraintsOf(s).map(([k, v]) => `${k} ${v}`), ...rules].filter(Boolean);
    out.set(path || '.', parts.join('; '));
    for (const c of childrenOf(s, resolve)) walk(c.schema, path ? `${path}.${c.name}` : c.name, c.required, depth + 1);
  };
  walk(deref(root, resolve), '', false, 0);
  return out;
}

export interface FieldDiff {
  path: string;
  change: 'added' | 'removed' | 'changed';
  from?: string;
  to?: string;
}

/** What changes from one version's schema to another's, field by field (in path order). */
export function diffSchemas(from: Map<string, string>, to: Map<string, string>): FieldDiff[] {
  const out: FieldDiff[] = [];
  for (const [path, a] of from) {
    const b = to.get(path);
    if (b === undefined) out.push({ path, change: 'removed', from: a });
    else if (a !== b) out.push({ path, change: 'changed', from: a, to: b });
  }
  for (const [path, b] of to) if (!from.has(path)) out.push({ path, change: 'added', to: b });
  return out.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}

// Pruning as kube-apiserver's custom resource decoder does it (unstructuredSchemaCoercer.apply),
// compiled once per schema into generated code (one function per schema node) and done in one walk:
// - structuralpruning.PruneWithOptions: fields the schema does not specify are removed;
//   x-kubernetes-preserve-unknown-fields keeps a subtree (nested properties prune again);
//   apiVersion/kind/metadata are kept at the root and in embedded resources;
// - structuraldefaulting.PruneNonNullableNullsWithoutDefaults: nulls of non-nullable fields
//   without a default are removed (those with a default are left for defaulting);
// - objectmeta.CoerceWithOptions: embedded resources' apiVersion/kind must be strings and their
//   metadata is round-tripped through ObjectMeta (unknown metadata fields dropped).
import { type FieldError, invalid } from '../api/field-error.js';
import { type StructuralNode, fieldSchema } from './compile-structural.js';
import { coerceObjectMeta, isCanonicalObjectMeta } from './prune-objectmeta.js';
import { CodeGenerator, nameSwitchCode } from './codegen.js';

type JSONObject = Record<string, unknown>;

const SEG_PROP = 0;
const SEG_KEY = 1; // additionalProperties key
const SEG_INDEX = 2;

export class PruneState {
  segs: Array<string | number> = [];
  kinds: number[] = [];
  depth = 0;
  /** Unknown field paths (only when tracking). */
  pruned: string[] | null = null;
  coerced: string[] | null = null;
  dropInvalidMetadata = false;
  /** Whether non-nullable nulls without defaults go too (not when pruning default values). */
  nulls = true;
  /** Whether embedded resources' apiVersion/kind/metadata are coerced (not when pruning default values). */
  coerceMetadata = true;
  error: FieldError | null = null;

  reset(track: boolean, dropInvalidMetadata: boolean, nulls = true, coerceMetadata = true): void {
    this.depth = 0;
    this.nulls = nulls;
    this.coerceMetadata = coerceMetadata;
    this.pruned = track ? [] : null;
    this.coerced = track ? [] : null;
    this.dropInvalidMetadata = dropInvalidMetadata;
    this.error = null;
  }

  /** UnknownFieldPathOptions' rendering: keys joined with '.', indices as [i]. */
  unknownPath(k: string): string {
    let s = '';
    for (let i = 0; i < this.depth; i++) {
      const kind = this.kinds[i];
      if (kind === SEG_INDEX) s += `[${this.segs[i] as number}]`;
      else s += s === '' ? (this.segs[i] as string) : '.' + (this.segs[i] as string);
    }
    return s === '' ? k : `${s}.${k}`;
  }

  /** field.Path rendering of the current position's child k: properties .k, map keys [k], indices [i]. */
  fieldPath(k: string): string {
    let s = '';
    for (let i = 0; i < this.depth; i++) {
      const kind = this.kinds[i];
      if (kind === SEG_PROP) s += s === '' ? (this.segs[i] as string) : '.' + (this.segs[i] as string);
      else s += `[${this.segs[i] as string | number}]`;
    }
    return s === '' ? k : `${s}.${k}`;
  }
}

type PruneFn = (x: unknown, st: PruneState) => void;

const nullPrunable = (s: StructuralNode | null): boolean => s !== null && !s.nullable && s.default === undefined;

/** prune(x, nil): every field of every object is unknown. */
const pruneAll: PruneFn = (x, st) => {
  if (Array.isArray(x)) {
    const d = st.depth++;
    st.kinds[d] = SEG_INDEX;
    for (let i = 0; i < x.length; i++) {
      const v = x[i];
      if (v === null || typeof v !== 'object') continue;
      st.segs[d] = i;
      st.depth = d + 1;
      pruneAll(v, st);
    }
    st.depth = d;
    return;
  }
  if (x === null || typeof x !== 'object') return;
  const o = x as JSONObject;
  for (const k in o) {
    st.pruned?.push(st.unknownPath(k));
    delete o[k];
  }
};

/** PruneNonNullableNullsWithoutDefaults alone, for fields pruning skips (metadata of embedded resources). */
function pruneNulls(x: unknown, s: StructuralNode | null): void {
  if (Array.isArray(x)) {
    const items = s?.items ?? null;
    for (const v of x) pruneNulls(v, items);
    return;
  }
  if (x === null || typeof x !== 'object') return;
  const o = x as JSONObject;
  for (const k in o) {
    const ks = fieldSchema(s, k);
    if (o[k] === null && nullPrunable(ks)) delete o[k];
    else pruneNulls(o[k], ks);
  }
}

/** Coerce for one embedded resource (never the root: the request decoder handles the root's metadata itself). */
function coerceEmbedded(o: JSONObject, st: PruneState): void {
  for (const k of ['apiVersion', 'kind'] as const) {
    if (!Object.hasOwn(o, k) || typeof o[k] === 'string') continue;
    if (st.dropInvalidMetadata) delete o[k];
    else st.error ??= invalid(st.fieldPath(k), o[k], 'must be a string');
  }
  if (!Object.hasOwn(o, 'metadata') || isCanonicalObjectMeta(o.metadata)) return;
  const metaPath = st.fieldPath('metadata');
  const r = coerceObjectMeta(o.metadata, {
    dropMalformedFields: st.dropInvalidMetadata,
    returnUnknownFieldPaths: st.coerced !== null,
    pathPrefix: metaPath,
  });
  st.coerced?.push(...r.unknownFields);
  if (r.error !== undefined) {
    if (!st.dropInvalidMetadata) st.error ??= invalid(metaPath, o.metadata, r.error);
    return;
  }
  if (r.meta) {
    if (r.meta.creationTimestamp === null) delete r.meta.creationTimestamp;
    o.metadata = r.meta;
  }
}

// ---- code generation: one function per schema node ----
//
// A node with few properties, no additionalProperties and at most one property that can hold an
// embedded resource (where errors come from) is pruned in two steps, as ajv does it: one pass over
// the keys removes the unknown ones (none when unknown fields are preserved), then each property
// is read by name. Since pruned paths are sorted afterwards and only one property's subtree can
// report an error, visiting properties in schema order instead of data order changes nothing.
// Other nodes dispatch on each key: property names as switch cases (for many, a switch on their length and
// characters first, see nameSwitchCode).

const lit = (x: string): string => JSON.stringify(x);

/** Above this many properties, a switch on the name's length and characters picks the case instead of a chain of string compares. */
const SWITCH_MAX = 8;

/** Property names that exist on Object.prototype need an own-property check to be read by name. */
const PROTO_NAMES = new Set(Object.getOwnPropertyNames(Object.prototype).concat(['__proto__']));

const pruneHelpers = { pruneAll, pruneNulls, coerceEmbedded, SEG_PROP, SEG_KEY, SEG_INDEX };

class PruneGenerator extends CodeGenerator {
  private readonly fails = new Map<StructuralNode, boolean>();

  constructor(
    /** Whether nodes may be pruned by name (see above); off, every node dispatches on its keys. */
    readonly byName: boolean,
  ) {
    super('p');
  }

  /** Whether pruning at or below s can report an error (only embedded resources' apiVersion, kind and metadata can); memoized, the schema is a tree. */
  mayFail(s: StructuralNode | null | undefined): boolean {
    if (!s) return false;
    let r = this.fails.get(s);
    if (r === undefined) {
      r = s.embeddedResource || this.mayFail(s.additionalProperties) || this.mayFail(s.items);
      if (!r && s.properties) for (const p of s.properties.values()) if ((r = this.mayFail(p))) break;
      this.fails.set(s, r);
    }
    return r;
  }
}

/** The function pruning a child value with schema s (null: everything below is unknown). */
function child(g: PruneGenerator, s: StructuralNode | null): string {
  // A plain leaf prunes objects found under it entirely, just as a missing schema does.
  const leaf = s !== null && s.properties === null && s.additionalProperties === undefined && s.items === null && !s.preserveUnknownFields && !s.embeddedResource;
  return s === null || leaf ? 'H.pruneAll' : genPrune(g, s, false, false);
}

/**
 * Code for one field value `v` of object `x` under key `key` (an expression), with its schema
 * known at compile time: non-nullable nulls without a default go, objects and arrays are pruned.
 */
function fieldCode(s: StructuralNode | null, kind: number, fn: string, key: string): string {
  const nulls = nullPrunable(s) ? `if (st.nulls) delete x[${key}];` : '';
  return `if (typeof v === "object") { if (v === null) { ${nulls} } else { st.segs[d] = ${key}; st.kinds[d] = ${kind}; st.depth = d + 1; ${fn}(v, st); st.depth = d; } }`;
}

/** Code for apiVersion/kind/metadata of a resource: kept as they are, only null-pruning applies (when the schema says something about them). */
function keptFieldCode(g: PruneGenerator, ks: StructuralNode | null, key: string): string {
  if (ks === null) return '';
  const nested = ks.properties !== null || ks.additionalProperties != null || ks.items !== null;
  const onNull = nullPrunable(ks) ? `if (st.nulls && v === null) delete x[${key}];` : '';
  return `${onNull} ${nested ? `if (st.nulls && v !== null) H.pruneNulls(v, ${g.constant(ks)});` : ''}`;
}

const KEPT = ['apiVersion', 'kind', 'metadata'];

/**
 * Generates pruning for a node: prune (unknown fields removed) or, with
 * x-kubernetes-preserve-unknown-fields (or `skip`, for items under such a node), skipPrune.
 * `root` marks the resource root: apiVersion/kind/metadata kept, not coerced.
 */
function genPrune(g: PruneGenerator, s: StructuralNode, root: boolean, skip: boolean): string {
  const fn = g.name();
  const preserve = skip || s.preserveUnknownFields;
  const keepMeta = root || s.embeddedResource;
  const kept = keepMeta ? KEPT.map((k): [string, StructuralNode | null] => [k, fieldSchema(s, k)]) : [];
  const props = [...(s.properties ?? [])].filter(([k]) => !(keepMeta && KEPT.includes(k)));
  const byName =
    g.byName && s.additionalProperties === undefined && kept.length + props.length <= SWITCH_MAX && props.filter(([, p]) => g.mayFail(p)).length <= 1;
  const objectCode = byName ? pruneByName(g, kept, props, preserve) : pruneByKey(g, s, kept, props, preserve);

  let items = '';
  if (preserve) {
    // skipPrune walks items with skipPrune, whatever their own flags.
    if (s.items !== null) items = genPrune(g, s.items, false, true);
  } else {
    items = child(g, s.items);
  }
  const arrayCode = items
    ? `const d = st.depth; st.kinds[d] = ${SEG_INDEX}; for (let j = 0; j < x.length; j++) { const v = x[j]; if (v === null || typeof v !== "object") continue; st.segs[d] = j; st.depth = d + 1; ${items}(v, st); } st.depth = d;`
    : '';
  const coerce = s.embeddedResource && !root ? 'if (st.coerceMetadata) H.coerceEmbedded(x, st);' : '';
  g.fns.push(`function ${fn}(x, st) {
if (Array.isArray(x)) { ${arrayCode} return; }
${objectCode}
${coerce}
}`);
  return fn;
}

/** Unknown keys removed in one pass, then each property read by name (see the section comment). */
function pruneByName(g: PruneGenerator, kept: Array<[string, StructuralNode | null]>, props: Array<[string, StructuralNode]>, preserve: boolean): string {
  const lines: string[] = [];
  if (!preserve) {
    const known = [...kept, ...props].map(([k]) => `k !== ${lit(k)}`).join(' && ') || 'true';
    lines.push(`for (const k in x) if (${known}) { if (st.pruned !== null) st.pruned.push(st.unknownPath(k)); delete x[k]; }`);
  }
  lines.push('const d = st.depth; let v;');
  const read = (k: string): string => (PROTO_NAMES.has(k) ? `v = Object.hasOwn(x, ${lit(k)}) ? x[${lit(k)}] : undefined;` : `v = x[${lit(k)}];`);
  for (const [k, ks] of kept) {
    const code = keptFieldCode(g, ks, lit(k));
    if (code.trim() !== '') lines.push(`${read(k)} if (v !== undefined) { ${code} }`);
  }
  for (const [k, p] of props) lines.push(`${read(k)} ${fieldCode(p, SEG_PROP, child(g, p), lit(k))}`);
  return lines.join('\n');
}

/** Each key of the object dispatched: a switch on property names (on their length and characters first for many). */
function pruneByKey(
  g: PruneGenerator,
  s: StructuralNode,
  kept: Array<[string, StructuralNode | null]>,
  props: Array<[string, StructuralNode]>,
  preserve: boolean,
): string {
  const cases: Array<[string, string]> = kept.map(([k, ks]) => [k, keptFieldCode(g, ks, 'k')]);
  let otherwise: string;
  if (s.additionalProperties !== undefined) {
    otherwise = fieldCode(s.additionalProperties, SEG_KEY, child(g, s.additionalProperties), 'k');
  } else if (preserve) {
    otherwise = '';
  } else {
    otherwise = 'if (st.pruned !== null) st.pruned.push(st.unknownPath(k)); delete x[k];';
  }

  let dispatch: string;
  if (cases.length + props.length <= SWITCH_MAX) {
    for (const [k, p] of props) cases.push([k, fieldCode(p, SEG_PROP, child(g, p), 'k')]);
    dispatch = `switch (k) {\n${cases.map(([k, c]) => `case ${lit(k)}: { ${c} break; }`).join('\n')}\ndefault: { ${otherwise} }\n}`;
  } else {
    // Many properties: a switch on the name finds the property's code (see nameSwitchCode); unknown keys fall through.
    const fns = props.map(([, p]) => child(g, p));
    const meta = cases.length > 0 ? `switch (k) {\n${cases.map(([k, c]) => `case ${lit(k)}: { ${c} continue; }`).join('\n')}\n}\n` : '';
    const found = (i: number): string => `${fieldCode(props[i]![1], SEG_PROP, fns[i]!, 'k')} continue;`;
    dispatch = `${meta}${nameSwitchCode(props.map(([k]) => k), 'k', found)}\n${otherwise}`;
  }
  return `const d = st.depth;\nfor (const k in x) { const v = x[k];\n${dispatch}\n}`;
}

const compiled = new WeakMap<StructuralNode, PruneFn>();

/**
 * Compiles pruning for a schema. `root` marks the resource root: its apiVersion/kind/metadata are
 * kept (as for embedded resources) but not coerced here. The function takes objects and arrays.
 * `byName` false (for tests) generates the key-dispatching code for every node.
 */
export function compilePrune(s: StructuralNode, root = false, byName = true): PruneFn {
  if (!root && byName) {
    let fn = compiled.get(s);
    if (fn === undefined) compiled.set(s, (fn = generatePrune(s, false, true)));
    return fn;
  }
  return generatePrune(s, root, byName);
}

function generatePrune(s: StructuralNode, root: boolean, byName: boolean): PruneFn {
  const g = new PruneGenerator(byName);
  const top = genPrune(g, s, root, false);
  const source = `"use strict";\n${g.fns.join('\n')}\n${g.prologue.join('\n')}\nreturn ${top};`;
  const fn = new Function('H', 'K', source)(pruneHelpers, g.consts) as PruneFn;
  const prune: PruneFn = (x, st) => {
    if (x !== null && typeof x === 'object') fn(x, st);
  };
  return Object.assign(prune, { source });
}

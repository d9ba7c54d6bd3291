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
import { CodeGenerator } from './codegen.js';

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

// ---- code generation: one function per schema node; property names as switch cases, or a table ----

const lit = (x: string): string => JSON.stringify(x);

/** Above this many properties, a Map lookup picks the case instead of a chain of string compares. */
const SWITCH_MAX = 8;

const pruneHelpers = { pruneAll, pruneNulls, coerceEmbedded, SEG_PROP, SEG_KEY, SEG_INDEX };

/** The function pruning a child value with schema s (null: everything below is unknown). */
function child(g: CodeGenerator, s: StructuralNode | null): string {
  // A plain leaf prunes objects found under it entirely, just as a missing schema does.
  const leaf = s !== null && s.properties === null && s.additionalProperties === undefined && s.items === null && !s.preserveUnknownFields && !s.embeddedResource;
  return s === null || leaf ? 'H.pruneAll' : genPrune(g, s, false, false);
}

/** Code for one field value `v` of object `x` under key `k`, with its schema known at compile time. */
function fieldCode(g: CodeGenerator, s: StructuralNode | null, kind: number, fn: string): string {
  const nulls = nullPrunable(s) ? 'if (st.nulls) delete x[k];' : '';
  return `if (v === null) { ${nulls} } else if (typeof v === "object") { st.segs[d] = k; st.kinds[d] = ${kind}; st.depth = d + 1; ${fn}(v, st); st.depth = d; }`;
}

/**
 * Generates pruning for a node: prune (unknown fields removed) or, with
 * x-kubernetes-preserve-unknown-fields (or `skip`, for items under such a node), skipPrune.
 * `root` marks the resource root: apiVersion/kind/metadata kept, not coerced.
 */
function genPrune(g: CodeGenerator, s: StructuralNode, root: boolean, skip: boolean): string {
  const fn = g.name();
  const preserve = skip || s.preserveUnknownFields;
  const keepMeta = root || s.embeddedResource;
  const cases: Array<[string, string]> = [];
  if (keepMeta) {
    for (const k of ['apiVersion', 'kind', 'metadata']) {
      const ks = fieldSchema(s, k);
      // Kept as they are; only null-pruning applies, when the schema says something about them.
      if (ks === null) {
        cases.push([k, '']);
        continue;
      }
      const nested = ks.properties !== null || ks.additionalProperties != null || ks.items !== null;
      const onNull = nullPrunable(ks) ? 'if (st.nulls && v === null) delete x[k];' : '';
      cases.push([k, `${onNull} ${nested ? `if (st.nulls && v !== null) H.pruneNulls(v, ${g.constant(ks)});` : ''}`]);
    }
  }
  const props = [...(s.properties ?? [])].filter(([k]) => !(keepMeta && (k === 'apiVersion' || k === 'kind' || k === 'metadata')));
  let otherwise: string;
  if (s.additionalProperties !== undefined) {
    otherwise = fieldCode(g, s.additionalProperties, SEG_KEY, child(g, s.additionalProperties));
  } else if (preserve) {
    otherwise = '';
  } else {
    otherwise = 'if (st.pruned !== null) st.pruned.push(st.unknownPath(k)); delete x[k];';
  }

  let dispatch: string;
  if (cases.length + props.length <= SWITCH_MAX) {
    for (const [k, p] of props) cases.push([k, fieldCode(g, p, SEG_PROP, child(g, p))]);
    dispatch = `switch (k) {\n${cases.map(([k, c]) => `case ${lit(k)}: { ${c} break; }`).join('\n')}\ndefault: { ${otherwise} }\n}`;
  } else {
    // Many properties: a table (index by name; child function and null rule by index) keeps the
    // generated function small enough for the optimizing compiler.
    const index = g.constant(new Map(props.map(([k], i) => [k, i])));
    const fns = `[${props.map(([, p]) => child(g, p)).join(', ')}]`;
    const tableFns = `T${fn}`;
    const tableNulls = g.constant(props.map(([, p]) => nullPrunable(p)));
    g.prologue.push(`const ${tableFns} = ${fns};`);
    const meta = cases.length > 0 ? `switch (k) {\n${cases.map(([k, c]) => `case ${lit(k)}: { ${c} continue; }`).join('\n')}\n}\n` : '';
    dispatch = `${meta}const i = ${index}.get(k);
if (i === undefined) { ${otherwise} }
else if (v === null) { if (${tableNulls}[i] && st.nulls) delete x[k]; }
else if (typeof v === "object") { st.segs[d] = k; st.kinds[d] = ${SEG_PROP}; st.depth = d + 1; ${tableFns}[i](v, st); st.depth = d; }`;
  }

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
const d = st.depth;
for (const k in x) { const v = x[k];
${dispatch}
}
${coerce}
}`);
  return fn;
}

/**
 * Compiles pruning for a schema. `root` marks the resource root: its apiVersion/kind/metadata are
 * kept (as for embedded resources) but not coerced here. The function takes objects and arrays.
 */
const compiled = new WeakMap<StructuralNode, PruneFn>();

export function compilePrune(s: StructuralNode, root = false): PruneFn {
  if (!root) {
    let fn = compiled.get(s);
    if (fn === undefined) compiled.set(s, (fn = generatePrune(s, false)));
    return fn;
  }
  return generatePrune(s, true);
}

function generatePrune(s: StructuralNode, root: boolean): PruneFn {
  const g = new CodeGenerator('p');
  const top = genPrune(g, s, root, false);
  const source = `"use strict";\n${g.fns.join('\n')}\n${g.prologue.join('\n')}\nreturn ${top};`;
  const fn = new Function('H', 'K', source)(pruneHelpers, g.consts) as PruneFn;
  const prune: PruneFn = (x, st) => {
    if (x !== null && typeof x === 'object') fn(x, st);
  };
  return Object.assign(prune, { source });
}

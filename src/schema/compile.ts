// The schema engine for custom resources: one compile step per CRD version turns its
// openAPIV3Schema into generated functions for defaulting, pruning and validation (as ajv does),
// reused for every request. Not reentrant: each compiled schema keeps one scratch state per step.
//
// Kube's order on writes is: decode (prune unknown fields, prune non-nullable nulls without
// defaults, coerce embedded metadata), default (request version), validate. Pruning and
// defaulting commute here (defaults are pruned at compile time, defaulting only replaces the
// nulls that null-pruning keeps), so callers may default before or after pruning.
//
// Numbers: kube decodes integral JSON literals as int64 and others as float64; after JSON.parse
// `1.0` and `1` are the same value, and we read every integral number as an int64. That matters
// only where kube itself treats the two apart, all of them rare: `1.0` passes `type: integer` in
// kube too (kube-openapi accepts floats that are JSON integers) and small values print the same,
// but a literal like `2000000.0` prints as 2e+06 in kube's messages (we print 2000000), an integer
// written `2.0` passes `multipleOf: 0.5` in kube (int64s compare against int64(0.5) = 0 and fail),
// and an int64 converts to a one-rune string when compared with a string enum entry.
import { type FieldError, fieldErrorString } from '../api/field-error.js';
import { type StructuralNode, toStructural } from './compile-structural.js';
import { type DefaultFn, compileDefaulting } from './defaulting.js';
import { compileListTypeValidation } from './list-types.js';
import { PruneState, compilePrune } from './prune.js';
import { coerceObjectMeta, isCanonicalObjectMeta } from './prune-objectmeta.js';
import { compileEmbeddedValidation } from './value-embedded.js';
import { compileValueValidator } from './value-codegen.js';
import { type JSONSchemaProps, ValidationState, runValueValidator } from './value-validate.js';

export type { JSONSchemaProps } from './value-validate.js';

export interface CompileOptions {
  /**
   * The field path the schema's root stands for in OpenAPI validation errors: '' for a whole
   * custom resource (root-level errors then read `<nil>`, as kube prints them), 'status' for the
   * status subresource's schema (kube validates status updates against that subschema alone).
   */
  fieldPathPrefix?: string;
}

interface PruneOptions {
  /** Return the paths of the fields pruned as unknown (for `unknown field "..."` warnings and Strict). */
  returnPruned?: boolean;
  /**
   * Drop malformed metadata fields instead of failing: what kube's storage decoder does for
   * objects read back. Requests fail instead (SchemaCoercionError).
   */
  dropInvalidMetadata?: boolean;
  /**
   * Whether the value is a whole resource (default true): apiVersion, kind and metadata are kept
   * at the root, and the root's metadata is round-tripped through ObjectMeta (unknown metadata
   * fields dropped and reported as "metadata.x", timestamps normalized).
   */
  resourceRoot?: boolean;
  /**
   * structuralpruning.Prune alone, as kube checks that a default is pruned: unknown fields removed, the
   * metadata of the root and of embedded resources left as it is (kube prunes it as ObjectMeta later),
   * nulls kept.
   */
  pruneOnly?: boolean;
}

/** A body that cannot be decoded (metadata or an embedded apiVersion/kind of the wrong type): kube's decode error, a 400. */
export class SchemaCoercionError extends Error {
  constructor(
    message: string,
    readonly fieldError?: FieldError,
  ) {
    super(message);
    this.name = 'SchemaCoercionError';
  }
}

export interface CompiledSchema {
  /** structuraldefaulting.Default, including the nullable/null rules. Mutates obj in place. */
  default(obj: unknown): void;
  /**
   * Pruning as the custom resource decoder does it (see the file comment). Mutates obj in place;
   * returns the unknown field paths when asked (root metadata ones first, then the pruned ones and
   * those of embedded metadata, each group sorted), else an empty list. Throws SchemaCoercionError.
   */
  prune(obj: unknown, opts?: PruneOptions): string[];
  /**
   * The schema checks of a custom resource write, in kube's order: OpenAPI value validation
   * (ValidateCustomResource), embedded resources (objectmeta.Validate), list-type set/map
   * invariants. The root's ObjectMeta and TypeMeta are the strategy's (validateObjectMeta).
   */
  validate(obj: unknown): FieldError[];
  /** The OpenAPI value validation alone (what kube's status-update validator runs). */
  validateValue(value: unknown): FieldError[];
  /** The structural model the functions were generated from. */
  readonly structural: StructuralNode;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Whether the root has its own metadata that is not already ObjectMeta's canonical form. The
 * own-property check (a call, unlike the read) is left for the uncommon cases.
 */
function needsMetaCoercion(obj: Record<string, unknown>): boolean {
  const m = obj.metadata;
  if (m !== undefined && isCanonicalObjectMeta(m)) return false;
  return Object.hasOwn(obj, 'metadata');
}

export function compileSchema(openAPIV3Schema: JSONSchemaProps, opts: CompileOptions = {}): CompiledSchema {
  const prefix = opts.fieldPathPrefix ?? '';
  const structural = toStructural(openAPIV3Schema);
  const check = compileValueValidator(openAPIV3Schema);
  const vstate = new ValidationState();
  const pruneRoot = compilePrune(structural, true);
  let pruneValue: ReturnType<typeof compilePrune> | undefined; // compiled on first use
  const pstate = new PruneState();
  const defaulting: DefaultFn | null = compileDefaulting(structural);
  const embedded = compileEmbeddedValidation(structural);
  const lists = compileListTypeValidation(structural);

  return {
    structural,
    default(obj) {
      if (defaulting !== null) defaulting(obj);
    },
    prune(obj, popts) {
      const track = popts?.returnPruned === true;
      const drop = popts?.dropInvalidMetadata === true;
      const root = popts?.resourceRoot !== false;
      const pruneOnly = popts?.pruneOnly === true;
      pstate.reset(track, drop, !pruneOnly, !pruneOnly);
      let meta: ReturnType<typeof coerceObjectMeta> | undefined;
      if (root && !pruneOnly && isObject(obj) && needsMetaCoercion(obj)) {
        meta = coerceObjectMeta(obj.metadata, { dropMalformedFields: drop, returnUnknownFieldPaths: track, pathPrefix: 'metadata' });
        if (meta.error !== undefined) throw new SchemaCoercionError(meta.error);
      }
      (root ? pruneRoot : (pruneValue ??= compilePrune(structural, false)))(obj, pstate);
      const err = pstate.error;
      if (err !== null) {
        pstate.error = null;
        throw new SchemaCoercionError(fieldErrorString(err), err);
      }
      if (meta?.meta !== undefined && isObject(obj)) {
        // SetObjectMeta; a zero creationTimestamp (null) is left out, as for embedded metadata.
        if (meta.meta.creationTimestamp === null) delete meta.meta.creationTimestamp;
        obj.metadata = meta.meta;
      }
      if (!track) return [];
      const out = meta?.unknownFields ?? [];
      out.push(...pstate.pruned!.sort(), ...pstate.coerced!.sort());
      pstate.pruned = pstate.coerced = null;
      return out;
    },
    validate(obj) {
      const errs = runValueValidator(check, vstate, obj, prefix);
      if (embedded !== null) {
        const e = embedded(obj);
        if (e.length > 0) errs.push(...e);
      }
      if (lists !== null) {
        const l = lists(obj);
        if (l.length > 0) errs.push(...l);
      }
      return errs;
    },
    validateValue(value) {
      return runValueValidator(check, vstate, value, prefix);
    },
  };
}

/**
 * compileSchema(schema, { fieldPathPrefix }).validateValue(value), compiling the value validator alone: a CRD
 * default's check uses nothing else, and pruning, defaulting and the rest cost as much again to compile.
 */
export function validateValueOnce(schema: JSONSchemaProps, value: unknown, fieldPathPrefix = ''): FieldError[] {
  return runValueValidator(compileValueValidator(schema), new ValidationState(), value, fieldPathPrefix);
}

/**
 * compileSchema(schema).prune(obj, { resourceRoot, pruneOnly: true }) (in place, throws alike), compiling the
 * pruning alone: whether a CRD default is pruned needs nothing else.
 */
export function pruneOnlyOnce(schema: JSONSchemaProps, obj: unknown, resourceRoot: boolean): void {
  pruneOnlyWith(schema, resourceRoot)(obj);
}

/**
 * pruneOnlyOnce for many values of one schema, compiled once (on the first object or array): whether a CRD's
 * defaults survive pruning checks each default, set in its surrounding object, against the whole schema.
 */
export function pruneOnlyWith(schema: JSONSchemaProps, resourceRoot: boolean): (obj: unknown) => void {
  let prune: ReturnType<typeof compilePrune> | undefined;
  const pstate = new PruneState();
  return (obj) => {
    // The compiled pruning leaves anything but objects and arrays alone (most defaults are scalars): nothing to compile.
    if (obj === null || typeof obj !== 'object') return;
    prune ??= compilePrune(toStructural(schema), resourceRoot);
    pstate.reset(false, false, false, false);
    prune(obj, pstate);
    const err = pstate.error;
    if (err !== null) throw new SchemaCoercionError(fieldErrorString(err), err);
  };
}

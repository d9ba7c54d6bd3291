// A port of structured-merge-diff's test fixture (internal/fixture/state.go): a State holding the live
// object, its managers and the parser in use, operations run against it through the Updater (apply, force
// apply, update, extract-then-apply, a schema change), and a case's expectations checked at the end: the
// live object at a version, the managers' field sets and versions, and the conflicts of each apply.
import { parse } from 'yaml';
import { ConflictError, type Conflict, type ManagedFields, type VersionedSet } from '../../../src/smd/managers.js';
import { merge } from '../../../src/smd/merge.js';
import { extractItems } from '../../../src/smd/remove.js';
import { COMMON_TYPES, MergeSchema, UNTYPED_DEDUCED, type TypeRef } from '../../../src/smd/schema.js';
import { FieldSet, pathString, type Path } from '../../../src/smd/set.js';
import { Updater, type Typed, type VersionConverter } from '../../../src/smd/updater.js';
import { validate } from '../../../src/smd/validate.js';
import { fieldElement, indexElement, keyElement, valueElement, type PathElement } from '../../../src/smd/path-element.js';

// The short names smd's tests use: _P (MakePathOrDie), _KBF (KeyByFields), _V (a set value), _NS (NewSet).

/** A path: strings are fields, numbers indices, the rest elements made by _KBF and _V. */
export const _P = (...parts: Array<string | number | PathElement>): Path =>
  parts.map((p) => (typeof p === 'string' ? fieldElement(p) : typeof p === 'number' ? indexElement(p) : p));

/** KeyByFields: name, value, name, value, ... */
export function _KBF(...nameValues: unknown[]): PathElement {
  const fields = [];
  for (let i = 0; i < nameValues.length; i += 2) fields.push({ name: nameValues[i] as string, value: nameValues[i + 1] });
  return keyElement(fields);
}

export const _V = (value: unknown): PathElement => valueElement(value);
export const _NS = (...paths: Path[]): FieldSet => FieldSet.of(...paths);

/** fieldpath.NewVersionedSet. */
export const vs = (set: FieldSet, apiVersion: string, applied: boolean): VersionedSet => ({ set, apiVersion, applied });
/** merge.Conflict. */
export const conflict = (manager: string, path: Path): Conflict => ({ manager, path });

/** What a version's objects are parsed as: a schema and the type of the version. */
export interface Parser {
  schema: MergeSchema;
  typeFor(version: string): TypeRef;
}

const schemaOf = (yaml: string): MergeSchema => MergeSchema.fromObject(parse(yaml));

/** SameVersionParser: every version is the one named type. */
export function sameVersionParser(schemaYaml: string, typeName: string): Parser {
  const schema = schemaOf(schemaYaml);
  return { schema, typeFor: () => ({ namedType: typeName }) };
}

/** A typed.Parser used as the fixture's Parser: a version is the type of that name. */
export function versionTypesParser(schemaYaml: string): Parser {
  const schema = schemaOf(schemaYaml);
  return { schema, typeFor: (version) => ({ namedType: version }) };
}

/** DeducedParser: the untyped deduced type whatever the version. */
export const DEDUCED_PARSER: Parser = { schema: new MergeSchema(COMMON_TYPES), typeFor: () => ({ namedType: UNTYPED_DEDUCED }) };

/**
 * A converter of the fixture: how an object's value changes between versions. `undefined` stands for a
 * missing version (IsMissingVersionError); a thrown error is any other conversion failure.
 */
export type ConvertValue = (value: unknown, from: string, to: string) => unknown | undefined;

/** dummyConverter: the object as it is, as long as a version is given. */
export const dummyConverter: ConvertValue = (value, _from, to) => {
  if (to === '') throw new Error('cannot convert to invalid version: ""');
  return value;
};

/** specificVersionConverter: the object as it is, for the versions still accepted. */
export const specificVersionConverter =
  (accepted: () => readonly string[]): ConvertValue =>
  (value, _from, to) =>
    accepted().includes(to) ? value : undefined;

/** renamingConverter: fields ending with the source version's name end with the target's instead. */
export const renamingConverter: ConvertValue = (value, from, to) => renameFields(value, from, to);

function renameFields(v: unknown, oldSuffix: string, newSuffix: string): unknown {
  if (Array.isArray(v)) return v.map((x) => renameFields(x, oldSuffix, newSuffix));
  if (v === null || typeof v !== 'object') return v;
  const out: Record<string, unknown> = {};
  for (const [k, x] of Object.entries(v)) out[k.endsWith(oldSuffix) ? k.slice(0, k.length - oldSuffix.length) + newSuffix : k] = renameFields(x, oldSuffix, newSuffix);
  return out;
}

/**
 * repeatingConverter: smd marshals the object to YAML and, on every line below the first, keeps the
 * indentation and the first character repeated as many times as the version's number, as a key with no
 * value; it stops at the first unindented line. On the maps of single-letter keys it is used with, that is:
 * the first top-level key (in sorted order) kept, every key below it its first letter repeated, every leaf
 * null.
 */
export const repeatingConverter: ConvertValue = (value, _from, to) => {
  const m = /^v(\d+)$/.exec(to);
  if (!m) return undefined;
  const n = Number(m[1]);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  const keys = Object.keys(value).sort();
  if (keys.length === 0) return value;
  const first = (value as Record<string, unknown>)[keys[0]!];
  const repeat = (v: unknown): unknown => {
    if (v === null || typeof v !== 'object' || Array.isArray(v) || Object.keys(v).length === 0) return null;
    const out: Record<string, unknown> = {};
    for (const k of Object.keys(v).sort()) out[k[0]!.repeat(n)] = repeat((v as Record<string, unknown>)[k]);
    return out;
  };
  const isMap = first !== null && typeof first === 'object' && !Array.isArray(first) && Object.keys(first).length > 0;
  return { [keys[0]!]: isMap ? repeat(first) : first };
};

/**
 * reliantFieldsConverter: v2's required_field_bar is v1's field_foo_rely_on_bar; converting to v1 an object
 * without it fails (not as a missing version).
 */
export const reliantFieldsConverter: ConvertValue = (value, from, to) => {
  if (from === to) return value;
  const text = JSON.stringify(value);
  switch (to) {
    case 'v1':
      if (!text.includes('required_field_bar')) throw new Error('missing requried field bar');
      return JSON.parse(text.replaceAll('required_field_bar', 'field_foo_rely_on_bar'));
    case 'v2':
      return JSON.parse(text.replaceAll('field_foo_rely_on_bar', 'required_field_bar'));
    default:
      return undefined;
  }
};

export type Op =
  | { op: 'apply'; manager: string; apiVersion: string; object: string; conflicts?: Conflict[] }
  | { op: 'forceApply' | 'update' | 'extractApply'; manager: string; apiVersion: string; object: string }
  /** ChangeParser: the schema changes without a new version. */
  | { op: 'changeParser'; parser: Parser };

export interface Case {
  name: string;
  ops: Op[];
  /** The live object expected at the end, as YAML, at apiVersion. */
  object?: string;
  apiVersion?: string;
  /** The managers expected at the end: sets and versions (whether a set was applied is not compared, as smd). */
  managed?: Record<string, VersionedSet>;
  /** IgnoredFields (or IgnoreFilter's exclude sets, the same thing) per version. */
  ignoredFields?: Record<string, FieldSet>;
  /** ReturnInputOnNoop: an apply that changes nothing returns the object anyway (no effect on the outcome). */
  returnInputOnNoop?: boolean;
  /** The case passes when an operation fails (TestDefaultKeysFlatErrors). */
  expectError?: boolean;
  /** A known failure, with the reason: run as a node:test todo. */
  todo?: string;
}

/** A Go test function's table: the parser and converter it runs its cases with. */
export interface Group {
  test: string;
  parser: Parser;
  converter?: ConvertValue;
  cases: Case[];
}

/** A case that is not a table row (a test function of its own), ported as code. */
export interface CustomCase {
  name: string;
  run: () => void;
  todo?: string;
}

export interface ConformanceFile {
  /** The Go file, e.g. merge/set_test.go. */
  file: string;
  groups: Group[];
  custom?: CustomCase[];
  /** Cases not ported, each with why. */
  skipped?: Array<{ name: string; reason: string }>;
}

/** The fixture's State. */
export class State {
  live: Typed | undefined;
  managers: ManagedFields = new Map();
  readonly updater: Updater;
  private readonly converter: VersionConverter;

  constructor(
    public parser: Parser,
    readonly convertValue: ConvertValue = dummyConverter,
    ignoredFields?: Record<string, FieldSet>,
  ) {
    const converter: VersionConverter = (this.converter = {
      schemaFor: (version) => ({ schema: this.parser.schema, root: this.parser.typeFor(version) }),
      convert: (obj, version) => {
        const value = this.convertValue(obj.value, obj.version, version);
        return value === undefined ? undefined : { value, version };
      },
    });
    this.updater = new Updater({ converter, ignoredFields: ignoredFields && new Map(Object.entries(ignoredFields)) });
  }

  /** FromYAML: the object parsed at a version, validated (duplicates allowed for updates, as smd). */
  parse(yaml: string, version: string, allowDuplicates: boolean): Typed {
    // goyaml.v2 (sigs.k8s.io/yaml) reads YAML 1.1: `n`, `yes`, `on` are booleans.
    const value = parse(yaml, { version: '1.1' }) ?? null;
    const errors = validate(this.parser.schema, this.parser.typeFor(version), value, { allowDuplicates });
    if (errors.length > 0) throw new Error(`invalid object: ${errors.join('; ')}`);
    return { value, version };
  }

  liveAt(version: string): Typed {
    const live = this.live ?? { value: null, version };
    const converted = this.converter.convert(live, version);
    if (!converted) throw new Error(`cannot convert the live object to ${version}`);
    return converted;
  }

  updateObject(obj: Typed, manager: string): void {
    const live = this.liveAt(obj.version);
    this.managers = this.updater.updateObject(live, obj, this.managers, manager);
    this.live = obj;
  }

  applyObject(obj: Typed, manager: string, force: boolean): void {
    const live = this.liveAt(obj.version);
    this.live = live;
    const r = this.updater.apply(live, obj, this.managers, manager, force);
    this.managers = r.managers;
    if (r.object !== undefined) this.live = { value: r.object, version: obj.version };
  }

  /** ExtractApply: the manager's fields extracted from the live object, the object merged onto them, force-applied. */
  extractApply(obj: Typed, manager: string): void {
    if (!this.live) return this.applyObject(obj, manager, true);
    const current = this.liveAt(obj.version);
    let set = new FieldSet();
    const mine = this.managers.get(manager);
    if (mine) {
      if (mine.apiVersion !== obj.version) throw new Error(`existing managed fieldpath set APIVersion (${mine.apiVersion}) differs from desired (${obj.version}), unable to extract`);
      set = mine.set.leaves();
    }
    const root = this.parser.typeFor(obj.version);
    const extracted = extractItems(this.parser.schema, root, current.value, set);
    const merged = merge(this.parser.schema, root, extracted, obj.value) ?? null;
    this.applyObject({ value: merged, version: obj.version }, manager, true);
  }

  run(op: Op): void {
    switch (op.op) {
      case 'changeParser':
        this.parser = op.parser;
        return;
      case 'update':
        return this.updateObject(this.parse(op.object, op.apiVersion, true), op.manager);
      case 'forceApply':
        return this.applyObject(this.parse(op.object, op.apiVersion, false), op.manager, true);
      case 'extractApply':
        return this.extractApply(this.parse(op.object, op.apiVersion, false), op.manager);
      case 'apply': {
        const obj = this.parse(op.object, op.apiVersion, false);
        let got: readonly Conflict[] = [];
        try {
          this.applyObject(obj, op.manager, false);
        } catch (e) {
          if (!(e instanceof ConflictError) || !op.conflicts) throw e;
          got = e.conflicts;
        }
        if (op.conflicts) checkConflicts(op.conflicts, got);
      }
    }
  }
}

const conflictKey = (c: Conflict): string => `${c.manager} ${pathString(c.path)}`;

/** The conflicts as a set of (manager, path): none missing, none extra. */
function checkConflicts(want: readonly Conflict[], got: readonly Conflict[]): void {
  const w = new Set(want.map(conflictKey));
  const g = new Set(got.map(conflictKey));
  const missing = [...w].filter((k) => !g.has(k));
  const extra = [...g].filter((k) => !w.has(k));
  if (missing.length || extra.length) throw new Error(`conflicts:\nwant: ${[...w].join(', ') || 'none'}\ngot:  ${[...g].join(', ') || 'none'}`);
}

/** TestCase.TestWithConverter: runs the operations and checks the outcome; throws what differs. */
export function runCase(group: Group, c: Case): void {
  const state = new State(group.parser, group.converter, c.ignoredFields);
  try {
    c.ops.forEach((op, i) => {
      try {
        state.run(op);
      } catch (e) {
        throw new Error(`failed operation ${i}: ${(e as Error).message}`, { cause: e });
      }
    });
  } catch (e) {
    if (c.expectError) return;
    throw e;
  }
  if (c.expectError) throw new Error('expected an operation to fail');
  if (c.object !== undefined) {
    const version = c.apiVersion ?? '';
    const want = state.parse(c.object, version, true);
    const live = state.liveAt(version);
    // CompareLive: the values as they are (cmp.Diff of the unstructured forms: a null field is not a missing one).
    if (JSON.stringify(sortKeys(want.value)) !== JSON.stringify(sortKeys(live.value))) {
      throw new Error(`object:\nwant: ${JSON.stringify(want.value)}\ngot:  ${JSON.stringify(live.value)}`);
    }
  }
  if (c.managed) {
    const diff = managersDifference(state.managers, new Map(Object.entries(c.managed)));
    if (diff.length) throw new Error(`managers:\n${diff.join('\n')}\ngot:\n${managersString(state.managers)}`);
  }
  for (const [manager, v] of state.managers) if (v.set.empty()) throw new Error(`expected Managers to have no empty sets, but found one managed by ${manager}`);
}

const sortKeys = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(sortKeys);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortKeys((v as Record<string, unknown>)[k])]));
};

/** ManagedFields.Difference, as what differs: managers missing or extra, versions, sets. */
function managersDifference(got: ManagedFields, want: ManagedFields): string[] {
  const out: string[] = [];
  for (const [m, w] of want) {
    const g = got.get(m);
    if (!g) {
      if (!w.set.empty()) out.push(`${m}: missing`);
    } else if (g.apiVersion !== w.apiVersion) out.push(`${m}: version ${g.apiVersion}, want ${w.apiVersion}`);
    else if (!g.set.equals(w.set)) out.push(`${m}: want\n${indent(w.set.toString())}`);
  }
  for (const [m, g] of got) if (!want.has(m) && !g.set.empty()) out.push(`${m}: not expected`);
  return out;
}

const indent = (s: string): string => s.split('\n').map((l) => `  ${l}`).join('\n');
const managersString = (m: ManagedFields): string => [...m].map(([k, v]) => `${k} (${v.apiVersion}):\n${indent(v.set.toString())}`).join('\n');

/** Every case of a file with a runnable form: table rows and custom cases. */
export function* casesOf(f: ConformanceFile): Generator<{ name: string; todo?: string; run: () => void }> {
  for (const g of f.groups) for (const c of g.cases) yield { name: `${g.test}/${c.name}`, todo: c.todo, run: () => runCase(g, c) };
  for (const c of f.custom ?? []) yield { name: c.name, todo: c.todo, run: c.run };
}

// ObjectMeta validation as k8s.io/apimachinery/pkg/api/validation/objectmeta.go does it
// (ValidateObjectMetaAccessor / ValidateObjectMetaAccessorUpdate), reading metadata the way the
// unstructured accessors do: fields of the wrong JSON type read as absent.
import { type FieldError, forbidden, goQuote, invalid, required, tooLong } from '../api/field-error.js';
import type { OwnerReference } from '../api/meta.js';
import {
  type NameValidateFn,
  type NameValidatorKind,
  isQualifiedName,
  isValidLabelValue,
  nameValidatorFor,
  validateNamespaceName,
} from './names.js';
import { isPrintChar } from '../util/unicode-print.js';

/**
 * Values whose Go rendering (%v / %#v) is not what a JSON value would print as (times, typed
 * slices, structs) carry their Go text under this symbol. field-error.ts's goValue should print
 * `v[GO_VALUE]` when present; until it does, the JSON form of the value is printed.
 */
export const GO_VALUE = Symbol.for('crd-apiserver.goValue');

/** A bad value that prints as `text` in a Go field error, and serializes as `json`. */
export function goRendered<T extends object>(json: T, text: string): T {
  Object.defineProperty(json, GO_VALUE, { value: text, enumerable: false });
  return json;
}

/** A time value rendered as Go's time.Time String(); JSON-serializes to its RFC 3339 form. */
class GoTime {
  constructor(rfc3339: string, text: string) {
    // Nothing enumerable: only the Go rendering and the JSON form are meant to be seen.
    Object.defineProperty(this, GO_VALUE, { value: text, enumerable: false });
    Object.defineProperty(this, 'toJSON', { value: () => rfc3339, enumerable: false });
  }
}

const FIELD_IMMUTABLE_ERROR_MSG = 'field is immutable';
const TOTAL_ANNOTATION_SIZE_LIMIT_B = 256 * (1 << 10);
export const FINALIZER_ORPHAN_DEPENDENTS = 'orphan';
export const FINALIZER_DELETE_DEPENDENTS = 'foregroundDeletion';
const FINALIZER_KUBERNETES = 'kubernetes';
const STANDARD_FINALIZERS = new Set([FINALIZER_KUBERNETES, FINALIZER_ORPHAN_DEPENDENTS, FINALIZER_DELETE_DEPENDENTS]);
const MAX_SUBRESOURCE_NAME_LENGTH = 256;
const FIELD_MANAGER_MAX_LENGTH = 128;

interface ObjectMetaOptions {
  /** Whether the resource is namespace scoped: namespace then required, else forbidden. */
  namespaced: boolean;
  /** The rule for metadata.name (custom resources: dns1123Subdomain; namespaces: dns1123Label). */
  nameValidator: NameValidatorKind | NameValidateFn;
  /**
   * Core (k8s.io/kubernetes pkg/apis/core) types such as Namespace add an error for finalizer
   * names that are neither standard nor domain-qualified. apimachinery alone (custom resources,
   * CRDs) does not; custom resources get warnings instead (see finalizerWarnings).
   */
  coreFinalizerNames?: boolean;
}
// ---- unstructured accessors ----

type JsonObject = Record<string, unknown>;
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);
const asMeta = (m: unknown): JsonObject => (isObject(m) ? m : {});
const str = (m: JsonObject, k: string): string => (typeof m[k] === 'string' ? (m[k] as string) : '');
const int = (m: JsonObject, k: string): number | undefined =>
  typeof m[k] === 'number' && Number.isInteger(m[k]) ? (m[k] as number) : undefined;

/** NestedNullCoercingStringMap: null values read as "", any other non-string drops the whole map. */
function stringMap(m: JsonObject, k: string): Array<[string, string]> {
  const v = m[k];
  if (!isObject(v)) return [];
  const out: Array<[string, string]> = [];
  // By key, not Object.entries: the pairs it would make are made here anyway.
  for (const key of Object.keys(v)) {
    const val = v[key];
    if (typeof val === 'string') out.push([key, val]);
    else if (val === null) out.push([key, '']);
    else return [];
  }
  return out;
}

/** NestedStringSlice: any non-string element drops the whole list. */
function stringSlice(m: JsonObject, k: string): string[] {
  const v = m[k];
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string')) return [];
  return v as string[];
}


function ownerReferences(m: JsonObject): OwnerReference[] {
  const v = m.ownerReferences;
  if (!Array.isArray(v) || !v.every(isObject)) return [];
  return v.map((o) => ({
    apiVersion: str(o, 'apiVersion'),
    kind: str(o, 'kind'),
    name: str(o, 'name'),
    uid: str(o, 'uid'),
    controller: typeof o.controller === 'boolean' ? o.controller : undefined,
    blockOwnerDeletion: typeof o.blockOwnerDeletion === 'boolean' ? o.blockOwnerDeletion : undefined,
  }));
}

// metav1.Time parses RFC 3339; anything else reads as the zero time.
const RFC3339 = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

const GO_ZERO_TIME_NANOS = -62135596800n * 1_000_000_000n;

interface MetaTime {
  /** Nanoseconds since the epoch (as bigint: sub-millisecond digits matter for equality). */
  nanos: bigint;
  raw: string;
}

function parseTime(s: string): MetaTime | undefined {
  const m = RFC3339.exec(s);
  if (!m) return undefined;
  const [y, mo, d, h, mi, sec] = [1, 2, 3, 4, 5, 6].map((i) => +m[i]!) as [number, number, number, number, number, number];
  const check = new Date(0);
  check.setUTCFullYear(y, mo - 1, d); // Date.UTC would read years below 100 as 19xx
  check.setUTCHours(h, mi, sec, 0);
  const ms = check.getTime();
  // time.Parse rejects out-of-range fields rather than rolling them over.
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59 || sec > 59) return undefined;
  let nanos = BigInt(ms) * 1_000_000n + BigInt((m[7] ?? '.').slice(1).padEnd(9, '0').slice(0, 9) || '0');
  const zone = m[8]!;
  if (zone !== 'Z') {
    const sign = zone[0] === '-' ? -1n : 1n;
    const offsetMin = BigInt(+zone.slice(1, 3) * 60 + +zone.slice(4, 6));
    nanos -= sign * offsetMin * 60_000_000_000n;
  }
  // The zero time reads as unset (metav1.Time.IsZero).
  if (nanos === GO_ZERO_TIME_NANOS) return undefined;
  return { nanos, raw: s };
}

const timeAt = (m: JsonObject, k: string): MetaTime | undefined => (typeof m[k] === 'string' ? parseTime(m[k] as string) : undefined);

/** Both hold the same string, or neither a string (then both read as unset). */
const sameTimeText = (a: JsonObject, b: JsonObject, k: string): boolean =>
  typeof a[k] === 'string' ? a[k] === b[k] : typeof b[k] !== 'string';

/** Go's time.Time.String() in UTC (the apiserver's local zone): `2006-01-02 15:04:05.999999999 +0000 UTC`. */
export function goTimeString(nanos: bigint | undefined): string {
  if (nanos === undefined) return '0001-01-01 00:00:00 +0000 UTC';
  const ms = Number(nanos / 1_000_000n) - (nanos % 1_000_000n < 0n ? 1 : 0);
  const d = new Date(ms);
  const pad = (n: number, w = 2): string => String(n).padStart(w, '0');
  let frac = (((nanos % 1_000_000_000n) + 1_000_000_000n) % 1_000_000_000n).toString().padStart(9, '0').replace(/0+$/, '');
  if (frac) frac = '.' + frac;
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ` +
    `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}${frac} +0000 UTC`
  );
}

const goTimeValue = (t: MetaTime | undefined): GoTime | null => (t ? new GoTime(t.raw, goTimeString(t.nanos)) : null);

/** Go's %#v of a []string. */
export function goStringSlice(values: readonly string[] | undefined): string {
  if (values === undefined) return '[]string(nil)';
  return `[]string{${values.map(goQuote).join(', ')}}`;
}

function goOwnerReference(r: OwnerReference): string {
  const ptr = (b: boolean | undefined): string => (b === undefined ? '(*bool)(nil)' : '(*bool)(0xc000000000)');
  return (
    `v1.OwnerReference{APIVersion:${goQuote(r.apiVersion)}, Kind:${goQuote(r.kind)}, Name:${goQuote(r.name)}, ` +
    `UID:${goQuote(r.uid)}, Controller:${ptr(r.controller)}, BlockOwnerDeletion:${ptr(r.blockOwnerDeletion)}}`
  );
}

const ownerRefJson = (r: OwnerReference): JsonObject => JSON.parse(JSON.stringify(r)) as JsonObject;

// ---- the validators ----

export function validateLabelName(name: string, fldPath: string): FieldError[] {
  return isQualifiedName(name).map((msg) => invalid(fldPath, name, msg));
}

/** ValidateLabels: every key a qualified name, every value a label value; errors all at `fldPath`. */
export function validateLabels(labels: Iterable<[string, string]> | Record<string, string> | undefined, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!labels) return errs;
  const entries = Symbol.iterator in labels ? (labels as Iterable<[string, string]>) : Object.entries(labels);
  for (const [k, v] of entries) {
    errs.push(...validateLabelName(k, fldPath));
    for (const msg of isValidLabelValue(v)) errs.push(invalid(fldPath, v, msg));
  }
  return errs;
}

/** ValidateAnnotations: keys are qualified names ignoring case; keys+values at most 256 KiB. */
export function validateAnnotations(annotations: Iterable<[string, string]> | Record<string, string> | undefined, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!annotations) return errs;
  const entries = [...(Symbol.iterator in annotations ? (annotations as Iterable<[string, string]>) : Object.entries(annotations))];
  let total = 0;
  for (const [k, v] of entries) {
    for (const msg of isQualifiedName(k.toLowerCase())) errs.push(invalid(fldPath, k, msg));
    total += Buffer.byteLength(k, 'utf8') + Buffer.byteLength(v, 'utf8');
  }
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT_B) errs.push(tooLong(fldPath, '', TOTAL_ANNOTATION_SIZE_LIMIT_B));
  return errs;
}

/** schema.FromAPIVersionAndKind's version part (empty when the apiVersion does not parse). */
function versionOf(apiVersion: string): { group: string; version: string } {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '' };
  const slashes = apiVersion.split('/').length - 1;
  if (slashes === 0) return { group: '', version: apiVersion };
  if (slashes === 1) {
    const i = apiVersion.indexOf('/');
    return { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
  }
  return { group: '', version: '' };
}

function validateOwnerReference(ref: OwnerReference, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  const gv = versionOf(ref.apiVersion);
  if (gv.version === '') errs.push(invalid(`${fldPath}.apiVersion`, ref.apiVersion, 'version must not be empty'));
  if (ref.kind === '') errs.push(invalid(`${fldPath}.kind`, ref.kind, 'kind must not be empty'));
  if (ref.name === '') errs.push(invalid(`${fldPath}.name`, ref.name, 'name must not be empty'));
  if (ref.uid === '') errs.push(invalid(`${fldPath}.uid`, ref.uid, 'uid must not be empty'));
  // BannedOwners: core/v1 Event.
  if (gv.group === '' && gv.version === 'v1' && ref.kind === 'Event') {
    errs.push(invalid(fldPath, goRendered(ownerRefJson(ref), goOwnerReference(ref)), `/v1, Kind=Event is disallowed from being an owner`));
  }
  return errs;
}

/** ValidateOwnerReferences: each reference complete; at most one with controller=true. Errors are not indexed. */
function validateOwnerReferences(refs: readonly OwnerReference[], fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  let firstController = '';
  for (const ref of refs) {
    errs.push(...validateOwnerReference(ref, fldPath));
    if (ref.controller === true) {
      const current = `${ref.kind}/${ref.name}`;
      if (firstController !== '') {
        const bad = goRendered(refs.map(ownerRefJson), `[]v1.OwnerReference{${refs.map(goOwnerReference).join(', ')}}`);
        errs.push(
          invalid(fldPath, bad, `Only one reference can have Controller set to true. Found "true" in references for ${firstController} and ${current}`),
        );
      } else {
        firstController = current;
      }
    }
  }
  return errs;
}

function validateFinalizerName(name: string, fldPath: string): FieldError[] {
  return isQualifiedName(name).map((msg) => invalid(fldPath, name, msg));
}

/** ValidateFinalizers: qualified names, and not both orphan and foregroundDeletion. Duplicates are allowed. */
function validateFinalizers(finalizers: readonly string[], fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  for (const f of finalizers) errs.push(...validateFinalizerName(f, fldPath));
  if (finalizers.includes(FINALIZER_ORPHAN_DEPENDENTS) && finalizers.includes(FINALIZER_DELETE_DEPENDENTS)) {
    errs.push(
      invalid(
        fldPath,
        goRendered([...finalizers], goStringSlice(finalizers)),
        `finalizer ${FINALIZER_ORPHAN_DEPENDENTS} and ${FINALIZER_DELETE_DEPENDENTS} cannot be both set`,
      ),
    );
  }
  return errs;
}

/** The core types' extra rule (pkg/apis/core/validation validateKubeFinalizerName), per index. */
function validateCoreFinalizerNames(finalizers: readonly string[], fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  finalizers.forEach((f, i) => {
    if (!f.includes('/') && !STANDARD_FINALIZERS.has(f)) {
      errs.push(invalid(`${fldPath}[${i}]`, f, 'name is neither a standard finalizer name nor is it fully qualified'));
    }
  });
  return errs;
}

/**
 * The warnings the custom resource strategy returns for finalizers added by a create (old
 * undefined) or an update: one per IsQualifiedName problem, and one for names without a '/'
 * that are not standard. Names are visited sorted and de-duplicated (sets.String.List()).
 */
export function finalizerWarnings(newFinalizers: readonly string[], oldFinalizers?: readonly string[]): string[] {
  // Most writes have no finalizers: nothing to sort or compare.
  if (newFinalizers.length === 0) return [];
  const fldPath = 'metadata.finalizers';
  const old = new Set(oldFinalizers ?? []);
  const added = [...new Set(newFinalizers)].filter((f) => !old.has(f)).sort(compareGoStrings);
  const warnings: string[] = [];
  for (const f of added) {
    for (const msg of isQualifiedName(f)) warnings.push(`${fldPath}: ${goQuote(f)}: ${msg}`);
    if (!f.includes('/') && !STANDARD_FINALIZERS.has(f)) {
      warnings.push(
        f.includes('.')
          ? `${fldPath}: ${goQuote(f)}: prefer a domain-qualified finalizer name including a path (/) to avoid accidental conflicts with other finalizer writers`
          : `${fldPath}: ${goQuote(f)}: prefer a domain-qualified finalizer name to avoid accidental conflicts with other finalizer writers`,
      );
    }
  }
  return warnings;
}

/** Go compares strings bytewise (UTF-8); UTF-16 order differs only above the BMP. */
export function compareGoStrings(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Printable ASCII (each character one byte): what managers are named with, accepted without a test per character. */
const printableAscii = /^[\x20-\x7e]*$/;

export function validateFieldManager(manager: string, fldPath: string): FieldError[] {
  if (manager.length <= FIELD_MANAGER_MAX_LENGTH && printableAscii.test(manager)) return [];
  const errs: FieldError[] = [];
  if (Buffer.byteLength(manager, 'utf8') > FIELD_MANAGER_MAX_LENGTH) errs.push(tooLong(fldPath, '', FIELD_MANAGER_MAX_LENGTH));
  let pos = 0;
  for (const ch of manager) {
    if (!isPrintChar(ch)) {
      const code = ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0');
      errs.push(invalid(fldPath, manager, `invalid character U+${code} (at position ${pos})`));
    }
    pos += Buffer.byteLength(ch, 'utf8');
  }
  return errs;
}

/** ValidateManagedFields over metadata.managedFields as the unstructured accessor reads it. */
function validateManagedFields(managedFields: unknown, fldPath: string): FieldError[] {
  const errs: FieldError[] = [];
  if (!Array.isArray(managedFields) || !managedFields.every(isObject)) return errs;
  managedFields.forEach((entry, i) => {
    const p = `${fldPath}[${i}]`;
    const operation = str(entry, 'operation');
    if (operation !== 'Apply' && operation !== 'Update') errs.push(invalid(`${p}.operation`, operation, 'must be `Apply` or `Update`'));
    const fieldsType = str(entry, 'fieldsType');
    if (fieldsType !== '' && fieldsType !== 'FieldsV1') errs.push(invalid(`${p}.fieldsType`, fieldsType, 'must be `FieldsV1`'));
    errs.push(...validateFieldManager(str(entry, 'manager'), `${p}.manager`));
    if (Buffer.byteLength(str(entry, 'subresource'), 'utf8') > MAX_SUBRESOURCE_NAME_LENGTH) {
      errs.push(tooLong(`${p}.subresource`, '', MAX_SUBRESOURCE_NAME_LENGTH));
    }
  });
  return errs;
}

/**
 * ValidateObjectMetaAccessor: metadata on create, after name generation. Root-scoped objects
 * must have had their namespace cleared already; a namespace left on them is forbidden.
 */
export function validateObjectMeta(meta: unknown, opts: ObjectMetaOptions, fldPath = 'metadata'): FieldError[] {
  const m = asMeta(meta);
  const nameFn = nameValidatorFor(opts.nameValidator);
  const errs: FieldError[] = [];

  const generateName = str(m, 'generateName');
  if (generateName !== '') {
    for (const msg of nameFn(generateName, true)) errs.push(invalid(`${fldPath}.generateName`, generateName, msg));
  }
  const name = str(m, 'name');
  if (name === '') errs.push(required(`${fldPath}.name`, 'name or generateName is required'));
  else for (const msg of nameFn(name, false)) errs.push(invalid(`${fldPath}.name`, name, msg));

  const namespace = str(m, 'namespace');
  if (opts.namespaced) {
    if (namespace === '') errs.push(required(`${fldPath}.namespace`, ''));
    else for (const msg of validateNamespaceName(namespace, false)) errs.push(invalid(`${fldPath}.namespace`, namespace, msg));
  } else if (namespace !== '') {
    errs.push(forbidden(`${fldPath}.namespace`, 'not allowed on this type'));
  }

  const generation = int(m, 'generation') ?? 0;
  if (generation < 0) errs.push(invalid(`${fldPath}.generation`, generation, 'must be greater than or equal to 0'));
  errs.push(...validateLabels(stringMap(m, 'labels'), `${fldPath}.labels`));
  errs.push(...validateAnnotations(stringMap(m, 'annotations'), `${fldPath}.annotations`));
  errs.push(...validateOwnerReferences(ownerReferences(m), `${fldPath}.ownerReferences`));
  const finalizers = stringSlice(m, 'finalizers');
  errs.push(...validateFinalizers(finalizers, `${fldPath}.finalizers`));
  errs.push(...validateManagedFields(m.managedFields, `${fldPath}.managedFields`));
  if (opts.coreFinalizerNames) errs.push(...validateCoreFinalizerNames(finalizers, `${fldPath}.finalizers`));
  return errs;
}

function immutable(newVal: unknown, oldVal: unknown, equal: boolean, fldPath: string): FieldError[] {
  return equal ? [] : [invalid(fldPath, newVal, FIELD_IMMUTABLE_ERROR_MSG)];
}

/**
 * ValidateObjectMetaAccessorUpdate: metadata on update. Finalizer names are not re-validated
 * here (apimachinery does not), except for core types with coreFinalizerNames.
 */
export function validateObjectMetaUpdate(
  newMeta: unknown,
  oldMeta: unknown,
  fldPath = 'metadata',
  opts: { coreFinalizerNames?: boolean } = {},
): FieldError[] {
  const n = asMeta(newMeta);
  const o = asMeta(oldMeta);
  const errs: FieldError[] = [];
  const newFinalizers = stringSlice(n, 'finalizers');

  const oldDeletion = timeAt(o, 'deletionTimestamp');
  if (oldDeletion) {
    const old = new Set(stringSlice(o, 'finalizers'));
    const extra = [...new Set(newFinalizers)].filter((f) => !old.has(f)).sort(compareGoStrings);
    if (extra.length > 0) {
      errs.push(
        forbidden(
          `${fldPath}.finalizers`,
          `no new finalizers can be added if the object is being deleted, found new finalizers ${goStringSlice(extra)}`,
        ),
      );
    }
  }

  const resourceVersion = str(n, 'resourceVersion');
  if (resourceVersion === '') errs.push(invalid(`${fldPath}.resourceVersion`, resourceVersion, 'must be specified for an update'));

  const newGeneration = int(n, 'generation') ?? 0;
  if (newGeneration < (int(o, 'generation') ?? 0)) errs.push(invalid(`${fldPath}.generation`, newGeneration, 'must not be decremented'));

  for (const k of ['name', 'namespace', 'uid'] as const) {
    errs.push(...immutable(str(n, k), str(o, k), str(n, k) === str(o, k), `${fldPath}.${k}`));
  }
  // The same text is the same time (most updates carry it over): parsed and rendered only when it differs.
  if (!sameTimeText(n, o, 'creationTimestamp')) {
    const newCreated = timeAt(n, 'creationTimestamp');
    const oldCreated = timeAt(o, 'creationTimestamp');
    const createdValue = newCreated ? goTimeValue(newCreated)! : goRendered({}, goTimeString(undefined));
    errs.push(...immutable(createdValue, null, newCreated?.nanos === oldCreated?.nanos, `${fldPath}.creationTimestamp`));
  }
  if (!sameTimeText(n, o, 'deletionTimestamp')) {
    const newDeletion = timeAt(n, 'deletionTimestamp');
    errs.push(...immutable(goTimeValue(newDeletion), null, newDeletion?.nanos === oldDeletion?.nanos, `${fldPath}.deletionTimestamp`));
  }
  const newGrace = int(n, 'deletionGracePeriodSeconds');
  const oldGrace = int(o, 'deletionGracePeriodSeconds');
  errs.push(...immutable(newGrace ?? null, oldGrace ?? null, newGrace === oldGrace, `${fldPath}.deletionGracePeriodSeconds`));

  errs.push(...validateLabels(stringMap(n, 'labels'), `${fldPath}.labels`));
  errs.push(...validateAnnotations(stringMap(n, 'annotations'), `${fldPath}.annotations`));
  errs.push(...validateOwnerReferences(ownerReferences(n), `${fldPath}.ownerReferences`));
  errs.push(...validateManagedFields(n.managedFields, `${fldPath}.managedFields`));
  if (opts.coreFinalizerNames) errs.push(...validateCoreFinalizerNames(newFinalizers, `${fldPath}.finalizers`));
  return errs;
}

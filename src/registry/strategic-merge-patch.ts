// Strategic merge patch as the apiserver applies it to built-in objects
// (k8s.io/apimachinery/pkg/util/strategicpatch StrategicMergeMapPatch with MergeParallelList and
// IgnoreUnmatchedNulls), driven by a small description of the Go types' patch tags (patch-meta.ts derives
// it from a kind's declared Go struct).
import { StatusError, badRequest } from '../api/status.js';
import { patchUnprocessable, unknownServerError } from './patch.js';
import { deepCopyJSON } from '../util/json.js';

// ------------------------------------------------------------------ patch meta (the Go types' tags)

export type PatchMetaType =
  | { kind: 'struct'; name: string; fields: Record<string, PatchField> }
  | { kind: 'map'; elem: PatchMetaType }
  | { kind: 'slice'; elem: PatchMetaType }
  | { kind: 'scalar'; name: string }
  /** A Go pointer field (*T): looked through, and usable as a list of T. */
  | { kind: 'pointer'; elem: PatchMetaType }
  /** A type we do not describe: merged without strategies, like a struct with every field untagged. */
  | { kind: 'any' };

export interface PatchField {
  type: PatchMetaType;
  /** The patchStrategy tag: "merge", "replace", "retainKeys" or "merge,retainKeys". */
  patchStrategy?: string;
  patchMergeKey?: string;
}

export const anyType: PatchMetaType = { kind: 'any' };
// ------------------------------------------------------------------ errors

class SmpError extends Error {
  constructor(
    message: string,
    readonly kind: 'badRequest' | 'unprocessable' | 'server' = 'server',
  ) {
    super(message);
  }
}

const ErrBadPatchFormatForPrimitiveList = (): SmpError => new SmpError('invalid patch format of primitive list', 'badRequest');
const ErrBadPatchFormatForRetainKeys = (): SmpError => new SmpError('invalid patch format of retainKeys', 'badRequest');
const ErrBadPatchFormatForSetElementOrderList = (): SmpError => new SmpError('invalid patch format of setElementOrder list', 'badRequest');
const ErrNoListOfLists = (): SmpError => new SmpError('lists of lists are not supported', 'unprocessable');

type Json = unknown;
type JsonMap = Record<string, Json>;
const isMap = (v: Json): v is JsonMap => typeof v === 'object' && v !== null && !Array.isArray(v);
const has = (m: JsonMap, k: string): boolean => Object.prototype.hasOwnProperty.call(m, k);

/** The Go dynamic type of a decoded JSON value (integers decode as int64, other numbers as float64). */
function goType(v: Json): string {
  if (v === null || v === undefined) return 'nil';
  if (Array.isArray(v)) return '[]interface {}';
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'bool';
    case 'number':
      return Number.isSafeInteger(v) ? 'int64' : 'float64'; // beyond, integer literals are bigints
    case 'bigint':
      return 'int64';
    default:
      return 'map[string]interface {}';
  }
}

/** Go's interface ==: same dynamic type and value (maps and slices never reach here as keys). */
const goEqual = (a: Json, b: Json): boolean => goType(a) === goType(b) && a === b;

/** Go's %v for a float64: %g with the shortest representation, exponent when < -4 or >= 21. */
function goFloat(n: number): string {
  if (n === 0) return Object.is(n, -0) ? '-0' : '0';
  const exp = Math.floor(Math.log10(Math.abs(n)));
  if (exp < -4 || exp >= 21) {
    const [mant, e] = n.toExponential().split('e') as [string, string];
    const sign = e.startsWith('-') ? '-' : '+';
    return `${mant}e${sign}${e.replace(/^[+-]/, '').padStart(2, '0')}`;
  }
  return String(n);
}

/** fmt's %v of a decoded JSON value: `map[a:1 b:[x y]]`. */
export function goV(v: Json): string {
  if (v === null || v === undefined) return '<nil>';
  if (Array.isArray(v)) return `[${v.map(goV).join(' ')}]`;
  switch (typeof v) {
    case 'string':
      return v;
    case 'boolean':
      return String(v);
    case 'number':
      return Number.isSafeInteger(v) ? String(v) : goFloat(v);
    case 'bigint':
      return String(v);
    default:
      return `map[${Object.keys(v as JsonMap)
        .sort()
        .map((k) => `${k}:${goV((v as JsonMap)[k])}`)
        .join(' ')}]`;
  }
}

/** mergepatch.ErrBadArgType: reflect type names, `%!s(<nil>)` for nil. */
const errBadArgType = (expected: string, actual: Json): SmpError =>
  new SmpError(`expected a ${expected}, but received a ${actual === null || actual === undefined ? '%!s(<nil>)' : goType(actual)}`);
const errNoMergeKey = (m: JsonMap, k: string): SmpError => new SmpError(`map: ${goV(m)} does not contain declared merge key: ${k}`);
const errBadPatchType = (t: Json, m: JsonMap): SmpError =>
  new SmpError(`unknown patch type: ${typeof t === 'string' ? t : `%!s(${goType(t)}=${goV(t)})`} in map: ${goV(m)}`);

// ------------------------------------------------------------------ schema lookups

const kindName = (t: PatchMetaType): string =>
  t.kind === 'any' ? 'struct' : t.kind === 'scalar' ? t.name : t.kind === 'pointer' ? 'ptr' : t.kind;

interface Lookup {
  schema: PatchMetaType;
  strategies: string[];
  mergeKey: string;
}

function lookupForStruct(schema: PatchMetaType, key: string): Lookup {
  if (schema.kind === 'pointer') return lookupForStruct(schema.elem, key);
  if (schema.kind === 'any') return { schema: anyType, strategies: [''], mergeKey: '' };
  if (schema.kind !== 'struct') throw new SmpError(`merging an object in json but data type is not struct, instead is: ${kindName(schema)}`);
  // The JSON field name match falls back to a case-insensitive one, as encoding/json's does.
  let f = has(schema.fields, key) ? schema.fields[key] : undefined;
  if (!f) {
    const folded = Object.keys(schema.fields).find((k) => k.toLowerCase() === key.toLowerCase());
    f = folded === undefined ? undefined : schema.fields[folded];
  }
  // Stored objects may carry fields the Go type would have dropped; merge those without strategy.
  if (!f) return { schema: anyType, strategies: [''], mergeKey: '' };
  return { schema: f.type, strategies: (f.patchStrategy ?? '').split(','), mergeKey: f.patchMergeKey ?? '' };
}

function lookupForSlice(schema: PatchMetaType, key: string): Lookup {
  const l = lookupForStruct(schema, key);
  const t = l.schema;
  if (t.kind === 'any') return l;
  if (t.kind === 'pointer') {
    // A pointer is taken as a list of what it points to (or of that list's elements).
    return { ...l, schema: t.elem.kind === 'slice' ? t.elem.elem : t.elem };
  }
  if (t.kind !== 'slice') throw new SmpError(`expected slice or array type, but got: ${kindName(schema)}`);
  if (t.elem.kind === 'slice') throw new SmpError('unexpected slice of slice');
  return { ...l, schema: t.elem };
}

/** extractRetainKeysPatchStrategy: the strategy other than retainKeys. */
function otherStrategy(strategies: string[]): string {
  switch (strategies.length) {
    case 0:
      return '';
    case 1:
      return strategies[0] === 'retainKeys' ? '' : strategies[0]!;
    case 2:
      if (strategies[0] === 'retainKeys') return strategies[1]!;
      if (strategies[1] === 'retainKeys') return strategies[0]!;
  }
  throw new SmpError(`unexpected patch strategy: [${strategies.join(' ')}]`);
}

// ------------------------------------------------------------------ Go's sort.SliceStable

function sliceStable<T>(data: T[], less: (i: number, j: number) => boolean): void {
  const swap = (i: number, j: number): void => {
    const t = data[i]!;
    data[i] = data[j]!;
    data[j] = t;
  };
  const insertionSort = (a: number, b: number): void => {
    for (let i = a + 1; i < b; i++) for (let j = i; j > a && less(j, j - 1); j--) swap(j, j - 1);
  };
  const swapRange = (a: number, b: number, n: number): void => {
    for (let i = 0; i < n; i++) swap(a + i, b + i);
  };
  const rotate = (a: number, m: number, b: number): void => {
    let i = m - a;
    let j = b - m;
    while (i !== j) {
      if (i > j) {
        swapRange(m - i, m, j);
        i -= j;
      } else {
        swapRange(m - i, m + j - i, i);
        j -= i;
      }
    }
    swapRange(m - i, m, i);
  };
  const symMerge = (a: number, m: number, b: number): void => {
    if (m - a === 1) {
      let i = m;
      let j = b;
      while (i < j) {
        const h = (i + j) >>> 1;
        if (less(h, a)) i = h + 1;
        else j = h;
      }
      for (let k = a; k < i - 1; k++) swap(k, k + 1);
      return;
    }
    if (b - m === 1) {
      let i = a;
      let j = m;
      while (i < j) {
        const h = (i + j) >>> 1;
        if (!less(m, h)) i = h + 1;
        else j = h;
      }
      for (let k = m; k > i; k--) swap(k, k - 1);
      return;
    }
    const mid = (a + b) >>> 1;
    const n = mid + m;
    let start: number;
    let r: number;
    if (m > mid) {
      start = n - b;
      r = mid;
    } else {
      start = a;
      r = m;
    }
    const p = n - 1;
    while (start < r) {
      const c = (start + r) >>> 1;
      if (!less(p - c, c)) start = c + 1;
      else r = c;
    }
    const end = n - start;
    if (start < m && m < end) rotate(start, m, end);
    if (a < start && start < mid) symMerge(a, start, mid);
    if (mid < end && end < b) symMerge(mid, end, b);
  };

  const n = data.length;
  let blockSize = 20;
  let a = 0;
  let b = blockSize;
  while (b <= n) {
    insertionSort(a, b);
    a = b;
    b += blockSize;
  }
  insertionSort(a, n);
  while (blockSize < n) {
    a = 0;
    b = 2 * blockSize;
    while (b <= n) {
      symMerge(a, a + blockSize, b);
      a = b;
      b += 2 * blockSize;
    }
    const m = a + blockSize;
    if (m < n) symMerge(a, m, n);
    blockSize *= 2;
  }
}

// ------------------------------------------------------------------ the merge (patch.go)

const DIRECTIVE = '$patch';
const RETAIN_KEYS = '$retainKeys';
const DELETE_FROM_PRIMITIVE_LIST = '$deleteFromPrimitiveList';
const SET_ELEMENT_ORDER = '$setElementOrder';

type Kind = 'map' | 'other';

function index(l: Json[], v: Json, mergeKey: string, kind: Kind): number {
  const key = (item: Json): Json => (kind === 'map' ? (isMap(item) ? item[mergeKey] : null) : item);
  const want = key(v);
  return l.findIndex((x) => goEqual(key(x), want));
}

function validateMergeKeyInLists(mergeKey: string, ...lists: Json[][]): void {
  for (const list of lists) {
    for (const item of list) {
      if (!isMap(item)) throw errBadArgType('map[string]interface {}', item);
      if (!has(item, mergeKey)) throw errNoMergeKey(item, mergeKey);
    }
  }
}

function extractToDeleteItems(l: Json[]): [Json[], Json[]] {
  const keep: Json[] = [];
  const del: Json[] = [];
  for (const v of l) {
    if (!isMap(v)) throw errBadArgType('map[string]interface {}', v);
    if (has(v, DIRECTIVE) && v[DIRECTIVE] === 'delete') del.push(v);
    else keep.push(v);
  }
  return [keep, del];
}

function normalizeSliceOrder(toSort: Json[], order: Json[], mergeKey: string, kind: Kind): Json[] {
  let items = [...toSort];
  let toDelete: Json[] = [];
  if (kind === 'map') {
    validateMergeKeyInLists(mergeKey, items, order);
    [items, toDelete] = extractToDeleteItems(items);
  }
  // Go's comparator answers true whenever either item is unordered; the algorithm's exact steps matter.
  sliceStable(items, (i, j) => {
    const ii = index(order, items[i], mergeKey, kind);
    if (ii >= 0) {
      const ij = index(order, items[j], mergeKey, kind);
      if (ij >= 0) return ii < ij;
    }
    return true;
  });
  return [...items, ...toDelete];
}

function mergeSortedSlice(left: Json[], right: Json[], serverOrder: Json[], mergeKey: string, kind: Kind): Json[] {
  const out: Json[] = [];
  let i = 0;
  let j = 0;
  const size = left.length + right.length;
  for (let k = 0; k < size; k++) {
    if (i >= left.length && j < right.length) out.push(right[j++]);
    else if (j >= right.length && i < left.length) out.push(left[i++]);
    else {
      const li = index(serverOrder, left[i], mergeKey, kind);
      const ri = index(serverOrder, right[j], mergeKey, kind);
      if (li >= 0 && ri >= 0 && li < ri) out.push(left[i++]);
      else out.push(right[j++]);
    }
  }
  return out;
}

function normalizeElementOrder(patch: Json[], serverOnly: Json[], patchOrder: Json[], serverOrder: Json[], mergeKey: string, kind: Kind): Json[] {
  const p = normalizeSliceOrder(patch, patchOrder, mergeKey, kind);
  const s = normalizeSliceOrder(serverOnly, serverOrder, mergeKey, kind);
  return mergeSortedSlice(s, p, serverOrder, mergeKey, kind);
}

/** sliceElementType: all elements of one Go type, and not lists. */
function sliceElementType(...slices: Json[][]): string {
  let prev: string | undefined;
  for (const s of slices) {
    for (const v of s) {
      const t = goType(v);
      if (prev === undefined) {
        prev = t;
        if (t === '[]interface {}') throw ErrNoListOfLists();
      } else if (prev !== t) {
        throw new SmpError(`list element types are not identical: ${goV(slices)}`);
      }
    }
  }
  if (prev === undefined) throw new SmpError('no elements in any of the given slices');
  return prev;
}

const kindOf = (t: string): Kind => (t === 'map[string]interface {}' ? 'map' : 'other');

function findMapInSlice(m: Json[], key: string, value: Json): { map: JsonMap; index: number } | undefined {
  for (let k = 0; k < m.length; k++) {
    const v = m[k];
    if (!isMap(v)) throw new SmpError(`value for key ${k} is not a map`);
    if (has(v, key) && goEqual(v[key], value)) return { map: v, index: k };
  }
  return undefined;
}

function partitionPrimitives(original: Json[], partitionBy: Json[]): [Json[], Json[]] {
  const inPatch = (v: Json): boolean => partitionBy.some((p) => goEqual(p, v));
  return [original.filter(inPatch), original.filter((v) => !inPatch(v))];
}

function partitionMaps(original: Json[], partitionBy: Json[], mergeKey: string): [Json[], Json[]] {
  const patch: Json[] = [];
  const serverOnly: Json[] = [];
  for (const v of original) {
    if (!isMap(v)) throw errBadArgType('map[string]interface {}', v);
    if (!has(v, mergeKey)) throw errNoMergeKey(v, mergeKey);
    if (findMapInSlice(partitionBy, mergeKey, v[mergeKey])) patch.push(v);
    else serverOnly.push(v);
  }
  return [patch, serverOnly];
}

/** removeDirectives: maps carrying $patch vanish; other directive keys are left alone. */
function removeDirectives(obj: Json): { value: Json; keep: boolean } {
  if (isMap(obj)) {
    if (has(obj, DIRECTIVE)) return { value: null, keep: false };
    for (const k of Object.keys(obj)) {
      const r = removeDirectives(obj[k]);
      if (r.keep) obj[k] = r.value;
      else delete obj[k];
    }
    return { value: obj, keep: true };
  }
  if (Array.isArray(obj)) {
    const out: Json[] = [];
    for (const v of obj) {
      const r = removeDirectives(v);
      if (r.keep) out.push(r.value);
    }
    return { value: out, keep: true };
  }
  return { value: obj, keep: true };
}

function discardNullValuesFromPatch(v: Json): void {
  if (isMap(v)) {
    for (const k of Object.keys(v)) {
      if (v[k] === null) delete v[k];
      else discardNullValuesFromPatch(v[k]);
    }
  } else if (Array.isArray(v)) {
    for (const x of v) discardNullValuesFromPatch(x);
  }
}

function extractKey(s: string, prefix: string): string {
  const slash = s.indexOf('/');
  if (slash === -1 || s.slice(0, slash) !== prefix) {
    if (prefix === DELETE_FROM_PRIMITIVE_LIST) throw ErrBadPatchFormatForPrimitiveList();
    throw ErrBadPatchFormatForSetElementOrderList();
  }
  return s.slice(slash + 1);
}

function mergeKeyValueEqual(left: Json, right: Json, mergeKey: string): boolean {
  if (mergeKey === '') return goEqual(left, right);
  if (!isMap(left)) throw errBadArgType('map[string]interface {}', left);
  if (!isMap(right)) throw errBadArgType('map[string]interface {}', right);
  if (!has(left, mergeKey)) throw errNoMergeKey(left, mergeKey);
  if (!has(right, mergeKey)) throw errNoMergeKey(right, mergeKey);
  return goEqual(left[mergeKey], right[mergeKey]);
}

function validatePatchWithSetOrderList(patchList: Json, setOrderList: Json, mergeKey: string): void {
  if (!Array.isArray(setOrderList) || !Array.isArray(patchList)) throw ErrBadPatchFormatForSetElementOrderList();
  if (setOrderList.length === 0 || patchList.length === 0) return;
  const nonDelete = mergeKey ? extractToDeleteItems(patchList)[0] : patchList;
  let pi = 0;
  let si = 0;
  while (pi < nonDelete.length && si < setOrderList.length) {
    if (isMap(nonDelete[pi]) && has(nonDelete[pi] as JsonMap, DIRECTIVE)) {
      pi++;
      continue;
    }
    if (mergeKeyValueEqual(nonDelete[pi], setOrderList[si], mergeKey)) pi++;
    si++;
  }
  if (pi < nonDelete.length && si >= setOrderList.length) {
    throw new SmpError(`The order in patch list:\n${goV(patchList)}\n doesn't match ${SET_ELEMENT_ORDER} list:\n${goV(setOrderList)}\n`);
  }
}

function applyRetainKeysDirective(original: JsonMap, patch: JsonMap): void {
  if (!has(patch, RETAIN_KEYS)) return;
  const list = patch[RETAIN_KEYS];
  delete patch[RETAIN_KEYS];
  if (!Array.isArray(list)) throw ErrBadPatchFormatForRetainKeys();
  const retained = (k: string): boolean => list.some((v) => goEqual(v, k));
  for (const [k, v] of Object.entries(patch)) {
    if (v === null || k.startsWith(DELETE_FROM_PRIMITIVE_LIST) || k.startsWith(SET_ELEMENT_ORDER)) continue;
    if (!retained(k)) throw ErrBadPatchFormatForRetainKeys();
  }
  for (const k of Object.keys(original)) if (!retained(k)) delete original[k];
}

function mergePatchIntoOriginal(original: JsonMap, patch: JsonMap, schema: PatchMetaType): void {
  for (const key of Object.keys(patch)) {
    if (!key.startsWith(SET_ELEMENT_ORDER) || !has(patch, key)) continue;
    const order = patch[key];
    delete patch[key];
    if (!Array.isArray(order)) throw errBadArgType('[]interface {}', order);
    const originalKey = extractKey(key, SET_ELEMENT_ORDER);
    const foundOriginal = has(original, originalKey);
    const foundPatch = has(patch, originalKey);
    let originalList: Json[] = [];
    let patchList: Json[] = [];
    if (foundOriginal) {
      const v = original[originalKey];
      if (!Array.isArray(v)) throw errBadArgType('[]interface {}', v);
      originalList = v;
    }
    if (foundPatch) {
      const v = patch[originalKey];
      if (!Array.isArray(v)) throw errBadArgType('[]interface {}', v);
      patchList = v;
    }
    const l = lookupForSlice(schema, originalKey);
    const strategy = otherStrategy(l.strategies);
    validatePatchWithSetOrderList(patchList, order, l.mergeKey);

    let merged: Json[];
    if (foundOriginal && !foundPatch) merged = originalList;
    else if (!foundOriginal && foundPatch) merged = removeDirectives(patchList).value as Json[];
    else if (foundOriginal && foundPatch) merged = mergeSliceHandler(originalList, patchList, l.schema, strategy, l.mergeKey, false);
    else continue;

    const [patchItems, serverOnly] = l.mergeKey === '' ? partitionPrimitives(merged, order) : partitionMaps(merged, order, l.mergeKey);
    const kind = kindOf(sliceElementType(originalList, patchList));
    original[originalKey] = normalizeElementOrder(patchItems, serverOnly, order, originalList, l.mergeKey, kind);
    delete patch[originalKey];
  }
}

function mergeMap(original: JsonMap | null, patch: JsonMap, schema: PatchMetaType): JsonMap {
  if (has(patch, DIRECTIVE)) {
    const directive = patch[DIRECTIVE];
    if (directive === 'replace') {
      delete patch[DIRECTIVE];
      return patch;
    }
    if (directive === 'delete') return {};
    throw errBadPatchType(directive, patch);
  }
  const orig = original ?? {};
  applyRetainKeysDirective(orig, patch);
  mergePatchIntoOriginal(orig, patch, schema);

  for (const rawKey of Object.keys(patch)) {
    if (!has(patch, rawKey)) continue;
    const patchV = patch[rawKey];
    let k = rawKey;
    let isDeleteList = false;
    if (rawKey.startsWith(DELETE_FROM_PRIMITIVE_LIST)) {
      k = extractKey(rawKey, DELETE_FROM_PRIMITIVE_LIST);
      isDeleteList = true;
    }
    if (patchV === null) {
      delete orig[k];
      continue; // IgnoreUnmatchedNulls
    }
    const replaceWithPatch = (): void => {
      if (isDeleteList) return;
      discardNullValuesFromPatch(patchV);
      const r = removeDirectives(patchV);
      if (r.keep) orig[k] = r.value;
      else delete orig[k];
    };
    if (!has(orig, k) || goType(orig[k]) !== goType(patchV)) {
      replaceWithPatch();
      continue;
    }
    const current = orig[k];
    if (isMap(current)) {
      const l = lookupForStruct(schema, k);
      const strategy = otherStrategy(l.strategies);
      orig[k] = strategy !== 'replace' ? mergeMap(current, patchV as JsonMap, l.schema) : patchV;
    } else if (Array.isArray(current)) {
      const l = lookupForSlice(schema, k);
      const strategy = otherStrategy(l.strategies);
      orig[k] = mergeSliceHandler(current, patchV as Json[], l.schema, strategy, l.mergeKey, isDeleteList);
    } else {
      const r = removeDirectives(patchV);
      if (r.keep) orig[k] = r.value;
      else delete orig[k];
    }
  }
  return orig;
}

function mergeSliceHandler(original: Json[], patch: Json[], schema: PatchMetaType, strategy: string, mergeKey: string, isDeleteList: boolean): Json[] {
  if (strategy === 'merge' || isDeleteList) return mergeSlice(original, patch, schema, mergeKey, isDeleteList);
  return patch;
}

/** deduplicateScalars: Go's in-place dedupe, which moves the last element into each duplicate's slot. */
function deduplicateScalars(s: Json[]): Json[] {
  const out = [...s];
  let length = out.length - 1;
  for (let i = 0; i < length; i++) {
    for (let j = i + 1; j <= length; j++) {
      if (goEqual(out[i], out[j])) {
        out[j] = out[length];
        out.length = length;
        length--;
        j--;
      }
    }
  }
  return out;
}

function mergeSlice(original: Json[], patch: Json[], schema: PatchMetaType, mergeKey: string, isDeleteList: boolean): Json[] {
  if (original.length === 0 && patch.length === 0) return original;
  const kind = kindOf(sliceElementType(original, patch));
  let merged: Json[];
  let orig = original;
  let p = patch;
  if (kind !== 'map') {
    if (isDeleteList) return original.filter((v) => !patch.some((d) => goEqual(d, v)));
    merged = deduplicateScalars([...original, ...patch]);
  } else {
    if (mergeKey === '') throw new SmpError(`cannot merge lists without merge key for ${kindName(schema)}`);
    [orig, p] = mergeSliceWithSpecialElements(orig, p, mergeKey);
    merged = mergeSliceWithoutSpecialElements(orig, p, mergeKey, schema);
  }
  const [patchItems, serverOnly] = mergeKey === '' ? partitionPrimitives(merged, p) : partitionMaps(merged, p, mergeKey);
  return normalizeElementOrder(patchItems, serverOnly, p, orig, mergeKey, kind);
}

function mergeSliceWithSpecialElements(original: Json[], patch: Json[], mergeKey: string): [Json[], Json[]] {
  const plain: Json[] = [];
  let replace = false;
  let orig = original;
  for (const v of patch) {
    const m = v as JsonMap;
    if (!has(m, DIRECTIVE)) {
      plain.push(v);
      continue;
    }
    switch (m[DIRECTIVE]) {
      case 'delete':
        if (!has(m, mergeKey)) throw errNoMergeKey(m, mergeKey);
        orig = orig.filter((x) => !(isMap(x) && has(x, mergeKey) && goEqual(x[mergeKey], m[mergeKey])));
        // findMapInSliceBasedOnKeyValue still insists every element be a map.
        findMapInSlice(orig, mergeKey, m[mergeKey]);
        break;
      case 'replace':
        replace = true; // keep scanning: other $patch elements are pruned too
        break;
      case 'merge':
        throw new SmpError('merging lists cannot yet be specified in the patch');
      default:
        throw errBadPatchType(m[DIRECTIVE], m);
    }
  }
  return replace ? [plain, []] : [orig, plain];
}

function mergeSliceWithoutSpecialElements(original: Json[], patch: Json[], mergeKey: string, schema: PatchMetaType): Json[] {
  // Elements merged in place show through to the caller's view of original; appended ones do not.
  const out = original;
  const appended: Json[] = [];
  for (const v of patch) {
    const m = v as JsonMap;
    if (!has(m, mergeKey)) throw errNoMergeKey(m, mergeKey);
    const found = findMapInSlice([...out, ...appended], mergeKey, m[mergeKey]);
    if (!found) {
      appended.push(v);
      continue;
    }
    const merged = mergeMap(found.map, m, schema);
    if (found.index < out.length) out[found.index] = merged;
    else appended[found.index - out.length] = merged;
  }
  return [...out, ...appended];
}

// ------------------------------------------------------------------ entry point

/**
 * Apply a strategic merge patch to a built-in object (both plain JSON; neither is modified).
 * Returns the patched object or the StatusError the apiserver answers: 400 for malformed
 * directives, the generic 422 for lists of lists, a reason-less 500 for other Go errors.
 */
export function applyStrategicMergePatch(original: Record<string, unknown>, patch: Record<string, unknown>, schema: PatchMetaType): Record<string, unknown> | StatusError {
  try {
    return mergeMap(deepCopyJSON(original), deepCopyJSON(patch), schema);
  } catch (e) {
    if (!(e instanceof SmpError)) throw e;
    if (e.kind === 'badRequest') return badRequest(e.message);
    if (e.kind === 'unprocessable') return patchUnprocessable(e.message);
    return unknownServerError(e.message);
  }
}

/** What a strategic merge patch of a custom resource gets, had it passed the content-type check. */
export const strategicMergePatchUnsupported = (): StatusError => badRequest('strategic merge patch format is not supported');

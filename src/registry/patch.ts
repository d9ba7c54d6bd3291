// PATCH bodies as kube-apiserver 1.33 takes them (k8s.io/apiserver/pkg/endpoints/handlers/patch.go):
// content-type selection, decoding with the default fieldValidation=Warn strictness, JSON merge
// patch as gopkg.in/evanphx/json-patch.v4 MergePatch does it, and JSON patch with the v4 Apply
// semantics (lazy raw values, negative indices, replace-adds-missing-keys, copy size limit).
import { isYamlParseError, parseKubeYaml } from '../util/yaml.js';
import { type Status, StatusError, badRequest, requestEntityTooLarge, unsupportedMediaType } from '../api/status.js';
import { type GoType, GoJsonError, RawJson, goAny, goJsonCompact, goJsonMarshal, goMap, goString, goUnmarshal, parseJsonText, rawShape } from '../util/go-json.js';
import { parseJSON, stringifyJSON } from '../util/json-int64.js';
import { jsonDepthOffset, yamlDepthExceeds, yamlMaxDepthMessage } from '../util/json-depth.js';
import { deepCopyJSON } from '../util/json.js';

export const JSON_PATCH = 'application/json-patch+json';
export const MERGE_PATCH = 'application/merge-patch+json';
export const STRATEGIC_MERGE_PATCH = 'application/strategic-merge-patch+json';
export const APPLY_PATCH = 'application/apply-patch+yaml';

export type PatchType = typeof JSON_PATCH | typeof MERGE_PATCH | typeof STRATEGIC_MERGE_PATCH | typeof APPLY_PATCH;

/** What the CRD handler accepts (apply-patch+cbor only with the alpha CBOR gate). */
export const CUSTOM_RESOURCE_PATCH_TYPES: readonly PatchType[] = [JSON_PATCH, MERGE_PATCH, APPLY_PATCH];
/** What the generic installer accepts for built-in resources. */
export const BUILT_IN_PATCH_TYPES: readonly PatchType[] = [JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH, APPLY_PATCH];

const MAX_JSON_PATCH_OPERATIONS = 10000;
/** genericapiserver's JSONPatchMaxCopyBytes, installed as json-patch's AccumulatedCopySizeLimit. */
const JSON_PATCH_MAX_COPY_BYTES = 3 * 1024 * 1024;

export type FieldValidation = 'Ignore' | 'Warn' | 'Strict';

function statusError(code: number, reason: string | undefined, message: string, details?: Status['details'], cause?: string): StatusError {
  const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code };
  if (reason) status.reason = reason;
  if (details) status.details = details;
  const err = new StatusError(status);
  if (cause !== undefined) err.cause = cause;
  return err;
}

/**
 * errors.NewGenericServerResponse(422, ...): how a failing JSON patch (or a lists-of-lists
 * strategic patch) is answered. Go's own error text is not in the response; it is kept as `cause`.
 */
export const patchUnprocessable = (cause: string): StatusError =>
  statusError(422, 'Invalid', 'the server rejected our request due to an error in our request', {}, cause);

/** A Go error that is not an API status: the apiserver answers 500 with no reason and the error text. */
export const unknownServerError = (message: string): StatusError => statusError(500, undefined, message);

/**
 * The 422 for a patched object that does not decode or has strict-decoding problems under
 * fieldValidation=Strict: errors.NewInvalid(schema.GroupKind{}, "", [patch: Invalid value: ...]).
 */
export function patchInvalid(patchedValue: string, detail: string): StatusError {
  const body = `Invalid value: ${stringifyJSON(patchedValue)}: ${detail}`;
  return statusError(422, 'Invalid', ` "" is invalid: patch: ${body}`, {
    causes: [{ reason: 'FieldValueInvalid', message: body, field: 'patch' }],
  });
}

/** runtime.NewStrictDecodingError(errs).Error(). */
export const strictDecodingMessage = (errs: readonly string[]): string => `strict decoding error: ${errs.join(', ')}`;

// ------------------------------------------------------------------ content type

interface ContentTypeOptions {
  /** The patch types this resource accepts, in the order the 415 message lists them. */
  supported: readonly string[];
  /**
   * Built-in resources sit behind go-restful, whose route matching answers an unmatched
   * Content-Type first, with its own message.
   */
  builtIn?: boolean;
  /** Whether the request carries a body (go-restful words an empty-bodied mismatch differently). */
  hasBody?: boolean;
}

// go-restful's Route.matchesContentType: comma-separated, parameters dropped, trimmed.
function restfulMatches(contentType: string, consumes: readonly string[]): boolean {
  const header = contentType === '' ? 'application/octet-stream' : contentType;
  return header.split(',').some((part) => {
    const semi = part.indexOf(';');
    const t = (semi === -1 ? part : part.slice(0, semi)).trim();
    return consumes.includes('*/*') || consumes.includes(t);
  });
}

/** The patch type a PATCH request's Content-Type selects, or the 415 the apiserver answers. */
export function patchTypeFor(contentType: string | undefined, opts: ContentTypeOptions): PatchType | StatusError {
  let ct = contentType ?? '';
  if (opts.builtIn && !restfulMatches(ct, opts.supported)) {
    // serviceErrorHandler wraps go-restful's text in NewGenericServerResponse(415, ...).
    const message = opts.hasBody === false ? '415: Unsupported Media Type\n\nAvailable representations: ' : '415: Unsupported Media Type';
    return statusError(415, 'UnsupportedMediaType', message, {});
  }
  // PatchResource drops "; charset=..." only when ';' is not the first character, and trims nothing.
  const idx = ct.indexOf(';');
  if (idx > 0) ct = ct.slice(0, idx);
  if (!opts.supported.includes(ct)) return unsupportedMediaType(opts.supported);
  return ct as PatchType;
}

// ------------------------------------------------------------------ decoding

/** One JSON-patch operation as json-patch keeps it: each member raw (json.RawMessage), null as null. */
type JsonPatchOperation = Record<string, RawJson | null> | null;

export type DecodedPatch =
  | { type: typeof JSON_PATCH; operations: JsonPatchOperation[]; strictErrors: string[] }
  | { type: typeof MERGE_PATCH; patch: unknown; strictErrors: string[] }
  | { type: typeof STRATEGIC_MERGE_PATCH; patch: Record<string, unknown>; strictErrors: string[] }
  | { type: typeof APPLY_PATCH; patch: Record<string, unknown>; strictErrors: string[] };

// handlers.jsonPatchOp, the strict decoding target.
const jsonPatchOp: GoType = {
  kind: 'struct',
  name: 'handlers.jsonPatchOp',
  short: 'jsonPatchOp',
  fields: { op: goString, path: goString, from: goString, value: goAny },
};
const jsonPatchOps: GoType = { kind: 'slice', name: '[]handlers.jsonPatchOp', elem: jsonPatchOp };
// jsonpatch.Patch = []jsonpatch.Operation = []map[string]*json.RawMessage
const jsonpatchPatch: GoType = { kind: 'slice', name: 'jsonpatch.Patch', elem: { kind: 'rawMap', name: 'jsonpatch.Operation' } };

const goMessage = (e: unknown): string => (e instanceof Error ? e.message : String(e));

const strictOf = (fv: FieldValidation): boolean => fv === 'Warn' || fv === 'Strict';

/**
 * Decode a PATCH body the way the handler does before applying it. Call it once the current
 * object has been read (the apiserver answers 404 before looking at the body). Strict-decoding
 * problems come back in strictErrors: warnings under Warn, a 422 (see patchInvalid) under Strict.
 */
export function decodePatch(type: PatchType, body: Uint8Array | string, fieldValidation: FieldValidation = 'Warn'): DecodedPatch | StatusError {
  switch (type) {
    case JSON_PATCH:
      return decodeJsonPatch(body, fieldValidation);
    case MERGE_PATCH:
      return decodeMergePatch(body, fieldValidation);
    case STRATEGIC_MERGE_PATCH:
      return decodeStrategicPatch(body, fieldValidation);
    case APPLY_PATCH:
      return decodeApplyPatch(body);
  }
}

function decodeJsonPatch(body: Uint8Array | string, fv: FieldValidation): DecodedPatch | StatusError {
  let strictErrors: string[] = [];
  if (strictOf(fv)) {
    try {
      strictErrors = goUnmarshal(body, jsonPatchOps, { strict: true, float64Range: true }).strictErrors.map((e) => `json patch ${e}`);
    } catch (e) {
      return badRequest(`error decoding patch: ${goMessage(e)}`);
    }
  }
  let operations: JsonPatchOperation[];
  try {
    operations = (goUnmarshal(body, jsonpatchPatch).value as JsonPatchOperation[] | null) ?? [];
  } catch (e) {
    return badRequest(goMessage(e));
  }
  if (operations.length > MAX_JSON_PATCH_OPERATIONS) {
    return requestEntityTooLarge(
      `Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${operations.length}`,
    );
  }
  return { type: JSON_PATCH, operations, strictErrors };
}

function decodeMergePatch(body: Uint8Array | string, fv: FieldValidation): DecodedPatch | StatusError {
  if (strictOf(fv)) {
    // The strict check decodes the patch as a map: when it takes it, that map is the patch MergePatch decodes
    // (the same values; test/meta/merge-patch-decode.test.ts), so the body is not decoded twice.
    try {
      const { value, strictErrors } = goUnmarshal(body, goMap, { strict: true, float64Range: true });
      return { type: MERGE_PATCH, patch: value, strictErrors };
    } catch (e) {
      return badRequest(`error decoding patch: ${goMessage(e)}`);
    }
  }
  let patch: unknown;
  try {
    patch = goUnmarshal(body, goAny).value;
  } catch (e) {
    // MergePatch answers any syntax error with ErrBadJSONPatch.
    if (e instanceof GoJsonError) return badRequest('Invalid JSON Patch');
    throw e;
  }
  return { type: MERGE_PATCH, patch, strictErrors: [] };
}

function decodeStrategicPatch(body: Uint8Array | string, fv: FieldValidation): DecodedPatch | StatusError {
  try {
    const { value, strictErrors } = goUnmarshal(body, goMap, { strict: strictOf(fv), float64Range: true });
    return { type: STRATEGIC_MERGE_PATCH, patch: (value as Record<string, unknown> | null) ?? {}, strictErrors };
  } catch (e) {
    return badRequest(goMessage(e));
  }
}

/** Characters YAML does not allow in a document (non-printable) that JSON takes raw inside strings, and BOMs. */
const NOT_YAML_PRINTABLE = /[\u007f-\u0084\u0086-\u009f\ufeff\ufffe\uffff]/;

/** Numbers YAML reads as JSON does: finite, and not -0 (goyaml reads `-0` as the integer 0). */
function allFinite(v: unknown): boolean {
  // An explicit stack: apply bodies may nest 10,000 deep.
  const todo: unknown[] = [v];
  while (todo.length > 0) {
    const x = todo.pop();
    if (typeof x === 'number') {
      if (!Number.isFinite(x) || Object.is(x, -0)) return false;
    } else if (Array.isArray(x)) todo.push(...x);
    else if (typeof x === 'object' && x !== null) for (const k in x) todo.push((x as Record<string, unknown>)[k]);
  }
  return true;
}

/**
 * Most apply bodies are JSON (client-go and kubectl send JSON under the YAML content type), and a JSON object
 * reads in YAML as JSON.parse reads it: JSON's escapes are YAML's, quoted scalars stay strings, numbers come
 * out the same doubles, a repeated key wins in both. JSON.parse costs a small fraction of the YAML parser, so
 * it goes first; what it refuses, or might read differently (characters YAML refuses, numbers out of range),
 * is left to the YAML parser.
 */
function parseJsonObject(text: string): Record<string, unknown> | undefined {
  let i = 0;
  for (let c = text.charCodeAt(0); c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d; c = text.charCodeAt(++i));
  if (text.charCodeAt(i) !== 0x7b /* { */ || NOT_YAML_PRINTABLE.test(text) || jsonDepthOffset(text) >= 0) return undefined;
  let v: unknown;
  try {
    v = parseJSON(text);
  } catch {
    return undefined;
  }
  return typeof v === 'object' && v !== null && !Array.isArray(v) && allFinite(v) ? (v as Record<string, unknown>) : undefined;
}

export function decodeApplyPatch(body: Uint8Array | string): Extract<DecodedPatch, { type: typeof APPLY_PATCH }> | StatusError {
  const text = typeof body === 'string' ? body : Buffer.from(body).toString('utf8');
  const json = parseJsonObject(text);
  if (json) return { type: APPLY_PATCH, patch: json, strictErrors: [] };
  // Too deep (json-depth.ts) for the yaml package: refused in go-yaml's words, before it parses.
  if (yamlDepthExceeds(text)) return badRequest(`error decoding YAML: error converting YAML to JSON: ${yamlMaxDepthMessage}`);
  let value: unknown;
  try {
    value = parseYaml(text);
  } catch (e) {
    return badRequest(`error decoding YAML: error converting YAML to JSON: ${yamlErrorText(e)}`);
  }
  if (value === null || value === undefined) return { type: APPLY_PATCH, patch: {}, strictErrors: [] };
  if (typeof value !== 'object' || Array.isArray(value)) {
    const kind = Array.isArray(value) ? 'array' : typeof value === 'boolean' ? 'bool' : typeof value === 'number' || typeof value === 'bigint' ? 'number' : 'string';
    return badRequest(
      `error decoding YAML: error unmarshaling JSON: while decoding JSON: json: cannot unmarshal ${kind} into Go value of type map[string]interface {}`,
    );
  }
  return { type: APPLY_PATCH, patch: value as Record<string, unknown>, strictErrors: [] };
}

/** go-yaml words its errors `yaml: line N: problem`; the yaml package's problems are phrased its own way. */
function yamlErrorText(e: unknown): string {
  const first = goMessage(e).split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
  const line = isYamlParseError(e) ? e.linePos?.[0]?.line : undefined;
  return line === undefined ? `yaml: ${first}` : `yaml: line ${line}: ${first}`;
}

// go-yaml v2 reads YAML 1.1 (yes/no booleans, merge keys), lets a repeated key win, and leaves
// timestamps as strings on their way to JSON.
const parseYaml = parseKubeYaml;

// ------------------------------------------------------------------ JSON merge patch

type JsonObject = Record<string, unknown>;
const isObject = (v: unknown): v is JsonObject => typeof v === 'object' && v !== null && !Array.isArray(v);

function pruneNulls(v: unknown): void {
  if (isObject(v)) pruneDocNulls(v);
  else if (Array.isArray(v)) pruneAryNulls(v);
}

function pruneDocNulls(doc: JsonObject): JsonObject {
  for (const [k, v] of Object.entries(doc)) {
    if (v === null) delete doc[k];
    else pruneNulls(v);
  }
  return doc;
}

// Null elements stay; objects inside lose their null members.
function pruneAryNulls(ary: unknown[]): unknown[] {
  for (const v of ary) if (v !== null) pruneNulls(v);
  return ary;
}

function mergeValue(cur: unknown, patch: unknown): unknown {
  if (!isObject(cur)) {
    pruneNulls(patch);
    return patch;
  }
  // A non-object patch value replaces an object as is, nulls inside and all.
  if (!isObject(patch)) return patch;
  mergeDocs(cur, patch);
  return cur;
}

function mergeDocs(doc: JsonObject, patch: JsonObject): void {
  for (const [k, v] of Object.entries(patch)) {
    if (v === null) {
      delete doc[k];
      continue;
    }
    const cur = doc[k];
    if (!Object.prototype.hasOwnProperty.call(doc, k) || cur === null) {
      pruneNulls(v);
      doc[k] = v;
    } else {
      doc[k] = mergeValue(cur, v);
    }
  }
}

/**
 * RFC 7386 merge patch with json-patch v4 MergePatch's behaviour: null deletes, objects merge,
 * anything else replaces. A null or scalar patch is a 400 "Invalid JSON Patch"; an array patch
 * becomes the whole document (nulls pruned from objects inside), which then fails to decode.
 * With `owned`, the caller gives `doc` and `patch` away (neither is read again): they are merged in
 * place rather than copied first.
 */
export function applyMergePatch(doc: unknown, patch: unknown, owned = false): unknown {
  if (patch === null || patch === undefined) return badRequest('Invalid JSON Patch');
  const p = owned ? patch : deepCopyJSON(patch);
  if (Array.isArray(p)) return pruneAryNulls(p);
  if (!isObject(p)) return badRequest('Invalid JSON Patch');
  if (doc === null) return unknownServerError('Invalid JSON Document');
  if (!isObject(doc)) return pruneDocNulls(p);
  const d = owned ? doc : deepCopyJSON(doc);
  mergeDocs(d, p);
  return d;
}

// ------------------------------------------------------------------ JSON patch (RFC 6902, json-patch v4)

// The working document mirrors json-patch's lazy nodes: containers are unfolded on demand, values
// written by the patch stay raw text until something reaches inside them.
type WNode = RawJson | null | string | number | boolean | WObject | WArray;
type WObject = Map<string, WNode>;
type WArray = { items: WNode[] };
type Container = WObject | WArray;

const isWArray = (n: unknown): n is WArray => typeof n === 'object' && n !== null && !(n instanceof Map) && !(n instanceof RawJson);

function toWorking(v: unknown): WNode {
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return { items: v.map(toWorking) };
  if (typeof v === 'object') return new Map(Object.entries(v as JsonObject).map(([k, x]) => [k, toWorking(x)]));
  return v as WNode;
}

function fromWorking(n: WNode): unknown {
  if (n === null) return null;
  if (n instanceof RawJson) return parseJsonText(n.text);
  if (n instanceof Map) return Object.fromEntries([...n].map(([k, v]) => [k, fromWorking(v)]));
  if (isWArray(n)) return n.items.map(fromWorking);
  return n;
}

/** The container behind a node, unfolding raw text; undefined for scalars. */
function unfold(n: WNode): Container | undefined {
  if (n instanceof Map || isWArray(n)) return n;
  if (n instanceof RawJson) {
    const shape = rawShape(n);
    if (shape.kind === 'object') return shape.entries;
    if (shape.kind === 'array') return { items: shape.items };
  }
  return undefined;
}

class PatchError extends Error {}

/** strconv.Atoi. */
function atoi(s: string): number | undefined {
  if (!/^[+-]?[0-9]+$/.test(s)) return undefined;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : undefined;
}

const decodePatchKey = (k: string): string => k.replace(/~[01]/g, (m) => (m === '~1' ? '/' : '~'));

function containerGet(c: Container, key: string): WNode | undefined {
  if (c instanceof Map) return c.get(key);
  const idx = atoi(key);
  if (idx === undefined) throw new PatchError(`strconv.Atoi: parsing ${JSON.stringify(key)}: invalid syntax`);
  let i = idx;
  if (i < 0) {
    if (i < -c.items.length) throw new PatchError(`Unable to access invalid index: ${idx}: invalid index referenced`);
    i += c.items.length;
  }
  if (i >= c.items.length) throw new PatchError(`Unable to access invalid index: ${i}: invalid index referenced`);
  return c.items[i];
}

function containerSetInPlace(c: Container, key: string, v: WNode): void {
  if (c instanceof Map) c.set(key, v);
  else c.items[Number(key) < 0 ? Number(key) + c.items.length : Number(key)] = v;
}

function containerAdd(c: Container, key: string, v: WNode): void {
  if (c instanceof Map) {
    c.set(key, v);
    return;
  }
  if (key === '-') {
    c.items.push(v);
    return;
  }
  const idx = atoi(key);
  if (idx === undefined) throw new PatchError(`value was not a proper array index: '${key}'`);
  const size = c.items.length + 1;
  if (idx >= size) throw new PatchError(`Unable to access invalid index: ${idx}: invalid index referenced`);
  let i = idx;
  if (i < 0) {
    if (i < -size) throw new PatchError(`Unable to access invalid index: ${idx}: invalid index referenced`);
    i += size;
  }
  c.items.splice(i, 0, v);
}

function containerRemove(c: Container, key: string): void {
  if (c instanceof Map) {
    if (!c.has(key)) throw new PatchError(`Unable to remove nonexistent key: ${key}: missing value`);
    c.delete(key);
    return;
  }
  const idx = atoi(key);
  if (idx === undefined) throw new PatchError(`strconv.Atoi: parsing ${JSON.stringify(key)}: invalid syntax`);
  let i = idx;
  if (i >= c.items.length) throw new PatchError(`Unable to access invalid index: ${idx}: invalid index referenced`);
  if (i < 0) {
    if (i < -c.items.length) throw new PatchError(`Unable to access invalid index: ${idx}: invalid index referenced`);
    i += c.items.length;
  }
  c.items.splice(i, 1);
}

/** findObject: the container holding the path's last segment (the first segment is skipped unread). */
function findObject(root: Container, path: string): { con: Container; key: string } | undefined {
  const split = path.split('/');
  if (split.length < 2) return undefined;
  let doc = root;
  for (const part of split.slice(1, -1)) {
    let next: WNode | undefined;
    try {
      next = containerGet(doc, decodePatchKey(part));
    } catch {
      return undefined;
    }
    if (next === null || next === undefined) return undefined;
    const con = unfold(next);
    if (!con) return undefined;
    if (con !== next) containerSetInPlace(doc, decodePatchKey(part), con as WNode);
    doc = con;
  }
  return { con: doc, key: decodePatchKey(split[split.length - 1]!) };
}

/** The raw text a node compares with: Go-marshalled for values from the stored object. */
const rawText = (n: Exclude<WNode, null>): string => (n instanceof RawJson ? goJsonCompact(n.text) : goJsonMarshal(fromWorking(n)));

/** lazyNode.equal(doc node, patch value). */
function nodesEqual(n: Exclude<WNode, null>, o: RawJson): boolean {
  const con = unfold(n);
  if (!con) return rawText(n) === goJsonCompact(o.text);
  const other = rawShape(o);
  if (con instanceof Map) {
    if (other.kind !== 'object' || con.size !== other.entries.size) return false;
    for (const [k, v] of con) {
      if (!other.entries.has(k)) return false;
      const ov = other.entries.get(k)!;
      if ((v === null) !== (ov === null)) return false;
      if (v !== null && ov !== null && !nodesEqual(v, ov)) return false;
    }
    return true;
  }
  if (other.kind !== 'array' || con.items.length !== other.items.length) return false;
  return con.items.every((v, i) => {
    const ov = other.items[i]!;
    if (v === null || ov === null) return v === ov;
    return nodesEqual(v, ov);
  });
}

/** Operation.Kind/Path/From: a member read as a Go string. */
function member(op: JsonPatchOperation, name: string): string | undefined {
  const raw = op?.[name];
  if (!raw) return undefined;
  try {
    const v = parseJsonText(raw.text);
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Operation.value(): absent → no node; JSON null → a node without raw text. */
function valueOf(op: JsonPatchOperation): { present: false } | { present: true; raw: RawJson | null } {
  if (!op || !Object.prototype.hasOwnProperty.call(op, 'value')) return { present: false };
  return { present: true, raw: op.value ?? null };
}

const byteSize = (n: WNode): number => (n === null ? 0 : Buffer.byteLength(rawText(n), 'utf8'));

function applyOperation(state: { root: Container; copied: number }, op: JsonPatchOperation): void {
  const kind = member(op, 'op') ?? 'unknown';
  const path = member(op, 'path');
  const from = member(op, 'from');
  const value = valueOf(op);
  const valueNode: WNode = value.present ? value.raw : null;
  switch (kind) {
    case 'add': {
      if (path === undefined) throw new PatchError('add operation failed to decode path: missing value');
      const t = findObject(state.root, path);
      if (!t) throw new PatchError(`add operation does not apply: doc is missing path: "${path}": missing value`);
      containerAdd(t.con, t.key, valueNode);
      return;
    }
    case 'remove': {
      if (path === undefined) throw new PatchError('remove operation failed to decode path: missing value');
      const t = findObject(state.root, path);
      if (!t) throw new PatchError(`remove operation does not apply: doc is missing path: "${path}": missing value`);
      containerRemove(t.con, t.key);
      return;
    }
    case 'replace': {
      if (path === undefined) throw new PatchError('replace operation failed to decode path');
      if (path === '') {
        const con = value.present && value.raw ? unfold(value.raw) : undefined;
        if (!con) throw new PatchError('replace operation value must be object or array');
        state.root = con;
        return;
      }
      const t = findObject(state.root, path);
      if (!t) throw new PatchError(`replace operation does not apply: doc is missing path: ${path}: missing value`);
      try {
        containerGet(t.con, t.key); // a missing object key is fine: replace then adds it
      } catch {
        throw new PatchError(`replace operation does not apply: doc is missing key: ${path}: missing value`);
      }
      containerSetInPlace(t.con, t.key, valueNode);
      return;
    }
    case 'move': {
      if (from === undefined) throw new PatchError('move operation failed to decode from');
      const f = findObject(state.root, from);
      if (!f) throw new PatchError(`move operation does not apply: doc is missing from path: ${from}: missing value`);
      const val = containerGet(f.con, f.key) ?? null;
      containerRemove(f.con, f.key);
      if (path === undefined) throw new PatchError('move operation failed to decode path');
      const t = findObject(state.root, path);
      if (!t) throw new PatchError(`move operation does not apply: doc is missing destination path: ${path}: missing value`);
      containerAdd(t.con, t.key, val);
      return;
    }
    case 'copy': {
      if (from === undefined) throw new PatchError('copy operation failed to decode from');
      const f = findObject(state.root, from);
      if (!f) throw new PatchError(`copy operation does not apply: doc is missing from path: ${from}: missing value`);
      const val = containerGet(f.con, f.key) ?? null;
      if (path === undefined) throw new PatchError('copy operation failed to decode path: missing value');
      const t = findObject(state.root, path);
      if (!t) throw new PatchError(`copy operation does not apply: doc is missing destination path: ${path}: missing value`);
      const copy: WNode = val === null ? null : new RawJson(rawText(val));
      state.copied += byteSize(copy);
      if (state.copied > JSON_PATCH_MAX_COPY_BYTES) {
        throw new PatchError(
          `Unable to complete the copy, the accumulated size increase of copy is ${state.copied}, exceeding the limit ${JSON_PATCH_MAX_COPY_BYTES}`,
        );
      }
      containerAdd(t.con, t.key, copy);
      return;
    }
    case 'test': {
      if (path === undefined) throw new PatchError('test operation failed to decode path');
      const failed = new PatchError(`testing value ${path} failed: test failed`);
      if (path === '') {
        if (!value.present || value.raw === null || !nodesEqual(state.root as WNode as Exclude<WNode, null>, value.raw)) throw failed;
        return;
      }
      const t = findObject(state.root, path);
      if (!t) throw new PatchError(`test operation does not apply: is missing path: ${path}: missing value`);
      const val = containerGet(t.con, t.key);
      if (val === null || val === undefined) {
        // json-patch dereferences a missing "value" here (a panic); treat it as a failed test.
        if (value.present && value.raw === null) return;
        throw failed;
      }
      if (!value.present || value.raw === null || !nodesEqual(val, value.raw)) throw failed;
      return;
    }
    default:
      throw new PatchError(`Unexpected kind: ${kind}`);
  }
}

/** Accepts decoded operations or plain JSON ones (whose members are then treated as raw JSON). */
function normalizeOperations(ops: readonly unknown[]): JsonPatchOperation[] {
  return ops.map((op) => {
    if (!isObject(op)) return null;
    return Object.fromEntries(
      Object.entries(op).map(([k, v]) => [k, v instanceof RawJson ? v : v === null || v === undefined ? null : new RawJson(goJsonMarshal(v))]),
    );
  });
}

/**
 * Apply an RFC 6902 patch as json-patch v4 does. Any failure is the apiserver's generic 422
 * ("the server rejected our request due to an error in our request"), Go's text kept as `cause`.
 */
export function applyJsonPatch(doc: unknown, ops: readonly unknown[]): unknown {
  const r = runJsonPatch(toWorking(doc), ops);
  return r instanceof StatusError ? r : fromWorking(r);
}

/**
 * The same, from the current object's JSON text as kube encodes it, also giving the patched document's text as
 * json-patch writes it: containers the patch went through (and the top) with sorted keys, the rest as it was.
 */
export function applyJsonPatchToText(docText: string, ops: readonly unknown[]): { value: unknown; text: string } | StatusError {
  const r = runJsonPatch(new RawJson(docText), ops);
  return r instanceof StatusError ? r : { value: fromWorking(r), text: goJsonMarshal(renderTree(r)) };
}

function runJsonPatch(doc: WNode, ops: readonly unknown[]): WNode | StatusError {
  if (ops.length > MAX_JSON_PATCH_OPERATIONS) {
    return requestEntityTooLarge(`Request entity too large: The allowed maximum operations in a JSON patch is ${MAX_JSON_PATCH_OPERATIONS}, got ${ops.length}`);
  }
  const root = unfold(doc);
  if (!root) return patchUnprocessable('Invalid JSON Document');
  const state = { root, copied: 0 };
  try {
    for (const op of normalizeOperations(ops)) applyOperation(state, op);
  } catch (e) {
    if (e instanceof PatchError || e instanceof GoJsonError) return patchUnprocessable(e.message);
    throw e;
  }
  return state.root as WNode;
}

/** A working document as json.Marshal sees it: unfolded objects are Go maps (sorted), raw nodes their text. */
function renderTree(n: WNode): unknown {
  if (n instanceof Map) return Object.fromEntries([...n].map(([k, v]) => [k, renderTree(v)]));
  if (isWArray(n)) return n.items.map(renderTree);
  return n;
}

export { RawJson } from '../util/go-json.js';

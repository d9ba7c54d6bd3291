// The REST verbs of one resource endpoint over the generic store: get, list, watch, create, update,
// patch, delete, deletecollection, for the main resource and its status subresource.
import { gvString } from '../api/resource.js';
import * as S from '../api/status.js';
import { GO_VALUE, goQuote, invalid as invalidField, notSupported, required, type FieldError } from '../api/field-error.js';
import { managerOrUserAgent } from '../registry/field-manager/manager-name.js';
import type { GenericStore, ListResult, DeleteOptions } from '../registry/store.js';
import { NOT_AT_HAND, type KeyValue } from '../storage/types.js';
import { metaOf, rawObjectText, selectFromStoredBytes, type Written } from '../registry/store.js';
import type { Subresource } from '../registry/resource-type.js';
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';
import { stringifyJSON } from '../util/json-int64.js';
import { decodeBody, isJsonBody, negotiateOutput, watchNotAcceptable, type Negotiated, type ResponseShape, type StrictDecoding } from './negotiation.js';
import { typedOpaquePaths } from './duplicate-fields.js';
import { decodeTypedBody } from './typed-decoding.js';
import { cannotBeHandledAs, reportStrictDecoding } from '../schema/unknown-fields.js';
import { firstOutOfRangeNumber } from '../util/json-number-literals.js';
import { readBody, writeObject, writeRaw } from './http.js';
import { writeJsonList } from './json-list-stream.js';
import { noteRequestObject } from '../audit/record.js';
import { parseListQuery, parseRevision } from './list-options.js';
import { partialObjectMetadata, tableJsonEnvelope, tableRowJson, toTable, type IncludeObject, type TableOptions } from './table.js';
import { serveWatch, type WatchBufferLimits } from './watch.js';
import { applyPatchRequest, applyRequest } from './patch-request.js';
import { decodeProtobufDeleteOptions, hasProtobufForm, isProtobufContentType } from './protobuf.js';
import { APPLY_PATCH, patchTypeFor, type FieldValidation } from '../registry/patch.js';
import type { RequestContext } from './context.js';
import type { Creater } from '../registry/endpoint.js';
import { isPrintChar } from '../util/unicode-print.js';

interface EndpointOptions {
  /** Patch content types this endpoint accepts (custom resources refuse strategic merge patch). */
  patchTypes: readonly string[];
  /** Built-in routes answer an unmatched patch Content-Type with go-restful's 415 before the handler runs. */
  builtIn: boolean;
  /** Watch timeouts and bookmark cadence (tests shorten them). */
  minRequestTimeoutSeconds: number;
  bookmarkIntervalMs: number;
  /** What a watcher may leave unsent to a client that does not read (tests lower it). */
  watchBuffer?: WatchBufferLimits;
  /** Told of each watch event written: the watch's group, version and kind, and the event's size. */
  onWatchEvent?: (group: string, version: string, kind: string, bytes: number) => void;
  /** Warnings to add to every response (deprecated versions). */
  warnings?: readonly string[];
  /** A create-only kind's handler, run instead of the store's create. */
  creater?: Creater;
}

/** A resource request is the request context: request info, user, warnings. */
export type ResourceRequest = RequestContext;

const FIELD_VALIDATION = ['Ignore', 'Warn', 'Strict'];

// Not async: it hands on the verb's promise (an async function returning one would add turns of the microtask queue).
export function serveResource(r: ResourceRequest, store: GenericStore, sub: Subresource, opts: EndpointOptions): Promise<void> {
  const { info } = r;
  const ns = store.type.served.namespaced ? info.namespace : '';
  for (const w of opts.warnings ?? []) r.warn(w);
  // Which verbs reach here is decided by the router (served-verbs.ts).
  switch (info.verb) {
    case 'get':
      return get(r, store, ns);
    case 'list':
      if (sub) break;
      return list(r, store, ns);
    case 'watch':
      if (sub) break;
      return watch(r, store, ns, opts);
    case 'create':
      if (sub) break;
      return opts.creater ? createOnly(r, store, ns, opts.creater) : create(r, store, ns);
    case 'update':
      return update(r, store, ns, sub);
    case 'patch':
      return patch(r, store, ns, sub, opts);
    case 'delete':
      if (sub) break;
      return del(r, store, ns);
    case 'deletecollection':
      if (sub) break;
      return deleteCollection(r, store, ns);
  }
  return Promise.reject(S.methodNotAllowed());
}

/** Whether the endpoint's own objects have a protobuf form: built-in kinds with protobuf numbers (not CRDs here). */
function servesProtobuf(store: GenericStore): boolean {
  const served = store.type.served;
  return store.type.goType !== undefined && hasProtobufForm(gvString(served.group, served.version), served.kind);
}

/**
 * Whether GET and LIST in plain JSON send the stored bytes (resourceVersion inserted) instead of decoding
 * and encoding each object. Always on when serving; tests turn it off to compare both paths byte for byte.
 */
let servingStoredBytes = true;
export function serveStoredBytes(on: boolean): void {
  servingStoredBytes = on;
  selectFromStoredBytes(on);
}

export function negotiate(r: ResourceRequest, shape: ResponseShape, store?: GenericStore): Negotiated {
  const neg = negotiateOutput(r.req.headers.accept, true, shape, store ? servesProtobuf(store) : false);
  if (neg instanceof S.StatusError) throw neg;
  return neg;
}

export function tableOptions(r: ResourceRequest, neg: Negotiated): TableOptions | undefined {
  if (neg.transform?.as !== 'Table') return undefined;
  const inc = r.query.get('includeObject') ?? 'Metadata';
  if (inc !== 'None' && inc !== 'Metadata' && inc !== 'Object' && inc !== '') {
    throw S.badRequest(`unrecognized includeObject value: "${inc}"`);
  }
  return { includeObject: (inc || 'Metadata') as IncludeObject, version: neg.transform.version };
}

function respondObject(r: ResourceRequest, store: GenericStore, code: number, obj: JSONObject, neg: Negotiated): void {
  let out: unknown = obj;
  if (neg.transform?.as === 'Table') {
    const rv = metaOf(obj).resourceVersion;
    out = toTable(store.type.table, [obj], { resourceVersion: rv }, tableOptions(r, neg)!);
  } else if (neg.transform?.as === 'PartialObjectMetadata') {
    out = partialObjectMetadata(obj, neg.transform.version);
  }
  writeObject(r.res, code, out, neg);
}

async function get(r: ResourceRequest, store: GenericStore, ns: string): Promise<void> {
  const neg = negotiate(r, 'object', store);
  const plain = servingStoredBytes && !neg.transform && neg.format === 'json';
  // In memory and servable as stored (the common GET): answered without waiting on a promise.
  const atHand = plain ? store.kvAtHand(ns, r.info.name) : undefined;
  const raw = atHand && atHand !== NOT_AT_HAND ? store.rawObjectAsStored(atHand) : undefined;
  if (raw) return writeRaw(r.res, 200, neg.contentType, rawObjectText(raw) + '\n');
  // The key-value found in memory, if it was (it needs decoding); else the store's read (and its 404).
  const kv = atHand && atHand !== NOT_AT_HAND ? atHand : await store.getKV(ns, r.info.name);
  // Plain JSON: the stored bytes as they are, without a parse and stringify.
  if (plain) return writeRaw(r.res, 200, neg.contentType, rawObjectText(store.rawObjectAsStored(kv) ?? (await store.rawObjects([kv])).item(0)) + '\n');
  respondObject(r, store, 200, await store.read(kv), neg);
}

function listMetadata(result: Omit<ListResult, 'items'>): JSONObject {
  const metadata: JSONObject = { resourceVersion: result.resourceVersion };
  if (result.continueToken) metadata['continue'] = result.continueToken;
  if (result.remainingItemCount !== undefined) metadata['remainingItemCount'] = result.remainingItemCount;
  return metadata;
}

/**
 * A list response around items already in JSON form: what comes before the items and after them, in the
 * key order of listObject as stringified.
 */
function rawListEnvelope(store: GenericStore, result: Omit<ListResult, 'items'>): { head: string; tail: string } {
  const served = store.type.served;
  const apiVersion = gvString(served.group, served.version);
  return {
    head: `{"apiVersion":${JSON.stringify(apiVersion)},"items":[`,
    tail: `],"kind":${JSON.stringify(served.listKind)},"metadata":${stringifyJSON(listMetadata(result))}}\n`,
  };
}

function listObject(store: GenericStore, result: ListResult): JSONObject {
  const served = store.type.served;
  const apiVersion = gvString(served.group, served.version);
  return { apiVersion, items: result.items, kind: served.listKind, metadata: listMetadata(result) };
}

async function list(r: ResourceRequest, store: GenericStore, ns: string): Promise<void> {
  const neg = negotiate(r, 'list', store);
  const q = parseListQuery(r.query, false, fieldLabels(store), store.type.defaultFieldLabelConversion === true);
  const rev = parseRevision(q.resourceVersion);
  const exact = q.resourceVersionMatch === 'Exact' || (q.limit && rev !== undefined && q.resourceVersionMatch === undefined);
  const listed = await store.listKV({
    namespace: ns,
    labelMatch: q.labelMatch,
    labelSelector: q.labelSelector,
    fieldMatch: q.fieldMatch,
    limit: q.limit,
    continueToken: q.continueToken,
    revision: exact ? rev : undefined,
    minRevision: exact ? undefined : rev,
  });
  if (servingStoredBytes && !neg.transform && neg.format === 'json') {
    const { head, tail } = rawListEnvelope(store, listed);
    return writeJsonList(r.res, neg.contentType, head, await store.rawObjects(listed.items), tail);
  }
  const listMeta = { resourceVersion: listed.resourceVersion, continue: listed.continueToken, remainingItemCount: listed.remainingItemCount };
  if (servingStoredBytes && neg.transform?.as === 'Table' && neg.format === 'json') {
    // Rows made and written one at a time, as the client takes them.
    const opts = tableOptions(r, neg)!;
    const conv = store.type.table;
    const envelope = tableJsonEnvelope(conv, listed.items.length, listMeta, opts);
    if (envelope) {
      const objs = await store.lazyObjects(listed.items);
      const now = Date.now();
      const rows = { length: objs.length, item: (i: number) => tableRowJson(store, conv, listed.items[i]!, () => objs.item(i), opts, now) };
      return writeJsonList(r.res, neg.contentType, envelope.head, rows, envelope.tail);
    }
  }
  const result: ListResult = { ...listed, items: await store.readAll(listed.items) };
  if (neg.transform?.as === 'Table') {
    writeObject(r.res, 200, toTable(store.type.table, result.items, listMeta, tableOptions(r, neg)!), neg);
  } else if (neg.transform?.as === 'PartialObjectMetadataList') {
    writeObject(
      r.res,
      200,
      {
        kind: 'PartialObjectMetadataList',
        apiVersion: `meta.k8s.io/${neg.transform.version}`,
        metadata: listMetadata(result),
        items: result.items.map((o) => partialObjectMetadata(o, neg.transform!.version)),
      },
      neg,
    );
  } else {
    writeObject(r.res, 200, listObject(store, result), neg);
  }
}

function fieldLabels(store: GenericStore): string[] {
  const sample: JSONObject = { metadata: { name: '', namespace: '' } };
  return Object.keys(store.type.selectableFields(sample));
}

async function watch(r: ResourceRequest, store: GenericStore, ns: string, opts: EndpointOptions): Promise<void> {
  const neg = negotiate(r, 'watch', store);
  const q = parseListQuery(r.query, true, fieldLabels(store), store.type.defaultFieldLabelConversion === true);
  if (r.info.name) {
    // GET .../name?watch=true: a watch of one object.
    const nameMatch = (f: Record<string, string>): boolean => f['metadata.name'] === r.info.name;
    const prev = q.fieldMatch;
    q.fieldMatch = prev ? (f) => nameMatch(f) && prev(f) : nameMatch;
  }
  const rev = parseRevision(q.resourceVersion);
  let fromRevision: number;
  let initial: JSONObject[] | undefined;
  const wantInitial = q.sendInitialEvents ?? rev === undefined;
  if (wantInitial) {
    const all = await store.list({ namespace: ns, labelMatch: q.labelMatch, labelSelector: q.labelSelector, fieldMatch: q.fieldMatch, minRevision: rev });
    initial = all.items;
    fromRevision = Number(all.resourceVersion);
  } else {
    fromRevision = rev ?? (await store.currentRevision());
  }
  const streamError = watchNotAcceptable(neg);
  if (streamError) throw streamError;
  const minTimeout = opts.minRequestTimeoutSeconds;
  // timeoutSeconds=0 (client-go's wait sends it when under a second is left) means the server's default.
  const timeoutSeconds = q.timeoutSeconds ? q.timeoutSeconds : minTimeout * (1 + Math.random());
  serveWatch(r.req, r.res, store, {
    namespace: ns,
    fromRevision,
    initial,
    initialEventsEnd: q.sendInitialEvents === true,
    filter: { labelMatch: q.labelMatch, fieldMatch: q.fieldMatch },
    bookmarks: q.allowWatchBookmarks,
    timeoutMs: timeoutSeconds * 1000,
    bookmarkIntervalMs: opts.bookmarkIntervalMs,
    neg,
    tableOptions: tableOptions(r, neg),
    buffer: opts.watchBuffer,
    onEvent: watchEventObserver(store, opts),
    storedBytes: servingStoredBytes,
  });
}

function watchEventObserver(store: GenericStore, opts: EndpointOptions): ((bytes: number) => void) | undefined {
  const observe = opts.onWatchEvent;
  if (!observe) return undefined;
  const { group, version, kind } = store.type.served;
  return (bytes) => observe(group, version, kind, bytes);
}

interface WriteQuery {
  dryRun: boolean;
  fieldValidation: FieldValidation;
  /** The fieldManager parameter ('' when absent). */
  fieldManager: string;
  /** PATCH's force parameter, when given. */
  force?: boolean;
  /** The manager an Update is recorded for: fieldManager, else from the User-Agent (managerOrUserAgent). */
  manager: string;
}

/** ValidateFieldManager: at most 128 bytes, printable characters only. */
function fieldManagerErrors(fm: string): FieldError[] {
  const errs: FieldError[] = [];
  if (Buffer.byteLength(fm) > 128) errs.push({ type: 'FieldValueTooLong', field: 'fieldManager', detail: 'may not be more than 128 bytes', badValue: fm });
  let i = 0;
  for (const ch of fm) {
    if (!isPrintChar(ch)) {
      const cp = ch.codePointAt(0)!;
      errs.push(invalidField('fieldManager', fm, `invalid character U+${cp.toString(16).toUpperCase().padStart(4, '0')} (at position ${i})`));
    }
    i += Buffer.byteLength(ch);
  }
  return errs;
}

/** The write options of the query, validated as ValidateCreate/Update/PatchOptions do (in their order). */
export function writeQuery(r: ResourceRequest, optionsKind: string, patchType?: string): WriteQuery {
  const errs: FieldError[] = [];
  const fm = r.query.get('fieldManager') ?? '';
  const forceParam = r.query.get('force');
  const force = forceParam === null ? undefined : !(forceParam === '0' || forceParam.toLowerCase() === 'false');
  if (patchType !== undefined) {
    if (patchType !== APPLY_PATCH) {
      if (force !== undefined) errs.push({ type: 'FieldValueForbidden', field: 'force', detail: 'may not be specified for non-apply patch' });
    } else if (fm === '') errs.push(required('fieldManager', 'is required for apply patch'));
  }
  errs.push(...fieldManagerErrors(fm));
  const dryRun = r.query.getAll('dryRun');
  if (dryRun.some((d) => d !== 'All')) errs.push(notSupported('dryRun', goStringSlice(dryRun), ['All']));
  const fv = r.query.get('fieldValidation') ?? '';
  if (fv !== '' && !FIELD_VALIDATION.includes(fv)) errs.push(notSupported('fieldValidation', fv, ['', ...FIELD_VALIDATION]));
  if (errs.length) throw S.invalid('meta.k8s.io', optionsKind, '', errs);
  const manager = managerOrUserAgent(fm, r.req.headers['user-agent']);
  return { dryRun: dryRun.length > 0, fieldValidation: (fv || 'Warn') as FieldValidation, fieldManager: fm, manager, ...(force !== undefined ? { force } : {}) };
}

/** A decoded create or update body and its strict decoding errors (duplicate fields). */
interface DecodedObject {
  obj: JSONObject;
  strictErrors: string[];
}

async function decodeObject(r: ResourceRequest, store: GenericStore, fieldValidation: FieldValidation): Promise<DecodedObject> {
  const body = await readBody(r.req);
  const into = store.type.served;
  // Warn and Strict decode with the strict serializer; built-in kinds decode into typed objects.
  const strict: StrictDecoding | undefined =
    fieldValidation === 'Ignore' ? undefined : { errors: [], opaque: store.type.goType ? typedOpaquePaths(store.type.goType) : undefined };
  // A JSON body's text, decoded from UTF-8 once for every step that reads it.
  const jsonText = isJsonBody(r.req.headers['content-type']) ? body.toString('utf8') : undefined;
  const decoded = decodeBody(
    r.req.headers['content-type'],
    body,
    {
      apiVersion: gvString(into.group, into.version),
      kind: into.kind,
    },
    strict,
    jsonText,
  );
  if (decoded instanceof S.StatusError) throw decoded;
  if (!isObject(decoded)) throw S.badRequest(`Object 'Kind' is missing in '${body.toString('utf8')}'`);
  const served = store.type.served;
  const expected = gvString(served.group, served.version);
  const typed = store.type.goType !== undefined;
  if (typed) {
    // Built-in types decode into a typed object: the serializer defaults a missing kind and apiVersion from
    // the endpoint (gvkWithDefaults), so clients such as client-node may leave them out.
    if (typeof decoded['kind'] !== 'string' || decoded['kind'] === '') decoded['kind'] = served.kind;
    if (typeof decoded['apiVersion'] !== 'string' || decoded['apiVersion'] === '') decoded['apiVersion'] = expected;
  }
  noteRequestObject(r.req, decoded);
  if (typeof decoded['kind'] !== 'string' || decoded['kind'] === '') {
    throw S.badRequest(`Object 'Kind' is missing in '${body.toString('utf8')}'`);
  }
  // Custom resources decode into unstructured maps, where a number beyond float64 fails Go's decoder
  // (built-in kinds' typed decoding names the field instead).
  const huge = !typed && jsonText !== undefined ? firstOutOfRangeNumber(jsonText) : undefined;
  if (huge !== undefined) {
    throw S.badRequest(cannotBeHandledAs(served.kind, served.version, served.kind, `json: cannot unmarshal number ${huge} into Go value of type float64`));
  }
  const got = typeof decoded['apiVersion'] === 'string' ? decoded['apiVersion'] : '';
  if (got !== expected) {
    throw S.badRequest(`the API version in the data (${got}) does not match the expected API version (${expected})`);
  }
  // Custom resources report a wrong kind as a field error from their strategy, as apiextensions does.
  if (typed && decoded['kind'] !== served.kind) {
    throw S.badRequest(`no kind "${String(decoded['kind'])}" is registered for version "${expected}"`);
  }
  const unknownFields = decodeTypedBody(decoded, store.type, jsonText);
  return { obj: decoded, strictErrors: strict ? [...strict.errors, ...unknownFields] : [] };
}

/** The rest of decoding: the type's own admission of the body (custom resources), else the strict errors alone. */
function admitDecoded(store: GenericStore, { obj, strictErrors }: DecodedObject, fieldValidation: FieldValidation, warnings: string[]): void {
  const admit = store.type.strategy.admitBody;
  if (admit) return admit(obj, fieldValidation, warnings, strictErrors);
  reportStrictDecoding(strictErrors, fieldValidation, warnings, store.type.served.kind, store.type.served.version);
}

async function create(r: ResourceRequest, store: GenericStore, ns: string): Promise<void> {
  const neg = negotiate(r, 'object', store);
  const wq = writeQuery(r, 'CreateOptions');
  const decoded = await decodeObject(r, store, wq.fieldValidation);
  const obj = decoded.obj;
  const warnings: string[] = [];
  admitDecoded(store, decoded, wq.fieldValidation, warnings);
  // Warnings reach the client even when the write is refused (an admission webhook's, say), as kube's recorder sends them.
  let out: Awaited<ReturnType<GenericStore['createStored']>>;
  try {
    // The body was decoded for this create alone.
    out = await store.createStored(ns, obj, { dryRun: wq.dryRun, warnings, user: r.user, latency: r, manager: wq.manager, givenAway: true });
  } finally {
    for (const w of warnings) r.warn(w);
  }
  return respondStored(r, store, 201, out, neg);
}

/**
 * A write's answer: in plain JSON, the bytes just stored as GET sends them, rather than parsing them to write
 * them out again; otherwise (or when nothing was stored) the object.
 */
async function respondStored(r: ResourceRequest, store: GenericStore, code: number, out: Written | { object: JSONObject }, neg: Negotiated): Promise<void> {
  if (!('kv' in out)) return respondObject(r, store, code, out.object, neg);
  if (servingStoredBytes && !neg.transform && neg.format === 'json') {
    return writeRaw(r.res, code, neg.contentType, rawObjectText(store.rawObjectAsStored(out.kv, out.text) ?? (await store.rawObjects([out.kv])).item(0)) + '\n');
  }
  respondObject(r, store, code, await store.read(out.kv), neg);
}

/**
 * A create-only kind's POST, as kube's create handler runs a rest.Creater without a store: decode, record the
 * managed fields, make the object's namespace the request's (EnsureObjectNamespaceMatchesRequestNamespace),
 * then the kind's handler answers 201 with the object it returns.
 */
async function createOnly(r: ResourceRequest, store: GenericStore, ns: string, creater: Creater): Promise<void> {
  const neg = negotiate(r, 'object', store);
  const wq = writeQuery(r, 'CreateOptions');
  const decoded = await decodeObject(r, store, wq.fieldValidation);
  const warnings: string[] = [];
  admitDecoded(store, decoded, wq.fieldValidation, warnings);
  const fm = store.fieldManager('');
  const obj = fm ? await fm.update(undefined, decoded.obj, wq.manager) : decoded.obj;
  const meta = metaOf(obj);
  if (meta.namespace && ns && meta.namespace !== ns) throw S.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  if (ns) meta.namespace = ns;
  else delete meta.namespace;
  if (!r.user) throw S.badRequest('no user present on request');
  const out = await creater({ user: r.user, namespace: ns }, obj);
  // A zero metav1.Time marshals as null, and omitempty does not leave a struct out.
  const outMeta = metaOf(out) as Record<string, unknown>;
  if (outMeta['creationTimestamp'] === undefined) outMeta['creationTimestamp'] = null;
  for (const w of warnings) r.warn(w);
  respondObject(r, store, 201, store.type.strategy.canonicalize(out), neg);
}

async function update(r: ResourceRequest, store: GenericStore, ns: string, sub: Subresource): Promise<void> {
  const neg = negotiate(r, 'object', store);
  const wq = writeQuery(r, 'UpdateOptions');
  const decoded = await decodeObject(r, store, wq.fieldValidation);
  const obj = decoded.obj;
  const warnings: string[] = [];
  admitDecoded(store, decoded, wq.fieldValidation, warnings);
  // checkName: a body without a name is refused (one naming another object is, by the store).
  if (!metaOf(obj).name) throw S.badRequest(`the name of the object (${r.info.name} based on URL) was undeterminable: name must be provided`);
  let result: Awaited<ReturnType<GenericStore['updateStored']>>;
  try {
    result = await store.updateStored(ns, r.info.name, () => obj, sub, { dryRun: wq.dryRun, warnings, user: r.user, latency: r, manager: wq.manager, replacesCurrent: true });
  } finally {
    for (const w of warnings) r.warn(w);
  }
  return respondStored(r, store, result.created ? 201 : 200, result, neg);
}

async function patch(r: ResourceRequest, store: GenericStore, ns: string, sub: Subresource, opts: EndpointOptions): Promise<void> {
  const neg = negotiate(r, 'object', store);
  const body = await readBody(r.req);
  const patchType = patchTypeFor(r.req.headers['content-type'], { supported: opts.patchTypes, builtIn: opts.builtIn, hasBody: body.length > 0 });
  if (patchType instanceof S.StatusError) throw patchType;
  const wq = writeQuery(r, 'PatchOptions', patchType);
  const warnings: string[] = [];
  const apply = patchType === APPLY_PATCH;
  let result: Awaited<ReturnType<GenericStore['updateStored']>>;
  try {
    result = await store.updateStored(
      ns,
      r.info.name,
      (current) => {
        warnings.length = 0; // a conflict retry applies the patch again
        if (apply) return applyRequest(store, sub, body, current, wq, warnings);
        if (!current) throw S.notFound(store.type.gr, r.info.name);
        const patched = applyPatchRequest(store, patchType, body, current, wq.fieldValidation, warnings);
        store.type.strategy.admitBody?.(patched, wq.fieldValidation, warnings);
        return patched;
      },
      sub,
      // An apply records its own managed fields; only an apply may create the object.
      { dryRun: wq.dryRun, warnings, user: r.user, latency: r, ...(apply ? { forceAllowCreate: true } : { manager: wq.manager }) },
    );
  } finally {
    for (const w of warnings) r.warn(w);
  }
  return respondStored(r, store, result.created ? 201 : 200, result, neg);
}

/** DeleteOptions from the body when there is one (then the query is ignored, as kube does), else from the query. */
async function readDeleteOptions(r: ResourceRequest): Promise<DeleteOptions> {
  const opts: DeleteOptions = {};
  const body = await readBody(r.req);
  const errs: FieldError[] = [];
  let dryRun: unknown[] = [];
  if (body.length > 0) {
    const ct = r.req.headers['content-type'];
    const decoded = isProtobufContentType(ct) ? decodeProtobufDeleteOptions(body) : decodeBody(ct, body);
    if (decoded instanceof S.StatusError) throw decoded;
    if (isObject(decoded)) {
      const pre = decoded['preconditions'];
      if (isObject(pre)) {
        opts.preconditions = {};
        if (typeof pre['uid'] === 'string') opts.preconditions.uid = pre['uid'];
        if (typeof pre['resourceVersion'] === 'string') opts.preconditions.resourceVersion = pre['resourceVersion'];
      }
      if (typeof decoded['gracePeriodSeconds'] === 'number') opts.gracePeriodSeconds = decoded['gracePeriodSeconds'];
      if (typeof decoded['propagationPolicy'] === 'string') opts.propagationPolicy = decoded['propagationPolicy'];
      if (typeof decoded['orphanDependents'] === 'boolean') opts.orphanDependents = decoded['orphanDependents'];
      if (Array.isArray(decoded['dryRun'])) dryRun = decoded['dryRun'];
    }
  } else {
    const gp = r.query.get('gracePeriodSeconds');
    if (gp !== null && gp !== '') opts.gracePeriodSeconds = Number(gp);
    // A present parameter counts even when empty: propagationPolicy= is the (unsupported) policy "",
    // and any orphanDependents other than "false" or "0" is true (Convert_Slice_string_To_Pointer_bool).
    const pp = r.query.get('propagationPolicy');
    if (pp !== null) opts.propagationPolicy = pp;
    const od = r.query.get('orphanDependents');
    if (od !== null) opts.orphanDependents = !(od === '0' || od.toLowerCase() === 'false');
    dryRun = r.query.getAll('dryRun');
  }
  opts.dryRun = dryRun.length > 0;
  // ValidateDeleteOptions, in its order.
  if (opts.orphanDependents !== undefined && opts.propagationPolicy !== undefined) {
    errs.push(invalidField('propagationPolicy', opts.propagationPolicy, 'orphanDependents and deletionPropagation cannot be both set'));
  }
  if (opts.propagationPolicy !== undefined && !['Orphan', 'Background', 'Foreground'].includes(opts.propagationPolicy)) {
    errs.push(notSupported('propagationPolicy', opts.propagationPolicy, ['Foreground', 'Background', 'Orphan', 'nil']));
  }
  if (dryRun.some((d) => d !== 'All')) errs.push(notSupported('dryRun', goStringSlice(dryRun.map(String)), ['All']));
  if (errs.length) throw S.invalid('meta.k8s.io', 'DeleteOptions', '', errs);
  return opts;
}

async function del(r: ResourceRequest, store: GenericStore, ns: string): Promise<void> {
  const neg = negotiate(r, 'object', store);
  const opts = await readDeleteOptions(r);
  const warnings: string[] = [];
  const { object, deleted } = await store.delete(ns, r.info.name, opts, { user: r.user, latency: r, warnings });
  for (const w of warnings) r.warn(w);
  // 202 only for a kept object when the deprecated orphanDependents=false asked for cascading deletion.
  const code = !deleted && opts.orphanDependents === false ? 202 : 200;
  if (deleted && !store.type.strategy.returnDeletedObject) {
    // genericregistry.Store.finalizeDelete: a Success Status naming what is gone (Kind holds the resource).
    const m = metaOf(object);
    const details: JSONObject = { name: m.name ?? '' };
    if (store.type.gr.group) details['group'] = store.type.gr.group;
    details['kind'] = store.type.gr.resource;
    if (m.uid) details['uid'] = m.uid;
    return writeObject(r.res, code, { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', details }, neg);
  }
  respondObject(r, store, code, object, neg);
}

/** DeleteCollection: the answer is the list as it was read, before the deletes. */
async function deleteCollection(r: ResourceRequest, store: GenericStore, ns: string): Promise<void> {
  const neg = negotiate(r, 'list', store);
  const opts = await readDeleteOptions(r);
  const q = parseListQuery(r.query, false, fieldLabels(store), store.type.defaultFieldLabelConversion === true);
  const all = await store.deleteCollection(ns, { labelMatch: q.labelMatch, labelSelector: q.labelSelector, fieldMatch: q.fieldMatch }, opts, { user: r.user, latency: r });
  writeObject(r.res, 200, listObject(store, all), neg);
}

/** A []string as Go's %#v prints it in field errors. */
const goStringSlice = (v: string[]): object => ({ [GO_VALUE]: `[]string{${v.map(goQuote).join(', ')}}` });

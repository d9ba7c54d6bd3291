// The /scale subresource of custom resources (apiextensions ScaleREST behind crdHandler.serveScale): an
// autoscaling/v1 Scale read from the object through the CRD's paths, and updates or patches of that
// Scale written back as the object's spec replicas. The write is an update of the object itself, so
// its resourceVersion precondition, schema, validation rules and generation apply as to any other.
import * as S from '../api/status.js';
import { goQuote } from '../api/field-error.js';
import type { GenericStore } from '../registry/store.js';
import { metaOf } from '../registry/store.js';
import {
  applyJsonPatch,
  APPLY_PATCH,
  applyMergePatch,
  decodeApplyPatch,
  decodePatch,
  JSON_PATCH,
  MERGE_PATCH,
  patchInvalid,
  patchTypeFor,
  strictDecodingMessage,
  unknownServerError,
  type FieldValidation,
} from '../registry/patch.js';
import { goJsonMarshal } from '../util/go-json.js';
import type { TableConvertor } from '../registry/resource-type.js';
import type { JSONObject } from '../util/json.js';
import {
  checkScaleKind,
  decodeScale,
  GoError,
  ScaleDecodeError,
  scaleFromCustomResource,
  scaleToJSON,
  setNestedField,
  SCALE_API_VERSION,
  type DecodedScale,
  type Scale,
  type ScalePaths,
} from '../crd/scale.js';
import { decodeBody, type Negotiated, type StrictDecoding } from './negotiation.js';
import { reportStrictDecoding } from '../schema/unknown-fields.js';
import { readBody, writeObject } from './http.js';
import { partialObjectMetadata, toTable } from './table.js';
import { customResourceTableConvertor, scalePrinterColumns } from '../registry/table-convertors.js';
import { negotiate, tableOptions, writeQuery, type ResourceRequest } from './resource-handler.js';
import { toParent, toSubresource, type ReplicasPaths } from '../registry/field-manager/scale-mapping.js';
import { managedFieldsOf } from '../registry/managed-fields.js';
import { scaleFieldManager } from './merge-schema.js';

export type { ScalePaths } from '../crd/scale.js';

interface ScaleOptions {
  /** Patch content types the resource accepts (custom resources: no strategic merge patch). */
  patchTypes: readonly string[];
  /** The parent's replicas path at each of its versions, to carry managed fields between it and the Scale. */
  replicasPaths?: ReplicasPaths;
  /** Warnings added to every response (deprecated versions). */
  warnings?: readonly string[];
}

/** UpdatedObject's marker for "the object has no spec replicas" (the smallest int32). */
const INVALID_SPEC_REPLICAS = -2147483648;

/** The Scale table's columns (Desired, Available, Age), built once per CRD version's paths. */
const tables = new WeakMap<ScalePaths, TableConvertor>();
const scaleTable = (paths: ScalePaths): TableConvertor => {
  let t = tables.get(paths);
  if (!t) tables.set(paths, (t = customResourceTableConvertor(scalePrinterColumns(paths))));
  return t;
};

export async function serveScale(r: ResourceRequest, store: GenericStore, paths: ScalePaths, opts: ScaleOptions): Promise<void> {
  for (const w of opts.warnings ?? []) r.warn(w);
  switch (r.info.verb) {
    case 'get':
      return getScale(r, store, paths);
    case 'update':
      return updateScale(r, store, paths, opts);
    case 'patch':
      return patchScale(r, store, paths, opts);
  }
  // Which verbs reach here is decided by the router (served-verbs.ts).
  throw S.methodNotAllowed();
}

const namespaceOf = (r: ResourceRequest, store: GenericStore): string => (store.type.served.namespaced ? r.info.namespace : '');

/** scaleFromCustomResource where a Go error is passed on as it is (a 500 without a reason). */
function readScale(cr: JSONObject, paths: ScalePaths): { scale: Scale; replicasFound: boolean } {
  try {
    return scaleFromCustomResource(cr, paths);
  } catch (e) {
    if (e instanceof GoError) throw unknownServerError(e.message);
    throw e;
  }
}

function respond(r: ResourceRequest, paths: ScalePaths, scale: Scale, neg: Negotiated): void {
  const obj = scaleToJSON(scale);
  let out: JSONObject = obj;
  if (neg.transform?.as === 'Table') out = toTable(scaleTable(paths), [obj], { resourceVersion: scale.resourceVersion }, tableOptions(r, neg)!);
  else if (neg.transform?.as === 'PartialObjectMetadata') out = partialObjectMetadata(obj, neg.transform.version);
  writeObject(r.res, 200, out, neg);
}

async function getScale(r: ResourceRequest, store: GenericStore, paths: ScalePaths): Promise<void> {
  const neg = negotiate(r, 'object');
  const { scale, replicasFound } = readScale(await store.get(namespaceOf(r, store), r.info.name), paths);
  if (!replicasFound) throw S.internal(`the spec replicas field ${goQuote(paths.specReplicasPath)} does not exist`);
  respond(r, paths, scale, neg);
}

/** transformDecodeError's summarizeData: the body's start, as text when it looks like JSON, else hex. */
function summarize(body: Buffer): string {
  if (body.length === 0) return '<empty>';
  const head = body.subarray(0, 30);
  const text = body[0] === 0x7b ? head.toString('utf8') : head.toString('hex');
  return body.length > 30 ? `${text} ...` : text;
}

/** A PUT body decoded into autoscalingv1.Scale, with the update handler's 400s. */
function decodeScaleBody(r: ResourceRequest, body: Buffer, fieldValidation: FieldValidation, warnings: string[]): DecodedScale {
  const strict: StrictDecoding | undefined = fieldValidation === 'Ignore' ? undefined : { errors: [] };
  const decoded = decodeBody(r.req.headers['content-type'], body, { apiVersion: SCALE_API_VERSION, kind: 'Scale' }, strict);
  if (decoded instanceof S.StatusError) throw decoded;
  const cannotHandle = (kind: string, version: string, message: string): S.StatusError =>
    S.badRequest(`${kind} in version ${goQuote(version)} cannot be handled as a Scale: ${message}`);
  try {
    const kind = checkScaleKind(decoded);
    if ('unregistered' in kind) throw kind.unregistered;
    if ('wrongVersion' in kind) {
      throw S.badRequest(`the API version in the data (${kind.wrongVersion}) does not match the expected API version (${SCALE_API_VERSION})`);
    }
    const scale = decodeScale(decoded);
    reportStrictDecoding([...(strict?.errors ?? []), ...(strict ? scale.strictErrors : [])], fieldValidation, warnings, 'Scale', 'v1');
    return scale;
  } catch (e) {
    if (e instanceof GoError) throw cannotHandle('Scale', 'v1', e.message);
    if (e instanceof ScaleDecodeError) {
      if (e.kind) throw cannotHandle(e.kind, e.version, e.message);
      throw S.badRequest(`the object provided is unrecognized (must be of type Scale): ${e.message} (${summarize(body)})`);
    }
    throw e;
  }
}

/** The handlers' checkName: the Scale must name the object of the URL, in the URL's namespace. */
function checkName(scale: DecodedScale, name: string, ns: string, namespaceMismatch: string): void {
  if (!scale.name) throw S.badRequest(`the name of the object (${name} based on URL) was undeterminable: name must be provided`);
  if (scale.name !== name) throw S.badRequest(`the name of the object (${scale.name}) does not match the name on the URL (${name})`);
  if (ns && scale.namespace && scale.namespace !== ns) throw S.badRequest(namespaceMismatch);
}

/**
 * scaleUpdatedObjectInfo.UpdatedObject's second half: the client's Scale written into the object
 * (spec replicas, and its resourceVersion as the update's precondition).
 */
function writeBack(cr: JSONObject, scale: DecodedScale, paths: ScalePaths): JSONObject {
  if (scale.specReplicas === INVALID_SPEC_REPLICAS) throw S.badRequest(`the spec replicas field ${goQuote(paths.specReplicasPath)} cannot be empty`);
  try {
    setNestedField(cr, paths.specReplicasPath, scale.specReplicas);
  } catch (e) {
    if (e instanceof GoError) throw unknownServerError(e.message);
    throw e;
  }
  if (scale.resourceVersion) metaOf(cr).resourceVersion = scale.resourceVersion;
  return cr;
}

/** The object as written, answered as its Scale (ScaleREST.Update: a Go error there is a 400). */
function updatedScale(obj: JSONObject, paths: ScalePaths): Scale {
  try {
    return scaleFromCustomResource(obj, paths).scale;
  } catch (e) {
    if (e instanceof GoError) throw S.badRequest(e.message);
    throw e;
  }
}

async function updateScale(r: ResourceRequest, store: GenericStore, paths: ScalePaths, opts: ScaleOptions): Promise<void> {
  const neg = negotiate(r, 'object');
  const wq = writeQuery(r, 'UpdateOptions');
  const body = await readBody(r.req);
  const warnings: string[] = [];
  const scale = decodeScaleBody(r, body, wq.fieldValidation, warnings);
  const ns = namespaceOf(r, store);
  const name = r.info.name;
  // EnsureObjectNamespaceMatchesRequestNamespace, then checkName.
  if (ns && scale.namespace && scale.namespace !== ns) throw S.badRequest('the namespace of the provided object does not match the namespace sent on the request');
  checkName(scale, name, ns, 'the namespace of the provided object does not match the namespace sent on the request');
  const { object } = await store.update(
    ns,
    name,
    (current) => {
      if (!current) throw S.notFound(store.type.gr, name);
      const { scale: old } = readScale(current, paths); // the object's own Scale must be readable
      return writeBackManaged(current, old, async (oldJSON) => scaleFieldManager().update(oldJSON, withScale(old, scale), wq.manager), paths, opts);
    },
    'scale',
    { dryRun: wq.dryRun, warnings, user: r.user, latency: r },
  );
  for (const w of warnings) r.warn(w);
  respond(r, paths, updatedScale(object, paths), neg);
}

async function patchScale(r: ResourceRequest, store: GenericStore, paths: ScalePaths, opts: ScaleOptions): Promise<void> {
  const neg = negotiate(r, 'object');
  const body = await readBody(r.req);
  const patchType = patchTypeFor(r.req.headers['content-type'], { supported: opts.patchTypes });
  if (patchType instanceof S.StatusError) throw patchType;
  const wq = writeQuery(r, 'PatchOptions', patchType);
  const ns = namespaceOf(r, store);
  const name = r.info.name;
  const warnings: string[] = [];
  const { object } = await store.update(
    ns,
    name,
    (current) => {
      if (!current) throw S.notFound(store.type.gr, name);
      warnings.length = 0; // a conflict retry applies the patch again
      const { scale: old, replicasFound } = readScale(current, paths);
      // Marks "not set before": a patch that leaves spec replicas alone is then refused.
      if (!replicasFound) old.specReplicas = INVALID_SPEC_REPLICAS;
      const mismatch = (p: DecodedScale): string => `the namespace of the object (${p.namespace}) does not match the namespace on the request (${ns})`;
      return writeBackManaged(
        current,
        old,
        async (oldJSON) => {
          if (patchType === APPLY_PATCH) {
            const decoded = decodeApplyPatch(body);
            if (decoded instanceof S.StatusError) throw decoded;
            return scaleFieldManager().apply(oldJSON, decoded.patch as JSONObject, wq.fieldManager, wq.force ?? false);
          }
          const patched = applyScalePatch(oldJSON, patchType, body, wq.fieldValidation, warnings);
          checkName(patched, name, ns, mismatch(patched));
          return scaleFieldManager().update(oldJSON, withScale(old, patched), wq.manager);
        },
        paths,
        opts,
        (applied) => checkName(applied, name, ns, mismatch(applied)),
      );
    },
    'scale',
    { dryRun: wq.dryRun, warnings, user: r.user, latency: r },
  );
  for (const w of warnings) r.warn(w);
  respond(r, paths, updatedScale(object, paths), neg);
}

/** jsonPatcher.applyPatchToCurrentObject over the Scale: patch its JSON, decode the result as a Scale. */
/** A Scale as JSON with what a client's Scale sets (name, namespace, resourceVersion, spec replicas). */
const withScale = (old: Scale, d: DecodedScale): JSONObject => scaleToJSON({ ...old, name: d.name, namespace: d.namespace, resourceVersion: d.resourceVersion, specReplicas: d.specReplicas });

/**
 * scaleUpdatedObjectInfo.UpdatedObject: the object's Scale, carrying the parent's owners of its replicas as
 * Scale owners, goes through `write` (the Scale field manager's update or apply); the Scale that comes out
 * sets the parent's replicas and, mapped back, its managed fields.
 */
async function writeBackManaged(
  cr: JSONObject,
  old: Scale,
  write: (oldScale: JSONObject) => Promise<JSONObject>,
  paths: ScalePaths,
  opts: ScaleOptions,
  check?: (scale: DecodedScale) => void,
): Promise<JSONObject> {
  const mappings = opts.replicasPaths ?? new Map();
  const parentEntries = managedFieldsOf(metaOf(cr) as JSONObject) ?? [];
  const scaleEntries = toSubresource(parentEntries, mappings);
  if (scaleEntries instanceof Error) throw unknownServerError(scaleEntries.message);
  const oldJSON = scaleToJSON(old);
  if (scaleEntries.length) (oldJSON['metadata'] as JSONObject)['managedFields'] = scaleEntries as unknown as JSONObject[];
  const written = await write(oldJSON);
  let scale: DecodedScale;
  try {
    scale = decodeScale(written);
  } catch (e) {
    if (e instanceof GoError || e instanceof ScaleDecodeError) throw S.badRequest(e.message);
    throw e;
  }
  check?.(scale);
  const out = writeBack(cr, scale, paths);
  const apiVersion = String(cr['apiVersion'] ?? '');
  const entries = toParent(parentEntries, managedFieldsOf(metaOf(written) as JSONObject) ?? [], mappings, apiVersion);
  if (entries instanceof Error) throw unknownServerError(entries.message);
  if (entries) metaOf(out).managedFields = entries;
  else delete metaOf(out).managedFields;
  return out;
}

function applyScalePatch(current: JSONObject, type: string, body: Buffer, fieldValidation: FieldValidation, warnings: string[]): DecodedScale {
  if (type !== JSON_PATCH && type !== MERGE_PATCH) throw S.unsupportedMediaType([JSON_PATCH, MERGE_PATCH]);
  const decoded = decodePatch(type, body, fieldValidation);
  if (decoded instanceof S.StatusError) throw decoded;
  let patched: unknown;
  if (decoded.type === JSON_PATCH) patched = applyJsonPatch(current, decoded.operations);
  else if (decoded.type === MERGE_PATCH) patched = applyMergePatch(current, decoded.patch);
  if (patched instanceof S.StatusError) throw patched;
  const rendered = (): string => goJsonMarshal(patched);
  let scale: DecodedScale;
  try {
    const kind = checkScaleKind(patched);
    if ('unregistered' in kind) throw new GoError(kind.unregistered.message);
    scale = decodeScale(patched);
  } catch (e) {
    if (e instanceof GoError || e instanceof ScaleDecodeError) throw patchInvalid(rendered(), e.message);
    throw e;
  }
  // The patch's own strict errors (duplicate fields), then the decoder's (unknown fields).
  const strictErrors = [...decoded.strictErrors, ...(fieldValidation === 'Ignore' ? [] : scale.strictErrors)];
  if (strictErrors.length > 0) {
    if (fieldValidation === 'Strict') throw patchInvalid(rendered(), strictDecodingMessage(strictErrors));
    if (fieldValidation === 'Warn') warnings.push(...strictErrors);
  }
  return scale;
}

// The /scale subresource of custom resources (apiextensions ScaleREST): an autoscaling/v1 Scale read
// from the object through the CRD's specReplicasPath, statusReplicasPath and labelSelectorPath, and
// written back by setting spec replicas on the object, which then goes through the resource's own
// update (validation, rules, generation) like any other write.
import * as S from '../api/status.js';
import type { GenericStore } from '../registry/store.js';
import { metaOf } from '../registry/store.js';
import { applyJsonPatch, applyMergePatch, decodePatch, JSON_PATCH, MERGE_PATCH, patchTypeFor, STRATEGIC_MERGE_PATCH } from '../registry/patch.js';
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';
import { decodeBody, negotiateOutput } from './negotiation.js';
import { addWarning, readBody, writeObject } from './http.js';
import type { ResourceRequest } from './resource-handler.js';

export interface ScalePaths {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

// Scale patches are applied to a typed built-in object: strategic merge works there, and for Scale's
// plain fields it is a merge patch.
const SCALE_PATCH_TYPES = [JSON_PATCH, MERGE_PATCH, STRATEGIC_MERGE_PATCH];
const SCALE_GV = 'autoscaling/v1';
/** UpdatedObject's marker for "spec replicas not set on the object" (the smallest int32). */
const INVALID_SPEC_REPLICAS = -2147483648;

const fieldsOf = (path: string): string[] => path.replace(/^\./, '').split('.');

/** unstructured.NestedFieldNoCopy: the value at fields, or undefined. */
function nested(obj: JSONObject, fields: string[]): { found: boolean; value?: unknown } {
  let cur: unknown = obj;
  for (const f of fields) {
    if (!isObject(cur) || !Object.hasOwn(cur, f)) return { found: false };
    cur = cur[f];
  }
  return { found: true, value: cur };
}

const goType = (v: unknown): string =>
  typeof v === 'string' ? 'string' : typeof v === 'boolean' ? 'bool' : typeof v === 'number' ? (Number.isInteger(v) ? 'int64' : 'float64') : Array.isArray(v) ? '[]interface {}' : v === null ? '<nil>' : 'map[string]interface {}';

/** NestedInt64 / NestedString: found and typed, absent, or kube's accessor error. */
function nestedTyped(obj: JSONObject, path: string, want: 'int64' | 'string'): { found: boolean; value?: number | string } {
  const fields = fieldsOf(path);
  const r = nested(obj, fields);
  if (!r.found) return { found: false };
  const ok = want === 'int64' ? typeof r.value === 'number' && Number.isInteger(r.value) : typeof r.value === 'string';
  if (!ok) {
    const shown = typeof r.value === 'object' && r.value !== null ? JSON.stringify(r.value) : r.value === null ? '<nil>' : String(r.value);
    throw S.internal(`.${fields.join('.')} accessor error: ${shown} is of the type ${goType(r.value)}, expected ${want}`);
  }
  return { found: true, value: r.value as number | string };
}

/** int32(x) as Go converts an int64: wrapped into 32 bits. */
const int32 = (n: number): number => Number(BigInt.asIntN(32, BigInt(n)));

/** scaleFromCustomResource: the Scale, and whether spec replicas was set. */
export function scaleFromCustomResource(cr: JSONObject, paths: ScalePaths): { scale: JSONObject; replicasFound: boolean } {
  const spec = nestedTyped(cr, paths.specReplicasPath, 'int64');
  const status = nestedTyped(cr, paths.statusReplicasPath, 'int64');
  const selector = paths.labelSelectorPath ? nestedTyped(cr, paths.labelSelectorPath, 'string') : { found: false };
  const m = metaOf(cr);
  const metadata: JSONObject = { name: m.name };
  if (m.namespace) metadata['namespace'] = m.namespace;
  metadata['uid'] = m.uid;
  metadata['resourceVersion'] = m.resourceVersion;
  metadata['creationTimestamp'] = m.creationTimestamp ?? null;
  const specReplicas = spec.found ? int32(spec.value as number) : 0;
  const scaleStatus: JSONObject = { replicas: status.found ? int32(status.value as number) : 0 };
  if (selector.found && selector.value !== '') scaleStatus['selector'] = selector.value;
  return {
    scale: { kind: 'Scale', apiVersion: SCALE_GV, metadata, spec: specReplicas !== 0 ? { replicas: specReplicas } : {}, status: scaleStatus },
    replicasFound: spec.found,
  };
}

/** unstructured.SetNestedField: creates the maps on the way. */
function setNested(obj: JSONObject, fields: string[], value: unknown): void {
  let cur: JSONObject = obj;
  for (const f of fields.slice(0, -1)) {
    const next = cur[f];
    if (isObject(next)) cur = next;
    else {
      const created: JSONObject = {};
      cur[f] = created;
      cur = created;
    }
  }
  cur[fields[fields.length - 1]!] = value;
}

/** The replicas of a Scale written by the client, checked as decoding into autoscaling/v1 Scale would. */
function replicasOf(scale: unknown): { replicas: number; resourceVersion?: string } {
  if (!isObject(scale)) throw S.badRequest('the body of the request was in an unknown format');
  const spec = scale['spec'];
  const raw = isObject(spec) ? spec['replicas'] : undefined;
  if (raw !== undefined && raw !== null && !(typeof raw === 'number' && Number.isInteger(raw) && raw >= -2147483648 && raw <= 2147483647)) {
    throw S.badRequest(`Scale in version "v1" cannot be handled as a Scale: json: cannot unmarshal ${typeof raw === 'number' ? 'number ' + String(raw) : typeof raw === 'string' ? 'string' : 'object'} into Go struct field ScaleSpec.spec.replicas of type int32`);
  }
  const meta = scale['metadata'];
  const rv = isObject(meta) && typeof meta['resourceVersion'] === 'string' && meta['resourceVersion'] !== '' ? meta['resourceVersion'] : undefined;
  return rv === undefined ? { replicas: typeof raw === 'number' ? raw : 0 } : { replicas: typeof raw === 'number' ? raw : 0, resourceVersion: rv };
}

export async function serveScale(r: ResourceRequest, store: GenericStore, paths: ScalePaths): Promise<void> {
  const { info } = r;
  const ns = store.type.served.namespaced ? info.namespace : '';
  const neg = negotiateOutput(r.req.headers.accept, false, false);
  if (neg instanceof S.StatusError) throw neg;
  if (info.verb === 'get') {
    const { scale, replicasFound } = scaleFromCustomResource(await store.get(ns, info.name), paths);
    if (!replicasFound) throw S.internal(`the spec replicas field ${JSON.stringify(paths.specReplicasPath)} does not exist`);
    return writeObject(r.res, 200, scale, neg);
  }
  if (info.verb !== 'update' && info.verb !== 'patch') throw S.methodNotAllowed();
  const dryRun = r.query.getAll('dryRun');
  if (dryRun.some((d) => d !== 'All')) throw S.invalid('meta.k8s.io', info.verb === 'update' ? 'UpdateOptions' : 'PatchOptions', '', [{ type: 'FieldValueNotSupported', field: 'dryRun', detail: 'supported values: "All"', badValue: dryRun }]);
  const body = await readBody(r.req);
  // The client's new Scale, given the Scale of the object as it is now.
  let next: (old: JSONObject) => unknown;
  if (info.verb === 'update') {
    const decoded = decodeBody(r.req.headers['content-type'], body, { apiVersion: SCALE_GV, kind: 'Scale' });
    if (decoded instanceof S.StatusError) throw decoded;
    if (isObject(decoded) && decoded['apiVersion'] !== undefined && decoded['apiVersion'] !== SCALE_GV) {
      throw S.badRequest(`the API version in the data (${String(decoded['apiVersion'])}) does not match the expected API version (${SCALE_GV})`);
    }
    next = () => decoded;
  } else {
    const type = patchTypeFor(r.req.headers['content-type'], { supported: SCALE_PATCH_TYPES, builtIn: true });
    if (type instanceof S.StatusError) throw type;
    const patch = decodePatch(type === STRATEGIC_MERGE_PATCH ? MERGE_PATCH : type, body);
    if (patch instanceof S.StatusError) throw patch;
    next = (old) => {
      const out = patch.type === JSON_PATCH ? applyJsonPatch(old, patch.operations) : patch.type === MERGE_PATCH ? applyMergePatch(old, patch.patch) : S.badRequest(`unsupported patch type ${patch.type}`);
      if (out instanceof S.StatusError) throw out;
      return out;
    };
  }
  const warnings: string[] = [];
  const { object } = await store.update(
    ns,
    info.name,
    (current) => {
      if (!current) throw S.notFound(store.type.gr, info.name);
      const { scale: oldScale, replicasFound } = scaleFromCustomResource(current, paths);
      // Signal "not set before", so that a patch that leaves replicas alone is refused below.
      if (!replicasFound) oldScale['spec'] = { replicas: INVALID_SPEC_REPLICAS };
      const scale = replicasOf(next(oldScale));
      if (scale.replicas === INVALID_SPEC_REPLICAS) throw S.badRequest(`the spec replicas field ${JSON.stringify(paths.specReplicasPath)} cannot be empty`);
      setNested(current, fieldsOf(paths.specReplicasPath), scale.replicas);
      // A resourceVersion in the Scale is a precondition on the object.
      if (scale.resourceVersion !== undefined) metaOf(current).resourceVersion = scale.resourceVersion;
      return current;
    },
    '',
    { dryRun: dryRun.length > 0, warnings },
  );
  for (const w of warnings) addWarning(r.res, w);
  writeObject(r.res, 200, scaleFromCustomResource(object, paths).scale, neg);
}

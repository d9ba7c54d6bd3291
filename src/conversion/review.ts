// ConversionReview requests and the checks kube-apiserver applies to a webhook's answer
// (apiextensions-apiserver pkg/apiserver/conversion/webhook_converter.go), as pure functions.
import type { JSONObject } from '../util/json.js';
import { isObject, deepCopyJSON } from '../util/json.js';
import { aggregate } from '../api/field-error.js';
import { validateAnnotations, validateLabels } from '../schema/objectmeta.js';

const REVIEW_GROUP = 'apiextensions.k8s.io';
/** The ConversionReview versions this server sends, as kube's client manager registers them. */
const SUPPORTED = new Set(['v1', 'v1beta1']);

/** The first of the CRD's conversionReviewVersions we can send. */
export function pickReviewVersion(versions: readonly string[]): string | undefined {
  return versions.find((v) => SUPPORTED.has(v));
}

export function conversionReview(version: string, uid: string, desiredAPIVersion: string, objects: readonly JSONObject[]): JSONObject {
  return { kind: 'ConversionReview', apiVersion: `${REVIEW_GROUP}/${version}`, request: { uid, desiredAPIVersion, objects } };
}

/** `group/version, Kind=kind`, as schema.GroupVersionKind prints. */
export function gvkString(obj: JSONObject): string {
  const av = typeof obj['apiVersion'] === 'string' ? obj['apiVersion'] : '';
  const kind = typeof obj['kind'] === 'string' ? obj['kind'] : '';
  return `${av}, Kind=${kind}`;
}

/** getConvertedObjectsFromResponse: the converted objects, or the error kube reports. */
export function convertedObjects(version: string, expectedUID: string, review: unknown): JSONObject[] | Error {
  if (!isObject(review)) return new Error('no response provided');
  if (version === 'v1') {
    const got = gvkString(review);
    const want = `${REVIEW_GROUP}/v1, Kind=ConversionReview`;
    if (got !== want) return new Error(`expected webhook response of ${want}, got ${got}`);
  }
  const response = review['response'];
  if (!isObject(response)) return new Error('no response provided');
  // The v1beta1 types carry no uid check in kube.
  if (version === 'v1' && response['uid'] !== expectedUID) {
    return new Error(`expected response.uid=${JSON.stringify(expectedUID)}, got ${JSON.stringify(typeof response['uid'] === 'string' ? response['uid'] : '')}`);
  }
  const result = isObject(response['result']) ? response['result'] : {};
  if (result['status'] !== 'Success') {
    if (typeof result['message'] === 'string' && result['message'].length > 0) return new Error(result['message']);
    return new Error(`response.result.status was '${typeof result['status'] === 'string' ? result['status'] : ''}', not 'Success'`);
  }
  const objs = response['convertedObjects'];
  if (objs === undefined || objs === null) return [];
  if (!Array.isArray(objs)) return new Error('json: cannot unmarshal into Go struct field ConversionResponse.response.convertedObjects');
  return objs as JSONObject[];
}

const strField = (obj: JSONObject, f: string): string => (typeof obj[f] === 'string' ? (obj[f] as string) : '');
const metaField = (obj: JSONObject, f: string): string => {
  const m = obj['metadata'];
  return isObject(m) && typeof m[f] === 'string' ? (m[f] as string) : '';
};

/** validateConvertedObject: kind, name, namespace and uid must not change. */
export function checkConvertedIdentity(original: JSONObject, converted: JSONObject): string | undefined {
  if (strField(original, 'kind') !== strField(converted, 'kind')) return `must have the same kind: ${strField(original, 'kind')} != ${strField(converted, 'kind')}`;
  for (const [f, label] of [['name', 'name'], ['namespace', 'namespace'], ['uid', 'UID']] as const) {
    const a = metaField(original, f);
    const b = metaField(converted, f);
    if (a !== b) return `must have the same ${label}: ${a} != ${b}`;
  }
  return undefined;
}

const goType = (v: unknown): string =>
  typeof v === 'string' ? 'string' : typeof v === 'boolean' ? 'bool' : typeof v === 'number' || typeof v === 'bigint' ? 'float64' : Array.isArray(v) ? '[]interface {}' : '<nil>';

/**
 * restoreObjectMeta: the original metadata comes back, with the webhook's labels and annotations (validated
 * when they changed). Returns the converted object's new metadata, or the error text.
 */
export function restoredMetadata(original: JSONObject, converted: JSONObject): JSONObject | string {
  if (!Object.hasOwn(converted, 'metadata')) return 'missing metadata in converted object';
  const response = converted['metadata'];
  if (!isObject(response)) return `invalid metadata of type ${response === null ? '<nil>' : goType(response)} in converted object`;
  const out: JSONObject = isObject(original['metadata']) ? deepCopyJSON(original['metadata']) : {};
  for (const fld of ['labels', 'annotations'] as const) {
    const value = response[fld];
    if (value === undefined || value === null) {
      delete out[fld];
      continue;
    }
    if (!isObject(value)) return `invalid metadata.${fld} of type ${goType(value)} in converted object`;
    const before = isObject(out[fld]) ? (out[fld] as Record<string, unknown>) : {};
    let changed = Object.keys(before).length !== Object.keys(value).length;
    for (const [k, v] of Object.entries(value)) {
      if (typeof v !== 'string') return `metadata.${fld}[${k}] must be a string, but is ${goType(v)} in converted object`;
      if (before[k] !== v) changed = true;
    }
    if (changed) {
      const map = value as Record<string, string>;
      const errs = fld === 'labels' ? validateLabels(map, 'metadata.labels') : validateAnnotations(map, 'metadata.annotation');
      if (errs.length > 0) return aggregate(errs);
    }
    out[fld] = value;
  }
  return out;
}

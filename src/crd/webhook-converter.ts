// The converter of a CRD with conversion strategy Webhook: objects not yet at the desired version go to the
// webhook in one ConversionReview, and its answer is checked and merged back as kube-apiserver does
// (webhook_converter.go): same count and order, desired apiVersion, same kind, name, namespace and uid;
// labels and annotations taken from the webhook, every other metadata change ignored.
import { randomUUID } from 'node:crypto';
import type { JSONObject } from '../util/json.js';
import { isObject, deepCopyJSON } from '../util/json.js';
import { plainError } from '../api/status.js';
import type { CustomResourceDefinition } from './types.js';
import type { ConvertObjects, ServiceResolver } from '../conversion/types.js';
import { checkConvertedIdentity, conversionReview, convertedObjects, gvkString, pickReviewVersion, restoredMetadata } from '../conversion/review.js';
import { postReview, webhookTarget, type WebhookTarget } from '../conversion/webhook-client.js';
import { stringifyJSON } from '../util/json-int64.js';

/** Told of each conversion between two versions (kube's apiserver_crd_conversion_webhook_duration_seconds). */
export type ConversionObserver = (crdName: string, fromVersion: string, toVersion: string, succeeded: boolean, seconds: number) => void;

export function webhookConverter(crd: CustomResourceDefinition, resolver: ServiceResolver, observe?: ConversionObserver): ConvertObjects {
  const convert = converter(crd, resolver);
  if (!observe) return convert;
  const crdName = crd.metadata.name ?? '';
  const versionOf = (apiVersion: unknown): string => (typeof apiVersion === 'string' ? apiVersion.slice(apiVersion.indexOf('/') + 1) : '');
  return async (objects, desiredAPIVersion) => {
    // kube times each conversion whose source version differs from the target (none to do: no observation).
    const from = objects.find((o) => o['apiVersion'] !== desiredAPIVersion);
    if (!from) return convert(objects, desiredAPIVersion);
    const start = performance.now();
    let succeeded = false;
    try {
      const out = await convert(objects, desiredAPIVersion);
      succeeded = true;
      return out;
    } finally {
      observe(crdName, versionOf(from['apiVersion']), versionOf(desiredAPIVersion), succeeded, (performance.now() - start) / 1000);
    }
  };
}

function converter(crd: CustomResourceDefinition, resolver: ServiceResolver): ConvertObjects {
  const webhook = crd.spec.conversion?.webhook;
  const reviewVersions = webhook?.conversionReviewVersions ?? [];
  let target: WebhookTarget | undefined;
  let targetError: string | undefined;
  try {
    target = webhook?.clientConfig ? webhookTarget(webhook.clientConfig, resolver) : undefined;
  } catch (e) {
    targetError = (e as Error).message;
  }

  return async (objects, desiredAPIVersion) => {
    const todo: number[] = [];
    objects.forEach((o, i) => {
      if (o['apiVersion'] !== desiredAPIVersion) todo.push(i);
    });
    if (todo.length === 0) return objects.slice();
    const sent = todo.map((i) => objects[i]!);
    const gvk = gvkString(sent[0]!);
    const version = pickReviewVersion(reviewVersions);
    if (!version) throw plainError('no supported conversion review versions');
    if (!target) throw plainError(`conversion webhook for ${gvk} failed: ${targetError ?? 'no webhook client configuration'}`);

    const uid = randomUUID();
    let answer: unknown;
    try {
      answer = await postReview(target, conversionReview(version, uid, desiredAPIVersion, sent));
    } catch (e) {
      throw plainError(`conversion webhook for ${gvk} failed: ${(e as Error).message}`);
    }
    const converted = convertedObjects(version, uid, answer);
    if (converted instanceof Error) throw plainError(`conversion webhook for ${gvk} failed: ${converted.message}`);
    // kube converts one object or a list; we send a batch, worded as a list when it holds more than one.
    // The count is checked first for both (kube's single-object "no objects returned" is unreachable).
    const single = sent.length === 1;
    if (converted.length !== sent.length) throw plainError(`conversion webhook for ${gvk} returned ${converted.length} objects, expected ${sent.length}`);

    const out = objects.slice();
    todo.forEach((at, i) => {
      const original = sent[i]!;
      const raw = converted[i];
      const invalid = (detail: string): Error =>
        plainError(single ? `conversion webhook for ${gvk} returned invalid object at index 0: ${detail}` : `conversion webhook for ${gvk} returned invalid converted object at index ${i}: ${detail}`);
      if (!isObject(raw)) throw single ? plainError(`Object 'Kind' is missing in '${stringifyJSON(raw)}'`) : invalid(`Object 'Kind' is missing in '${stringifyJSON(raw)}'`);
      const obj = deepCopyJSON(raw) as JSONObject;
      const got = typeof obj['apiVersion'] === 'string' ? obj['apiVersion'] : '';
      if (got !== desiredAPIVersion) throw invalid(`invalid groupVersion (expected ${desiredAPIVersion}, received ${got})`);
      const kind = (o: JSONObject): string => (typeof o['kind'] === 'string' ? o['kind'] : '');
      if (kind(obj) !== kind(original)) throw invalid(`invalid kind (expected ${kind(original)}, received ${kind(obj)})`);
      const identity = checkConvertedIdentity(original, obj);
      if (identity) {
        throw plainError(single ? `conversion webhook for ${gvk} returned invalid object: ${identity}` : `conversion webhook for ${gvk} returned invalid converted object at index ${i}: ${identity}`);
      }
      const meta = restoredMetadata(original, obj);
      if (typeof meta === 'string') {
        throw plainError(single ? `conversion webhook for ${gvk} returned invalid metadata: ${meta}` : `conversion webhook for ${gvk} returned invalid metadata in object at index ${i}: ${meta}`);
      }
      obj['metadata'] = meta;
      out[at] = obj;
    });
    return out;
  };
}

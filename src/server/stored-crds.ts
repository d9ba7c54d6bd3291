// CustomResourceDefinitions in etcd. kube-apiserver stores them as JSON (apiextensions' LegacyCodec), at
// apiextensions.k8s.io/v1beta1 (its EncodeVersioner prefers the more compact v1beta1, issue 82292); we
// store v1, which kube-apiserver reads as well. A v1beta1 CRD that kube-apiserver wrote to a shared etcd is
// read as the v1 JSON our registry would have written for it, and is stale (the next update stores v1).
import type { ObjectCodec } from '../storage/etcd-value-codec.js';
import { crdKind } from '../apis/apiextensions/v1/custom-resource-definition.js';
import { crdToV1 } from '../crd/v1beta1.js';
import { typedOrder } from '../registry/typed-order.js';
import { parseJSON, stringifyJSON } from '../util/json-int64.js';
import { isObject, type JSONObject } from '../util/json.js';

export const CRD_KEY_PREFIX = crdKind.keyPrefix;

const V1BETA1 = '"apiVersion":"apiextensions.k8s.io/v1beta1"';
const order = typedOrder(crdKind.object);

/** The v1 JSON the registry stores for a CRD kube-apiserver stored at v1beta1 (its empty resourceVersion in place). */
export function storedV1(v1beta1: JSONObject): string {
  const obj = crdToV1(v1beta1);
  const meta = isObject(obj['metadata']) ? obj['metadata'] : {};
  return stringifyJSON(order({ ...obj, metadata: { ...meta, resourceVersion: '' } }));
}

export const storedCRDCodec: ObjectCodec = {
  encode: () => undefined,
  decode: () => {
    throw new Error('a CustomResourceDefinition stored as protobuf (kube-apiserver stores them as JSON)');
  },
  readText(text) {
    // Ours are v1; only kube-apiserver's carry v1beta1 (Go writes apiVersion second, without spaces).
    if (!text.includes(V1BETA1)) return { value: text };
    const obj = parseJSON(text);
    if (!isObject(obj) || obj['apiVersion'] !== 'apiextensions.k8s.io/v1beta1') return { value: text };
    return { value: storedV1(obj), stale: true };
  },
};

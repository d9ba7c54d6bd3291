// CustomResourceDefinitions in etcd, as kube-apiserver 1.33 stores them: JSON (apiextensions' LegacyCodec)
// at apiextensions.k8s.io/v1beta1 (its EncodeVersioner prefers v1beta1, issue 82292), converted v1 →
// internal → v1beta1 as apiextensions-apiserver converts (src/crd/v1beta1.ts: per-version schemas,
// subresources, columns and selectable fields that every version shares move to the spec), in Go's field
// order with Go's omitempty, as encoding/json's Encoder writes it (`<`, `>`, `&` escaped, a newline at the
// end). The resourceVersion is left out, as kube's storage clears it; managedFields are kept as they are.
//
// Reading gives the v1 JSON our registry stores, from v1beta1 (ours or kube-apiserver's) and from v1 (what
// earlier versions of this server wrote, which kube-apiserver reads too; stale, so the next update rewrites
// it as v1beta1). Maps keep their order both ways (kube's keys are sorted; so are ours when the client's were).
//
// v1beta1 cannot say everything our v1 text does: an explicit `preserveUnknownFields: false` (v1's bool
// leaves false out, v1beta1's pointer always writes it) and fields the Go types do not declare. So every
// write is read back, and a CRD whose v1beta1 form does not give its very text back is stored as v1 JSON
// (which kube-apiserver reads as well): nothing is lost.
import type { DecodedValue, ObjectCodec } from '../storage/etcd-value-codec.js';
import { goEncode, type GoEncodeOptions } from '../api/go-encode.js';
import { crdKind } from '../apis/apiextensions/v1/custom-resource-definition.js';
import { crdV1beta1Kind } from '../apis/apiextensions/v1beta1/custom-resource-definition.js';
import { crdToV1, crdToV1beta1, V1 } from '../crd/v1beta1.js';
import { parseJSON, stringifyJSON } from '../util/json-int64.js';
import { isObject, type JSONObject } from '../util/json.js';
import { withResourceVersionSlot } from './protobuf-storage.js';

export const CRD_KEY_PREFIX = crdKind.keyPrefix;

const KIND = 'CustomResourceDefinition';
const V1BETA1 = 'apiextensions.k8s.io/v1beta1';
/** How Go writes a v1beta1 value's apiVersion (second, without spaces): a v1 text never holds it. */
const V1BETA1_MEMBER = `"apiVersion":"${V1BETA1}"`;
const KEEP_ORDER: GoEncodeOptions = { keepMapOrder: true };

const parseObject = (text: string): JSONObject | undefined => {
  try {
    const v = parseJSON(text);
    return isObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
};

/** encoding/json's HTML-safe escapes; these characters only occur inside strings. */
const escapeHTML = (json: string): string => json.replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);

/** The etcd value kube-apiserver writes for a v1 CRD: its v1beta1 JSON, as the Encoder writes it. */
export function storedV1beta1(v1: JSONObject): string {
  const body = goEncode(crdV1beta1Kind.object, crdToV1beta1(v1), KEEP_ORDER);
  return `${escapeHTML(stringifyJSON({ kind: KIND, apiVersion: V1BETA1, ...body }))}\n`;
}

/** The v1 JSON the registry stores for a CRD stored at v1beta1 (its empty resourceVersion in place); takes `v1beta1` over. */
export function storedV1(v1beta1: JSONObject): string {
  const body = goEncode(crdKind.object, crdToV1(v1beta1, { owned: true }), KEEP_ORDER);
  if (isObject(body['metadata'])) body['metadata'] = withResourceVersionSlot(body['metadata']);
  return stringifyJSON({ kind: KIND, apiVersion: V1, ...body });
}

/** The v1beta1 value to store for the registry's v1 text, or undefined: store the text (not a v1 CRD, or not said the same at v1beta1). */
function toV1beta1(json: string): string | undefined {
  const obj = parseObject(json);
  if (!obj || obj['apiVersion'] !== V1 || obj['kind'] !== KIND) return undefined;
  const stored = storedV1beta1(obj);
  const back = parseObject(stored);
  return back && storedV1(back) === json ? stored : undefined;
}

export const storedCRDCodec: ObjectCodec = {
  encode(json) {
    const stored = toV1beta1(json);
    return stored === undefined ? undefined : Buffer.from(stored, 'utf8');
  },
  decode: () => {
    throw new Error('a CustomResourceDefinition stored as protobuf (kube-apiserver stores them as JSON)');
  },
  readText(text): DecodedValue {
    if (text.includes(V1BETA1_MEMBER)) {
      const obj = parseObject(text);
      if (obj && obj['apiVersion'] === V1BETA1) return { value: storedV1(obj) };
    }
    // v1 (an earlier version's): rewritten by the next update when v1beta1 holds it whole.
    return toV1beta1(text) === undefined ? { value: text } : { value: text, stale: true };
  },
};

// apiextensions.k8s.io/v1beta1 CustomResourceDefinitions (removed from Kubernetes in 1.22, served here for
// the older manifests): their defaults and the conversion to and from v1, as kube 1.21 did them through the
// internal form. v1beta1 has top-level `version`, `validation`, `subresources`, `additionalPrinterColumns`
// (columns with `JSONPath`) and `selectableFields` used by every version that has none of its own,
// `conversion.webhookClientConfig` and `conversion.conversionReviewVersions`, and `preserveUnknownFields`
// defaulting to true.
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';
import { toInternalSpec } from './internal.js';
import type { CustomResourceDefinitionSpec } from './types.js';

const V1BETA1 = 'apiextensions.k8s.io/v1beta1';
export const V1 = 'apiextensions.k8s.io/v1';

const columnToV1 = (c: unknown): unknown => {
  if (!isObject(c)) return c;
  const { JSONPath, ...rest } = c;
  return JSONPath === undefined ? rest : { ...rest, jsonPath: JSONPath };
};
const columnToV1beta1 = (c: unknown): unknown => {
  if (!isObject(c)) return c;
  const { jsonPath, ...rest } = c;
  return jsonPath === undefined ? rest : { ...rest, JSONPath: jsonPath };
};

/** SetDefaults_CustomResourceDefinitionSpec of v1beta1 (and the service port), in place. */
function defaultV1beta1Spec(spec: JSONObject): void {
  if (!spec['scope']) spec['scope'] = 'Namespaced';
  const names = isObject(spec['names']) ? spec['names'] : undefined;
  if (names && typeof names['kind'] === 'string') {
    if (!names['singular']) names['singular'] = names['kind'].toLowerCase();
    if (!names['listKind'] && names['kind']) names['listKind'] = `${names['kind']}List`;
  }
  const versions = Array.isArray(spec['versions']) ? spec['versions'] : [];
  if (versions.length === 0 && typeof spec['version'] === 'string' && spec['version']) {
    spec['versions'] = [{ name: spec['version'], served: true, storage: true }];
  }
  const vs = spec['versions'] as JSONObject[] | undefined;
  if (!spec['version'] && vs && vs.length > 0 && isObject(vs[0])) spec['version'] = vs[0]['name'];
  if (!isObject(spec['conversion'])) spec['conversion'] = { strategy: 'None' };
  const conv = spec['conversion'] as JSONObject;
  if (conv['strategy'] === 'Webhook' && !(Array.isArray(conv['conversionReviewVersions']) && conv['conversionReviewVersions'].length > 0)) {
    conv['conversionReviewVersions'] = ['v1beta1'];
  }
  const cc = isObject(conv['webhookClientConfig']) ? conv['webhookClientConfig'] : undefined;
  if (cc && isObject(cc['service']) && cc['service']['port'] == null) cc['service']['port'] = 443;
  if (spec['preserveUnknownFields'] === undefined || spec['preserveUnknownFields'] === null) spec['preserveUnknownFields'] = true;
}

/** A (defaulted) v1beta1 spec as v1: top-level fields copied (by `copy`) into every version that has none. */
function specToV1(spec: JSONObject, copy: <T>(v: T) => T): JSONObject {
  const { version: _version, validation, subresources, additionalPrinterColumns, selectableFields, conversion, versions, preserveUnknownFields, ...rest } = spec;
  const out: JSONObject = { ...rest };
  out['versions'] = (Array.isArray(versions) ? versions : []).map((v) => {
    if (!isObject(v)) return v;
    const x: JSONObject = { ...v };
    if (x['schema'] == null && validation != null) x['schema'] = copy(validation);
    if (x['subresources'] == null && subresources != null) x['subresources'] = copy(subresources);
    if (x['selectableFields'] == null && selectableFields != null) x['selectableFields'] = copy(selectableFields);
    const cols = x['additionalPrinterColumns'] ?? additionalPrinterColumns;
    if (Array.isArray(cols)) x['additionalPrinterColumns'] = cols.map(columnToV1);
    else delete x['additionalPrinterColumns'];
    return x;
  });
  if (isObject(conversion)) {
    const { webhookClientConfig, conversionReviewVersions, ...c } = conversion;
    const v1conv: JSONObject = { ...c };
    if (webhookClientConfig != null || conversionReviewVersions != null) {
      const webhook: JSONObject = {};
      if (webhookClientConfig != null) webhook['clientConfig'] = webhookClientConfig;
      if (conversionReviewVersions != null) webhook['conversionReviewVersions'] = conversionReviewVersions;
      v1conv['webhook'] = webhook;
    }
    out['conversion'] = v1conv;
  }
  // v1's plain bool: false is left out.
  if (preserveUnknownFields === true) out['preserveUnknownFields'] = true;
  return out;
}

/** A v1 spec as v1beta1: per-version values that all versions share move to the top level. */
function specToV1beta1(spec: JSONObject): JSONObject {
  const internal = toInternalSpec(spec as unknown as CustomResourceDefinitionSpec);
  const out: JSONObject = { group: internal.group, names: internal.names, scope: internal.scope };
  if (internal.validation) out['validation'] = internal.validation;
  if (internal.subresources) out['subresources'] = internal.subresources;
  out['versions'] = internal.versions.map((v) => {
    const x: JSONObject = { ...(v as unknown as JSONObject) };
    if (Array.isArray(x['additionalPrinterColumns'])) x['additionalPrinterColumns'] = x['additionalPrinterColumns'].map(columnToV1beta1);
    return x;
  });
  if (internal.version) out['version'] = internal.version;
  if (internal.additionalPrinterColumns) out['additionalPrinterColumns'] = internal.additionalPrinterColumns.map(columnToV1beta1);
  if (internal.selectableFields) out['selectableFields'] = internal.selectableFields;
  const conv = isObject(spec['conversion']) ? spec['conversion'] : undefined;
  if (conv) {
    const { webhook, ...c } = conv;
    const out1: JSONObject = { ...c };
    if (isObject(webhook)) {
      if (webhook['clientConfig'] != null) out1['webhookClientConfig'] = webhook['clientConfig'];
      if (webhook['conversionReviewVersions'] != null) out1['conversionReviewVersions'] = webhook['conversionReviewVersions'];
    }
    out['conversion'] = out1;
  }
  out['preserveUnknownFields'] = spec['preserveUnknownFields'] === true;
  return out;
}

const shared = <T>(v: T): T => v;

/**
 * A whole CRD object, v1beta1 to v1 (defaults applied first). owned: the caller gives up `obj` (storage's
 * freshly parsed value, written out at once), so its spec is defaulted in place and the versions share the
 * spec's values instead of copies (a 500 KB CRD's two deep copies were two thirds of its read from etcd).
 */
export function crdToV1(obj: JSONObject, opts: { owned?: boolean } = {}): JSONObject {
  const copy = opts.owned ? shared : structuredClone;
  const spec = isObject(obj['spec']) ? copy(obj['spec']) : {};
  defaultV1beta1Spec(spec);
  return { ...obj, apiVersion: V1, spec: specToV1(spec, copy) };
}

/** A whole CRD object, v1 to v1beta1. */
export function crdToV1beta1(obj: JSONObject): JSONObject {
  const spec = isObject(obj['spec']) ? obj['spec'] : {};
  return { ...obj, apiVersion: V1BETA1, spec: specToV1beta1(spec) };
}

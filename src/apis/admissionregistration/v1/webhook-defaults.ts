// kube's v1 defaulting of webhook configurations (pkg/apis/admissionregistration/v1/defaults.go), as the decoder
// applies it to every body: failurePolicy Fail, matchPolicy Equivalent, empty namespace and object selectors,
// timeoutSeconds 10, reinvocationPolicy Never (mutating), rule scope "*", service port 443. sideEffects and
// admissionReviewVersions have no v1 default.
import type { JSONObject } from '../../../util/json.js';
import { isObject } from '../../../util/json.js';

const unset = (v: unknown): boolean => v === undefined || v === null;

export function setWebhookConfigurationDefaults(obj: JSONObject, mutating: boolean): void {
  if (!Array.isArray(obj['webhooks'])) return;
  for (const hook of obj['webhooks']) {
    if (!isObject(hook)) continue;
    if (unset(hook['failurePolicy'])) hook['failurePolicy'] = 'Fail';
    if (unset(hook['matchPolicy'])) hook['matchPolicy'] = 'Equivalent';
    if (unset(hook['namespaceSelector'])) hook['namespaceSelector'] = {};
    if (unset(hook['objectSelector'])) hook['objectSelector'] = {};
    if (unset(hook['timeoutSeconds'])) hook['timeoutSeconds'] = 10;
    if (mutating && unset(hook['reinvocationPolicy'])) hook['reinvocationPolicy'] = 'Never';
    if (Array.isArray(hook['rules'])) for (const r of hook['rules']) if (isObject(r) && unset(r['scope'])) r['scope'] = '*';
    const cc = hook['clientConfig'];
    if (isObject(cc) && isObject(cc['service']) && unset(cc['service']['port'])) cc['service']['port'] = 443;
  }
}

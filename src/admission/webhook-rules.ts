// Which webhooks a request concerns (k8s.io/apiserver pkg/admission/plugin/webhook/predicates and
// generic.Webhook.ShouldCallHook): rules by operation, group, version, resource/subresource and scope; the
// Equivalent match policy trying the same resource at its other served versions; the namespace and object
// selectors. Pure functions over the webhook's JSON and a request's description.
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';
import { labelSelectorAsSelector, matchesLabels } from '../registry/selectors.js';

/** kube's rules.IsExemptAdmissionConfigurationResource: admission's own configuration is never subject to webhooks or policies. */
const EXEMPT_RESOURCES = new Set([
  'validatingwebhookconfigurations',
  'mutatingwebhookconfigurations',
  'validatingadmissionpolicies',
  'validatingadmissionpolicybindings',
  'mutatingadmissionpolicies',
  'mutatingadmissionpolicybindings',
]);
export const isExemptAdmissionConfigurationResource = (r: { group: string; resource: string }): boolean =>
  r.group === 'admissionregistration.k8s.io' && EXEMPT_RESOURCES.has(r.resource);

/** A resource at one group-version, as rules see it. */
export interface GVR {
  group: string;
  version: string;
  resource: string;
}

/** What rules are matched against. */
export interface RuleRequest {
  operation: string;
  resource: GVR;
  subresource: string;
  /** The request's namespace ('' for cluster-scoped objects; a Namespace's own requests carry none here). */
  namespace: string;
  name: string;
}

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const matchesAny = (list: string[], value: string): boolean => list.some((x) => x === '*' || x === value);
const isNamespaceResource = (r: GVR): boolean => r.group === '' && r.resource === 'namespaces';

/** rules.Matcher.Matches. */
export function ruleMatches(rule: JSONObject, req: RuleRequest): boolean {
  if (!matchesAny(strings(rule['operations']), req.operation)) return false;
  if (!matchesAny(strings(rule['apiGroups']), req.resource.group)) return false;
  if (!matchesAny(strings(rule['apiVersions']), req.resource.version)) return false;
  const resourceMatch = strings(rule['resources']).some((r) => {
    const slash = r.indexOf('/');
    const res = slash < 0 ? r : r.slice(0, slash);
    const sub = slash < 0 ? '' : r.slice(slash + 1);
    return (res === '*' || res === req.resource.resource) && (sub === '*' || sub === req.subresource);
  });
  if (!resourceMatch) return false;
  // Namespaces are cluster-scoped; everything else with a namespace is namespaced (a subresource too).
  switch (rule['scope']) {
    case 'Namespaced':
      return !isNamespaceResource(req.resource) && req.namespace !== '';
    case 'Cluster':
      return isNamespaceResource(req.resource) || req.namespace === '';
    default:
      return true;
  }
}

/**
 * The resource a webhook is called for: the request's own when a rule matches it; with matchPolicy
 * Equivalent, else the first equivalent resource (another served version of the same resource) that a rule
 * matches, earlier rules first.
 */
export function matchingResource(hook: JSONObject, req: RuleRequest, equivalents: readonly GVR[]): GVR | undefined {
  const rules = Array.isArray(hook['rules']) ? hook['rules'].filter(isObject) : [];
  if (rules.some((r) => ruleMatches(r, req))) return req.resource;
  if (hook['matchPolicy'] !== 'Equivalent') return undefined;
  for (const r of rules) {
    for (const eq of equivalents) {
      if (eq.group === req.resource.group && eq.version === req.resource.version && eq.resource === req.resource.resource) continue;
      if (ruleMatches(r, { ...req, resource: eq })) return eq;
    }
  }
  return undefined;
}

const labelsOf = (obj: JSONObject | undefined): Record<string, string> | undefined => {
  const meta = obj?.['metadata'];
  return isObject(meta) && isObject(meta['labels']) ? (meta['labels'] as Record<string, string>) : undefined;
};

/**
 * A webhook's stored selector, parsed; one that does not parse (stored before validation caught it, or written
 * straight to storage) is an error kube reports only for requests the webhook's rules match (an internal error).
 */
function parsedSelector(s: unknown): { selector: ReturnType<typeof labelSelectorAsSelector> } | { error: string } {
  try {
    return { selector: labelSelectorAsSelector(s as never) };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

const isEmptySelector = (s: unknown): boolean =>
  !isObject(s) || (Object.keys(isObject(s['matchLabels']) ? s['matchLabels'] : {}).length === 0 && !(Array.isArray(s['matchExpressions']) && s['matchExpressions'].length > 0));

/**
 * objectSelector: either the new or the old object's labels match; an absent object (the old one of a create,
 * the new one of a delete) never does. An empty selector matches everything.
 */
export function objectSelectorMatches(hook: JSONObject, object: JSONObject | undefined, oldObject: JSONObject | undefined): boolean | { error: string } {
  const s = hook['objectSelector'];
  if (isEmptySelector(s)) return true;
  const selector = parsedSelector(s);
  if ('error' in selector) return selector;
  return [object, oldObject].some((o) => o !== undefined && matchesLabels(selector.selector, labelsOf(o) ?? {}));
}

/** The namespace's labels, or undefined when it does not exist. */
export type NamespaceLabels = (name: string) => Promise<Record<string, string> | undefined>;

/**
 * namespace.Matcher.MatchNamespaceSelector: cluster-scoped objects other than namespaces always match; a
 * namespace is matched by its own labels (the old object's on delete); anything else by its namespace's. A
 * missing namespace is an error (kube's 404), reported only if the webhook's rules match too.
 */
export async function namespaceSelectorMatches(
  hook: JSONObject,
  req: RuleRequest & { object?: JSONObject; oldObject?: JSONObject },
  namespaceLabels: NamespaceLabels,
): Promise<{ matches: boolean; notFound?: string; error?: string }> {
  const namespaced = isNamespaceResource(req.resource);
  if (req.namespace === '' && !namespaced) return { matches: true };
  const s = hook['namespaceSelector'];
  if (isEmptySelector(s)) return { matches: true };
  const parsed = parsedSelector(s);
  if ('error' in parsed) return { matches: false, error: parsed.error };
  const selector = parsed.selector;
  if (namespaced && req.subresource === '') {
    const obj = req.operation === 'DELETE' ? req.oldObject : req.object;
    return { matches: matchesLabels(selector, labelsOf(obj) ?? {}) };
  }
  // A namespace's subresources (finalize, status) are matched by the stored namespace's labels.
  const name = namespaced ? req.name : req.namespace;
  const labels = await namespaceLabels(name);
  if (labels === undefined) return { matches: false, notFound: name };
  return { matches: matchesLabels(selector, labels) };
}

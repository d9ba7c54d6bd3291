// Which requests a policy's matchConstraints, or a binding's matchResources, select (k8s.io/apiserver
// pkg/admission/plugin/policy/matching and webhook/predicates/{rules,namespace,object}): namespace and object
// selectors, excluded rules first, then the resource rules, with matchPolicy Equivalent trying the same
// resource at its other served versions.
import type { JSONObject } from '../../util/json.js';
import { isObject } from '../../util/json.js';
import type { AdmissionAttributes } from '../../registry/admission.js';
import { labelSelectorAsSelector, isEverythingLabels, matchesLabels, type LabelSelector } from '../../registry/selectors.js';

// Selectors parse once per policy or binding object (informer objects are not changed, only replaced).
const parsed = new WeakMap<object, LabelSelector>();
const EVERYTHING = labelSelectorAsSelector(undefined);
function selectorOf(sel: unknown): LabelSelector {
  if (!isObject(sel)) return EVERYTHING;
  let s = parsed.get(sel);
  if (!s) parsed.set(sel, (s = labelSelectorAsSelector(sel as never)));
  return s;
}

export interface GVR {
  group: string;
  version: string;
  resource: string;
}
export interface GVK {
  group: string;
  version: string;
  kind: string;
}

/** What matching needs besides the request: the labels of a namespace, the resource at its other versions. */
export interface MatchContext {
  namespaceLabels(name: string): Promise<Record<string, string> | undefined>;
  /** The other served versions of the request's resource, with their kinds (EquivalentResourcesFor). */
  equivalents(a: AdmissionAttributes): { resource: GVR; kind: GVK }[];
}

export type MatchResult = { matches: false; error?: Error } | { matches: true; resource: GVR; kind: GVK };

const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const labelsOf = (o: JSONObject | undefined): Record<string, string> | undefined => {
  const m = o?.['metadata'];
  return isObject(m) && isObject(m['labels']) ? (m['labels'] as Record<string, string>) : isObject(m) ? {} : undefined;
};

const isNamespaceResource = (r: GVR): boolean => r.group === '' && r.resource === 'namespaces';

export const requestGVR = (a: AdmissionAttributes): GVR => ({ group: a.resource.group, version: a.resource.version, resource: a.resource.resource });
export const requestGVK = (a: AdmissionAttributes): GVK =>
  a.subresource === 'scale' ? { group: 'autoscaling', version: 'v1', kind: 'Scale' } : { group: a.resource.group, version: a.resource.version, kind: a.resource.kind };

const exactOrWildcard = (items: string[], requested: string): boolean => items.some((i) => i === '*' || i === requested);

/** rules.Matcher.Matches for one rule against the request seen as `resource`. */
function ruleMatches(rule: JSONObject, a: AdmissionAttributes, resource: GVR): boolean {
  const scope = typeof rule['scope'] === 'string' ? rule['scope'] : '*';
  const clusterScoped = isNamespaceResource(resource) || a.namespace === '';
  if (scope === 'Namespaced' && clusterScoped) return false;
  if (scope === 'Cluster' && !clusterScoped) return false;
  if (scope !== '*' && scope !== 'Namespaced' && scope !== 'Cluster') return false;
  if (!strings(rule['operations']).some((op) => op === '*' || op === a.operation)) return false;
  if (!exactOrWildcard(strings(rule['apiGroups']), resource.group)) return false;
  if (!exactOrWildcard(strings(rule['apiVersions']), resource.version)) return false;
  return strings(rule['resources']).some((rs) => {
    const slash = rs.indexOf('/');
    const res = slash < 0 ? rs : rs.slice(0, slash);
    const sub = slash < 0 ? '' : rs.slice(slash + 1);
    return (res === '*' || res === resource.resource) && (sub === '*' || sub === a.subresource);
  });
}

const nameMatches = (rule: JSONObject, a: AdmissionAttributes): boolean => {
  const names = strings(rule['resourceNames']);
  return names.length === 0 || names.includes(a.name);
};

function matchesResourceRules(rules: JSONObject[], matchPolicy: string, a: AdmissionAttributes, ctx: MatchContext): MatchResult {
  const resource = requestGVR(a);
  for (const r of rules) if (ruleMatches(r, a, resource) && nameMatches(r, a)) return { matches: true, resource, kind: requestGVK(a) };
  if (matchPolicy !== 'Equivalent') return { matches: false };
  const equivalents = ctx.equivalents(a);
  for (const r of rules) {
    for (const eq of equivalents) {
      if (ruleMatches(r, a, eq.resource) && nameMatches(r, a)) return { matches: true, resource: eq.resource, kind: eq.kind };
    }
  }
  return { matches: false };
}

async function matchNamespaceSelector(sel: unknown, a: AdmissionAttributes, ctx: MatchContext): Promise<boolean> {
  const resource = requestGVR(a);
  if (a.namespace === '' && !isNamespaceResource(resource)) return true;
  const selector = selectorOf(sel);
  if (isEverythingLabels(selector)) return true;
  // A namespace is matched by its own labels (the old object's on delete).
  const labels = isNamespaceResource(resource) ? labelsOf(a.object ?? a.oldObject) : await ctx.namespaceLabels(a.namespace);
  return matchesLabels(selector, labels ?? {});
}

function matchObjectSelector(sel: unknown, a: AdmissionAttributes): boolean {
  const selector = selectorOf(sel);
  if (isEverythingLabels(selector)) return true;
  const m = (o: JSONObject | undefined): boolean => {
    const labels = labelsOf(o);
    return labels !== undefined && matchesLabels(selector, labels);
  };
  return m(a.object) || m(a.oldObject);
}

const rulesOf = (v: unknown): JSONObject[] => (Array.isArray(v) ? (v.filter(isObject) as JSONObject[]) : []);

/** matching.Matcher.Matches: whether the criteria select the request, and as which resource and kind. */
export async function matches(criteria: JSONObject, a: AdmissionAttributes, ctx: MatchContext): Promise<MatchResult> {
  if (!(await matchNamespaceSelector(criteria['namespaceSelector'], a, ctx))) return { matches: false };
  if (!matchObjectSelector(criteria['objectSelector'], a)) return { matches: false };
  const matchPolicy = typeof criteria['matchPolicy'] === 'string' ? criteria['matchPolicy'] : 'Exact';
  if (matchesResourceRules(rulesOf(criteria['excludeResourceRules']), matchPolicy, a, ctx).matches) return { matches: false };
  const rules = rulesOf(criteria['resourceRules']);
  if (rules.length === 0) return { matches: true, resource: requestGVR(a), kind: requestGVK(a) };
  return matchesResourceRules(rules, matchPolicy, a, ctx);
}

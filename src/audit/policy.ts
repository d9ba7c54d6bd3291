// The audit policy (audit.k8s.io/v1 Policy) and its checker, as k8s.io/apiserver pkg/audit/policy reads and
// evaluates it: the first rule that matches a request decides its level, the stages left out and whether
// managedFields are dropped from the logged objects.
import { parse as parseYaml } from 'yaml';

export const LEVELS = ['None', 'Metadata', 'Request', 'RequestResponse'] as const;
export type Level = (typeof LEVELS)[number];
export const STAGES = ['RequestReceived', 'ResponseStarted', 'ResponseComplete', 'Panic'] as const;
export type Stage = (typeof STAGES)[number];

export interface GroupResources {
  group?: string;
  resources?: string[];
  resourceNames?: string[];
}

export interface PolicyRule {
  level: Level;
  users?: string[];
  userGroups?: string[];
  verbs?: string[];
  resources?: GroupResources[];
  namespaces?: string[];
  nonResourceURLs?: string[];
  omitStages?: Stage[];
  omitManagedFields?: boolean;
}

export interface Policy {
  rules: PolicyRule[];
  omitStages?: Stage[];
  omitManagedFields?: boolean;
}

/** What the policy decides for one request (kube's RequestAuditConfig). */
export interface AuditConfig {
  level: Level;
  omitStages: readonly Stage[];
  omitManagedFields: boolean;
}

/** The request's attributes a rule is matched against (authorizer.Attributes, as audit sees them). */
export interface AuditAttributes {
  user?: { name: string; groups: readonly string[] };
  verb: string;
  isResourceRequest: boolean;
  path: string;
  apiGroup: string;
  namespace: string;
  resource: string;
  subresource: string;
  name: string;
}

const levelRank = (l: Level): number => LEVELS.indexOf(l);
export const levelAtLeast = (l: Level, min: Level): boolean => levelRank(l) >= levelRank(min);

/** A policy file's text, or the error kube prints (its loader accepts audit.k8s.io/v1 Policy only here). */
export function parsePolicy(text: string): Policy | { error: string } {
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    return { error: `failed decoding: ${(e as Error).message}` };
  }
  if (!doc || typeof doc !== 'object') return { error: 'failed decoding: empty policy' };
  const d = doc as Record<string, unknown>;
  if (d.kind !== 'Policy' || d.apiVersion !== 'audit.k8s.io/v1') {
    return { error: `failed decoding: expected kind Policy of apiVersion audit.k8s.io/v1, got ${String(d.apiVersion)}, Kind=${String(d.kind)}` };
  }
  const rules = (Array.isArray(d.rules) ? d.rules : []) as PolicyRule[];
  // kube's validation, the checks a hand-written policy trips over.
  const errs: string[] = [];
  rules.forEach((r, i) => {
    if (!LEVELS.includes(r.level)) errs.push(`rules[${i}].level: ${r.level === undefined ? 'Required value' : `Unsupported value: "${String(r.level)}"`}`);
    if (r.nonResourceURLs?.length && (r.resources?.length || r.namespaces?.length)) {
      errs.push(`rules[${i}].nonResourceURLs: Invalid value: ${JSON.stringify(r.nonResourceURLs)}: rules cannot apply to both regular resources and non-resource URLs`);
    }
    for (const s of r.omitStages ?? []) if (!STAGES.includes(s)) errs.push(`rules[${i}].omitStages: Unsupported value: "${s}"`);
  });
  for (const s of (d.omitStages as Stage[] | undefined) ?? []) if (!STAGES.includes(s)) errs.push(`omitStages: Unsupported value: "${s}"`);
  if (errs.length) return { error: errs.join(', ') };
  return { rules, omitStages: d.omitStages as Stage[] | undefined, omitManagedFields: d.omitManagedFields as boolean | undefined };
}

/** The first matching rule's configuration, with the policy's own omitStages added; level None when none matches. */
export function evaluatePolicy(policy: Policy, attrs: AuditAttributes): AuditConfig {
  for (const rule of policy.rules) {
    if (!ruleMatches(rule, attrs)) continue;
    return {
      level: rule.level,
      omitStages: union(policy.omitStages, rule.omitStages),
      // A rule's own setting wins over the policy's, as kube's isOmitManagedFields.
      omitManagedFields: rule.omitManagedFields ?? policy.omitManagedFields ?? false,
    };
  }
  return { level: 'None', omitStages: union(policy.omitStages, undefined), omitManagedFields: policy.omitManagedFields ?? false };
}

const union = (a: readonly Stage[] | undefined, b: readonly Stage[] | undefined): Stage[] => [...new Set([...(a ?? []), ...(b ?? [])])];

function ruleMatches(r: PolicyRule, a: AuditAttributes): boolean {
  if (r.users?.length && !(a.user && r.users.includes(a.user.name))) return false;
  if (r.userGroups?.length && !(a.user && a.user.groups.some((g) => r.userGroups!.includes(g)))) return false;
  if (r.verbs?.length && !r.verbs.includes(a.verb)) return false;
  if (r.namespaces?.length || r.resources?.length) return matchesResource(r, a);
  if (r.nonResourceURLs?.length) return matchesNonResource(r.nonResourceURLs, a);
  return true;
}

function matchesResource(r: PolicyRule, a: AuditAttributes): boolean {
  if (!a.isResourceRequest) return false;
  // "" among the namespaces matches cluster-scoped requests.
  if (r.namespaces?.length && !r.namespaces.includes(a.namespace)) return false;
  if (!r.resources?.length) return true;
  const combined = a.subresource ? `${a.resource}/${a.subresource}` : a.resource;
  for (const gr of r.resources) {
    if ((gr.group ?? '') !== a.apiGroup) continue;
    if (!gr.resources?.length) return true;
    for (const res of gr.resources) {
      if (gr.resourceNames?.length && !gr.resourceNames.includes(a.name)) continue;
      if (res === combined || res === '*') return true;
      if (a.subresource && res.startsWith('*/') && res.slice(2) === a.subresource) return true;
      if (res.endsWith('/*') && res.slice(0, -2) === a.resource) return true;
    }
  }
  return false;
}

function matchesNonResource(urls: readonly string[], a: AuditAttributes): boolean {
  if (a.isResourceRequest) return false;
  return urls.some((u) => u === '*' || u === a.path || (u.endsWith('*') && a.path.startsWith(u.slice(0, -1))));
}

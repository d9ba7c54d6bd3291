// RBAC policy rules over plain JSON: whether a rule allows a request (plugin/pkg/auth/authorizer/rbac's
// RuleAllows with pkg/apis/rbac/v1's matchers), whether one set of rules covers another (escalation
// checks: component-helpers' Covers), and the compact form escalation errors print.
import type { RequestAttributes } from '../authorize.js';

export interface PolicyRule {
  verbs: string[];
  apiGroups?: string[];
  resources?: string[];
  resourceNames?: string[];
  nonResourceURLs?: string[];
}

const ALL = '*';
const has = (set: readonly string[] | undefined, s: string): boolean => set !== undefined && set.includes(s);
const hasAll = (set: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean => (wanted ?? []).every((w) => has(set, w));

/** The rules of a role object, as its JSON holds them (null or absent: none). */
export function rulesOf(role: unknown): PolicyRule[] {
  const rules = (role as { rules?: unknown } | undefined)?.rules;
  return Array.isArray(rules) ? (rules as PolicyRule[]) : [];
}

const stringsOf = (v: unknown): string[] => (Array.isArray(v) ? v.filter((s): s is string => typeof s === 'string') : []);

/**
 * The rules of an object not validated yet (a write being checked for escalation), as Go would hold them:
 * null or mistyped entries become zero-valued rules.
 */
export function goRulesOf(role: unknown): PolicyRule[] {
  return rulesOf(role).map((r) => {
    const o = (typeof r === 'object' && r !== null ? r : {}) as Record<string, unknown>;
    const rule: PolicyRule = { verbs: stringsOf(o['verbs']) };
    for (const k of ['apiGroups', 'resources', 'resourceNames', 'nonResourceURLs'] as const) if (Array.isArray(o[k])) rule[k] = stringsOf(o[k]);
    return rule;
  });
}

const verbMatches = (rule: PolicyRule, verb: string): boolean => rule.verbs.some((v) => v === ALL || v === verb);
const apiGroupMatches = (rule: PolicyRule, group: string): boolean => (rule.apiGroups ?? []).some((g) => g === ALL || g === group);
const resourceNameMatches = (rule: PolicyRule, name: string): boolean => !rule.resourceNames?.length || rule.resourceNames.includes(name);

// `*`, the exact resource (or resource/subresource), or `*/<subresource>`.
function resourceMatches(rule: PolicyRule, combined: string, subresource: string): boolean {
  for (const r of rule.resources ?? []) {
    if (r === ALL || r === combined) return true;
    if (subresource && r.length === subresource.length + 2 && r.startsWith('*/') && r.endsWith(subresource)) return true;
  }
  return false;
}

/** `*`, the exact path, or a prefix ending in `*`. */
function nonResourceURLMatches(rule: PolicyRule, path: string): boolean {
  for (const u of rule.nonResourceURLs ?? []) {
    if (u === ALL || u === path) return true;
    if (u.endsWith('*') && path.startsWith(u.replace(/\*+$/, ''))) return true;
  }
  return false;
}

/** RuleAllows: subresources match as resource/subresource. */
export function ruleAllows(attrs: RequestAttributes, rule: PolicyRule): boolean {
  if (!Array.isArray(rule.verbs) || !verbMatches(rule, attrs.verb)) return false;
  if (!attrs.isResourceRequest) return nonResourceURLMatches(rule, attrs.path);
  const combined = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  return apiGroupMatches(rule, attrs.group) && resourceMatches(rule, combined, attrs.subresource) && resourceNameMatches(rule, attrs.name);
}

/** BreakdownRule: one rule per group, resource, verb (and name), and per non-resource URL and verb. */
export function breakdownRule(rule: PolicyRule): PolicyRule[] {
  const out: PolicyRule[] = [];
  for (const group of rule.apiGroups ?? []) {
    for (const resource of rule.resources ?? []) {
      for (const verb of rule.verbs ?? []) {
        if (rule.resourceNames?.length) {
          for (const name of rule.resourceNames) out.push({ verbs: [verb], apiGroups: [group], resources: [resource], resourceNames: [name] });
        } else out.push({ verbs: [verb], apiGroups: [group], resources: [resource] });
      }
    }
  }
  for (const url of rule.nonResourceURLs ?? []) for (const verb of rule.verbs ?? []) out.push({ verbs: [verb], nonResourceURLs: [url] });
  return out;
}

function resourceCoversAll(owner: readonly string[] | undefined, wanted: readonly string[] | undefined): boolean {
  if (has(owner, ALL) || hasAll(owner, wanted)) return true;
  for (const path of wanted ?? []) {
    if (has(owner, path)) continue;
    const slash = path.indexOf('/');
    if (slash < 0 || !has(owner, `*/${path.slice(slash + 1)}`)) return false;
  }
  return true;
}

const nonResourceURLCovers = (owner: string, sub: string): boolean => owner === sub || (owner.endsWith('*') && sub.startsWith(owner.replace(/\*+$/, '')));

function ruleCovers(owner: PolicyRule, sub: PolicyRule): boolean {
  const verbs = has(owner.verbs, ALL) || hasAll(owner.verbs, sub.verbs);
  const groups = has(owner.apiGroups, ALL) || hasAll(owner.apiGroups, sub.apiGroups);
  const resources = resourceCoversAll(owner.resources, sub.resources);
  const urls = (sub.nonResourceURLs ?? []).every((p) => (owner.nonResourceURLs ?? []).some((o) => nonResourceURLCovers(o, p)));
  const names = sub.resourceNames?.length ? !owner.resourceNames?.length || hasAll(owner.resourceNames, sub.resourceNames) : !owner.resourceNames?.length;
  return verbs && groups && resources && names && urls;
}

/** Covers: whether the owner's rules cover every one of the servant's, and the broken-down rules they do not. */
export function covers(ownerRules: readonly PolicyRule[], servantRules: readonly PolicyRule[]): { covered: boolean; missing: PolicyRule[] } {
  const missing = servantRules.flatMap(breakdownRule).filter((sub) => !ownerRules.some((o) => ruleCovers(o, sub)));
  return { covered: missing.length === 0, missing };
}

/**
 * CompactRules: the broken-down rules of one group and resource (and at most one name) merged back into one
 * rule with all their verbs; the others as they are, before the merged ones.
 */
export function compactRules(rules: readonly PolicyRule[]): PolicyRule[] {
  const out: PolicyRule[] = [];
  const simple = new Map<string, PolicyRule>();
  for (const rule of rules) {
    const simpleRule = (rule.resourceNames?.length ?? 0) <= 1 && !rule.nonResourceURLs?.length && rule.apiGroups?.length === 1 && rule.resources?.length === 1;
    if (!simpleRule) {
      out.push(rule);
      continue;
    }
    const key = JSON.stringify([rule.apiGroups![0], rule.resources![0], rule.resourceNames?.[0] ?? null]);
    const existing = simple.get(key);
    if (existing) existing.verbs = [...existing.verbs, ...rule.verbs];
    else simple.set(key, { ...rule, verbs: [...rule.verbs] });
  }
  return [...out, ...simple.values()];
}

/** Go's %q of a []string: ["a" "b"]. */
export const goQuotedList = (list: readonly string[]): string => `[${list.map((s) => JSON.stringify(s)).join(' ')}]`;

/** CompactString: {APIGroups:[""], Resources:["pods"], Verbs:["get"]}. */
export function compactString(rule: PolicyRule): string {
  const parts: string[] = [];
  if (rule.apiGroups?.length) parts.push(`APIGroups:${goQuotedList(rule.apiGroups)}`);
  if (rule.resources?.length) parts.push(`Resources:${goQuotedList(rule.resources)}`);
  if (rule.nonResourceURLs?.length) parts.push(`NonResourceURLs:${goQuotedList(rule.nonResourceURLs)}`);
  if (rule.resourceNames?.length) parts.push(`ResourceNames:${goQuotedList(rule.resourceNames)}`);
  if (rule.verbs?.length) parts.push(`Verbs:${goQuotedList(rule.verbs)}`);
  return `{${parts.join(', ')}}`;
}

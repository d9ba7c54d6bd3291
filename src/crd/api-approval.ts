// The API-approval policy of protected groups (apiextensions' apihelpers): CRDs in `*.k8s.io` and
// `*.kubernetes.io` must carry the `api-approved.kubernetes.io` annotation, a URL of the approval or a
// reason starting with "unapproved". Validation refuses a missing or invalid one; the API-approval
// controller reports the state in the KubernetesAPIApprovalPolicyConformant condition.
import { goQuote } from '../api/field-error.js';
import { parseRequestURI } from '../cel/lib/go-url.js';
import { KUBE_API_APPROVED_ANNOTATION, type CustomResourceDefinition, type CustomResourceDefinitionCondition } from './types.js';

/** IsProtectedCommunityGroup. */
export function isProtectedCommunityGroup(group: string): boolean {
  return group === 'k8s.io' || group.endsWith('.k8s.io') || group === 'kubernetes.io' || group.endsWith('.kubernetes.io');
}

type ApprovalState = 'Invalid' | 'Approved' | 'Bypassed' | 'Missing';

/** A URL url.ParseRequestURI accepts, with a scheme and a host. */
function isApprovalURL(s: string): boolean {
  const u = parseRequestURI(s);
  return !('error' in u) && u.host.length > 0 && u.scheme.length > 0;
}

/** GetAPIApprovalState: the state of the annotation and its reason. */
export function apiApprovalState(annotations: Record<string, string> | undefined): { state: ApprovalState; reason: string } {
  const a = annotations?.[KUBE_API_APPROVED_ANNOTATION] ?? '';
  const key = goQuote(KUBE_API_APPROVED_ANNOTATION);
  if (a.length === 0) return { state: 'Missing', reason: `protected groups must have approval annotation ${key}, see https://github.com/kubernetes/enhancements/pull/1111` };
  if (a.startsWith('unapproved')) return { state: 'Bypassed', reason: `not approved: ${goQuote(a)}` };
  if (isApprovalURL(a)) return { state: 'Approved', reason: `approved in ${a}` };
  return {
    state: 'Invalid',
    reason: `protected groups must have approval annotation ${key} with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111`,
  };
}

const CONDITION_OF: Record<ApprovalState, Pick<CustomResourceDefinitionCondition, 'status' | 'reason'>> = {
  Invalid: { status: 'False', reason: 'InvalidAnnotation' },
  Missing: { status: 'False', reason: 'MissingAnnotation' },
  Approved: { status: 'True', reason: 'ApprovedAnnotation' },
  Bypassed: { status: 'False', reason: 'UnapprovedAnnotation' },
};

/** calculateCondition of the API-approval controller: undefined outside protected groups. */
export function apiApprovalCondition(crd: CustomResourceDefinition): CustomResourceDefinitionCondition | undefined {
  if (!isProtectedCommunityGroup(crd.spec?.group ?? '')) return undefined;
  const { state, reason } = apiApprovalState(crd.metadata?.annotations);
  return { type: 'KubernetesAPIApprovalPolicyConformant', ...CONDITION_OF[state], message: reason };
}

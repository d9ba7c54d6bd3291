// authorization.k8s.io/v1's served kinds: the three access reviews and SelfSubjectRulesReview, create-only.
import { createOnlyKind } from '../../create-only.js';
import { LocalSubjectAccessReview, SelfSubjectAccessReview, SelfSubjectRulesReview, SubjectAccessReview } from './types.js';

// kube-aggregator's built-in priority of authorization.k8s.io/v1.
const group = { group: 'authorization.k8s.io', version: 'v1', groupPriorityMinimum: 17600 };

export const selfSubjectAccessReviewKind = createOnlyKind({ ...group, resource: 'selfsubjectaccessreviews', kind: 'SelfSubjectAccessReview', namespaced: false, object: SelfSubjectAccessReview });
export const subjectAccessReviewKind = createOnlyKind({ ...group, resource: 'subjectaccessreviews', kind: 'SubjectAccessReview', namespaced: false, object: SubjectAccessReview });
export const localSubjectAccessReviewKind = createOnlyKind({ ...group, resource: 'localsubjectaccessreviews', kind: 'LocalSubjectAccessReview', namespaced: true, object: LocalSubjectAccessReview });
export const selfSubjectRulesReviewKind = createOnlyKind({ ...group, resource: 'selfsubjectrulesreviews', kind: 'SelfSubjectRulesReview', namespaced: false, object: SelfSubjectRulesReview });

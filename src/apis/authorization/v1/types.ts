// authorization.k8s.io/v1 Go types: the access reviews (SubjectAccessReview, LocalSubjectAccessReview,
// SelfSubjectAccessReview) and SelfSubjectRulesReview, with their generated.proto field numbers and JSON tags.
import { field as f, kindStruct, struct } from '../../../api/go-struct.js';
import { FieldSelectorRequirement, LabelSelectorRequirement } from '../../meta/v1/label-selector.js';
import { metadataField } from '../../meta/v1/object-meta.js';

const AUTHORIZATION_V1 = 'io.k8s.api.authorization.v1';
const META_DOC = 'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';
const o = { openapi: AUTHORIZATION_V1 };

const FieldSelectorAttributes = struct(
  'FieldSelectorAttributes',
  [f(1, 'rawSelector', 'string', 'omit'), f(2, 'requirements', FieldSelectorRequirement, 'slice omit', { listType: 'atomic' })],
  { ...o, doc: 'FieldSelectorAttributes indicates a field limited access.' },
);

const LabelSelectorAttributes = struct(
  'LabelSelectorAttributes',
  [f(1, 'rawSelector', 'string', 'omit'), f(2, 'requirements', LabelSelectorRequirement, 'slice omit', { listType: 'atomic' })],
  { ...o, doc: 'LabelSelectorAttributes indicates a label limited access.' },
);

const ResourceAttributes = struct(
  'ResourceAttributes',
  [
    f(1, 'namespace', 'string', 'omit'),
    f(2, 'verb', 'string', 'omit'),
    f(3, 'group', 'string', 'omit'),
    f(4, 'version', 'string', 'omit'),
    f(5, 'resource', 'string', 'omit'),
    f(6, 'subresource', 'string', 'omit'),
    f(7, 'name', 'string', 'omit'),
    f(8, 'fieldSelector', FieldSelectorAttributes, 'ptr omit'),
    f(9, 'labelSelector', LabelSelectorAttributes, 'ptr omit'),
  ],
  { ...o, doc: 'ResourceAttributes includes the authorization attributes available for resource requests to the Authorizer interface' },
);

const NonResourceAttributes = struct('NonResourceAttributes', [f(1, 'path', 'string', 'omit'), f(2, 'verb', 'string', 'omit')], {
  ...o,
  doc: 'NonResourceAttributes includes the authorization attributes available for non-resource requests to the Authorizer interface',
});

const SubjectAccessReviewSpec = struct(
  'SubjectAccessReviewSpec',
  [
    f(1, 'resourceAttributes', ResourceAttributes, 'ptr omit'),
    f(2, 'nonResourceAttributes', NonResourceAttributes, 'ptr omit'),
    f(3, 'user', 'string', 'omit'),
    f(4, 'groups', 'string', 'slice omit', { listType: 'atomic' }),
    f(5, 'extra', 'stringList', 'map omit'),
    f(6, 'uid', 'string', 'omit', { go: 'UID' }),
  ],
  { ...o, doc: 'SubjectAccessReviewSpec is a description of the access request.  Exactly one of ResourceAuthorizationAttributes and NonResourceAuthorizationAttributes must be set' },
);

const SelfSubjectAccessReviewSpec = struct(
  'SelfSubjectAccessReviewSpec',
  [f(1, 'resourceAttributes', ResourceAttributes, 'ptr omit'), f(2, 'nonResourceAttributes', NonResourceAttributes, 'ptr omit')],
  { ...o, doc: 'SelfSubjectAccessReviewSpec is a description of the access request.  Exactly one of ResourceAuthorizationAttributes and NonResourceAuthorizationAttributes must be set' },
);

const SubjectAccessReviewStatus = struct(
  'SubjectAccessReviewStatus',
  [f(1, 'allowed', 'bool'), f(4, 'denied', 'bool', 'omit'), f(2, 'reason', 'string', 'omit'), f(3, 'evaluationError', 'string', 'omit')],
  { ...o, doc: 'SubjectAccessReviewStatus' },
);

const reviewFields = (spec: typeof SubjectAccessReviewSpec): ReturnType<typeof f>[] => [
  metadataField(META_DOC),
  f(2, 'spec', spec, '', { doc: 'Spec holds information about the request being evaluated' }),
  f(3, 'status', SubjectAccessReviewStatus, 'omit', { doc: 'Status is filled in by the server and indicates whether the request is allowed or not' }),
];

export const SubjectAccessReview = kindStruct('SubjectAccessReview', reviewFields(SubjectAccessReviewSpec), {
  ...o,
  doc: 'SubjectAccessReview checks whether or not a user or group can perform an action.',
});

export const LocalSubjectAccessReview = kindStruct('LocalSubjectAccessReview', reviewFields(SubjectAccessReviewSpec), {
  ...o,
  doc: 'LocalSubjectAccessReview checks whether or not a user or group can perform an action in a given namespace. Having a namespace scoped resource makes it much easier to grant namespace scoped policy that includes permissions checking.',
});

export const SelfSubjectAccessReview = kindStruct('SelfSubjectAccessReview', reviewFields(SelfSubjectAccessReviewSpec), {
  ...o,
  doc: 'SelfSubjectAccessReview checks whether or the current user can perform an action.  Not filling in a spec.namespace means "in all namespaces".  Self is a special case, because users should always be able to check whether they can perform an action',
});

const ResourceRule = struct(
  'ResourceRule',
  [
    f(1, 'verbs', 'string', 'slice', { listType: 'atomic' }),
    f(2, 'apiGroups', 'string', 'slice omit', { go: 'APIGroups', listType: 'atomic' }),
    f(3, 'resources', 'string', 'slice omit', { listType: 'atomic' }),
    f(4, 'resourceNames', 'string', 'slice omit', { listType: 'atomic' }),
  ],
  { ...o, doc: "ResourceRule is the list of actions the subject is allowed to perform on resources. The list ordering isn't significant, may contain duplicates, and possibly be incomplete." },
);

const NonResourceRule = struct(
  'NonResourceRule',
  [f(1, 'verbs', 'string', 'slice', { listType: 'atomic' }), f(2, 'nonResourceURLs', 'string', 'slice omit', { go: 'NonResourceURLs', listType: 'atomic' })],
  { ...o, doc: 'NonResourceRule holds information that describes a rule for the non-resource' },
);

const SubjectRulesReviewStatus = struct(
  'SubjectRulesReviewStatus',
  [
    f(1, 'resourceRules', ResourceRule, 'slice', { listType: 'atomic' }),
    f(2, 'nonResourceRules', NonResourceRule, 'slice', { listType: 'atomic' }),
    f(3, 'incomplete', 'bool'),
    f(4, 'evaluationError', 'string', 'omit'),
  ],
  { ...o, doc: "SubjectRulesReviewStatus contains the result of a rules check. This check can be incomplete depending on the set of authorizers the server is configured with and any errors experienced during evaluation. Because authorization rules are additive, if a rule appears in a list it's safe to assume the subject has that permission, even if that list is incomplete." },
);

const SelfSubjectRulesReviewSpec = struct('SelfSubjectRulesReviewSpec', [f(1, 'namespace', 'string', 'omit')], {
  ...o,
  doc: 'SelfSubjectRulesReviewSpec defines the specification for SelfSubjectRulesReview.',
});

export const SelfSubjectRulesReview = kindStruct(
  'SelfSubjectRulesReview',
  [
    metadataField(META_DOC),
    f(2, 'spec', SelfSubjectRulesReviewSpec, '', { doc: 'Spec holds information about the request being evaluated.' }),
    f(3, 'status', SubjectRulesReviewStatus, 'omit', { doc: 'Status is filled in by the server and indicates the set of actions a user can perform.' }),
  ],
  {
    ...o,
    doc: "SelfSubjectRulesReview enumerates the set of actions the current user can perform within a namespace. The returned list of actions may be incomplete depending on the server's authorization mode, and any errors experienced during the evaluation. SelfSubjectRulesReview should be used by UIs to show/hide actions, or to quickly let an end user reason about their permissions. It should NOT Be used by external systems to drive authorization decisions as this raises confused deputy, cache lifetime/revocation, and correctness concerns. SubjectAccessReview, and LocalAccessReview are the correct way to defer authorization decisions to the API server.",
  },
);

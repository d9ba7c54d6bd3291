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
  [
    f(1, 'rawSelector', 'string', 'omit', { doc: "rawSelector is the serialization of a field selector that would be included in a query parameter. Webhook implementations are encouraged to ignore rawSelector. The kube-apiserver's *SubjectAccessReview will parse the rawSelector as long as the requirements are not present." }),
    f(2, 'requirements', FieldSelectorRequirement, 'slice omit', { listType: 'atomic', doc: 'requirements is the parsed interpretation of a field selector. All requirements must be met for a resource instance to match the selector. Webhook implementations should handle requirements, but how to handle them is up to the webhook. Since requirements can only limit the request, it is safe to authorize as unlimited request if the requirements are not understood.' }),
  ],
  { ...o, doc: 'FieldSelectorAttributes indicates a field limited access. Webhook authors are encouraged to * ensure rawSelector and requirements are not both set * consider the requirements field if set * not try to parse or consider the rawSelector field if set. This is to avoid another CVE-2022-2880 (i.e. getting different systems to agree on how exactly to parse a query is not something we want), see https://www.oxeye.io/resources/golang-parameter-smuggling-attack for more details. For the *SubjectAccessReview endpoints of the kube-apiserver: * If rawSelector is empty and requirements are empty, the request is not limited. * If rawSelector is present and requirements are empty, the rawSelector will be parsed and limited if the parsing succeeds. * If rawSelector is empty and requirements are present, the requirements should be honored * If rawSelector is present and requirements are present, the request is invalid.' },
);

const LabelSelectorAttributes = struct(
  'LabelSelectorAttributes',
  [
    f(1, 'rawSelector', 'string', 'omit', { doc: "rawSelector is the serialization of a field selector that would be included in a query parameter. Webhook implementations are encouraged to ignore rawSelector. The kube-apiserver's *SubjectAccessReview will parse the rawSelector as long as the requirements are not present." }),
    f(2, 'requirements', LabelSelectorRequirement, 'slice omit', { listType: 'atomic', doc: 'requirements is the parsed interpretation of a label selector. All requirements must be met for a resource instance to match the selector. Webhook implementations should handle requirements, but how to handle them is up to the webhook. Since requirements can only limit the request, it is safe to authorize as unlimited request if the requirements are not understood.' }),
  ],
  { ...o, doc: 'LabelSelectorAttributes indicates a label limited access. Webhook authors are encouraged to * ensure rawSelector and requirements are not both set * consider the requirements field if set * not try to parse or consider the rawSelector field if set. This is to avoid another CVE-2022-2880 (i.e. getting different systems to agree on how exactly to parse a query is not something we want), see https://www.oxeye.io/resources/golang-parameter-smuggling-attack for more details. For the *SubjectAccessReview endpoints of the kube-apiserver: * If rawSelector is empty and requirements are empty, the request is not limited. * If rawSelector is present and requirements are empty, the rawSelector will be parsed and limited if the parsing succeeds. * If rawSelector is empty and requirements are present, the requirements should be honored * If rawSelector is present and requirements are present, the request is invalid.' },
);

const ResourceAttributes = struct(
  'ResourceAttributes',
  [
    f(1, 'namespace', 'string', 'omit', { doc: 'Namespace is the namespace of the action being requested.  Currently, there is no distinction between no namespace and all namespaces "" (empty) is defaulted for LocalSubjectAccessReviews "" (empty) is empty for cluster-scoped resources "" (empty) means "all" for namespace scoped resources from a SubjectAccessReview or SelfSubjectAccessReview' }),
    f(2, 'verb', 'string', 'omit', { doc: 'Verb is a kubernetes resource API verb, like: get, list, watch, create, update, delete, proxy.  "*" means all.' }),
    f(3, 'group', 'string', 'omit', { doc: 'Group is the API Group of the Resource.  "*" means all.' }),
    f(4, 'version', 'string', 'omit', { doc: 'Version is the API Version of the Resource.  "*" means all.' }),
    f(5, 'resource', 'string', 'omit', { doc: 'Resource is one of the existing resource types.  "*" means all.' }),
    f(6, 'subresource', 'string', 'omit', { doc: 'Subresource is one of the existing resource types.  "" means none.' }),
    f(7, 'name', 'string', 'omit', { doc: 'Name is the name of the resource being requested for a "get" or deleted for a "delete". "" (empty) means all.' }),
    f(8, 'fieldSelector', FieldSelectorAttributes, 'ptr omit', { doc: 'fieldSelector describes the limitation on access based on field.  It can only limit access, not broaden it.\n\nThis field  is alpha-level. To use this field, you must enable the `AuthorizeWithSelectors` feature gate (disabled by default).' }),
    f(9, 'labelSelector', LabelSelectorAttributes, 'ptr omit', { doc: 'labelSelector describes the limitation on access based on labels.  It can only limit access, not broaden it.\n\nThis field  is alpha-level. To use this field, you must enable the `AuthorizeWithSelectors` feature gate (disabled by default).' }),
  ],
  { ...o, doc: 'ResourceAttributes includes the authorization attributes available for resource requests to the Authorizer interface' },
);

const NonResourceAttributes = struct('NonResourceAttributes', [
  f(1, 'path', 'string', 'omit', { doc: 'Path is the URL path of the request' }),
  f(2, 'verb', 'string', 'omit', { doc: 'Verb is the standard HTTP verb' }),
], {
  ...o,
  doc: 'NonResourceAttributes includes the authorization attributes available for non-resource requests to the Authorizer interface',
});

const SubjectAccessReviewSpec = struct(
  'SubjectAccessReviewSpec',
  [
    f(1, 'resourceAttributes', ResourceAttributes, 'ptr omit', { doc: 'ResourceAuthorizationAttributes describes information for a resource access request' }),
    f(2, 'nonResourceAttributes', NonResourceAttributes, 'ptr omit', { doc: 'NonResourceAttributes describes information for a non-resource access request' }),
    f(3, 'user', 'string', 'omit', { doc: "User is the user you're testing for. If you specify \"User\" but not \"Groups\", then is it interpreted as \"What if User were not a member of any groups" }),
    f(4, 'groups', 'string', 'slice omit', { listType: 'atomic', doc: "Groups is the groups you're testing for." }),
    f(5, 'extra', 'stringList', 'map omit', { doc: 'Extra corresponds to the user.Info.GetExtra() method from the authenticator.  Since that is input to the authorizer it needs a reflection here.' }),
    f(6, 'uid', 'string', 'omit', { go: 'UID', doc: 'UID information about the requesting user.' }),
  ],
  { ...o, doc: 'SubjectAccessReviewSpec is a description of the access request.  Exactly one of ResourceAuthorizationAttributes and NonResourceAuthorizationAttributes must be set' },
);

const SelfSubjectAccessReviewSpec = struct(
  'SelfSubjectAccessReviewSpec',
  [
    f(1, 'resourceAttributes', ResourceAttributes, 'ptr omit', { doc: 'ResourceAuthorizationAttributes describes information for a resource access request' }),
    f(2, 'nonResourceAttributes', NonResourceAttributes, 'ptr omit', { doc: 'NonResourceAttributes describes information for a non-resource access request' }),
  ],
  { ...o, doc: 'SelfSubjectAccessReviewSpec is a description of the access request.  Exactly one of ResourceAuthorizationAttributes and NonResourceAuthorizationAttributes must be set' },
);

const SubjectAccessReviewStatus = struct(
  'SubjectAccessReviewStatus',
  [
    f(1, 'allowed', 'bool', '', { doc: 'Allowed is required. True if the action would be allowed, false otherwise.' }),
    f(4, 'denied', 'bool', 'omit', { doc: 'Denied is optional. True if the action would be denied, otherwise false. If both allowed is false and denied is false, then the authorizer has no opinion on whether to authorize the action. Denied may not be true if Allowed is true.' }),
    f(2, 'reason', 'string', 'omit', { doc: 'Reason is optional.  It indicates why a request was allowed or denied.' }),
    f(3, 'evaluationError', 'string', 'omit', { doc: 'EvaluationError is an indication that some error occurred during the authorization check. It is entirely possible to get an error and be able to continue determine authorization status in spite of it. For instance, RBAC can be missing a role, but enough roles are still present and bound to reason about the request.' }),
  ],
  { ...o, doc: 'SubjectAccessReviewStatus' },
);

const reviewFields = (spec: typeof SubjectAccessReviewSpec, specDoc: string): ReturnType<typeof f>[] => [
  metadataField(META_DOC),
  f(2, 'spec', spec, '', { doc: specDoc }),
  f(3, 'status', SubjectAccessReviewStatus, 'omit', { doc: 'Status is filled in by the server and indicates whether the request is allowed or not' }),
];

export const SubjectAccessReview = kindStruct('SubjectAccessReview', reviewFields(SubjectAccessReviewSpec, 'Spec holds information about the request being evaluated'), {
  ...o,
  doc: 'SubjectAccessReview checks whether or not a user or group can perform an action.',
});

export const LocalSubjectAccessReview = kindStruct(
  'LocalSubjectAccessReview',
  reviewFields(
    SubjectAccessReviewSpec,
    'Spec holds information about the request being evaluated.  spec.namespace must be equal to the namespace you made the request against.  If empty, it is defaulted.',
  ), {
  ...o,
  doc: 'LocalSubjectAccessReview checks whether or not a user or group can perform an action in a given namespace. Having a namespace scoped resource makes it much easier to grant namespace scoped policy that includes permissions checking.',
});

export const SelfSubjectAccessReview = kindStruct(
  'SelfSubjectAccessReview',
  reviewFields(SelfSubjectAccessReviewSpec, 'Spec holds information about the request being evaluated.  user and groups must be empty'), {
  ...o,
  doc: 'SelfSubjectAccessReview checks whether or the current user can perform an action.  Not filling in a spec.namespace means "in all namespaces".  Self is a special case, because users should always be able to check whether they can perform an action',
});

const ResourceRule = struct(
  'ResourceRule',
  [
    f(1, 'verbs', 'string', 'slice', { listType: 'atomic', doc: 'Verb is a list of kubernetes resource API verbs, like: get, list, watch, create, update, delete, proxy.  "*" means all.' }),
    f(2, 'apiGroups', 'string', 'slice omit', { go: 'APIGroups', listType: 'atomic', doc: 'APIGroups is the name of the APIGroup that contains the resources.  If multiple API groups are specified, any action requested against one of the enumerated resources in any API group will be allowed.  "*" means all.' }),
    f(3, 'resources', 'string', 'slice omit', { listType: 'atomic', doc: "Resources is a list of resources this rule applies to.  \"*\" means all in the specified apiGroups. \"*/foo\" represents the subresource 'foo' for all resources in the specified apiGroups." }),
    f(4, 'resourceNames', 'string', 'slice omit', { listType: 'atomic', doc: 'ResourceNames is an optional white list of names that the rule applies to.  An empty set means that everything is allowed.  "*" means all.' }),
  ],
  { ...o, doc: "ResourceRule is the list of actions the subject is allowed to perform on resources. The list ordering isn't significant, may contain duplicates, and possibly be incomplete." },
);

const NonResourceRule = struct(
  'NonResourceRule',
  [
    f(1, 'verbs', 'string', 'slice', { listType: 'atomic', doc: 'Verb is a list of kubernetes non-resource API verbs, like: get, post, put, delete, patch, head, options.  "*" means all.' }),
    f(2, 'nonResourceURLs', 'string', 'slice omit', { go: 'NonResourceURLs', listType: 'atomic', doc: 'NonResourceURLs is a set of partial urls that a user should have access to.  *s are allowed, but only as the full, final step in the path.  "*" means all.' }),
  ],
  { ...o, doc: 'NonResourceRule holds information that describes a rule for the non-resource' },
);

const SubjectRulesReviewStatus = struct(
  'SubjectRulesReviewStatus',
  [
    f(1, 'resourceRules', ResourceRule, 'slice', { listType: 'atomic', doc: "ResourceRules is the list of actions the subject is allowed to perform on resources. The list ordering isn't significant, may contain duplicates, and possibly be incomplete." }),
    f(2, 'nonResourceRules', NonResourceRule, 'slice', { listType: 'atomic', doc: "NonResourceRules is the list of actions the subject is allowed to perform on non-resources. The list ordering isn't significant, may contain duplicates, and possibly be incomplete." }),
    f(3, 'incomplete', 'bool', '', { doc: "Incomplete is true when the rules returned by this call are incomplete. This is most commonly encountered when an authorizer, such as an external authorizer, doesn't support rules evaluation." }),
    f(4, 'evaluationError', 'string', 'omit', { doc: "EvaluationError can appear in combination with Rules. It indicates an error occurred during rule evaluation, such as an authorizer that doesn't support rule evaluation, and that ResourceRules and/or NonResourceRules may be incomplete." }),
  ],
  { ...o, doc: "SubjectRulesReviewStatus contains the result of a rules check. This check can be incomplete depending on the set of authorizers the server is configured with and any errors experienced during evaluation. Because authorization rules are additive, if a rule appears in a list it's safe to assume the subject has that permission, even if that list is incomplete." },
);

const SelfSubjectRulesReviewSpec = struct('SelfSubjectRulesReviewSpec', [
  f(1, 'namespace', 'string', 'omit', { doc: 'Namespace to evaluate rules for. Required.' }),
], {
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

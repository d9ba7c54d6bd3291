// flowcontrol.apiserver.k8s.io/v1 FlowSchema and PriorityLevelConfiguration as Go structs: field numbers
// from k8s.io/api flowcontrol/v1 generated.proto, docs as kube 1.33 publishes them in OpenAPI.
import { field as f, kindStruct, struct, type GoStruct } from '../../../api/go-struct.js';
import { ListMeta } from '../../meta/v1/list-meta.js';
import { metadataField } from '../../meta/v1/object-meta.js';

const FLOWCONTROL_V1 = 'io.k8s.api.flowcontrol.v1';
const opts = (doc: string, union?: GoStruct['union']): { openapi: string; doc: string; union?: GoStruct['union'] } => ({
  openapi: FLOWCONTROL_V1,
  doc,
  ...(union ? { union } : {}),
});
const METADATA_DOC = "`metadata` is the standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";
const SPEC_AND_STATUS = 'More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status';

// ---- FlowSchema ----

export const PriorityLevelConfigurationReference = struct(
  'PriorityLevelConfigurationReference',
  [f(1, 'name', 'string', '', { doc: '`name` is the name of the priority level configuration being referenced Required.' })],
  opts('PriorityLevelConfigurationReference contains information that points to the "request-priority" being used.'),
);

export const FlowDistinguisherMethod = struct(
  'FlowDistinguisherMethod',
  [
    f(1, 'type', 'string', '', {
      named: 'FlowDistinguisherMethodType',
      doc: '`type` is the type of flow distinguisher method The supported types are "ByUser" and "ByNamespace". Required.',
    }),
  ],
  opts('FlowDistinguisherMethod specifies the method of a flow distinguisher.'),
);

const UserSubject = struct(
  'UserSubject',
  [f(1, 'name', 'string', '', { doc: '`name` is the username that matches, or "*" to match all usernames. Required.' })],
  opts('UserSubject holds detailed information for user-kind subject.'),
);

const GroupSubject = struct(
  'GroupSubject',
  [
    f(1, 'name', 'string', '', {
      doc: 'name is the user group that matches, or "*" to match all user groups. See https://github.com/kubernetes/apiserver/blob/master/pkg/authentication/user/user.go for some well-known group names. Required.',
    }),
  ],
  opts('GroupSubject holds detailed information for group-kind subject.'),
);

const ServiceAccountSubject = struct(
  'ServiceAccountSubject',
  [
    f(1, 'namespace', 'string', '', { doc: '`namespace` is the namespace of matching ServiceAccount objects. Required.' }),
    f(2, 'name', 'string', '', { doc: '`name` is the name of matching ServiceAccount objects, or "*" to match regardless of name. Required.' }),
  ],
  opts('ServiceAccountSubject holds detailed information for service-account-kind subject.'),
);

export const Subject = struct(
  'Subject',
  [
    f(1, 'kind', 'string', '', { named: 'SubjectKind', doc: '`kind` indicates which one of the other fields is non-empty. Required' }),
    f(2, 'user', UserSubject, 'ptr omit', { doc: '`user` matches based on username.' }),
    f(3, 'group', GroupSubject, 'ptr omit', { doc: '`group` matches based on user group name.' }),
    f(4, 'serviceAccount', ServiceAccountSubject, 'ptr omit', { doc: '`serviceAccount` matches ServiceAccounts.' }),
  ],
  opts(
    'Subject matches the originator of a request, as identified by the request authentication system. There are three ways of matching an originator; by user, group, or service account.',
    { discriminator: 'kind', fields: { group: 'Group', serviceAccount: 'ServiceAccount', user: 'User' } },
  ),
);

export const ResourcePolicyRule = struct(
  'ResourcePolicyRule',
  [
    f(1, 'verbs', 'string', 'slice', {
      listType: 'set',
      doc: '`verbs` is a list of matching verbs and may not be empty. "*" matches all verbs and, if present, must be the only entry. Required.',
    }),
    f(2, 'apiGroups', 'string', 'slice', {
      go: 'APIGroups',
      listType: 'set',
      doc: '`apiGroups` is a list of matching API groups and may not be empty. "*" matches all API groups and, if present, must be the only entry. Required.',
    }),
    f(3, 'resources', 'string', 'slice', {
      listType: 'set',
      doc: '`resources` is a list of matching resources (i.e., lowercase and plural) with, if desired, subresource.  For example, [ "services", "nodes/status" ].  This list may not be empty. "*" matches all resources and, if present, must be the only entry. Required.',
    }),
    f(4, 'clusterScope', 'bool', 'omit', {
      doc: '`clusterScope` indicates whether to match requests that do not specify a namespace (which happens either because the resource is not namespaced or the request targets all namespaces). If this field is omitted or false then the `namespaces` field must contain a non-empty list.',
    }),
    f(5, 'namespaces', 'string', 'slice opt', {
      listType: 'set',
      doc: '`namespaces` is a list of target namespaces that restricts matches.  A request that specifies a target namespace matches only if either (a) this list contains that target namespace or (b) this list contains "*".  Note that "*" matches any specified namespace but does not match a request that _does not specify_ a namespace (see the `clusterScope` field for that). This list may be empty, but only if `clusterScope` is true.',
    }),
  ],
  opts(
    'ResourcePolicyRule is a predicate that matches some resource requests, testing the request\'s verb and the target resource. A ResourcePolicyRule matches a resource request if and only if: (a) at least one member of verbs matches the request, (b) at least one member of apiGroups matches the request, (c) at least one member of resources matches the request, and (d) either (d1) the request does not specify a namespace (i.e., `Namespace==""`) and clusterScope is true or (d2) the request specifies a namespace and least one member of namespaces matches the request\'s namespace.',
  ),
);

export const NonResourcePolicyRule = struct(
  'NonResourcePolicyRule',
  [
    f(1, 'verbs', 'string', 'slice', {
      listType: 'set',
      doc: '`verbs` is a list of matching verbs and may not be empty. "*" matches all verbs. If it is present, it must be the only entry. Required.',
    }),
    f(6, 'nonResourceURLs', 'string', 'slice', {
      go: 'NonResourceURLs',
      listType: 'set',
      doc: '`nonResourceURLs` is a set of url prefixes that a user should have access to and may not be empty. For example:\n  - "/healthz" is legal\n  - "/hea*" is illegal\n  - "/hea" is legal but matches nothing\n  - "/hea/*" also matches nothing\n  - "/healthz/*" matches all per-component health checks.\n"*" matches all non-resource urls. if it is present, it must be the only entry. Required.',
    }),
  ],
  opts(
    'NonResourcePolicyRule is a predicate that matches non-resource requests according to their verb and the target non-resource URL. A NonResourcePolicyRule matches a request if and only if both (a) at least one member of verbs matches the request and (b) at least one member of nonResourceURLs matches the request.',
  ),
);

export const PolicyRulesWithSubjects = struct(
  'PolicyRulesWithSubjects',
  [
    f(1, 'subjects', Subject, 'slice', {
      listType: 'atomic',
      doc: 'subjects is the list of normal user, serviceaccount, or group that this rule cares about. There must be at least one member in this slice. A slice that includes both the system:authenticated and system:unauthenticated user groups matches every request. Required.',
    }),
    f(2, 'resourceRules', ResourcePolicyRule, 'slice omit', {
      listType: 'atomic',
      doc: '`resourceRules` is a slice of ResourcePolicyRules that identify matching requests according to their verb and the target resource. At least one of `resourceRules` and `nonResourceRules` has to be non-empty.',
    }),
    f(3, 'nonResourceRules', NonResourcePolicyRule, 'slice omit', {
      listType: 'atomic',
      doc: '`nonResourceRules` is a list of NonResourcePolicyRules that identify matching requests according to their verb and the target non-resource URL.',
    }),
  ],
  opts(
    'PolicyRulesWithSubjects prescribes a test that applies to a request to an apiserver. The test considers the subject making the request, the verb being requested, and the resource to be acted upon. This PolicyRulesWithSubjects matches a request if and only if both (a) at least one member of subjects matches the request and (b) at least one member of resourceRules or nonResourceRules matches the request.',
  ),
);

export const FLOW_SCHEMA_SPEC_DOCS = {
  matchingPrecedence:
    '`matchingPrecedence` is used to choose among the FlowSchemas that match a given request. The chosen FlowSchema is among those with the numerically lowest (which we take to be logically highest) MatchingPrecedence.  Each MatchingPrecedence value must be ranged in [1,10000]. Note that if the precedence is not specified, it will be set to 1000 as default.',
  distinguisherMethod:
    '`distinguisherMethod` defines how to compute the flow distinguisher for requests that match this schema. `nil` specifies that the distinguisher is disabled and thus will always be the empty string.',
};

export const FlowSchemaSpec = struct(
  'FlowSchemaSpec',
  [
    f(1, 'priorityLevelConfiguration', PriorityLevelConfigurationReference, '', {
      doc: '`priorityLevelConfiguration` should reference a PriorityLevelConfiguration in the cluster. If the reference cannot be resolved, the FlowSchema will be ignored and marked as invalid in its status. Required.',
    }),
    f(2, 'matchingPrecedence', 'int32', 'opt', { doc: FLOW_SCHEMA_SPEC_DOCS.matchingPrecedence }),
    f(3, 'distinguisherMethod', FlowDistinguisherMethod, 'ptr omit', { doc: FLOW_SCHEMA_SPEC_DOCS.distinguisherMethod }),
    f(4, 'rules', PolicyRulesWithSubjects, 'slice omit', {
      listType: 'atomic',
      doc: '`rules` describes which requests will match this flow schema. This FlowSchema matches a request if and only if at least one member of rules matches the request. if it is an empty slice, there will be no requests matching the FlowSchema.',
    }),
  ],
  opts("FlowSchemaSpec describes how the FlowSchema's specification looks like."),
);

/** The fields of FlowSchemaCondition and PriorityLevelConfigurationCondition, which are the same. */
const conditionFields = (typeName: string): ReturnType<typeof f>[] => [
  f(1, 'type', 'string', 'omit', { named: typeName, doc: '`type` is the type of the condition. Required.' }),
  f(2, 'status', 'string', 'omit', { named: 'ConditionStatus', doc: '`status` is the status of the condition. Can be True, False, Unknown. Required.' }),
  f(3, 'lastTransitionTime', 'time', 'omit', { doc: '`lastTransitionTime` is the last time the condition transitioned from one status to another.' }),
  f(4, 'reason', 'string', 'omit', { doc: "`reason` is a unique, one-word, CamelCase reason for the condition's last transition." }),
  f(5, 'message', 'string', 'omit', { doc: '`message` is a human-readable message indicating details about last transition.' }),
];

const FlowSchemaCondition = struct('FlowSchemaCondition', conditionFields('FlowSchemaConditionType'), opts('FlowSchemaCondition describes conditions for a FlowSchema.'));

export const FlowSchemaStatus = struct(
  'FlowSchemaStatus',
  [
    f(1, 'conditions', FlowSchemaCondition, 'slice omit', {
      listType: 'map',
      listMapKeys: ['type'],
      patchStrategy: 'merge',
      patchMergeKey: 'type',
      doc: '`conditions` is a list of the current states of FlowSchema.',
    }),
  ],
  opts('FlowSchemaStatus represents the current state of a FlowSchema.'),
);

export const FlowSchema = kindStruct(
  'FlowSchema',
  [
    metadataField(METADATA_DOC),
    f(2, 'spec', FlowSchemaSpec, 'omit', { doc: `\`spec\` is the specification of the desired behavior of a FlowSchema. ${SPEC_AND_STATUS}` }),
    f(3, 'status', FlowSchemaStatus, 'omit', { doc: `\`status\` is the current status of a FlowSchema. ${SPEC_AND_STATUS}` }),
  ],
  opts(
    'FlowSchema defines the schema of a group of flows. Note that a flow is made up of a set of inbound API requests with similar attributes and is identified by a pair of strings: the name of the FlowSchema and a "flow distinguisher".',
  ),
);

export const FlowSchemaList = kindStruct(
  'FlowSchemaList',
  [
    f(1, 'metadata', ListMeta, 'omit', {
      go: 'ListMeta',
      doc: '`metadata` is the standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata',
    }),
    f(2, 'items', FlowSchema, 'slice', { doc: '`items` is a list of FlowSchemas.' }),
  ],
  opts('FlowSchemaList is a list of FlowSchema objects.'),
);

// ---- PriorityLevelConfiguration ----

export const QUEUING_DOCS = {
  queues:
    '`queues` is the number of queues for this priority level. The queues exist independently at each apiserver. The value must be positive.  Setting it to 1 effectively precludes shufflesharding and thus makes the distinguisher method of associated flow schemas irrelevant.  This field has a default value of 64.',
  handSize:
    "`handSize` is a small positive number that configures the shuffle sharding of requests into queues.  When enqueuing a request at this priority level the request's flow identifier (a string pair) is hashed and the hash value is used to shuffle the list of queues and deal a hand of the size specified here.  The request is put into one of the shortest queues in that hand. `handSize` must be no larger than `queues`, and should be significantly smaller (so that a few heavy flows do not saturate most of the queues).  See the user-facing documentation for more extensive guidance on setting this field.  This field has a default value of 8.",
  queueLengthLimit:
    '`queueLengthLimit` is the maximum number of requests allowed to be waiting in a given queue of this priority level at a time; excess requests are rejected.  This value must be positive.  If not specified, it will be defaulted to 50.',
};

export const QueuingConfiguration = struct(
  'QueuingConfiguration',
  [
    f(1, 'queues', 'int32', 'opt', { doc: QUEUING_DOCS.queues }),
    f(2, 'handSize', 'int32', 'opt', { doc: QUEUING_DOCS.handSize }),
    f(3, 'queueLengthLimit', 'int32', 'opt', { doc: QUEUING_DOCS.queueLengthLimit }),
  ],
  opts('QueuingConfiguration holds the configuration parameters for queuing'),
);

export const LimitResponse = struct(
  'LimitResponse',
  [
    f(1, 'type', 'string', '', {
      named: 'LimitResponseType',
      doc: '`type` is "Queue" or "Reject". "Queue" means that requests that can not be executed upon arrival are held in a queue until they can be executed or a queuing limit is reached. "Reject" means that requests that can not be executed upon arrival are rejected. Required.',
    }),
    f(2, 'queuing', QueuingConfiguration, 'ptr omit', {
      doc: '`queuing` holds the configuration parameters for queuing. This field may be non-empty only if `type` is `"Queue"`.',
    }),
  ],
  opts('LimitResponse defines how to handle requests that can not be executed right now.', { discriminator: 'type', fields: { queuing: 'Queuing' } }),
);

export const LIMITED_NCS_DOC =
  "`nominalConcurrencyShares` (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level. This is the number of execution seats available at this priority level. This is used both for requests dispatched from this priority level as well as requests dispatched from other priority levels borrowing seats from this level. The server's concurrency limit (ServerCL) is divided among the Limited priority levels in proportion to their NCS values:\n\nNominalCL(i)  = ceil( ServerCL * NCS(i) / sum_ncs ) sum_ncs = sum[priority level k] NCS(k)\n\nBigger numbers mean a larger nominal concurrency limit, at the expense of every other priority level.\n\nIf not specified, this field defaults to a value of 30.\n\nSetting this field to zero supports the construction of a \"jail\" for this priority level that is used to hold some request(s)";

export const LimitedPriorityLevelConfiguration = struct(
  'LimitedPriorityLevelConfiguration',
  [
    // `json:"nominalConcurrencyShares"` without omitempty: a nil pointer is written as null.
    f(1, 'nominalConcurrencyShares', 'int32', 'ptr opt', { doc: LIMITED_NCS_DOC }),
    f(2, 'limitResponse', LimitResponse, 'omit', { doc: '`limitResponse` indicates what to do with requests that can not be executed right now' }),
    f(3, 'lendablePercent', 'int32', 'ptr omit', {
      doc: "`lendablePercent` prescribes the fraction of the level's NominalCL that can be borrowed by other priority levels. The value of this field must be between 0 and 100, inclusive, and it defaults to 0. The number of seats that other levels can borrow from this level, known as this level's LendableConcurrencyLimit (LendableCL), is defined as follows.\n\nLendableCL(i) = round( NominalCL(i) * lendablePercent(i)/100.0 )",
    }),
    f(4, 'borrowingLimitPercent', 'int32', 'ptr omit', {
      doc: "`borrowingLimitPercent`, if present, configures a limit on how many seats this priority level can borrow from other priority levels. The limit is known as this level's BorrowingConcurrencyLimit (BorrowingCL) and is a limit on the total number of seats that this level may borrow at any one time. This field holds the ratio of that limit to the level's nominal concurrency limit. When this field is non-nil, it must hold a non-negative integer and the limit is calculated as follows.\n\nBorrowingCL(i) = round( NominalCL(i) * borrowingLimitPercent(i)/100.0 )\n\nThe value of this field can be more than 100, implying that this priority level can borrow a number of seats that is greater than its own nominal concurrency limit (NominalCL). When this field is left `nil`, the limit is effectively infinite.",
    }),
  ],
  opts(
    'LimitedPriorityLevelConfiguration specifies how to handle requests that are subject to limits. It addresses two issues:\n  - How are requests for this priority level limited?\n  - What should be done with requests that exceed the limit?',
  ),
);

export const ExemptPriorityLevelConfiguration = struct(
  'ExemptPriorityLevelConfiguration',
  [
    f(1, 'nominalConcurrencyShares', 'int32', 'ptr omit', {
      doc: "`nominalConcurrencyShares` (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level. This is the number of execution seats nominally reserved for this priority level. This DOES NOT limit the dispatching from this priority level but affects the other priority levels through the borrowing mechanism. The server's concurrency limit (ServerCL) is divided among all the priority levels in proportion to their NCS values:\n\nNominalCL(i)  = ceil( ServerCL * NCS(i) / sum_ncs ) sum_ncs = sum[priority level k] NCS(k)\n\nBigger numbers mean a larger nominal concurrency limit, at the expense of every other priority level. This field has a default value of zero.",
    }),
    f(2, 'lendablePercent', 'int32', 'ptr omit', {
      doc: "`lendablePercent` prescribes the fraction of the level's NominalCL that can be borrowed by other priority levels.  This value of this field must be between 0 and 100, inclusive, and it defaults to 0. The number of seats that other levels can borrow from this level, known as this level's LendableConcurrencyLimit (LendableCL), is defined as follows.\n\nLendableCL(i) = round( NominalCL(i) * lendablePercent(i)/100.0 )",
    }),
  ],
  opts(
    'ExemptPriorityLevelConfiguration describes the configurable aspects of the handling of exempt requests. In the mandatory exempt configuration object the values in the fields here can be modified by authorized users, unlike the rest of the `spec`.',
  ),
);

export const PL_TYPE_DOC =
  '`type` indicates whether this priority level is subject to limitation on request execution.  A value of `"Exempt"` means that requests of this priority level are not subject to a limit (and thus are never queued) and do not detract from the capacity made available to other priority levels.  A value of `"Limited"` means that (a) requests of this priority level _are_ subject to limits and (b) some of the server\'s limited capacity is made available exclusively to this priority level. Required.';

export const PriorityLevelConfigurationSpec = struct(
  'PriorityLevelConfigurationSpec',
  [
    f(1, 'type', 'string', '', { named: 'PriorityLevelEnablement', doc: PL_TYPE_DOC }),
    f(2, 'limited', LimitedPriorityLevelConfiguration, 'ptr omit', {
      doc: '`limited` specifies how requests are handled for a Limited priority level. This field must be non-empty if and only if `type` is `"Limited"`.',
    }),
    f(3, 'exempt', ExemptPriorityLevelConfiguration, 'ptr omit', {
      doc: '`exempt` specifies how requests are handled for an exempt priority level. This field MUST be empty if `type` is `"Limited"`. This field MAY be non-empty if `type` is `"Exempt"`. If empty and `type` is `"Exempt"` then the default values for `ExemptPriorityLevelConfiguration` apply.',
    }),
  ],
  opts('PriorityLevelConfigurationSpec specifies the configuration of a priority level.', {
    discriminator: 'type',
    fields: { exempt: 'Exempt', limited: 'Limited' },
  }),
);

const PriorityLevelConfigurationCondition = struct(
  'PriorityLevelConfigurationCondition',
  conditionFields('PriorityLevelConfigurationConditionType'),
  opts('PriorityLevelConfigurationCondition defines the condition of priority level.'),
);

export const PriorityLevelConfigurationStatus = struct(
  'PriorityLevelConfigurationStatus',
  [
    f(1, 'conditions', PriorityLevelConfigurationCondition, 'slice omit', {
      listType: 'map',
      listMapKeys: ['type'],
      patchStrategy: 'merge',
      patchMergeKey: 'type',
      doc: '`conditions` is the current state of "request-priority".',
    }),
  ],
  opts('PriorityLevelConfigurationStatus represents the current state of a "request-priority".'),
);

export const PriorityLevelConfiguration = kindStruct(
  'PriorityLevelConfiguration',
  [
    metadataField(METADATA_DOC),
    f(2, 'spec', PriorityLevelConfigurationSpec, 'omit', { doc: `\`spec\` is the specification of the desired behavior of a "request-priority". ${SPEC_AND_STATUS}` }),
    f(3, 'status', PriorityLevelConfigurationStatus, 'omit', { doc: `\`status\` is the current status of a "request-priority". ${SPEC_AND_STATUS}` }),
  ],
  opts('PriorityLevelConfiguration represents the configuration of a priority level.'),
);

export const PriorityLevelConfigurationList = kindStruct(
  'PriorityLevelConfigurationList',
  [
    f(1, 'metadata', ListMeta, 'omit', { go: 'ListMeta', doc: METADATA_DOC }),
    f(2, 'items', PriorityLevelConfiguration, 'slice', { doc: '`items` is a list of request-priorities.' }),
  ],
  opts('PriorityLevelConfigurationList is a list of PriorityLevelConfiguration objects.'),
);

// rbac.authorization.k8s.io/v1 Role, ClusterRole, RoleBinding and ClusterRoleBinding: their Go types with
// the documentation kube publishes in OpenAPI (k8s.io/api rbac/v1 types.go).
import { field as f, kindStruct, struct, type GoStruct } from '../../../api/go-struct.js';
import { metadataField } from '../../meta/v1/object-meta.js';
import { LabelSelector } from '../../meta/v1/label-selector.js';
import { ListMeta } from '../../meta/v1/list-meta.js';

const RBAC_V1 = 'io.k8s.api.rbac.v1';
const METADATA_DOC = "Standard object's metadata.";

const PolicyRule = struct(
  'PolicyRule',
  [
    f(1, 'verbs', 'string', 'slice', { listType: 'atomic', doc: "Verbs is a list of Verbs that apply to ALL the ResourceKinds contained in this rule. '*' represents all verbs." }),
    f(2, 'apiGroups', 'string', 'slice omit', {
      go: 'APIGroups',
      listType: 'atomic',
      doc: 'APIGroups is the name of the APIGroup that contains the resources.  If multiple API groups are specified, any action requested against one of the enumerated resources in any API group will be allowed. "" represents the core API group and "*" represents all API groups.',
    }),
    f(3, 'resources', 'string', 'slice omit', { listType: 'atomic', doc: "Resources is a list of resources this rule applies to. '*' represents all resources." }),
    f(4, 'resourceNames', 'string', 'slice omit', { listType: 'atomic', doc: 'ResourceNames is an optional white list of names that the rule applies to.  An empty set means that everything is allowed.' }),
    f(5, 'nonResourceURLs', 'string', 'slice omit', {
      go: 'NonResourceURLs',
      listType: 'atomic',
      doc: 'NonResourceURLs is a set of partial urls that a user should have access to.  *s are allowed, but only as the full, final step in the path Since non-resource URLs are not namespaced, this field is only applicable for ClusterRoles referenced from a ClusterRoleBinding. Rules can either apply to API resources (such as "pods" or "secrets") or non-resource URL paths (such as "/api"),  but not both.',
    }),
  ],
  {
    openapi: RBAC_V1,
    doc: 'PolicyRule holds information that describes a policy rule, but does not contain information about who the rule applies to or which namespace the rule applies to.',
  },
);

const Subject = struct(
  'Subject',
  [
    f(1, 'kind', 'string', '', {
      doc: 'Kind of object being referenced. Values defined by this API group are "User", "Group", and "ServiceAccount". If the Authorizer does not recognized the kind value, the Authorizer should report an error.',
    }),
    f(2, 'apiGroup', 'string', 'omit', {
      go: 'APIGroup',
      doc: 'APIGroup holds the API group of the referenced subject. Defaults to "" for ServiceAccount subjects. Defaults to "rbac.authorization.k8s.io" for User and Group subjects.',
    }),
    f(3, 'name', 'string', '', { doc: 'Name of the object being referenced.' }),
    f(4, 'namespace', 'string', 'omit', {
      doc: 'Namespace of the referenced object.  If the object kind is non-namespace, such as "User" or "Group", and this value is not empty the Authorizer should report an error.',
    }),
  ],
  {
    openapi: RBAC_V1,
    mapType: 'atomic',
    doc: 'Subject contains a reference to the object or user identities a role binding applies to.  This can either hold a direct API object reference, or a value for non-objects such as user and group names.',
  },
);

const RoleRef = struct(
  'RoleRef',
  [
    f(1, 'apiGroup', 'string', '', { go: 'APIGroup', doc: 'APIGroup is the group for the resource being referenced' }),
    f(2, 'kind', 'string', '', { doc: 'Kind is the type of resource being referenced' }),
    f(3, 'name', 'string', '', { doc: 'Name is the name of resource being referenced' }),
  ],
  { openapi: RBAC_V1, mapType: 'atomic', doc: 'RoleRef contains information that points to the role being used' },
);

const AggregationRule = struct(
  'AggregationRule',
  [
    f(1, 'clusterRoleSelectors', LabelSelector, 'slice omit', {
      listType: 'atomic',
      doc: "ClusterRoleSelectors holds a list of selectors which will be used to find ClusterRoles and create the rules. If any of the selectors match, then the ClusterRole's permissions will be added",
    }),
  ],
  { openapi: RBAC_V1, doc: 'AggregationRule describes how to locate ClusterRoles to aggregate into the ClusterRole' },
);

export const Role = kindStruct(
  'Role',
  [metadataField(METADATA_DOC), f(2, 'rules', PolicyRule, 'slice opt', { listType: 'atomic', doc: 'Rules holds all the PolicyRules for this Role' })],
  { openapi: RBAC_V1, doc: 'Role is a namespaced, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding.' },
);

export const ClusterRole = kindStruct(
  'ClusterRole',
  [
    metadataField(METADATA_DOC),
    f(2, 'rules', PolicyRule, 'slice opt', { listType: 'atomic', doc: 'Rules holds all the PolicyRules for this ClusterRole' }),
    f(3, 'aggregationRule', AggregationRule, 'ptr omit', {
      doc: 'AggregationRule is an optional field that describes how to build the Rules for this ClusterRole. If AggregationRule is set, then the Rules are controller managed and direct changes to Rules will be stomped by the controller.',
    }),
  ],
  {
    openapi: RBAC_V1,
    doc: 'ClusterRole is a cluster level, logical grouping of PolicyRules that can be referenced as a unit by a RoleBinding or ClusterRoleBinding.',
  },
);

const SUBJECTS_DOC = 'Subjects holds references to the objects the role applies to.';
const ROLE_BINDING_ROLE_REF_DOC =
  'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.';
const CLUSTER_ROLE_BINDING_ROLE_REF_DOC =
  'RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable.';

const bindingFields = (roleRefDoc: string) => [
  metadataField(METADATA_DOC),
  f(2, 'subjects', Subject, 'slice omit', { listType: 'atomic', doc: SUBJECTS_DOC }),
  f(3, 'roleRef', RoleRef, '', { doc: roleRefDoc }),
];

export const RoleBinding = kindStruct('RoleBinding', bindingFields(ROLE_BINDING_ROLE_REF_DOC), {
  openapi: RBAC_V1,
  doc: 'RoleBinding references a role, but does not contain it.  It can reference a Role in the same namespace or a ClusterRole in the global namespace. It adds who information via Subjects and namespace information by which namespace it exists in.  RoleBindings in a given namespace only have effect in that namespace.',
});

export const ClusterRoleBinding = kindStruct('ClusterRoleBinding', bindingFields(CLUSTER_ROLE_BINDING_ROLE_REF_DOC), {
  openapi: RBAC_V1,
  doc: 'ClusterRoleBinding references a ClusterRole, but not contain it.  It can reference a ClusterRole in the global namespace, and adds who information via Subject.',
});

const listOf = (name: string, item: GoStruct, itemsDoc: string, doc: string): GoStruct =>
  kindStruct(name, [f(1, 'metadata', ListMeta, 'omit', { go: 'ListMeta', doc: METADATA_DOC }), f(2, 'items', item, 'slice', { doc: itemsDoc })], { openapi: RBAC_V1, doc });

export const RoleList = listOf('RoleList', Role, 'Items is a list of Roles', 'RoleList is a collection of Roles');
export const ClusterRoleList = listOf('ClusterRoleList', ClusterRole, 'Items is a list of ClusterRoles', 'ClusterRoleList is a collection of ClusterRoles');
export const RoleBindingList = listOf('RoleBindingList', RoleBinding, 'Items is a list of RoleBindings', 'RoleBindingList is a collection of RoleBindings');
export const ClusterRoleBindingList = listOf(
  'ClusterRoleBindingList',
  ClusterRoleBinding,
  'Items is a list of ClusterRoleBindings',
  'ClusterRoleBindingList is a collection of ClusterRoleBindings',
);

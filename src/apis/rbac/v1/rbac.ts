// rbac.authorization.k8s.io/v1 Role, ClusterRole, RoleBinding and ClusterRoleBinding: not served yet,
// declared for their protobuf form (request bodies kubectl sends decode as kube decodes them).
import { field as f, kindStruct, struct } from '../../../api/go-struct.js';
import { metadataField } from '../../meta/v1/object-meta.js';
import { LabelSelector } from '../../meta/v1/label-selector.js';

const PolicyRule = struct('PolicyRule', [
  f(1, 'verbs', 'string', 'slice'),
  f(2, 'apiGroups', 'string', 'slice omit', { go: 'APIGroups' }),
  f(3, 'resources', 'string', 'slice omit'),
  f(4, 'resourceNames', 'string', 'slice omit'),
  f(5, 'nonResourceURLs', 'string', 'slice omit', { go: 'NonResourceURLs' }),
]);

const Subject = struct('Subject', [
  f(1, 'kind', 'string'),
  f(2, 'apiGroup', 'string', 'omit', { go: 'APIGroup' }),
  f(3, 'name', 'string'),
  f(4, 'namespace', 'string', 'omit'),
]);

const RoleRef = struct('RoleRef', [f(1, 'apiGroup', 'string', '', { go: 'APIGroup' }), f(2, 'kind', 'string'), f(3, 'name', 'string')]);

const AggregationRule = struct('AggregationRule', [f(1, 'clusterRoleSelectors', LabelSelector, 'slice omit')]);

export const Role = kindStruct('Role', [metadataField(), f(2, 'rules', PolicyRule, 'slice')]);

export const ClusterRole = kindStruct('ClusterRole', [metadataField(), f(2, 'rules', PolicyRule, 'slice'), f(3, 'aggregationRule', AggregationRule, 'ptr omit')]);

const bindingFields = [metadataField(), f(2, 'subjects', Subject, 'slice omit'), f(3, 'roleRef', RoleRef)];
export const RoleBinding = kindStruct('RoleBinding', bindingFields);
export const ClusterRoleBinding = kindStruct('ClusterRoleBinding', bindingFields);

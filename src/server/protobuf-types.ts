// The protobuf messages the server decodes, as tables: field numbers from the generated.proto
// files of k8s.io/apimachinery (meta/v1) and k8s.io/api (core/v1, rbac/v1, autoscaling/v1),
// listed in Go struct order with the JSON tags of the 1.33 types (omitempty, pointer) so the
// decoded JSON matches what encoding/json writes for the same object.
import { field as f, message, type MessageSchema } from './protobuf-message.js';

// ------------------------------------------------------------------ meta/v1

const OwnerReference = message('OwnerReference', [
  f(5, 'apiVersion', 'string'),
  f(1, 'kind', 'string'),
  f(3, 'name', 'string'),
  f(4, 'uid', 'string'),
  f(6, 'controller', 'bool', 'ptr omit'),
  f(7, 'blockOwnerDeletion', 'bool', 'ptr omit'),
]);

const ManagedFieldsEntry = message('ManagedFieldsEntry', [
  f(1, 'manager', 'string', 'omit'),
  f(2, 'operation', 'string', 'omit'),
  f(3, 'apiVersion', 'string', 'omit'),
  f(4, 'time', 'time', 'ptr omit'),
  f(6, 'fieldsType', 'string', 'omit'),
  f(7, 'fieldsV1', 'fieldsV1', 'ptr omit'),
  f(8, 'subresource', 'string', 'omit'),
]);

export const ObjectMeta = message('ObjectMeta', [
  f(1, 'name', 'string', 'omit'),
  f(2, 'generateName', 'string', 'omit'),
  f(3, 'namespace', 'string', 'omit'),
  f(4, 'selfLink', 'string', 'omit'),
  f(5, 'uid', 'string', 'omit'),
  f(6, 'resourceVersion', 'string', 'omit'),
  f(7, 'generation', 'int64', 'omit'),
  f(8, 'creationTimestamp', 'time', 'omit'), // a struct: written (as null) even when zero
  f(9, 'deletionTimestamp', 'time', 'ptr omit'),
  f(10, 'deletionGracePeriodSeconds', 'int64', 'ptr omit'),
  f(11, 'labels', 'stringMap', 'omit'),
  f(12, 'annotations', 'stringMap', 'omit'),
  f(13, 'ownerReferences', OwnerReference, 'rep omit'),
  f(14, 'finalizers', 'string', 'rep omit'),
  f(17, 'managedFields', ManagedFieldsEntry, 'rep omit'),
]);

const Preconditions = message('Preconditions', [
  f(1, 'uid', 'string', 'ptr omit'),
  f(2, 'resourceVersion', 'string', 'ptr omit'),
]);

export const DeleteOptions = message('DeleteOptions', [
  f(1, 'gracePeriodSeconds', 'int64', 'ptr omit'),
  f(2, 'preconditions', Preconditions, 'ptr omit'),
  f(3, 'orphanDependents', 'bool', 'ptr omit'),
  f(4, 'propagationPolicy', 'string', 'ptr omit'),
  f(5, 'dryRun', 'string', 'rep omit'),
  f(6, 'ignoreStoreReadErrorWithClusterBreakingPotential', 'bool', 'ptr omit'),
]);

const LabelSelectorRequirement = message('LabelSelectorRequirement', [
  f(1, 'key', 'string'),
  f(2, 'operator', 'string'),
  f(3, 'values', 'string', 'rep omit'),
]);

const LabelSelector = message('LabelSelector', [
  f(1, 'matchLabels', 'stringMap', 'omit'),
  f(2, 'matchExpressions', LabelSelectorRequirement, 'rep omit'),
]);

// ------------------------------------------------------------------ core/v1

const NamespaceSpec = message('NamespaceSpec', [f(1, 'finalizers', 'string', 'rep omit')]);

const NamespaceCondition = message('NamespaceCondition', [
  f(1, 'type', 'string'),
  f(2, 'status', 'string'),
  f(4, 'lastTransitionTime', 'time', 'omit'),
  f(5, 'reason', 'string', 'omit'),
  f(6, 'message', 'string', 'omit'),
]);

const NamespaceStatus = message('NamespaceStatus', [
  f(1, 'phase', 'string', 'omit'),
  f(2, 'conditions', NamespaceCondition, 'rep omit'),
]);

export const Namespace = message('Namespace', [
  f(1, 'metadata', ObjectMeta, 'omit', 'ObjectMeta'),
  f(2, 'spec', NamespaceSpec, 'omit'),
  f(3, 'status', NamespaceStatus, 'omit'),
]);

// ------------------------------------------------------------------ rbac.authorization.k8s.io/v1

const PolicyRule = message('PolicyRule', [
  f(1, 'verbs', 'string', 'rep'),
  f(2, 'apiGroups', 'string', 'rep omit'),
  f(3, 'resources', 'string', 'rep omit'),
  f(4, 'resourceNames', 'string', 'rep omit'),
  f(5, 'nonResourceURLs', 'string', 'rep omit'),
]);

const Subject = message('Subject', [
  f(1, 'kind', 'string'),
  f(2, 'apiGroup', 'string', 'omit'),
  f(3, 'name', 'string'),
  f(4, 'namespace', 'string', 'omit'),
]);

const RoleRef = message('RoleRef', [f(1, 'apiGroup', 'string'), f(2, 'kind', 'string'), f(3, 'name', 'string')]);

const AggregationRule = message('AggregationRule', [f(1, 'clusterRoleSelectors', LabelSelector, 'rep omit')]);

export const Role = message('Role', [f(1, 'metadata', ObjectMeta, 'omit', 'ObjectMeta'), f(2, 'rules', PolicyRule, 'rep')]);

export const ClusterRole = message('ClusterRole', [
  f(1, 'metadata', ObjectMeta, 'omit', 'ObjectMeta'),
  f(2, 'rules', PolicyRule, 'rep'),
  f(3, 'aggregationRule', AggregationRule, 'ptr omit'),
]);

const bindingFields = [
  f(1, 'metadata', ObjectMeta, 'omit', 'ObjectMeta'),
  f(2, 'subjects', Subject, 'rep omit'),
  f(3, 'roleRef', RoleRef),
];
export const RoleBinding = message('RoleBinding', bindingFields);
export const ClusterRoleBinding = message('ClusterRoleBinding', bindingFields);

// ------------------------------------------------------------------ autoscaling/v1

// The scale subresource's body (HPA and other controllers with protobuf clients send it so).
const ScaleSpec = message('ScaleSpec', [f(1, 'replicas', 'int32', 'omit')]);
const ScaleStatus = message('ScaleStatus', [f(1, 'replicas', 'int32'), f(2, 'selector', 'string', 'omit')]);
export const Scale = message('Scale', [
  f(1, 'metadata', ObjectMeta, 'omit', 'ObjectMeta'),
  f(2, 'spec', ScaleSpec, 'omit'),
  f(3, 'status', ScaleStatus, 'omit'),
]);

// ------------------------------------------------------------------ registry

export interface ProtobufKind {
  apiVersion: string;
  kind: string;
  schema: MessageSchema;
}

/** Top-level kinds decodable from a request body, by apiVersion and kind. */
export const PROTOBUF_KINDS: readonly ProtobufKind[] = [
  { apiVersion: 'v1', kind: 'Namespace', schema: Namespace },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'Role', schema: Role },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRole', schema: ClusterRole },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'RoleBinding', schema: RoleBinding },
  { apiVersion: 'rbac.authorization.k8s.io/v1', kind: 'ClusterRoleBinding', schema: ClusterRoleBinding },
  { apiVersion: 'autoscaling/v1', kind: 'Scale', schema: Scale },
];

export function protobufKind(apiVersion: string, kind: string): ProtobufKind | undefined {
  return PROTOBUF_KINDS.find((k) => k.apiVersion === apiVersion && k.kind === kind);
}

// k8s.io/apimachinery/pkg/apis/meta/v1 ObjectMeta and the types it holds: Go field order, json tags,
// generated.proto numbers and patch tags of the 1.33 types.
import { field as f, struct } from '../../../api/go-struct.js';

export const OwnerReference = struct('OwnerReference', [
  f(5, 'apiVersion', 'string', '', { go: 'APIVersion' }),
  f(1, 'kind', 'string'),
  f(3, 'name', 'string'),
  f(4, 'uid', 'string', '', { go: 'UID' }),
  f(6, 'controller', 'bool', 'ptr omit'),
  f(7, 'blockOwnerDeletion', 'bool', 'ptr omit'),
]);

export const ManagedFieldsEntry = struct('ManagedFieldsEntry', [
  f(1, 'manager', 'string', 'omit'),
  f(2, 'operation', 'string', 'omit'),
  f(3, 'apiVersion', 'string', 'omit', { go: 'APIVersion' }),
  f(4, 'time', 'time', 'ptr omit'),
  f(6, 'fieldsType', 'string', 'omit'),
  f(7, 'fieldsV1', 'fieldsV1', 'ptr omit', { go: 'FieldsV1' }),
  f(8, 'subresource', 'string', 'omit'),
]);

export const ObjectMeta = struct('ObjectMeta', [
  f(1, 'name', 'string', 'omit'),
  f(2, 'generateName', 'string', 'omit'),
  f(3, 'namespace', 'string', 'omit'),
  f(4, 'selfLink', 'string', 'omit'),
  f(5, 'uid', 'string', 'omit', { go: 'UID' }),
  f(6, 'resourceVersion', 'string', 'omit'),
  f(7, 'generation', 'int64', 'omit'),
  f(8, 'creationTimestamp', 'time', 'omit'), // a struct: written (as null) even when zero
  f(9, 'deletionTimestamp', 'time', 'ptr omit'),
  f(10, 'deletionGracePeriodSeconds', 'int64', 'ptr omit'),
  f(11, 'labels', 'string', 'map omit'),
  f(12, 'annotations', 'string', 'map omit'),
  f(13, 'ownerReferences', OwnerReference, 'slice omit', { patchStrategy: 'merge', patchMergeKey: 'uid' }),
  f(14, 'finalizers', 'string', 'slice omit', { patchStrategy: 'merge' }),
  f(17, 'managedFields', ManagedFieldsEntry, 'slice omit'),
]);

/** The embedded ObjectMeta of a kind: `metadata`, field 1 of every top-level message. */
export const metadataField = f(1, 'metadata', ObjectMeta, 'omit', { go: 'ObjectMeta' });

// metav1.ObjectMeta{}.SwaggerDoc()["name"] and ["creationTimestamp"], which printers use as column descriptions.
export const NAME_DESCRIPTION =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically. Name is primarily intended for creation idempotence and configuration definition. Cannot be updated. More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#names';
export const CREATION_TIMESTAMP_DESCRIPTION =
  'CreationTimestamp is a timestamp representing the server time when this object was created. It is not guaranteed to be set in happens-before order across separate operations. Clients may not set this value. It is represented in RFC3339 form and is in UTC.\n\nPopulated by the system. Read-only. Null for lists. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

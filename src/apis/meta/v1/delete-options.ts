// meta/v1 DeleteOptions, the body of a DELETE (kube registers it in every group-version).
import { field as f, kindStruct, struct } from '../../../api/go-struct.js';

const Preconditions = struct('Preconditions', [
  f(1, 'uid', 'string', 'ptr omit', {
    go: 'UID',
    doc: 'Specifies the target UID.',
  }),
  f(2, 'resourceVersion', 'string', 'ptr omit', {
    doc: 'Specifies the target ResourceVersion',
  }),
], {
  openapi: 'io.k8s.apimachinery.pkg.apis.meta.v1',
  doc: 'Preconditions must be fulfilled before an operation (update, delete, etc.) is carried out.',
});

export const DeleteOptions = kindStruct('DeleteOptions', [
  f(1, 'gracePeriodSeconds', 'int64', 'ptr omit', {
    doc: 'The duration in seconds before the object should be deleted. Value must be non-negative integer. The value zero indicates delete immediately. If this value is nil, the default grace period for the specified type will be used. Defaults to a per object value if not specified. zero means delete immediately.',
  }),
  f(2, 'preconditions', Preconditions, 'ptr omit', {
    doc: 'Must be fulfilled before a deletion is carried out. If not possible, a 409 Conflict status will be returned.',
  }),
  f(3, 'orphanDependents', 'bool', 'ptr omit', {
    doc: 'Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7. Should the dependent objects be orphaned. If true/false, the "orphan" finalizer will be added to/removed from the object\'s finalizers list. Either this field or PropagationPolicy may be set, but not both.',
  }),
  f(4, 'propagationPolicy', 'string', 'ptr omit', {
    doc: 'Whether and how garbage collection will be performed. Either this field or OrphanDependents may be set, but not both. The default policy is decided by the existing finalizer set in the metadata.finalizers and the resource-specific default policy. Acceptable values are: \'Orphan\' - orphan the dependents; \'Background\' - allow the garbage collector to delete the dependents in the background; \'Foreground\' - a cascading policy that deletes all dependents in the foreground.',
  }),
  f(5, 'dryRun', 'string', 'slice omit', {
    listType: 'atomic',
    doc: 'When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed',
  }),
  f(6, 'ignoreStoreReadErrorWithClusterBreakingPotential', 'bool', 'ptr omit', {
    doc: 'if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow fails with a corrupt object error. A resource is considered corrupt if it can not be retrieved from the underlying storage successfully because of a) its data can not be transformed e.g. decryption failure, or b) it fails to decode into an object. NOTE: unsafe deletion ignores finalizer constraints, skips precondition checks, and removes the object from the storage. WARNING: This may potentially break the cluster if the workload associated with the resource being unsafe-deleted relies on normal deletion flow. Use only if you REALLY know what you are doing. The default value is false, and the user must opt in to enable it',
  }),
], {
  openapi: 'io.k8s.apimachinery.pkg.apis.meta.v1',
  doc: 'DeleteOptions may be provided when deleting an API object.',
});

// meta/v1 DeleteOptions, the body of a DELETE (kube registers it in every group-version).
import { field as f, kindStruct, struct } from '../../../api/go-struct.js';

export const Preconditions = struct('Preconditions', [
  f(1, 'uid', 'string', 'ptr omit', { go: 'UID' }),
  f(2, 'resourceVersion', 'string', 'ptr omit'),
]);

export const DeleteOptions = kindStruct('DeleteOptions', [
  f(1, 'gracePeriodSeconds', 'int64', 'ptr omit'),
  f(2, 'preconditions', Preconditions, 'ptr omit'),
  f(3, 'orphanDependents', 'bool', 'ptr omit'),
  f(4, 'propagationPolicy', 'string', 'ptr omit'),
  f(5, 'dryRun', 'string', 'slice omit'),
  f(6, 'ignoreStoreReadErrorWithClusterBreakingPotential', 'bool', 'ptr omit'),
]);

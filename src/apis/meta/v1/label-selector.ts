// meta/v1 LabelSelector, as the types that hold one (RBAC's AggregationRule) declare it.
import { field as f, struct } from '../../../api/go-struct.js';

export const LabelSelectorRequirement = struct('LabelSelectorRequirement', [
  f(1, 'key', 'string'),
  f(2, 'operator', 'string'),
  f(3, 'values', 'string', 'slice omit'),
]);

export const LabelSelector = struct('LabelSelector', [
  f(1, 'matchLabels', 'string', 'map omit'),
  f(2, 'matchExpressions', LabelSelectorRequirement, 'slice omit'),
]);

/** meta/v1 FieldSelectorRequirement, as authorization's FieldSelectorAttributes hold it. */
export const FieldSelectorRequirement = struct('FieldSelectorRequirement', [
  f(1, 'key', 'string'),
  f(2, 'operator', 'string'),
  f(3, 'values', 'string', 'slice omit'),
]);

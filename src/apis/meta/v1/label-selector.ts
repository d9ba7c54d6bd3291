// meta/v1 LabelSelector, as the types that hold one (RBAC's AggregationRule) declare it, and the selector
// requirements authorization's access reviews carry.
import { field as f, struct } from '../../../api/go-struct.js';

const META_V1 = { openapi: 'io.k8s.apimachinery.pkg.apis.meta.v1', pkg: 'v1' };

export const LabelSelectorRequirement = struct(
  'LabelSelectorRequirement',
  [
    f(1, 'key', 'string', '', { doc: 'key is the label key that the selector applies to.' }),
    f(2, 'operator', 'string', '', { doc: "operator represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists and DoesNotExist." }),
    f(3, 'values', 'string', 'slice omit', {
      listType: 'atomic',
      doc: 'values is an array of string values. If the operator is In or NotIn, the values array must be non-empty. If the operator is Exists or DoesNotExist, the values array must be empty. This array is replaced during a strategic merge patch.',
    }),
  ],
  { ...META_V1, doc: 'A label selector requirement is a selector that contains values, a key, and an operator that relates the key and values.' },
);

export const LabelSelector = struct('LabelSelector', [
  f(1, 'matchLabels', 'string', 'map omit'),
  f(2, 'matchExpressions', LabelSelectorRequirement, 'slice omit'),
]);

export const FieldSelectorRequirement = struct(
  'FieldSelectorRequirement',
  [
    f(1, 'key', 'string', '', { doc: 'key is the field selector key that the requirement applies to.' }),
    f(2, 'operator', 'string', '', {
      doc: "operator represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists, DoesNotExist. The list of operators may grow in the future.",
    }),
    f(3, 'values', 'string', 'slice omit', {
      listType: 'atomic',
      doc: 'values is an array of string values. If the operator is In or NotIn, the values array must be non-empty. If the operator is Exists or DoesNotExist, the values array must be empty.',
    }),
  ],
  { ...META_V1, doc: 'FieldSelectorRequirement is a selector that contains values, a key, and an operator that relates the key and values.' },
);

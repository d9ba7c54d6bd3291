// meta/v1 LabelSelector, as the types that hold one (RBAC's AggregationRule, the admission policies' match
// resources and param references) declare it, with the docs and markers kube publishes in OpenAPI.
import { field as f, struct } from '../../../api/go-struct.js';

const META_V1 = 'io.k8s.apimachinery.pkg.apis.meta.v1';

const LabelSelectorRequirement = struct(
  'LabelSelectorRequirement',
  [
    f(1, 'key', 'string', '', { doc: 'key is the label key that the selector applies to.' }),
    f(2, 'operator', 'string', '', { named: 'LabelSelectorOperator', doc: "operator represents a key's relationship to a set of values. Valid operators are In, NotIn, Exists and DoesNotExist." }),
    f(3, 'values', 'string', 'slice omit', {
      listType: 'atomic',
      doc: 'values is an array of string values. If the operator is In or NotIn, the values array must be non-empty. If the operator is Exists or DoesNotExist, the values array must be empty. This array is replaced during a strategic merge patch.',
    }),
  ],
  { openapi: META_V1, doc: 'A label selector requirement is a selector that contains values, a key, and an operator that relates the key and values.' },
);

export const LabelSelector = struct(
  'LabelSelector',
  [
    f(1, 'matchLabels', 'string', 'map omit', {
      doc: 'matchLabels is a map of {key,value} pairs. A single {key,value} in the matchLabels map is equivalent to an element of matchExpressions, whose key field is "key", the operator is "In", and the values array contains only "value". The requirements are ANDed.',
    }),
    f(2, 'matchExpressions', LabelSelectorRequirement, 'slice omit', { listType: 'atomic', doc: 'matchExpressions is a list of label selector requirements. The requirements are ANDed.' }),
  ],
  {
    openapi: META_V1,
    mapType: 'atomic',
    doc: 'A label selector is a label query over a set of resources. The result of matchLabels and matchExpressions are ANDed. An empty label selector matches all objects. A null label selector matches no objects.',
  },
);

// admissionregistration/v1 Rule and RuleWithOperations (k8s.io/api types.go, 1.33), shared by the webhook
// configurations and, embedded once more, the policies' NamedRuleWithOperations. Go embeds Rule in
// RuleWithOperations: JSON inlines its fields, protobuf carries it as field 2 (`rule`).
import { embedded, field as f, struct } from '../../../api/go-struct.js';
import { DOCS } from './webhook-docs.js';

const ARV1 = 'io.k8s.api.admissionregistration.v1';
const doc = (type: string, field = ''): string => DOCS[type]?.[field] ?? '';

const Rule = struct(
  'Rule',
  [
    f(1, 'apiGroups', 'string', 'slice omit', { go: 'APIGroups', listType: 'atomic', doc: doc('Rule', 'apiGroups') }),
    f(2, 'apiVersions', 'string', 'slice omit', { go: 'APIVersions', listType: 'atomic', doc: doc('Rule', 'apiVersions') }),
    f(3, 'resources', 'string', 'slice omit', { listType: 'atomic', doc: doc('Rule', 'resources') }),
    f(4, 'scope', 'string', 'ptr omit', { named: 'ScopeType', doc: doc('Rule', 'scope') }),
  ],
  { openapi: ARV1, doc: doc('Rule') },
);

const rule = embedded(2, Rule);

export const RuleWithOperations = struct(
  'RuleWithOperations',
  [f(1, 'operations', 'string', 'slice omit', { listType: 'atomic', named: 'OperationType', doc: doc('RuleWithOperations', 'operations') }), ...rule.fields],
  { openapi: ARV1, doc: doc('RuleWithOperations'), embeds: [rule.embed] },
);

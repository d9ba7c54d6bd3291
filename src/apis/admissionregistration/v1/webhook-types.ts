// admissionregistration.k8s.io/v1 MutatingWebhookConfiguration and ValidatingWebhookConfiguration as Go structs
// (k8s.io/api admissionregistration/v1 types.go, 1.33), documented as kube publishes them in OpenAPI.
// RuleWithOperations embeds Rule inline in JSON; our struct declarations have no embedding, so its fields
// are listed flat and the kinds have no protobuf form here (JSON and YAML bodies only).
import { field as f, kindStruct, struct, type GoField, type GoStruct } from '../../../api/go-struct.js';
import { ListMeta } from '../../meta/v1/list-meta.js';
import { metadataField } from '../../meta/v1/object-meta.js';
import { LabelSelector } from '../../meta/v1/label-selector.js';
import { DOCS } from './webhook-docs.js';
import { MatchCondition } from './vap-types.js';

const ADMISSIONREGISTRATION_V1 = 'io.k8s.api.admissionregistration.v1';
const doc = (type: string, field = ''): string => DOCS[type]?.[field] ?? '';
const opts = (type: string): Pick<GoStruct, 'openapi' | 'doc'> => ({ openapi: ADMISSIONREGISTRATION_V1, doc: doc(type) });

const ServiceReference = struct(
  'ServiceReference',
  [
    f(undefined, 'namespace', 'string', '', { doc: doc('ServiceReference', 'namespace') }),
    f(undefined, 'name', 'string', '', { doc: doc('ServiceReference', 'name') }),
    f(undefined, 'path', 'string', 'ptr omit', { doc: doc('ServiceReference', 'path') }),
    f(undefined, 'port', 'int32', 'ptr omit', { doc: doc('ServiceReference', 'port') }),
  ],
  opts('ServiceReference'),
);

const WebhookClientConfig = struct(
  'WebhookClientConfig',
  [
    f(undefined, 'url', 'string', 'ptr omit', { doc: doc('WebhookClientConfig', 'url') }),
    f(undefined, 'service', ServiceReference, 'ptr omit', { doc: doc('WebhookClientConfig', 'service') }),
    f(undefined, 'caBundle', 'bytes', 'omit', { doc: doc('WebhookClientConfig', 'caBundle') }),
  ],
  opts('WebhookClientConfig'),
);

const RuleWithOperations = struct(
  'RuleWithOperations',
  [
    f(undefined, 'operations', 'string', 'slice omit', { listType: 'atomic', named: 'OperationType', doc: doc('RuleWithOperations', 'operations') }),
    f(undefined, 'apiGroups', 'string', 'slice omit', { listType: 'atomic', doc: doc('Rule', 'apiGroups') }),
    f(undefined, 'apiVersions', 'string', 'slice omit', { listType: 'atomic', doc: doc('Rule', 'apiVersions') }),
    f(undefined, 'resources', 'string', 'slice omit', { listType: 'atomic', doc: doc('Rule', 'resources') }),
    f(undefined, 'scope', 'string', 'ptr omit', { named: 'ScopeType', doc: doc('Rule', 'scope') }),
  ],
  opts('RuleWithOperations'),
);

/** The fields both webhook kinds share, in Go order but for the two that differ (objectSelector, reinvocationPolicy). */
function webhookFields(type: 'MutatingWebhook' | 'ValidatingWebhook'): GoField[] {
  const d = (field: string): { doc: string } => ({ doc: doc(type, field) });
  const fields: GoField[] = [
    f(undefined, 'name', 'string', '', d('name')),
    f(undefined, 'clientConfig', WebhookClientConfig, '', d('clientConfig')),
    f(undefined, 'rules', RuleWithOperations, 'slice omit', { listType: 'atomic', ...d('rules') }),
    f(undefined, 'failurePolicy', 'string', 'ptr omit', { named: 'FailurePolicyType', ...d('failurePolicy') }),
    f(undefined, 'matchPolicy', 'string', 'ptr omit', { named: 'MatchPolicyType', ...d('matchPolicy') }),
    f(undefined, 'namespaceSelector', LabelSelector, 'ptr omit', d('namespaceSelector')),
    f(undefined, 'objectSelector', LabelSelector, 'ptr omit', d('objectSelector')),
    f(undefined, 'sideEffects', 'string', 'ptr', { named: 'SideEffectClass', ...d('sideEffects') }),
    f(undefined, 'timeoutSeconds', 'int32', 'ptr omit', d('timeoutSeconds')),
    f(undefined, 'admissionReviewVersions', 'string', 'slice', { listType: 'atomic', ...d('admissionReviewVersions') }),
  ];
  if (type === 'MutatingWebhook') fields.push(f(undefined, 'reinvocationPolicy', 'string', 'ptr omit', { named: 'ReinvocationPolicyType', ...d('reinvocationPolicy') }));
  fields.push(
    f(undefined, 'matchConditions', MatchCondition, 'slice omit', { listType: 'map', listMapKeys: ['name'], patchStrategy: 'merge', patchMergeKey: 'name', ...d('matchConditions') }),
  );
  return fields;
}

const MutatingWebhook = struct('MutatingWebhook', webhookFields('MutatingWebhook'), opts('MutatingWebhook'));
const ValidatingWebhook = struct('ValidatingWebhook', webhookFields('ValidatingWebhook'), opts('ValidatingWebhook'));

function configurationKind(kind: 'MutatingWebhookConfiguration' | 'ValidatingWebhookConfiguration', hook: GoStruct): { object: GoStruct; list: GoStruct; hook: GoStruct } {
  const object = kindStruct(
    kind,
    [
      metadataField(doc(kind, 'metadata')),
      f(undefined, 'webhooks', hook, 'slice omit', { go: 'Webhooks', patchStrategy: 'merge', patchMergeKey: 'name', listType: 'map', listMapKeys: ['name'], doc: doc(kind, 'Webhooks') }),
    ],
    opts(kind),
  );
  const list = kindStruct(
    `${kind}List`,
    [
      f(1, 'metadata', ListMeta, 'omit', { go: 'ListMeta', doc: doc(`${kind}List`, 'metadata') }),
      f(2, 'items', object, 'slice', { doc: doc(`${kind}List`, 'items') }),
    ],
    opts(`${kind}List`),
  );
  return { object, list, hook };
}

export const MutatingWebhookConfiguration = configurationKind('MutatingWebhookConfiguration', MutatingWebhook);
export const ValidatingWebhookConfiguration = configurationKind('ValidatingWebhookConfiguration', ValidatingWebhook);

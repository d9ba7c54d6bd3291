// admissionregistration.k8s.io/v1 MutatingWebhookConfiguration and ValidatingWebhookConfiguration as Go structs
// (k8s.io/api admissionregistration/v1 types.go, 1.33), documented as kube publishes them in OpenAPI.
// Field numbers from k8s.io/api admissionregistration/v1 generated.proto.
import { field as f, kindStruct, struct, type GoField, type GoStruct } from '../../../api/go-struct.js';
import { ListMeta } from '../../meta/v1/list-meta.js';
import { metadataField } from '../../meta/v1/object-meta.js';
import { LabelSelector } from '../../meta/v1/label-selector.js';
import { DOCS } from './webhook-docs.js';
import { MatchCondition } from './vap-types.js';
import { RuleWithOperations } from './rule-types.js';

const ADMISSIONREGISTRATION_V1 = 'io.k8s.api.admissionregistration.v1';
const doc = (type: string, field = ''): string => DOCS[type]?.[field] ?? '';
const opts = (type: string): Pick<GoStruct, 'openapi' | 'doc'> => ({ openapi: ADMISSIONREGISTRATION_V1, doc: doc(type) });

const ServiceReference = struct(
  'ServiceReference',
  [
    f(1, 'namespace', 'string', '', { doc: doc('ServiceReference', 'namespace') }),
    f(2, 'name', 'string', '', { doc: doc('ServiceReference', 'name') }),
    f(3, 'path', 'string', 'ptr omit', { doc: doc('ServiceReference', 'path') }),
    f(4, 'port', 'int32', 'ptr omit', { doc: doc('ServiceReference', 'port') }),
  ],
  opts('ServiceReference'),
);

const WebhookClientConfig = struct(
  'WebhookClientConfig',
  [
    f(3, 'url', 'string', 'ptr omit', { go: 'URL', doc: doc('WebhookClientConfig', 'url') }),
    f(1, 'service', ServiceReference, 'ptr omit', { doc: doc('WebhookClientConfig', 'service') }),
    f(2, 'caBundle', 'bytes', 'omit', { go: 'CABundle', doc: doc('WebhookClientConfig', 'caBundle') }),
  ],
  opts('WebhookClientConfig'),
);

/** The fields both webhook kinds share, in Go order, and the two that differ (reinvocationPolicy, and the numbers of the last ones). */
function webhookFields(type: 'MutatingWebhook' | 'ValidatingWebhook'): GoField[] {
  const d = (field: string): { doc: string } => ({ doc: doc(type, field) });
  const mutating = type === 'MutatingWebhook';
  const fields: GoField[] = [
    f(1, 'name', 'string', '', d('name')),
    f(2, 'clientConfig', WebhookClientConfig, '', d('clientConfig')),
    f(3, 'rules', RuleWithOperations, 'slice omit', { listType: 'atomic', ...d('rules') }),
    f(4, 'failurePolicy', 'string', 'ptr omit', { named: 'FailurePolicyType', ...d('failurePolicy') }),
    f(9, 'matchPolicy', 'string', 'ptr omit', { named: 'MatchPolicyType', ...d('matchPolicy') }),
    f(5, 'namespaceSelector', LabelSelector, 'ptr omit', d('namespaceSelector')),
    f(mutating ? 11 : 10, 'objectSelector', LabelSelector, 'ptr omit', d('objectSelector')),
    f(6, 'sideEffects', 'string', 'ptr', { named: 'SideEffectClass', ...d('sideEffects') }),
    f(7, 'timeoutSeconds', 'int32', 'ptr omit', d('timeoutSeconds')),
    f(8, 'admissionReviewVersions', 'string', 'slice', { listType: 'atomic', ...d('admissionReviewVersions') }),
  ];
  if (mutating) fields.push(f(10, 'reinvocationPolicy', 'string', 'ptr omit', { named: 'ReinvocationPolicyType', ...d('reinvocationPolicy') }));
  fields.push(
    f(mutating ? 12 : 11, 'matchConditions', MatchCondition, 'slice omit', { listType: 'map', listMapKeys: ['name'], patchStrategy: 'merge', patchMergeKey: 'name', ...d('matchConditions') }),
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
      f(2, 'webhooks', hook, 'slice omit', { go: 'Webhooks', patchStrategy: 'merge', patchMergeKey: 'name', listType: 'map', listMapKeys: ['name'], doc: doc(kind, 'Webhooks') }),
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

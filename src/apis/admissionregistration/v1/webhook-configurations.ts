// admissionregistration.k8s.io/v1 MutatingWebhookConfiguration and ValidatingWebhookConfiguration: cluster-scoped,
// their REST strategies (generation bumped when the webhooks change), kube's validation and printer
// (NAME WEBHOOKS AGE). The admission plugins that call them are in src/admission/webhook-*.ts.
import type { GoStruct } from '../../../api/go-struct.js';
import { goEncode } from '../../../api/go-encode.js';
import type { JSONObject } from '../../../util/json.js';
import { validateObjectMetaUpdate } from '../../../schema/objectmeta.js';
import { reportStrictDecoding } from '../../../schema/unknown-fields.js';
import { metaOf } from '../../../registry/store.js';
import { CREATION_TIMESTAMP_DESCRIPTION, NAME_DESCRIPTION } from '../../meta/v1/object-meta.js';
import type { KindDeclaration } from '../../kind.js';
import { clusterScopedFields } from '../../flowcontrol/v1/shared.js';
import { MutatingWebhookConfiguration, ValidatingWebhookConfiguration } from './webhook-types.js';
import { setWebhookConfigurationDefaults } from './webhook-defaults.js';
import { validateWebhookConfiguration, validateWebhookConfigurationUpdate } from './webhook-validation.js';

/** admissionregistration.k8s.io's groupPriorityMinimum in kube-aggregator's table of built-in APIServices. */
export const ADMISSIONREGISTRATION_GROUP_PRIORITY = 16700;

function strategy(kind: string, hook: GoStruct, mutating: boolean): KindDeclaration['strategy'] {
  /** Defaults, then the webhooks as encoding/json writes them. */
  const normalize = (obj: JSONObject): void => {
    setWebhookConfigurationDefaults(obj, mutating);
    if (Array.isArray(obj['webhooks'])) obj['webhooks'] = obj['webhooks'].map((h) => goEncode(hook, (h ?? {}) as JSONObject));
  };
  const webhooksOf = (obj: JSONObject): string => JSON.stringify(obj['webhooks'] ?? []);
  return {
    admitBody(obj, fieldValidation, warnings, decodeErrors = []) {
      reportStrictDecoding(decodeErrors, fieldValidation, warnings, kind, 'v1');
      setWebhookConfigurationDefaults(obj, mutating);
    },
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
    prepareForCreate(obj) {
      metaOf(obj).generation = 1;
      normalize(obj);
    },
    validate: (obj) => validateWebhookConfiguration(obj, mutating),
    prepareForUpdate(obj, old) {
      normalize(obj);
      const generation = typeof metaOf(old).generation === 'number' ? metaOf(old).generation! : 0;
      metaOf(obj).generation = webhooksOf(obj) === webhooksOf(old) ? generation : generation + 1;
    },
    validateUpdate: (obj, old) => [...validateObjectMetaUpdate(metaOf(obj), metaOf(old), 'metadata'), ...validateWebhookConfigurationUpdate(obj, old, mutating)],
  };
}

/** kube's webhook configuration printer: NAME WEBHOOKS AGE. */
const TABLE: KindDeclaration['table'] = [
  { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0, field: ['metadata', 'name'], render: 'string' },
  { name: 'Webhooks', type: 'integer', format: '', description: 'Webhooks indicates the number of webhooks configured in this configuration', priority: 0, field: ['webhooks'], render: 'count' },
  { name: 'Age', type: 'string', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0, field: ['metadata', 'creationTimestamp'], render: 'age' },
];

function configurationKind(
  kind: 'MutatingWebhookConfiguration' | 'ValidatingWebhookConfiguration',
  types: { object: GoStruct; list: GoStruct; hook: GoStruct },
): KindDeclaration {
  const resource = `${kind.toLowerCase()}s`;
  return {
    served: {
      group: 'admissionregistration.k8s.io',
      version: 'v1',
      resource,
      singularName: kind.toLowerCase(),
      kind,
      listKind: `${kind}List`,
      namespaced: false,
      verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
      shortNames: [],
      categories: ['api-extensions'],
      subresources: {},
    },
    groupPriorityMinimum: ADMISSIONREGISTRATION_GROUP_PRIORITY,
    storageVersion: 'v1',
    keyPrefix: `/registry/${resource}/`,
    object: types.object,
    list: types.list,
    protobuf: true,
    strategy: strategy(kind, types.hook, kind === 'MutatingWebhookConfiguration'),
    table: TABLE,
    selectableFields: clusterScopedFields,
    subresources: [],
  };
}

export const mutatingWebhookConfigurationKind = configurationKind('MutatingWebhookConfiguration', MutatingWebhookConfiguration);
export const validatingWebhookConfigurationKind = configurationKind('ValidatingWebhookConfiguration', ValidatingWebhookConfiguration);

// core/v1 ServiceAccount: its Go type, the serviceaccount REST's strategy (cleanSecretReferences,
// ValidateServiceAccount / ValidateServiceAccountUpdate, the enforce-mountable-secrets warning), its
// printer and field selectors.
import { field as f, kindStruct } from '../../../api/go-struct.js';
import type { FieldError } from '../../../api/field-error.js';
import type { JSONObject } from '../../../util/json.js';
import { isObject } from '../../../util/json.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../../schema/objectmeta.js';
import { reportStrictDecoding } from '../../../schema/unknown-fields.js';
import { metaOf } from '../../../registry/store.js';
import { ListMeta } from '../../meta/v1/list-meta.js';
import { CREATION_TIMESTAMP_DESCRIPTION, NAME_DESCRIPTION } from '../../meta/v1/object-meta.js';
import type { KindDeclaration } from '../../kind.js';
import { objectMetaFields, objectMetadata } from './data-maps.js';
import { LocalObjectReference, ObjectReference } from './object-reference.js';

const CORE_V1 = 'io.k8s.api.core.v1';
const SECRETS_DOC =
  'Secrets is a list of the secrets in the same namespace that pods running using this ServiceAccount are allowed to use. Pods are only limited to this list if this service account has a "kubernetes.io/enforce-mountable-secrets" annotation set to "true". The "kubernetes.io/enforce-mountable-secrets" annotation is deprecated since v1.32. Prefer separate namespaces to isolate access to mounted secrets. This field should not be used to find auto-generated service account token secrets for use outside of pods. Instead, tokens can be requested directly using the TokenRequest API, or service account token secrets can be manually created. More info: https://kubernetes.io/docs/concepts/configuration/secret';

export const ServiceAccount = kindStruct(
  'ServiceAccount',
  [
    objectMetadata(),
    f(2, 'secrets', ObjectReference, 'slice omit', { patchStrategy: 'merge', patchMergeKey: 'name', listType: 'map', listMapKeys: ['name'], doc: SECRETS_DOC }),
    f(3, 'imagePullSecrets', LocalObjectReference, 'slice omit', {
      listType: 'atomic',
      doc: 'ImagePullSecrets is a list of references to secrets in the same namespace to use for pulling any images in pods that reference this ServiceAccount. ImagePullSecrets are distinct from Secrets because Secrets can be mounted in the pod, but ImagePullSecrets are only accessed by the kubelet. More info: https://kubernetes.io/docs/concepts/containers/images/#specifying-imagepullsecrets-on-a-pod',
    }),
    f(4, 'automountServiceAccountToken', 'bool', 'ptr omit', {
      doc: 'AutomountServiceAccountToken indicates whether pods running as this service account should have an API token automatically mounted. Can be overridden at the pod level.',
    }),
  ],
  {
    openapi: CORE_V1,
    doc: 'ServiceAccount binds together: * a name, understood by users, and perhaps by peripheral systems, for an identity * a principal that can be authenticated and authorized * a set of secrets',
  },
);

const ServiceAccountList = kindStruct(
  'ServiceAccountList',
  [
    f(1, 'metadata', ListMeta, 'omit', { go: 'ListMeta', doc: 'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds' }),
    f(2, 'items', ServiceAccount, 'slice', { doc: 'List of ServiceAccounts. More info: https://kubernetes.io/docs/tasks/configure-pod-container/configure-service-account/' }),
  ],
  { openapi: CORE_V1, doc: 'ServiceAccountList is a list of ServiceAccount objects' },
);

/** ValidateServiceAccount: the metadata only, the name by ValidateServiceAccountName (a DNS-1123 subdomain). */
const validateServiceAccount = (obj: JSONObject): FieldError[] =>
  validateObjectMeta(metaOf(obj), { namespaced: true, nameValidator: 'dns1123Subdomain', coreFinalizerNames: true }, 'metadata');

/** cleanSecretReferences: a secret reference keeps its name and nothing else. */
function cleanSecretReferences(obj: JSONObject): void {
  const secrets = obj['secrets'];
  if (!Array.isArray(secrets)) return;
  obj['secrets'] = secrets.map((s) => (isObject(s) && typeof s['name'] === 'string' && s['name'] !== '' ? { name: s['name'] } : {}));
}

export const ENFORCE_MOUNTABLE_SECRETS_ANNOTATION = 'kubernetes.io/enforce-mountable-secrets';

/** warnIfHasEnforceMountableSecretsAnnotation: only when the write newly sets the (deprecated) annotation. */
function enforceMountableSecretsWarning(obj: JSONObject, old?: JSONObject): string[] {
  const has = (o: JSONObject): boolean => Object.hasOwn(metaOf(o).annotations ?? {}, ENFORCE_MOUNTABLE_SECRETS_ANNOTATION);
  if ((old && has(old)) || !has(obj)) return [];
  return [`metadata.annotations[${ENFORCE_MOUNTABLE_SECRETS_ANNOTATION}]: deprecated in v1.32+; prefer separate namespaces to isolate access to mounted secrets`];
}

const strategy: KindDeclaration['strategy'] = {
  admitBody(_obj, fieldValidation, warnings, decodeErrors = []) {
    reportStrictDecoding(decodeErrors, fieldValidation, warnings, 'ServiceAccount', 'v1');
  },
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForCreate: cleanSecretReferences,
  validate: validateServiceAccount,
  prepareForUpdate: (obj) => cleanSecretReferences(obj),
  validateUpdate: (obj, old) => [...validateObjectMetaUpdate(metaOf(obj), metaOf(old), 'metadata', { coreFinalizerNames: true }), ...validateServiceAccount(obj)],
  warnings: enforceMountableSecretsWarning,
};

export const serviceAccountKind: KindDeclaration = {
  served: {
    group: '',
    version: 'v1',
    resource: 'serviceaccounts',
    singularName: 'serviceaccount',
    kind: 'ServiceAccount',
    listKind: 'ServiceAccountList',
    namespaced: true,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: ['sa'],
    categories: [],
    // The token subresource: kube's TokenREST, served by its own handler (server/token-request-handler.ts).
    subresources: { others: [{ name: 'token', group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest', verbs: ['create'] }] },
  },
  storageVersion: 'v1',
  keyPrefix: '/registry/serviceaccounts/',
  object: ServiceAccount,
  list: ServiceAccountList,
  protobuf: true,
  strategy,
  // The ServiceAccount printer of kube-apiserver: NAME, SECRETS (how many references), AGE.
  table: [
    { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0, field: ['metadata', 'name'], render: 'string' },
    { name: 'Secrets', type: 'string', format: '', description: SECRETS_DOC, priority: 0, field: ['secrets'], render: 'count' },
    { name: 'Age', type: 'string', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0, field: ['metadata', 'creationTimestamp'], render: 'age' },
  ],
  selectableFields: objectMetaFields,
  // pkg/apis/core/v1 registers no field label conversion for ServiceAccount.
  defaultFieldLabelConversion: true,
  subresources: ['token'],
};

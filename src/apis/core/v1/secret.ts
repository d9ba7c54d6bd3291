// core/v1 Secret: its Go type, the conversion and defaulting its bodies go through (stringData merged into
// data, type Opaque), the secret REST's strategy (ValidateSecret / ValidateSecretUpdate, the TLS key pair
// warning), its printer and field selectors.
import { field as f, kindStruct } from '../../../api/go-struct.js';
import type { FieldError } from '../../../api/field-error.js';
import { invalid, required } from '../../../api/field-error.js';
import type { JSONObject } from '../../../util/json.js';
import { isObject } from '../../../util/json.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../../schema/objectmeta.js';
import { reportStrictDecoding } from '../../../schema/unknown-fields.js';
import { metaOf } from '../../../registry/store.js';
import { ListMeta } from '../../meta/v1/list-meta.js';
import { CREATION_TIMESTAMP_DESCRIPTION, NAME_DESCRIPTION } from '../../meta/v1/object-meta.js';
import type { KindDeclaration } from '../../kind.js';
import { MAX_SECRET_SIZE, bytesLength, entriesOf, immutableErrors, immutableField, keyErrors, objectMetaFields, objectMetadata, sizeError, sortMaps } from './data-maps.js';
import { goJsonObjectError } from './go-json-check.js';
import { tlsKeyPairError } from './tls-key-pair.js';

const CORE_V1 = 'io.k8s.api.core.v1';
const DATA_DOC =
  "Data contains the secret data. Each key must consist of alphanumeric characters, '-', '_' or '.'. The serialized form of the secret data is a base64 encoded string, representing the arbitrary (possibly non-string) data value here. Described in https://tools.ietf.org/html/rfc4648#section-4";
const TYPE_DOC = 'Used to facilitate programmatic handling of secret data. More info: https://kubernetes.io/docs/concepts/configuration/secret/#secret-types';

export const Secret = kindStruct(
  'Secret',
  [
    objectMetadata(),
    immutableField(5, 'Secret'),
    f(2, 'data', 'bytes', 'map omit', { doc: DATA_DOC }),
    f(4, 'stringData', 'string', 'map omit', {
      doc: 'stringData allows specifying non-binary secret data in string form. It is provided as a write-only input field for convenience. All keys and values are merged into the data field on write, overwriting any existing values. The stringData field is never output when reading from the API.',
    }),
    f(3, 'type', 'string', 'omit', { named: 'SecretType', doc: TYPE_DOC }),
  ],
  { openapi: CORE_V1, doc: 'Secret holds secret data of a certain type. The total bytes of the values in the Data field must be less than MaxSecretSize bytes.' },
);

const SecretList = kindStruct(
  'SecretList',
  [
    f(1, 'metadata', ListMeta, 'omit', { go: 'ListMeta', doc: 'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds' }),
    f(2, 'items', Secret, 'slice', { doc: 'Items is a list of secret objects. More info: https://kubernetes.io/docs/concepts/configuration/secret' }),
  ],
  { openapi: CORE_V1, doc: 'SecretList is a list of Secret.' },
);

const OPAQUE = 'Opaque';
const SERVICE_ACCOUNT_NAME_KEY = 'kubernetes.io/service-account.name';

/**
 * Convert_v1_Secret_To_core_Secret and SetDefaults_Secret, which every decoded body goes through: stringData
 * overwrites data's keys and is gone (the internal type has no such field), an empty type is Opaque.
 */
function convertAndDefault(obj: JSONObject): void {
  const stringData = obj['stringData'];
  delete obj['stringData'];
  if (isObject(stringData) && Object.keys(stringData).length > 0) {
    const data = isObject(obj['data']) ? (obj['data'] as JSONObject) : {};
    for (const [k, v] of Object.entries(stringData)) data[k] = Buffer.from(typeof v === 'string' ? v : '', 'utf8').toString('base64');
    obj['data'] = data;
  }
  if (typeof obj['type'] !== 'string' || obj['type'] === '') obj['type'] = OPAQUE;
}

const dataOf = (obj: JSONObject): Map<string, unknown> => new Map(entriesOf(obj, 'data'));
const decoded = (v: unknown): Buffer => Buffer.from(typeof v === 'string' ? v : '', 'base64');

/** ValidateSecret: keys, size, and the keys each well-known type requires. */
function validateSecret(obj: JSONObject): FieldError[] {
  const errs = validateObjectMeta(metaOf(obj), { namespaced: true, nameValidator: 'dns1123Subdomain', coreFinalizerNames: true }, 'metadata');
  const data = dataOf(obj);
  let total = 0;
  for (const [k, v] of data) {
    errs.push(...keyErrors('data', [k]));
    total += bytesLength(v);
  }
  if (total > MAX_SECRET_SIZE) errs.push(sizeError('data'));
  const key = (k: string): string => `data[${k}]`;
  const jsonCheck = (k: string): void => {
    if (!data.has(k)) {
      errs.push(required(key(k)));
      return;
    }
    // json.Unmarshal into a map[string]interface{}; the value itself is never echoed.
    const err = goJsonObjectError(decoded(data.get(k)));
    if (err) errs.push(invalid(key(k), '<secret contents redacted>', err));
  };
  switch (obj['type']) {
    case 'kubernetes.io/service-account-token': {
      const ann = metaOf(obj).annotations?.[SERVICE_ACCOUNT_NAME_KEY];
      if (!ann) errs.push(required(`metadata.annotations[${SERVICE_ACCOUNT_NAME_KEY}]`));
      break;
    }
    case 'kubernetes.io/dockercfg':
      jsonCheck('.dockercfg');
      break;
    case 'kubernetes.io/dockerconfigjson':
      jsonCheck('.dockerconfigjson');
      break;
    case 'kubernetes.io/basic-auth':
      // Either may be empty, but one must be there.
      if (!data.has('username') && !data.has('password')) errs.push(required(key('username')), required(key('password')));
      break;
    case 'kubernetes.io/ssh-auth':
      if (decoded(data.get('ssh-privatekey')).length === 0) errs.push(required(key('ssh-privatekey')));
      break;
    case 'kubernetes.io/tls':
      if (!data.has('tls.crt')) errs.push(required(key('tls.crt')));
      if (!data.has('tls.key')) errs.push(required(key('tls.key')));
      break;
  }
  return errs;
}

/** warningsForSecret: a TLS secret whose certificate and key do not make a pair (tls.X509KeyPair's error). */
function warningsForSecret(obj: JSONObject): string[] {
  if (obj['type'] !== 'kubernetes.io/tls') return [];
  const data = dataOf(obj);
  const err = tlsKeyPairError(decoded(data.get('tls.crt')), decoded(data.get('tls.key')));
  return err ? [err] : [];
}

const strategy: KindDeclaration['strategy'] = {
  admitBody(obj, fieldValidation, warnings, decodeErrors = []) {
    reportStrictDecoding(decodeErrors, fieldValidation, warnings, 'Secret', 'v1');
    convertAndDefault(obj);
  },
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForCreate: (obj) => sortMaps(obj, ['data']),
  validate: validateSecret,
  prepareForUpdate(obj, old) {
    // "this is weird, but consistent with what the validatedUpdate function used to do."
    if (typeof obj['type'] !== 'string' || obj['type'] === '') obj['type'] = old['type'];
    sortMaps(obj, ['data']);
  },
  validateUpdate(obj, old) {
    const errs = validateObjectMetaUpdate(metaOf(obj), metaOf(old), 'metadata', { coreFinalizerNames: true });
    // ValidateImmutableField.
    if ((obj['type'] ?? '') !== (old['type'] ?? '')) errs.push(invalid('type', obj['type'] ?? '', 'field is immutable'));
    // stringData needs no check: it is in data already.
    errs.push(...immutableErrors(obj, old, ['data']), ...validateSecret(obj));
    return errs;
  },
  warnings: (obj) => warningsForSecret(obj),
};

export const secretKind: KindDeclaration = {
  served: {
    group: '',
    version: 'v1',
    resource: 'secrets',
    singularName: 'secret',
    kind: 'Secret',
    listKind: 'SecretList',
    namespaced: true,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: [],
    categories: [],
    subresources: {},
  },
  storageVersion: 'v1',
  keyPrefix: '/registry/secrets/',
  object: Secret,
  list: SecretList,
  protobuf: true,
  strategy,
  // The Secret printer of kube-apiserver: NAME, TYPE, DATA (keys of data), AGE.
  table: [
    { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0, field: ['metadata', 'name'], render: 'string' },
    { name: 'Type', type: 'string', format: '', description: TYPE_DOC, priority: 0, field: ['type'], render: 'string' },
    { name: 'Data', type: 'string', format: '', description: DATA_DOC, priority: 0, field: ['data'], render: 'count' },
    { name: 'Age', type: 'string', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0, field: ['metadata', 'creationTimestamp'], render: 'age' },
  ],
  // SelectableFields of the secret strategy: ObjectMeta's, and type.
  selectableFields: (obj) => ({ ...objectMetaFields(obj), type: String(obj['type'] ?? '') }),
  subresources: [],
};

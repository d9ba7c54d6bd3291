// core/v1 ConfigMap: its Go type, the configmap REST's strategy (ValidateConfigMap / ValidateConfigMapUpdate),
// its printer and field selectors.
import { field as f, kindStruct } from '../../../api/go-struct.js';
import type { FieldError } from '../../../api/field-error.js';
import { invalid } from '../../../api/field-error.js';
import type { JSONObject } from '../../../util/json.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../../schema/objectmeta.js';
import { reportStrictDecoding } from '../../../schema/unknown-fields.js';
import { metaOf } from '../../../registry/store.js';
import { ListMeta } from '../../meta/v1/list-meta.js';
import { CREATION_TIMESTAMP_DESCRIPTION, NAME_DESCRIPTION } from '../../meta/v1/object-meta.js';
import type { KindDeclaration } from '../../kind.js';
import {
  MAX_SECRET_SIZE,
  bytesLength,
  entriesOf,
  immutableErrors,
  immutableField,
  keyErrors,
  objectMetaFields,
  objectMetadata,
  sizeError,
  sortMaps,
  stringLength,
} from './data-maps.js';

const CORE_V1 = 'io.k8s.api.core.v1';
const MAPS = ['data', 'binaryData'] as const;
const DATA_DOC =
  "Data contains the configuration data. Each key must consist of alphanumeric characters, '-', '_' or '.'. Values with non-UTF-8 byte sequences must use the BinaryData field. The keys stored in Data must not overlap with the keys in the BinaryData field, this is enforced during validation process.";

export const ConfigMap = kindStruct(
  'ConfigMap',
  [
    objectMetadata(),
    immutableField(4, 'ConfigMap'),
    f(2, 'data', 'string', 'map omit', { doc: DATA_DOC }),
    f(3, 'binaryData', 'bytes', 'map omit', {
      doc: "BinaryData contains the binary data. Each key must consist of alphanumeric characters, '-', '_' or '.'. BinaryData can contain byte sequences that are not in the UTF-8 range. The keys stored in BinaryData must not overlap with the ones in the Data field, this is enforced during validation process. Using this field will require 1.10+ apiserver and kubelet.",
    }),
  ],
  { openapi: CORE_V1, doc: 'ConfigMap holds configuration data for pods to consume.' },
);

const ConfigMapList = kindStruct(
  'ConfigMapList',
  [
    f(1, 'metadata', ListMeta, 'omit', { go: 'ListMeta', doc: 'More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata' }),
    f(2, 'items', ConfigMap, 'slice', { doc: 'Items is the list of ConfigMaps.' }),
  ],
  { openapi: CORE_V1, doc: 'ConfigMapList is a resource containing a list of ConfigMap objects.' },
);

/** ValidateConfigMap. Keys are checked in the stored (sorted) order, where Go's map order is random. */
function validateConfigMap(obj: JSONObject): FieldError[] {
  const errs = validateObjectMeta(metaOf(obj), { namespaced: true, nameValidator: 'dns1123Subdomain', coreFinalizerNames: true }, 'metadata');
  const data = entriesOf(obj, 'data');
  const binary = new Map(entriesOf(obj, 'binaryData'));
  let total = 0;
  for (const [k, v] of data) {
    errs.push(...keyErrors('data', [k]));
    if (binary.has(k)) errs.push(invalid(`data[${k}]`, k, 'duplicate of key present in binaryData'));
    total += stringLength(v);
  }
  for (const [k, v] of binary) {
    errs.push(...keyErrors('binaryData', [k]));
    total += bytesLength(v);
  }
  // The path "": the error is the whole object's.
  if (total > MAX_SECRET_SIZE) errs.push(sizeError(''));
  return errs;
}

const strategy: KindDeclaration['strategy'] = {
  admitBody(_obj, fieldValidation, warnings, decodeErrors = []) {
    reportStrictDecoding(decodeErrors, fieldValidation, warnings, 'ConfigMap', 'v1');
  },
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForCreate: (obj) => sortMaps(obj, MAPS),
  validate: validateConfigMap,
  prepareForUpdate: (obj) => sortMaps(obj, MAPS),
  validateUpdate(obj, old) {
    return [...validateObjectMetaUpdate(metaOf(obj), metaOf(old), 'metadata', { coreFinalizerNames: true }), ...immutableErrors(obj, old, MAPS), ...validateConfigMap(obj)];
  },
};

export const configMapKind: KindDeclaration = {
  served: {
    group: '',
    version: 'v1',
    resource: 'configmaps',
    singularName: 'configmap',
    kind: 'ConfigMap',
    listKind: 'ConfigMapList',
    namespaced: true,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: ['cm'],
    categories: [],
    subresources: {},
  },
  storageVersion: 'v1',
  keyPrefix: '/registry/configmaps/',
  object: ConfigMap,
  list: ConfigMapList,
  protobuf: true,
  strategy,
  // The ConfigMap printer of kube-apiserver: NAME, DATA (keys of data and binaryData), AGE.
  table: [
    { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0, field: ['metadata', 'name'], render: 'string' },
    { name: 'Data', type: 'string', format: '', description: DATA_DOC, priority: 0, field: ['data'], render: 'count', alsoCount: [['binaryData']] },
    { name: 'Age', type: 'string', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0, field: ['metadata', 'creationTimestamp'], render: 'age' },
  ],
  selectableFields: objectMetaFields,
  // pkg/apis/core/v1 registers no field label conversion for ConfigMap.
  defaultFieldLabelConversion: true,
  subresources: [],
};

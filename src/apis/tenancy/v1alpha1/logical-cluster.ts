// tenancy.crd-apiserver.io/v1alpha1 LogicalCluster, served by the root cluster only: one object per logical
// cluster, an isolated API server reached under /clusters/<name>/ (kcp's LogicalCluster and URL shape). Its
// name is the path segment, so a DNS-1123 label; `root` is the default cluster itself. The server puts its
// finalizer on every new one: deleting a cluster removes everything in it before the object goes.
import { field as f, kindStruct, struct } from '../../../api/go-struct.js';
import { goEncode } from '../../../api/go-encode.js';
import { forbidden, type FieldError } from '../../../api/field-error.js';
import type { JSONObject } from '../../../util/json.js';
import { isObject, deepCopyJSON } from '../../../util/json.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../../schema/objectmeta.js';
import { reportStrictDecoding } from '../../../schema/unknown-fields.js';
import { metaOf } from '../../../registry/store.js';
import { ListMeta } from '../../meta/v1/list-meta.js';
import { CREATION_TIMESTAMP_DESCRIPTION, NAME_DESCRIPTION, metadataField } from '../../meta/v1/object-meta.js';
import { Condition } from '../../admissionregistration/v1/vap-types.js';
import { clusterScopedFields } from '../../flowcontrol/v1/shared.js';
import type { KindDeclaration } from '../../kind.js';

export const TENANCY_GROUP = 'tenancy.crd-apiserver.io';
/** The cluster the root paths serve; no LogicalCluster object names it. */
export const ROOT_CLUSTER = 'root';
/** The collection's path in root's API. */
export const LOGICAL_CLUSTERS_PATH = `/apis/${TENANCY_GROUP}/v1alpha1/logicalclusters`;
/** Held by every LogicalCluster until its contents are gone. */
export const LOGICAL_CLUSTER_FINALIZER = `${TENANCY_GROUP}/logical-cluster`;
const OPENAPI = 'io.crd-apiserver.api.tenancy.v1alpha1';

const LogicalClusterStatus = struct(
  'LogicalClusterStatus',
  [
    f(undefined, 'phase', 'string', 'omit', {
      named: 'LogicalClusterPhase',
      doc: 'phase is Initializing until the cluster serves, Ready while it does, and Terminating while its contents are removed.',
    }),
    f(undefined, 'conditions', Condition, 'slice omit', {
      listType: 'map',
      listMapKeys: ['type'],
      patchStrategy: 'merge',
      patchMergeKey: 'type',
      doc: 'conditions of the cluster; Ready is True once requests under /clusters/<name>/ are served.',
    }),
  ],
  { openapi: OPENAPI, doc: 'LogicalClusterStatus is the observed state of a logical cluster.' },
);

export const LogicalCluster = kindStruct(
  'LogicalCluster',
  [
    metadataField('Standard object metadata. The name is the path segment under /clusters/.'),
    f(undefined, 'status', LogicalClusterStatus, 'omit', { doc: 'status is the observed state of the logical cluster.' }),
  ],
  { openapi: OPENAPI, doc: 'LogicalCluster is an isolated Kubernetes API served under /clusters/<name>/ by the same server.' },
);

const LogicalClusterList = kindStruct(
  'LogicalClusterList',
  [
    f(undefined, 'metadata', ListMeta, 'omit', { go: 'ListMeta', doc: 'Standard list metadata.' }),
    f(undefined, 'items', LogicalCluster, 'slice', { doc: 'items is the list of logical clusters.' }),
  ],
  { openapi: OPENAPI, doc: 'LogicalClusterList is a list of LogicalCluster objects.' },
);

const statusOf = (obj: JSONObject): JSONObject => (isObject(obj['status']) ? (obj['status'] as JSONObject) : {});

function validate(obj: JSONObject): FieldError[] {
  const errs = validateObjectMeta(metaOf(obj), { namespaced: false, nameValidator: 'dns1123Label' }, 'metadata');
  if (metaOf(obj).name === ROOT_CLUSTER) errs.push(forbidden('metadata.name', `"${ROOT_CLUSTER}" is the default cluster, served at the root paths`));
  return errs;
}

const strategy: KindDeclaration['strategy'] = {
  resetFields: (sub) => (sub === 'status' ? ['metadata'] : ['status']),
  admitBody(_obj, fieldValidation, warnings, decodeErrors = []) {
    reportStrictDecoding(decodeErrors, fieldValidation, warnings, 'LogicalCluster', 'v1alpha1');
  },
  allowCreateOnUpdate: false,
  allowUnconditionalUpdate: true,
  prepareForCreate(obj) {
    obj['status'] = { phase: 'Initializing' };
    const meta = metaOf(obj);
    meta.generation = 1;
    const finalizers = Array.isArray(meta.finalizers) ? meta.finalizers : [];
    if (!finalizers.includes(LOGICAL_CLUSTER_FINALIZER)) meta.finalizers = [...finalizers, LOGICAL_CLUSTER_FINALIZER];
  },
  validate,
  prepareForUpdate(obj, old, sub) {
    if (sub === 'status') {
      // The status strategy keeps the old metadata but for the managed fields this write recorded.
      const managedFields = metaOf(obj).managedFields;
      obj['metadata'] = deepCopyJSON(metaOf(old));
      if (managedFields === undefined) delete metaOf(obj).managedFields;
      else metaOf(obj).managedFields = managedFields;
      obj['status'] = goEncode(LogicalClusterStatus, statusOf(obj));
      return;
    }
    obj['status'] = deepCopyJSON(old['status']);
  },
  validateUpdate: (obj, old) => [...validateObjectMetaUpdate(metaOf(obj), metaOf(old), 'metadata'), ...validate(obj)],
};

export const logicalClusterKind: KindDeclaration = {
  served: {
    group: TENANCY_GROUP,
    version: 'v1alpha1',
    resource: 'logicalclusters',
    singularName: 'logicalcluster',
    kind: 'LogicalCluster',
    listKind: 'LogicalClusterList',
    namespaced: false,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: ['lc'],
    categories: [],
    subresources: { status: true },
  },
  // After kube's own groups, with the groups of CRDs (kube-aggregator's default for them).
  groupPriorityMinimum: 1000,
  storageVersion: 'v1alpha1',
  keyPrefix: `/registry/${TENANCY_GROUP}/logicalclusters/`,
  object: LogicalCluster,
  list: LogicalClusterList,
  protobuf: false,
  strategy,
  table: [
    { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0, field: ['metadata', 'name'], render: 'string' },
    { name: 'Phase', type: 'string', format: '', description: 'The phase of the cluster.', priority: 0, field: ['status', 'phase'], render: 'string' },
    { name: 'Age', type: 'string', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0, field: ['metadata', 'creationTimestamp'], render: 'age' },
  ],
  selectableFields: clusterScopedFields,
  defaultFieldLabelConversion: true,
  subresources: ['status'],
};

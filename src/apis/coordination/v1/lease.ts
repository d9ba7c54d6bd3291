// coordination.k8s.io/v1 Lease: its Go type, the lease REST's strategy (the CoordinatedLeaderElection
// fields dropped, the gate being off by default in 1.33; ValidateLease / ValidateLeaseUpdate), its printer
// and field selectors.
import { field as f, kindStruct, struct } from '../../../api/go-struct.js';
import type { FieldError } from '../../../api/field-error.js';
import { forbidden, invalid } from '../../../api/field-error.js';
import type { JSONObject } from '../../../util/json.js';
import { isObject } from '../../../util/json.js';
import { validateObjectMeta, validateObjectMetaUpdate } from '../../../schema/objectmeta.js';
import { reportStrictDecoding } from '../../../schema/unknown-fields.js';
import { metaOf } from '../../../registry/store.js';
import { ListMeta } from '../../meta/v1/list-meta.js';
import { CREATION_TIMESTAMP_DESCRIPTION, NAME_DESCRIPTION, metadataField } from '../../meta/v1/object-meta.js';
import type { KindDeclaration } from '../../kind.js';
import { objectMetaFields } from '../../core/v1/data-maps.js';

const COORDINATION_V1 = 'io.k8s.api.coordination.v1';
const HOLDER_DOC =
  'holderIdentity contains the identity of the holder of a current lease. If Coordinated Leader Election is used, the holder identity must be equal to the elected LeaseCandidate.metadata.name field.';

const LeaseSpec = struct(
  'LeaseSpec',
  [
    f(1, 'holderIdentity', 'string', 'ptr omit', { doc: HOLDER_DOC }),
    f(2, 'leaseDurationSeconds', 'int32', 'ptr omit', {
      doc: 'leaseDurationSeconds is a duration that candidates for a lease need to wait to force acquire it. This is measured against the time of last observed renewTime.',
    }),
    f(3, 'acquireTime', 'microTime', 'ptr omit', { doc: 'acquireTime is a time when the current lease was acquired.' }),
    f(4, 'renewTime', 'microTime', 'ptr omit', { doc: 'renewTime is a time when the current holder of a lease has last updated the lease.' }),
    f(5, 'leaseTransitions', 'int32', 'ptr omit', { doc: 'leaseTransitions is the number of transitions of a lease between holders.' }),
    f(6, 'strategy', 'string', 'ptr omit', {
      named: 'CoordinatedLeaseStrategy',
      doc: 'Strategy indicates the strategy for picking the leader for coordinated leader election. If the field is not specified, there is no active coordination for this lease. (Alpha) Using this field requires the CoordinatedLeaderElection feature gate to be enabled.',
    }),
    f(7, 'preferredHolder', 'string', 'ptr omit', {
      doc: 'PreferredHolder signals to a lease holder that the lease has a more optimal holder and should be given up. This field can only be set if Strategy is also set.',
    }),
  ],
  { openapi: COORDINATION_V1, doc: 'LeaseSpec is a specification of a Lease.' },
);

export const Lease = kindStruct(
  'Lease',
  [
    metadataField('More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata'),
    f(2, 'spec', LeaseSpec, 'omit', {
      doc: 'spec contains the specification of the Lease. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status',
    }),
  ],
  { openapi: COORDINATION_V1, doc: 'Lease defines a lease concept.' },
);

const LeaseList = kindStruct(
  'LeaseList',
  [
    f(1, 'metadata', ListMeta, 'omit', { go: 'ListMeta', doc: 'Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata' }),
    f(2, 'items', Lease, 'slice', { doc: 'items is a list of schema objects.' }),
  ],
  { openapi: COORDINATION_V1, doc: 'LeaseList is a list of Lease objects.' },
);

const specOf = (obj: JSONObject): JSONObject => (isObject(obj['spec']) ? (obj['spec'] as JSONObject) : {});

/** ValidateLeaseSpec. The strategy is only ever set when an old lease had it (the gate being off). */
function validateLeaseSpec(spec: JSONObject): FieldError[] {
  const errs: FieldError[] = [];
  const duration = spec['leaseDurationSeconds'];
  if (typeof duration === 'number' && duration <= 0) errs.push(invalid('spec.leaseDurationSeconds', duration, 'must be greater than 0'));
  const transitions = spec['leaseTransitions'];
  if (typeof transitions === 'number' && transitions < 0) errs.push(invalid('spec.leaseTransitions', transitions, 'must be greater than or equal to 0'));
  const strategyName = spec['strategy'];
  if (typeof strategyName === 'string') errs.push(...validateCoordinatedLeaseStrategy(strategyName));
  const preferred = spec['preferredHolder'];
  if (typeof preferred === 'string' && preferred !== '' && (typeof strategyName !== 'string' || strategyName === '')) {
    errs.push(forbidden('spec.preferredHolder', 'may only be specified if `strategy` is defined'));
  }
  return errs;
}

/** ValidateCoordinatedLeaseStrategy: a Kubernetes-defined name, or a qualified name with a prefix. */
function validateCoordinatedLeaseStrategy(s: string): FieldError[] {
  if (s.split('/').length === 1) {
    // field.NotSupported at fldPath.Child("strategy"): the path kube gives repeats "strategy".
    return s === 'OldestEmulationVersion'
      ? []
      : [{ type: 'FieldValueNotSupported', field: 'spec.strategy.strategy', badValue: s, detail: 'supported values: "OldestEmulationVersion"' }];
  }
  return [];
}

const validateLease = (obj: JSONObject): FieldError[] => [
  ...validateObjectMeta(metaOf(obj), { namespaced: true, nameValidator: 'dns1123Subdomain' }, 'metadata'),
  ...validateLeaseSpec(specOf(obj)),
];

/** CoordinatedLeaderElection is off: strategy and preferredHolder are dropped unless the old lease had them. */
function dropDisabledFields(obj: JSONObject, old?: JSONObject): void {
  if (!isObject(obj['spec'])) return;
  const spec = obj['spec'] as JSONObject;
  const oldSpec = old ? specOf(old) : {};
  for (const k of ['strategy', 'preferredHolder']) if (oldSpec[k] === undefined || oldSpec[k] === null) delete spec[k];
}

const strategy: KindDeclaration['strategy'] = {
  admitBody(_obj, fieldValidation, warnings, decodeErrors = []) {
    reportStrictDecoding(decodeErrors, fieldValidation, warnings, 'Lease', 'v1');
  },
  // Leader election clients create leases with PUT as readily as with POST; updates need a resourceVersion.
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: false,
  prepareForCreate: (obj) => dropDisabledFields(obj),
  validate: validateLease,
  prepareForUpdate: (obj, old) => dropDisabledFields(obj, old),
  validateUpdate: (obj, old) => [...validateObjectMetaUpdate(metaOf(obj), metaOf(old), 'metadata'), ...validateLeaseSpec(specOf(obj))],
};

export const leaseKind: KindDeclaration = {
  served: {
    group: 'coordination.k8s.io',
    version: 'v1',
    resource: 'leases',
    singularName: 'lease',
    kind: 'Lease',
    listKind: 'LeaseList',
    namespaced: true,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: [],
    categories: [],
    subresources: {},
  },
  groupPriorityMinimum: 16500,
  storageVersion: 'v1',
  keyPrefix: '/registry/leases/',
  object: Lease,
  list: LeaseList,
  protobuf: true,
  strategy,
  // The Lease printer of kube-apiserver: NAME, HOLDER (spec.holderIdentity, '' when nil), AGE.
  table: [
    { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0, field: ['metadata', 'name'], render: 'string' },
    { name: 'Holder', type: 'string', format: '', description: HOLDER_DOC, priority: 0, field: ['spec', 'holderIdentity'], render: 'string' },
    { name: 'Age', type: 'string', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0, field: ['metadata', 'creationTimestamp'], render: 'age' },
  ],
  selectableFields: objectMetaFields,
  // coordination/v1 registers no field label conversion for Lease.
  defaultFieldLabelConversion: true,
  subresources: [],
};

// flowcontrol.apiserver.k8s.io/v1 PriorityLevelConfiguration: the prioritylevelconfiguration REST's
// strategy, status subresource, printer and field selectors.
import type { JSONObject } from '../../../util/json.js';
import { isObject } from '../../../util/json.js';
import { CREATION_TIMESTAMP_DESCRIPTION, NAME_DESCRIPTION } from '../../meta/v1/object-meta.js';
import type { KindDeclaration } from '../../kind.js';
import {
  LIMITED_NCS_DOC,
  PL_TYPE_DOC,
  PriorityLevelConfiguration,
  PriorityLevelConfigurationList,
  PriorityLevelConfigurationSpec,
  PriorityLevelConfigurationStatus,
  QUEUING_DOCS,
} from './types.js';
import { setPriorityLevelDefaults } from './defaults.js';
import { validatePriorityLevelConfiguration, validatePriorityLevelConfigurationStatus } from './validation.js';
import { flowcontrolStrategy } from './strategy.js';
import { clusterScopedFields, FLOWCONTROL_GROUP_PRIORITY } from './shared.js';

const at = (v: unknown, key: string): unknown => (isObject(v) ? v[key] : undefined);
const limitedOf = (obj: JSONObject): unknown => at(obj['spec'], 'limited');
const queuingOf = (obj: JSONObject): unknown => at(at(limitedOf(obj), 'limitResponse'), 'queuing');

/** printPriorityLevelConfiguration's cells: a limited level's shares, its queuing's numbers, else <none>. */
const limitedCell = (value: (obj: JSONObject) => unknown) => (obj: JSONObject): unknown => {
  const v = value(obj);
  return v === undefined || v === null ? '<none>' : v;
};
const queuingCell = (key: string) => limitedCell((obj) => (isObject(queuingOf(obj)) ? (at(queuingOf(obj), key) ?? 0) : undefined));

export const priorityLevelConfigurationKind: KindDeclaration = {
  served: {
    group: 'flowcontrol.apiserver.k8s.io',
    version: 'v1',
    resource: 'prioritylevelconfigurations',
    singularName: 'prioritylevelconfiguration',
    kind: 'PriorityLevelConfiguration',
    listKind: 'PriorityLevelConfigurationList',
    namespaced: false,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: [],
    categories: [],
    subresources: { status: true },
  },
  groupPriorityMinimum: FLOWCONTROL_GROUP_PRIORITY,
  storageVersion: 'v1',
  keyPrefix: '/registry/prioritylevelconfigurations/',
  object: PriorityLevelConfiguration,
  list: PriorityLevelConfigurationList,
  protobuf: true,
  strategy: flowcontrolStrategy({
    kind: 'PriorityLevelConfiguration',
    spec: PriorityLevelConfigurationSpec,
    status: PriorityLevelConfigurationStatus,
    setDefaults: setPriorityLevelDefaults,
    validate: validatePriorityLevelConfiguration,
    validateStatus: validatePriorityLevelConfigurationStatus,
  }),
  // kube's printer: NAME TYPE NOMINALCONCURRENCYSHARES QUEUES HANDSIZE QUEUELENGTHLIMIT AGE.
  table: [
    { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0, field: ['metadata', 'name'], render: 'string' },
    { name: 'Type', type: 'string', format: '', description: PL_TYPE_DOC, priority: 0, field: ['spec', 'type'], render: 'string' },
    {
      name: 'NominalConcurrencyShares',
      type: 'string',
      format: '',
      description: LIMITED_NCS_DOC,
      priority: 0,
      cell: limitedCell((obj) => (isObject(limitedOf(obj)) ? (at(limitedOf(obj), 'nominalConcurrencyShares') ?? 0) : undefined)),
    },
    { name: 'Queues', type: 'string', format: '', description: QUEUING_DOCS.queues, priority: 0, cell: queuingCell('queues') },
    { name: 'HandSize', type: 'string', format: '', description: QUEUING_DOCS.handSize, priority: 0, cell: queuingCell('handSize') },
    { name: 'QueueLengthLimit', type: 'string', format: '', description: QUEUING_DOCS.queueLengthLimit, priority: 0, cell: queuingCell('queueLengthLimit') },
    { name: 'Age', type: 'string', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0, field: ['metadata', 'creationTimestamp'], render: 'age' },
  ],
  selectableFields: clusterScopedFields,
  defaultFieldLabelConversion: true,
  subresources: ['status'],
};

// The resources the publish tests serve: the seed CronTab CRD (stable.example.com/v1) and the two
// built-ins, Namespaces and CustomResourceDefinitions, without schemas as our registry serves them.
import type { ServedResource } from '../../src/api/resource.js';
import { storageVersionHash } from '../../src/server/discovery.js';

export const CRONTAB_SCHEMA = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      properties: {
        cronSpec: { type: 'string' },
        image: { type: 'string' },
        replicas: { type: 'integer' },
      },
    },
  },
};

export const cronTab = (overrides: Partial<ServedResource> = {}): ServedResource => ({
  group: 'stable.example.com',
  version: 'v1',
  resource: 'crontabs',
  singularName: 'crontab',
  kind: 'CronTab',
  listKind: 'CronTabList',
  namespaced: true,
  verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
  shortNames: ['ct'],
  categories: [],
  subresources: {},
  storageVersionHash: storageVersionHash('stable.example.com', 'v1', 'CronTab'),
  schema: CRONTAB_SCHEMA,
  ...overrides,
});

export const namespaces: ServedResource = {
  group: '',
  version: 'v1',
  resource: 'namespaces',
  singularName: 'namespace',
  kind: 'Namespace',
  listKind: 'NamespaceList',
  namespaced: false,
  verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
  shortNames: ['ns'],
  categories: [],
  subresources: { status: true },
  storageVersionHash: storageVersionHash('', 'v1', 'Namespace'),
};

export const customResourceDefinitions: ServedResource = {
  group: 'apiextensions.k8s.io',
  version: 'v1',
  resource: 'customresourcedefinitions',
  singularName: 'customresourcedefinition',
  kind: 'CustomResourceDefinition',
  listKind: 'CustomResourceDefinitionList',
  namespaced: false,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  subresources: { status: true },
  // kube-apiserver stores CRDs as v1beta1 and publishes that version's hash.
  storageVersionHash: storageVersionHash('apiextensions.k8s.io', 'v1beta1', 'CustomResourceDefinition'),
};

export const allResources = (): ServedResource[] => [namespaces, customResourceDefinitions, cronTab()];

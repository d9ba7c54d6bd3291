// The resources the publish tests serve: the seed CronTab CRD (stable.example.com/v1) and the two
// built-ins, Namespaces and CustomResourceDefinitions, without schemas as our registry serves them.
import type { ServedResource } from '../../src/api/resource.js';
import { storageVersionHash } from '../../src/api/versions.js';
import { builtinResourceType } from '../../src/apis/builtin-kinds.js';
import { namespaceKind } from '../../src/apis/core/v1/namespace.js';
import { crdKind } from '../../src/apis/apiextensions/v1/custom-resource-definition.js';

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

// The built-ins exactly as the server serves them.
export const namespaces: ServedResource = builtinResourceType(namespaceKind).served;
export const customResourceDefinitions: ServedResource = builtinResourceType(crdKind).served;

export const allResources = (): ServedResource[] => [namespaces, customResourceDefinitions, cronTab()];

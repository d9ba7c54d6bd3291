// Types apiextensions.k8s.io v1 and v1beta1 CustomResourceDefinitions share (same Go fields and tags),
// and what both endpoints serve. Protobuf numbers are not declared: CRDs are not decoded from protobuf here.
import { field as f, struct } from '../../api/go-struct.js';
import type { KindDeclaration } from '../kind.js';
import { metaOf } from '../../registry/store.js';

export const CustomResourceDefinitionNames = struct('CustomResourceDefinitionNames', [
  f(undefined, 'plural', 'string'),
  f(undefined, 'singular', 'string', 'omit'),
  f(undefined, 'shortNames', 'string', 'slice omit'),
  f(undefined, 'kind', 'string'),
  f(undefined, 'listKind', 'string', 'omit'),
  f(undefined, 'categories', 'string', 'slice omit'),
]);

const ServiceReference = struct('ServiceReference', [
  f(undefined, 'namespace', 'string'),
  f(undefined, 'name', 'string'),
  f(undefined, 'path', 'string', 'ptr omit'),
  f(undefined, 'port', 'int32', 'ptr omit'),
]);

const CustomResourceSubresourceScale = struct('CustomResourceSubresourceScale', [
  f(undefined, 'specReplicasPath', 'string'),
  f(undefined, 'statusReplicasPath', 'string'),
  f(undefined, 'labelSelectorPath', 'string', 'ptr omit'),
]);

export const CustomResourceSubresources = struct('CustomResourceSubresources', [
  f(undefined, 'status', struct('CustomResourceSubresourceStatus', []), 'ptr omit'),
  f(undefined, 'scale', CustomResourceSubresourceScale, 'ptr omit'),
]);

/** A printer column; v1beta1 spells the path's json tag JSONPath. */
export const customResourceColumnDefinition = (jsonPath: 'jsonPath' | 'JSONPath') =>
  struct('CustomResourceColumnDefinition', [
    f(undefined, 'name', 'string'),
    f(undefined, 'type', 'string'),
    f(undefined, 'format', 'string', 'omit'),
    f(undefined, 'description', 'string', 'omit'),
    f(undefined, 'priority', 'int32', 'omit'),
    f(undefined, jsonPath, 'string', '', { go: 'JSONPath' }),
  ]);

const SelectableField = struct('SelectableField', [f(undefined, 'jsonPath', 'string', '', { go: 'JSONPath' })]);

export const WebhookClientConfig = struct('WebhookClientConfig', [
  f(undefined, 'url', 'string', 'ptr omit', { go: 'URL' }),
  f(undefined, 'service', ServiceReference, 'ptr omit'),
  f(undefined, 'caBundle', 'bytes', 'omit', { go: 'CABundle' }),
]);

export const CustomResourceValidation = struct('CustomResourceValidation', [f(undefined, 'openAPIV3Schema', 'jsonSchemaProps', 'ptr omit', { go: 'OpenAPIV3Schema' })]);

// The same fields at v1 and v1beta1.
export const CustomResourceDefinitionVersion = struct('CustomResourceDefinitionVersion', [
  f(undefined, 'name', 'string'),
  f(undefined, 'served', 'bool'),
  f(undefined, 'storage', 'bool'),
  f(undefined, 'deprecated', 'bool', 'omit'),
  f(undefined, 'deprecationWarning', 'string', 'ptr omit'),
  f(undefined, 'schema', CustomResourceValidation, 'ptr omit'),
  f(undefined, 'subresources', CustomResourceSubresources, 'ptr omit'),
  f(undefined, 'additionalPrinterColumns', customResourceColumnDefinition('jsonPath'), 'slice omit'),
  f(undefined, 'selectableFields', SelectableField, 'slice omit'),
]);

const CustomResourceDefinitionCondition = struct('CustomResourceDefinitionCondition', [
  f(undefined, 'type', 'string', '', { named: 'CustomResourceDefinitionConditionType' }),
  f(undefined, 'status', 'string', '', { named: 'ConditionStatus' }),
  f(undefined, 'lastTransitionTime', 'time', 'omit'),
  f(undefined, 'reason', 'string', 'omit'),
  f(undefined, 'message', 'string', 'omit'),
]);

// Conditions are an atomic list (kube's type has no patch tags on them).
export const CustomResourceDefinitionStatus = struct('CustomResourceDefinitionStatus', [
  f(undefined, 'conditions', CustomResourceDefinitionCondition, 'slice omit'),
  f(undefined, 'acceptedNames', CustomResourceDefinitionNames),
  f(undefined, 'storedVersions', 'string', 'slice'),
]);

/** Both endpoints: one resource, stored at v1 (discovery's hash names v1beta1, where kube-apiserver stores CRDs). */
export const crdServed: Omit<KindDeclaration['served'], 'version'> = {
  group: 'apiextensions.k8s.io',
  resource: 'customresourcedefinitions',
  singularName: 'customresourcedefinition',
  kind: 'CustomResourceDefinition',
  listKind: 'CustomResourceDefinitionList',
  namespaced: false,
  verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
  shortNames: ['crd', 'crds'],
  categories: ['api-extensions'],
  subresources: { status: true },
};

export const crdCommon = {
  groupPriorityMinimum: 16700,
  storageVersion: 'v1beta1',
  keyPrefix: '/registry/apiextensions.k8s.io/customresourcedefinitions/',
  protobuf: false,
  selectableFields: (obj) => ({ 'metadata.name': String(metaOf(obj).name ?? '') }),
  subresources: ['status'],
} satisfies Partial<KindDeclaration>;

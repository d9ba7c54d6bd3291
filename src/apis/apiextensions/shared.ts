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

export const WebhookClientConfig = struct('WebhookClientConfig', [
  f(undefined, 'url', 'string', 'ptr omit', { go: 'URL' }),
  f(undefined, 'service', ServiceReference, 'ptr omit'),
  f(undefined, 'caBundle', 'bytes', 'omit', { go: 'CABundle' }),
]);

export const CustomResourceValidation = struct('CustomResourceValidation', [f(undefined, 'openAPIV3Schema', 'jsonSchemaProps', 'ptr omit', { go: 'OpenAPIV3Schema' })]);

// The same fields at v1 and v1beta1; subresources, printer columns and selectable fields are not described further.
export const CustomResourceDefinitionVersion = struct('CustomResourceDefinitionVersion', [
  f(undefined, 'name', 'string'),
  f(undefined, 'served', 'bool'),
  f(undefined, 'storage', 'bool'),
  f(undefined, 'deprecated', 'bool', 'omit'),
  f(undefined, 'deprecationWarning', 'string', 'ptr omit'),
  f(undefined, 'schema', CustomResourceValidation, 'ptr omit'),
  f(undefined, 'subresources', 'json', 'ptr omit'),
  f(undefined, 'additionalPrinterColumns', 'json', 'slice omit'),
  f(undefined, 'selectableFields', 'json', 'slice omit'),
]);

// Conditions are an atomic list here (kube's type has no patch tags on them): not described further.
export const CustomResourceDefinitionStatus = struct('CustomResourceDefinitionStatus', [
  f(undefined, 'conditions', 'json', 'slice omit'),
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

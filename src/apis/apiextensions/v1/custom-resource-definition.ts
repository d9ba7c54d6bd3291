// apiextensions.k8s.io/v1 CustomResourceDefinition: its Go type (down to the versions' schemas, which
// JSONSchemaProps decodes) and the resource.
import { field as f, kindStruct, struct } from '../../../api/go-struct.js';
import { crdV1Strategy } from '../../../crd/resource.js';
import { metadataField } from '../../meta/v1/object-meta.js';
import type { KindDeclaration } from '../../kind.js';
import {
  CustomResourceDefinitionNames,
  CustomResourceDefinitionStatus,
  CustomResourceDefinitionVersion,
  WebhookClientConfig,
  crdCommon,
  crdServed,
} from '../shared.js';

const WebhookConversion = struct('WebhookConversion', [
  f(undefined, 'clientConfig', WebhookClientConfig, 'ptr omit'),
  f(undefined, 'conversionReviewVersions', 'string', 'slice'),
]);

const CustomResourceConversion = struct('CustomResourceConversion', [
  f(undefined, 'strategy', 'string', '', { named: 'ConversionStrategyType' }),
  f(undefined, 'webhook', WebhookConversion, 'ptr omit'),
]);

export const CustomResourceDefinitionSpec = struct('CustomResourceDefinitionSpec', [
  f(undefined, 'group', 'string'),
  f(undefined, 'names', CustomResourceDefinitionNames),
  f(undefined, 'scope', 'string', '', { named: 'ResourceScope' }),
  f(undefined, 'versions', CustomResourceDefinitionVersion, 'slice'),
  f(undefined, 'conversion', CustomResourceConversion, 'ptr omit'),
  f(undefined, 'preserveUnknownFields', 'bool', 'omit'),
]);

export const CustomResourceDefinition = kindStruct('CustomResourceDefinition', [
  metadataField(),
  f(undefined, 'spec', CustomResourceDefinitionSpec),
  f(undefined, 'status', CustomResourceDefinitionStatus, 'omit'),
], {
  openapi: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1',
});

export const crdKind: KindDeclaration = {
  ...crdCommon,
  served: { ...crdServed, version: 'v1' },
  object: CustomResourceDefinition,
  strategy: crdV1Strategy,
};

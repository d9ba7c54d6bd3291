// apiextensions.k8s.io/v1beta1 CustomResourceDefinition: served beside v1 over the same stored objects,
// converted at the endpoint, with the deprecation warning kube 1.19-1.21 sent.
import { field as f, kindStruct, struct } from '../../../api/go-struct.js';
import { crdV1beta1Strategy, V1BETA1_CRD_WARNING } from '../../../crd/resource.js';
import { crdToV1, crdToV1beta1 } from '../../../crd/v1beta1.js';
import { metadataField } from '../../meta/v1/object-meta.js';
import type { KindDeclaration } from '../../kind.js';
import {
  CustomResourceDefinitionNames,
  CustomResourceDefinitionStatus as SharedStatus,
  CustomResourceDefinitionVersion as SharedVersion,
  CustomResourceSubresources,
  CustomResourceValidation,
  SelectableField,
  WebhookClientConfig,
  v1beta1ColumnDefinition,
  crdCommon,
  crdServed,
} from '../shared.js';

// v1's fields, with v1beta1's printer columns (`JSONPath`).
const CustomResourceDefinitionVersion = struct(
  'CustomResourceDefinitionVersion',
  SharedVersion.fields.map((x) => (x.json === 'additionalPrinterColumns' ? { ...x, type: v1beta1ColumnDefinition } : x)),
);

// kube 1.33's conditions have no omitempty (at v1 too: there the shared declaration leaves an absent list out,
// as this server has always served it). What kube-apiserver stores in etcd writes `"conditions":null`.
const CustomResourceDefinitionStatus = struct(
  'CustomResourceDefinitionStatus',
  SharedStatus.fields.map((x) => {
    if (x.json !== 'conditions') return x;
    const { omitempty: _omitempty, ...rest } = x;
    return rest;
  }),
);

const CustomResourceConversion = struct('CustomResourceConversion', [
  f(undefined, 'strategy', 'string', '', { named: 'ConversionStrategyType' }),
  f(undefined, 'webhookClientConfig', WebhookClientConfig, 'ptr omit'),
  f(undefined, 'conversionReviewVersions', 'string', 'slice omit'),
]);

export const CustomResourceDefinitionSpec = struct('CustomResourceDefinitionSpec', [
  f(undefined, 'group', 'string'),
  f(undefined, 'version', 'string', 'omit'),
  f(undefined, 'names', CustomResourceDefinitionNames),
  f(undefined, 'scope', 'string', '', { named: 'ResourceScope' }),
  f(undefined, 'validation', CustomResourceValidation, 'ptr omit'),
  f(undefined, 'subresources', CustomResourceSubresources, 'ptr omit'),
  f(undefined, 'versions', CustomResourceDefinitionVersion, 'slice omit'),
  f(undefined, 'additionalPrinterColumns', v1beta1ColumnDefinition, 'slice omit'),
  f(undefined, 'selectableFields', SelectableField, 'slice omit'),
  f(undefined, 'conversion', CustomResourceConversion, 'ptr omit'),
  f(undefined, 'preserveUnknownFields', 'bool', 'ptr omit'),
]);

export const CustomResourceDefinition = kindStruct('CustomResourceDefinition', [
  metadataField(),
  f(undefined, 'spec', CustomResourceDefinitionSpec),
  f(undefined, 'status', CustomResourceDefinitionStatus, 'omit'),
], {
  openapi: 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1beta1',
});

export const crdV1beta1Kind: KindDeclaration = {
  ...crdCommon,
  served: { ...crdServed, version: 'v1beta1' },
  object: CustomResourceDefinition,
  strategy: crdV1beta1Strategy(),
  // Stored as v1: every read converts.
  storage: { fromStorage: crdToV1beta1, toStorage: crdToV1 },
  warnings: [V1BETA1_CRD_WARNING],
};

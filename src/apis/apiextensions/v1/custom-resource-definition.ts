// apiextensions.k8s.io/v1 CustomResourceDefinition: its Go type (down to the versions' schemas, which
// JSONSchemaProps decodes), its list type, and the resource. Docs as k8s.io/apiextensions-apiserver v0.33.0.
import { field as f, kindStruct, struct } from '../../../api/go-struct.js';
import { crdV1Strategy } from '../../../crd/resource.js';
import { metadataField } from '../../meta/v1/object-meta.js';
import { ListMeta } from '../../meta/v1/list-meta.js';
import type { KindDeclaration } from '../../kind.js';
import { APIEXTENSIONS_V1 } from '../json-schema-props.js';
import {
  CustomResourceDefinitionNames,
  CustomResourceDefinitionStatus,
  CustomResourceDefinitionVersion,
  WebhookClientConfig,
  crdCommon,
  crdServed,
} from '../shared.js';

const METADATA_DOC = "Standard object's metadata More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata";

const WebhookConversion = struct('WebhookConversion', [
  f(undefined, 'clientConfig', WebhookClientConfig, 'ptr omit', {
    doc: 'clientConfig is the instructions for how to call the webhook if strategy is `Webhook`.',
  }),
  f(undefined, 'conversionReviewVersions', 'string', 'slice', {
    listType: 'atomic',
    doc: 'conversionReviewVersions is an ordered list of preferred `ConversionReview` versions the Webhook expects. The API server will use the first version in the list which it supports. If none of the versions specified in this list are supported by API server, conversion will fail for the custom resource. If a persisted Webhook configuration specifies allowed versions and does not include any versions known to the API Server, calls to the webhook will fail.',
  }),
], { openapi: APIEXTENSIONS_V1, doc: 'WebhookConversion describes how to call a conversion webhook' });

const CustomResourceConversion = struct('CustomResourceConversion', [
  f(undefined, 'strategy', 'string', '', {
    named: 'ConversionStrategyType',
    doc: 'strategy specifies how custom resources are converted between versions. Allowed values are: - `"None"`: The converter only change the apiVersion and would not touch any other field in the custom resource. - `"Webhook"`: API Server will call to an external webhook to do the conversion. Additional information\n  is needed for this option. This requires spec.preserveUnknownFields to be false, and spec.conversion.webhook to be set.',
  }),
  f(undefined, 'webhook', WebhookConversion, 'ptr omit', {
    doc: 'webhook describes how to call the conversion webhook. Required when `strategy` is set to `"Webhook"`.',
  }),
], { openapi: APIEXTENSIONS_V1, doc: 'CustomResourceConversion describes how to convert different versions of a CR.' });

export const CustomResourceDefinitionSpec = struct('CustomResourceDefinitionSpec', [
  f(undefined, 'group', 'string', '', {
    doc: 'group is the API group of the defined custom resource. The custom resources are served under `/apis/<group>/...`. Must match the name of the CustomResourceDefinition (in the form `<names.plural>.<group>`).',
  }),
  f(undefined, 'names', CustomResourceDefinitionNames, '', { doc: 'names specify the resource and kind names for the custom resource.' }),
  f(undefined, 'scope', 'string', '', {
    named: 'ResourceScope',
    doc: 'scope indicates whether the defined custom resource is cluster- or namespace-scoped. Allowed values are `Cluster` and `Namespaced`.',
  }),
  f(undefined, 'versions', CustomResourceDefinitionVersion, 'slice', {
    listType: 'atomic',
    doc: 'versions is the list of all API versions of the defined custom resource. Version names are used to compute the order in which served versions are listed in API discovery. If the version string is "kube-like", it will sort above non "kube-like" version strings, which are ordered lexicographically. "Kube-like" versions start with a "v", then are followed by a number (the major version), then optionally the string "alpha" or "beta" and another number (the minor version). These are sorted first by GA > beta > alpha (where GA is a version with no suffix such as beta or alpha), and then by comparing major version, then minor version. An example sorted list of versions: v10, v2, v1, v11beta2, v10beta3, v3beta1, v12alpha1, v11alpha2, foo1, foo10.',
  }),
  f(undefined, 'conversion', CustomResourceConversion, 'ptr omit', { doc: 'conversion defines conversion settings for the CRD.' }),
  f(undefined, 'preserveUnknownFields', 'bool', 'omit', {
    doc: 'preserveUnknownFields indicates that object fields which are not specified in the OpenAPI schema should be preserved when persisting to storage. apiVersion, kind, metadata and known fields inside metadata are always preserved. This field is deprecated in favor of setting `x-preserve-unknown-fields` to true in `spec.versions[*].schema.openAPIV3Schema`. See https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#field-pruning for details.',
  }),
], { openapi: APIEXTENSIONS_V1, doc: 'CustomResourceDefinitionSpec describes how a user wants their resource to appear' });

export const CustomResourceDefinition = kindStruct('CustomResourceDefinition', [
  metadataField(METADATA_DOC),
  f(undefined, 'spec', CustomResourceDefinitionSpec, '', { doc: 'spec describes how the user wants the resources to appear' }),
  f(undefined, 'status', CustomResourceDefinitionStatus, 'omit', { doc: 'status indicates the actual state of the CustomResourceDefinition' }),
], { openapi: APIEXTENSIONS_V1, doc: 'CustomResourceDefinition represents a resource that should be exposed on the API server.  Its name MUST be in the format <.spec.name>.<.spec.group>.' });

export const CustomResourceDefinitionList = kindStruct('CustomResourceDefinitionList', [
  f(undefined, 'metadata', ListMeta, 'omit', { go: 'ListMeta', doc: METADATA_DOC }),
  f(undefined, 'items', CustomResourceDefinition, 'slice', { doc: 'items list individual CustomResourceDefinition objects' }),
], { openapi: APIEXTENSIONS_V1, doc: 'CustomResourceDefinitionList is a list of CustomResourceDefinition objects.' });

export const crdKind: KindDeclaration = {
  ...crdCommon,
  served: { ...crdServed, version: 'v1' },
  object: CustomResourceDefinition,
  list: CustomResourceDefinitionList,
  strategy: crdV1Strategy,
};

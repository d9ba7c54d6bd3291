// Types apiextensions.k8s.io v1 and v1beta1 CustomResourceDefinitions share (same Go fields and tags),
// and what both endpoints serve. Protobuf numbers are not declared: CRDs are not decoded from protobuf here.
// Docs and OpenAPI definition names are v1's (k8s.io/apiextensions-apiserver v0.33.0): the v1beta1 kind,
// declared only in part, publishes no definition from them.
import { field as f, struct } from '../../api/go-struct.js';
import type { KindDeclaration } from '../kind.js';
import { metaOf } from '../../registry/store.js';
import { APIEXTENSIONS_V1 } from './json-schema-props.js';

export const CustomResourceDefinitionNames = struct('CustomResourceDefinitionNames', [
  f(undefined, 'plural', 'string', '', {
    doc: 'plural is the plural name of the resource to serve. The custom resources are served under `/apis/<group>/<version>/.../<plural>`. Must match the name of the CustomResourceDefinition (in the form `<names.plural>.<group>`). Must be all lowercase.',
  }),
  f(undefined, 'singular', 'string', 'omit', {
    doc: 'singular is the singular name of the resource. It must be all lowercase. Defaults to lowercased `kind`.',
  }),
  f(undefined, 'shortNames', 'string', 'slice omit', {
    listType: 'atomic',
    doc: 'shortNames are short names for the resource, exposed in API discovery documents, and used by clients to support invocations like `kubectl get <shortname>`. It must be all lowercase.',
  }),
  f(undefined, 'kind', 'string', '', {
    doc: 'kind is the serialized kind of the resource. It is normally CamelCase and singular. Custom resource instances will use this value as the `kind` attribute in API calls.',
  }),
  f(undefined, 'listKind', 'string', 'omit', { doc: 'listKind is the serialized kind of the list for this resource. Defaults to "`kind`List".' }),
  f(undefined, 'categories', 'string', 'slice omit', {
    listType: 'atomic',
    doc: 'categories is a list of grouped resources this custom resource belongs to (e.g. \'all\'). This is published in API discovery documents, and used by clients to support invocations like `kubectl get all`.',
  }),
], { openapi: APIEXTENSIONS_V1, doc: 'CustomResourceDefinitionNames indicates the names to serve this CustomResourceDefinition' });

const ServiceReference = struct('ServiceReference', [
  f(undefined, 'namespace', 'string', '', { doc: 'namespace is the namespace of the service. Required' }),
  f(undefined, 'name', 'string', '', { doc: 'name is the name of the service. Required' }),
  f(undefined, 'path', 'string', 'ptr omit', { doc: 'path is an optional URL path at which the webhook will be contacted.' }),
  f(undefined, 'port', 'int32', 'ptr omit', {
    doc: 'port is an optional service port at which the webhook will be contacted. `port` should be a valid port number (1-65535, inclusive). Defaults to 443 for backward compatibility.',
  }),
], { openapi: APIEXTENSIONS_V1, doc: 'ServiceReference holds a reference to Service.legacy.k8s.io' });

const CustomResourceSubresourceScale = struct('CustomResourceSubresourceScale', [
  f(undefined, 'specReplicasPath', 'string', '', {
    doc: 'specReplicasPath defines the JSON path inside of a custom resource that corresponds to Scale `spec.replicas`. Only JSON paths without the array notation are allowed. Must be a JSON Path under `.spec`. If there is no value under the given path in the custom resource, the `/scale` subresource will return an error on GET.',
  }),
  f(undefined, 'statusReplicasPath', 'string', '', {
    doc: 'statusReplicasPath defines the JSON path inside of a custom resource that corresponds to Scale `status.replicas`. Only JSON paths without the array notation are allowed. Must be a JSON Path under `.status`. If there is no value under the given path in the custom resource, the `status.replicas` value in the `/scale` subresource will default to 0.',
  }),
  f(undefined, 'labelSelectorPath', 'string', 'ptr omit', {
    doc: 'labelSelectorPath defines the JSON path inside of a custom resource that corresponds to Scale `status.selector`. Only JSON paths without the array notation are allowed. Must be a JSON Path under `.status` or `.spec`. Must be set to work with HorizontalPodAutoscaler. The field pointed by this JSON path must be a string field (not a complex selector struct) which contains a serialized label selector in string form. More info: https://kubernetes.io/docs/tasks/access-kubernetes-api/custom-resources/custom-resource-definitions#scale-subresource If there is no value under the given path in the custom resource, the `status.selector` value in the `/scale` subresource will default to the empty string.',
  }),
], { openapi: APIEXTENSIONS_V1, doc: 'CustomResourceSubresourceScale defines how to serve the scale subresource for CustomResources.' });

const CustomResourceSubresourceStatus = struct('CustomResourceSubresourceStatus', [], { openapi: APIEXTENSIONS_V1, doc: 'CustomResourceSubresourceStatus defines how to serve the status subresource for CustomResources. Status is represented by the `.status` JSON path inside of a CustomResource. When set, * exposes a /status subresource for the custom resource * PUT requests to the /status subresource take a custom resource object, and ignore changes to anything except the status stanza * PUT/POST/PATCH requests to the custom resource ignore changes to the status stanza' });

export const CustomResourceSubresources = struct('CustomResourceSubresources', [
  f(undefined, 'status', CustomResourceSubresourceStatus, 'ptr omit', {
    doc: 'status indicates the custom resource should serve a `/status` subresource. When enabled: 1. requests to the custom resource primary endpoint ignore changes to the `status` stanza of the object. 2. requests to the custom resource `/status` subresource ignore changes to anything other than the `status` stanza of the object.',
  }),
  f(undefined, 'scale', CustomResourceSubresourceScale, 'ptr omit', {
    doc: 'scale indicates the custom resource should serve a `/scale` subresource that returns an `autoscaling/v1` Scale object.',
  }),
], { openapi: APIEXTENSIONS_V1, doc: 'CustomResourceSubresources defines the status and scale subresources for CustomResources.' });

const columnFields = [
  f(undefined, 'name', 'string', '', { doc: 'name is a human readable name for the column.' }),
  f(undefined, 'type', 'string', '', {
    doc: 'type is an OpenAPI type definition for this column. See https://github.com/OAI/OpenAPI-Specification/blob/master/versions/2.0.md#data-types for details.',
  }),
  f(undefined, 'format', 'string', 'omit', {
    doc: 'format is an optional OpenAPI type definition for this column. The \'name\' format is applied to the primary identifier column to assist in clients identifying column is the resource name. See https://github.com/OAI/OpenAPI-Specification/blob/master/versions/2.0.md#data-types for details.',
  }),
  f(undefined, 'description', 'string', 'omit', { doc: 'description is a human readable description of this column.' }),
  f(undefined, 'priority', 'int32', 'omit', {
    doc: 'priority is an integer defining the relative importance of this column compared to others. Lower numbers are considered higher priority. Columns that may be omitted in limited space scenarios should be given a priority greater than 0.',
  }),
  f(undefined, 'jsonPath', 'string', '', {
    go: 'JSONPath',
    doc: 'jsonPath is a simple JSON path (i.e. with array notation) which is evaluated against each custom resource to produce the value for this column.',
  }),
];
const CustomResourceColumnDefinition = struct('CustomResourceColumnDefinition', columnFields, {
  openapi: APIEXTENSIONS_V1,
  doc: 'CustomResourceColumnDefinition specifies a column for server side printing.',
});
/** v1beta1's printer column, whose path's json tag is JSONPath. */
export const v1beta1ColumnDefinition = struct(
  'CustomResourceColumnDefinition',
  columnFields.map((x) => (x.json === 'jsonPath' ? { ...x, json: 'JSONPath' } : x)),
);

export const SelectableField = struct('SelectableField', [
  f(undefined, 'jsonPath', 'string', '', {
    go: 'JSONPath',
    doc: 'jsonPath is a simple JSON path which is evaluated against each custom resource to produce a field selector value. Only JSON paths without the array notation are allowed. Must point to a field of type string, boolean or integer. Types with enum values and strings with formats are allowed. If jsonPath refers to absent field in a resource, the jsonPath evaluates to an empty string. Must not point to metdata fields. Required.',
  }),
], { openapi: APIEXTENSIONS_V1, doc: 'SelectableField specifies the JSON path of a field that may be used with field selectors.' });

export const WebhookClientConfig = struct('WebhookClientConfig', [
  f(undefined, 'url', 'string', 'ptr omit', {
    go: 'URL',
    doc: 'url gives the location of the webhook, in standard URL form (`scheme://host:port/path`). Exactly one of `url` or `service` must be specified.\n\nThe `host` should not refer to a service running in the cluster; use the `service` field instead. The host might be resolved via external DNS in some apiservers (e.g., `kube-apiserver` cannot resolve in-cluster DNS as that would be a layering violation). `host` may also be an IP address.\n\nPlease note that using `localhost` or `127.0.0.1` as a `host` is risky unless you take great care to run this webhook on all hosts which run an apiserver which might need to make calls to this webhook. Such installs are likely to be non-portable, i.e., not easy to turn up in a new cluster.\n\nThe scheme must be "https"; the URL must begin with "https://".\n\nA path is optional, and if present may be any string permissible in a URL. You may use the path to pass an arbitrary string to the webhook, for example, a cluster identifier.\n\nAttempting to use a user or basic auth e.g. "user:password@" is not allowed. Fragments ("#...") and query parameters ("?...") are not allowed, either.',
  }),
  f(undefined, 'service', ServiceReference, 'ptr omit', {
    doc: 'service is a reference to the service for this webhook. Either service or url must be specified.\n\nIf the webhook is running within the cluster, then you should use `service`.',
  }),
  f(undefined, 'caBundle', 'bytes', 'omit', {
    go: 'CABundle',
    doc: 'caBundle is a PEM encoded CA bundle which will be used to validate the webhook\'s server certificate. If unspecified, system trust roots on the apiserver are used.',
  }),
], { openapi: APIEXTENSIONS_V1, doc: 'WebhookClientConfig contains the information to make a TLS connection with the webhook.' });

export const CustomResourceValidation = struct('CustomResourceValidation', [
  f(undefined, 'openAPIV3Schema', 'jsonSchemaProps', 'ptr omit', {
    go: 'OpenAPIV3Schema',
    doc: 'openAPIV3Schema is the OpenAPI v3 schema to use for validation and pruning.',
  }),
], { openapi: APIEXTENSIONS_V1, doc: 'CustomResourceValidation is a list of validation methods for CustomResources.' });

// The same fields at v1 and v1beta1.
export const CustomResourceDefinitionVersion = struct('CustomResourceDefinitionVersion', [
  f(undefined, 'name', 'string', '', {
    doc: 'name is the version name, e.g. “v1”, “v2beta1”, etc. The custom resources are served under this version at `/apis/<group>/<version>/...` if `served` is true.',
  }),
  f(undefined, 'served', 'bool', '', { doc: 'served is a flag enabling/disabling this version from being served via REST APIs' }),
  f(undefined, 'storage', 'bool', '', {
    doc: 'storage indicates this version should be used when persisting custom resources to storage. There must be exactly one version with storage=true.',
  }),
  f(undefined, 'deprecated', 'bool', 'omit', {
    doc: 'deprecated indicates this version of the custom resource API is deprecated. When set to true, API requests to this version receive a warning header in the server response. Defaults to false.',
  }),
  f(undefined, 'deprecationWarning', 'string', 'ptr omit', {
    doc: 'deprecationWarning overrides the default warning returned to API clients. May only be set when `deprecated` is true. The default warning indicates this version is deprecated and recommends use of the newest served version of equal or greater stability, if one exists.',
  }),
  f(undefined, 'schema', CustomResourceValidation, 'ptr omit', {
    doc: 'schema describes the schema used for validation, pruning, and defaulting of this version of the custom resource.',
  }),
  f(undefined, 'subresources', CustomResourceSubresources, 'ptr omit', {
    doc: 'subresources specify what subresources this version of the defined custom resource have.',
  }),
  f(undefined, 'additionalPrinterColumns', CustomResourceColumnDefinition, 'slice omit', {
    listType: 'atomic',
    doc: 'additionalPrinterColumns specifies additional columns returned in Table output. See https://kubernetes.io/docs/reference/using-api/api-concepts/#receiving-resources-as-tables for details. If no columns are specified, a single column displaying the age of the custom resource is used.',
  }),
  f(undefined, 'selectableFields', SelectableField, 'slice omit', {
    listType: 'atomic',
    doc: 'selectableFields specifies paths to fields that may be used as field selectors. A maximum of 8 selectable fields are allowed. See https://kubernetes.io/docs/concepts/overview/working-with-objects/field-selectors',
  }),
], { openapi: APIEXTENSIONS_V1, doc: 'CustomResourceDefinitionVersion describes a version for CRD.' });

const CustomResourceDefinitionCondition = struct('CustomResourceDefinitionCondition', [
  f(undefined, 'type', 'string', '', {
    named: 'CustomResourceDefinitionConditionType',
    doc: 'type is the type of the condition. Types include Established, NamesAccepted and Terminating.',
  }),
  f(undefined, 'status', 'string', '', { named: 'ConditionStatus', doc: 'status is the status of the condition. Can be True, False, Unknown.' }),
  f(undefined, 'lastTransitionTime', 'time', 'omit', { doc: 'lastTransitionTime last time the condition transitioned from one status to another.' }),
  f(undefined, 'reason', 'string', 'omit', { doc: 'reason is a unique, one-word, CamelCase reason for the condition\'s last transition.' }),
  f(undefined, 'message', 'string', 'omit', { doc: 'message is a human-readable message indicating details about last transition.' }),
], { openapi: APIEXTENSIONS_V1, doc: 'CustomResourceDefinitionCondition contains details for the current condition of this pod.' });

// Conditions have no patch tags (strategic merge patch replaces them); +listType=map is for apply and OpenAPI.
// acceptedNames and storedVersions are +optional without omitempty: always written, never required.
export const CustomResourceDefinitionStatus = struct('CustomResourceDefinitionStatus', [
  f(undefined, 'conditions', CustomResourceDefinitionCondition, 'slice omit', {
    listType: 'map',
    listMapKeys: ['type'],
    doc: 'conditions indicate state for particular aspects of a CustomResourceDefinition',
  }),
  f(undefined, 'acceptedNames', CustomResourceDefinitionNames, 'opt', {
    doc: 'acceptedNames are the names that are actually being used to serve discovery. They may be different than the names in spec.',
  }),
  f(undefined, 'storedVersions', 'string', 'slice opt', {
    listType: 'atomic',
    doc: 'storedVersions lists all versions of CustomResources that were ever persisted. Tracking these versions allows a migration path for stored versions in etcd. The field is mutable so a migration controller can finish a migration to another version (ensuring no old objects are left in storage), and then remove the rest of the versions from this list. Versions may not be removed from `spec.versions` while they exist in this list.',
  }),
], { openapi: APIEXTENSIONS_V1, doc: 'CustomResourceDefinitionStatus indicates the state of the CustomResourceDefinition' });

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

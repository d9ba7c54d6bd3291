// apiextensions.k8s.io/v1 CustomResourceDefinition, as plain JSON. Optional fields are optional
// because clients may omit them; defaultCRD fills what kube's SetDefaults fills.

/** OpenAPI v3 schema in apiextensions form. Kept loose: the schema engine owns its structure. */
export type JSONSchemaProps = Record<string, unknown>;

export type { ObjectMeta, OwnerReference, ManagedFieldsEntry } from '../api/meta.js';
import type { ObjectMeta } from '../api/meta.js';

type ResourceScope = 'Namespaced' | 'Cluster';
type ConversionStrategyType = 'None' | 'Webhook';

export interface CustomResourceDefinitionNames {
  plural: string;
  singular?: string;
  shortNames?: string[];
  kind: string;
  listKind?: string;
  categories?: string[];
}

export interface CustomResourceValidation {
  openAPIV3Schema?: JSONSchemaProps;
}

/** Enabling the status subresource is the presence of this (empty) object. */
export type CustomResourceSubresourceStatus = Record<string, never>;

export interface CustomResourceSubresourceScale {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

export interface CustomResourceSubresources {
  status?: CustomResourceSubresourceStatus;
  scale?: CustomResourceSubresourceScale;
}

export interface CustomResourceColumnDefinition {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

export interface SelectableField {
  jsonPath: string;
}

export interface CustomResourceDefinitionVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: CustomResourceValidation;
  subresources?: CustomResourceSubresources;
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  selectableFields?: SelectableField[];
}

export type { ServiceReference, WebhookClientConfig } from '../api/webhook.js';
import type { WebhookClientConfig } from '../api/webhook.js';

export interface WebhookConversion {
  clientConfig?: WebhookClientConfig;
  conversionReviewVersions: string[];
}

export interface CustomResourceConversion {
  strategy: ConversionStrategyType | string;
  webhook?: WebhookConversion;
}

export interface CustomResourceDefinitionSpec {
  group: string;
  names: CustomResourceDefinitionNames;
  scope: ResourceScope | string;
  versions: CustomResourceDefinitionVersion[];
  conversion?: CustomResourceConversion;
  preserveUnknownFields?: boolean;
}

type ConditionStatus = 'True' | 'False' | 'Unknown';
type CustomResourceDefinitionConditionType =
  | 'Established'
  | 'NamesAccepted'
  | 'NonStructuralSchema'
  | 'Terminating'
  | 'KubernetesAPIApprovalPolicyConformant';

export interface CustomResourceDefinitionCondition {
  type: CustomResourceDefinitionConditionType | string;
  status: ConditionStatus | string;
  /** RFC 3339, second precision, as metav1.Time serializes. */
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface CustomResourceDefinitionStatus {
  conditions?: CustomResourceDefinitionCondition[];
  acceptedNames?: Partial<CustomResourceDefinitionNames>;
  storedVersions?: string[];
}

/** A CRD read from a store or an informer (plain JSON) as its type: the stores hold only what validation let in. */
export const asCRD = (o: object): CustomResourceDefinition => o as unknown as CustomResourceDefinition;

export interface CustomResourceDefinition {
  apiVersion?: string;
  kind?: string;
  metadata: ObjectMeta;
  spec: CustomResourceDefinitionSpec;
  status?: CustomResourceDefinitionStatus;
}

export const CRD_CLEANUP_FINALIZER = 'customresourcecleanup.apiextensions.k8s.io';
export const KUBE_API_APPROVED_ANNOTATION = 'api-approved.kubernetes.io';

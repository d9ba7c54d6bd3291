// Every built-in kind the server serves, in registration order, and every Go type whose protobuf form
// request bodies may take. Adding a kind: its declaration file and one line here.
import type { GoStruct } from '../api/go-struct.js';
import { gvString } from '../api/resource.js';
import type { KindDeclaration } from './kind.js';
import { namespaceKind } from './core/v1/namespace.js';
import { configMapKind } from './core/v1/config-map.js';
import { secretKind } from './core/v1/secret.js';
import { serviceAccountKind } from './core/v1/service-account.js';
import { leaseKind } from './coordination/v1/lease.js';
import { flowSchemaKind } from './flowcontrol/v1/flow-schema.js';
import { priorityLevelConfigurationKind } from './flowcontrol/v1/priority-level-configuration.js';
import { validatingAdmissionPolicyBindingKind, validatingAdmissionPolicyKind } from './admissionregistration/v1/validating-admission-policy.js';
import { mutatingWebhookConfigurationKind, validatingWebhookConfigurationKind } from './admissionregistration/v1/webhook-configurations.js';
import { logicalClusterKind } from './tenancy/v1alpha1/logical-cluster.js';
import { crdKind } from './apiextensions/v1/custom-resource-definition.js';
import { crdV1beta1Kind } from './apiextensions/v1beta1/custom-resource-definition.js';
import { eventKind } from './core/v1/event.js';
import { eventsV1Kind } from './events/v1/event.js';
import { clusterRoleBindingKind, clusterRoleKind, roleBindingKind, roleKind } from './rbac/v1/kinds.js';
import { localSubjectAccessReviewKind, selfSubjectAccessReviewKind, selfSubjectRulesReviewKind, subjectAccessReviewKind } from './authorization/v1/kinds.js';
import { selfSubjectReviewKind, tokenReviewKind } from './authentication/v1/reviews.js';
import { Scale } from './autoscaling/v1/scale.js';
import { TokenRequest } from './authentication/v1/token-request.js';
import { ObjectMeta } from './meta/v1/object-meta.js';
import { DeleteOptions } from './meta/v1/delete-options.js';
import { ListMeta } from './meta/v1/list-meta.js';
import { JSONSchemaProps } from './apiextensions/json-schema-props.js';

export const BUILTIN_KINDS: readonly KindDeclaration[] = [
  namespaceKind,
  crdKind,
  crdV1beta1Kind,
  configMapKind,
  secretKind,
  eventKind,
  eventsV1Kind,
  serviceAccountKind,
  leaseKind,
  roleKind,
  roleBindingKind,
  clusterRoleKind,
  clusterRoleBindingKind,
  flowSchemaKind,
  priorityLevelConfigurationKind,
  tokenReviewKind,
  selfSubjectReviewKind,
  selfSubjectAccessReviewKind,
  subjectAccessReviewKind,
  localSubjectAccessReviewKind,
  selfSubjectRulesReviewKind,
  validatingAdmissionPolicyKind,
  validatingAdmissionPolicyBindingKind,
  mutatingWebhookConfigurationKind,
  validatingWebhookConfigurationKind,
  logicalClusterKind,
];

interface ProtobufType {
  apiVersion: string;
  object: GoStruct;
}

/** Top-level types decodable from a protobuf request body: the served kinds that have a protobuf form, and types not served yet. */
export const PROTOBUF_TYPES: readonly ProtobufType[] = [
  ...BUILTIN_KINDS.filter((k) => k.protobuf).map((k) => ({ apiVersion: gvString(k.served.group, k.served.version), object: k.object })),
  { apiVersion: 'autoscaling/v1', object: Scale },
  { apiVersion: 'authentication.k8s.io/v1', object: TokenRequest },
];

/**
 * Go types whose OpenAPI definitions kube's documents carry: object and list metadata, DELETE bodies, the
 * scale and token subresources, and CRD schemas (which CRDs name rather than hold: see json-schema-props.ts).
 */
export const PUBLISHED_TYPES: readonly GoStruct[] = [ObjectMeta, ListMeta, DeleteOptions, Scale, TokenRequest, JSONSchemaProps];

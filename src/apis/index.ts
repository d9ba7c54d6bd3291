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
import { mutatingWebhookConfigurationKind, validatingWebhookConfigurationKind } from './admissionregistration/v1/webhook-configurations.js';
import { crdKind } from './apiextensions/v1/custom-resource-definition.js';
import { crdV1beta1Kind } from './apiextensions/v1beta1/custom-resource-definition.js';
import { eventKind } from './core/v1/event.js';
import { eventsV1Kind } from './events/v1/event.js';
import { ClusterRole, ClusterRoleBinding, Role, RoleBinding } from './rbac/v1/rbac.js';
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
  flowSchemaKind,
  priorityLevelConfigurationKind,
  mutatingWebhookConfigurationKind,
  validatingWebhookConfigurationKind,
];

interface ProtobufType {
  apiVersion: string;
  object: GoStruct;
}

const RBAC = 'rbac.authorization.k8s.io/v1';

/** Top-level types decodable from a protobuf request body: the served kinds that have a protobuf form, and types not served yet. */
export const PROTOBUF_TYPES: readonly ProtobufType[] = [
  ...BUILTIN_KINDS.filter((k) => k.protobuf).map((k) => ({ apiVersion: gvString(k.served.group, k.served.version), object: k.object })),
  { apiVersion: RBAC, object: Role },
  { apiVersion: RBAC, object: ClusterRole },
  { apiVersion: RBAC, object: RoleBinding },
  { apiVersion: RBAC, object: ClusterRoleBinding },
  { apiVersion: 'autoscaling/v1', object: Scale },
  { apiVersion: 'authentication.k8s.io/v1', object: TokenRequest },
];

/**
 * Go types whose OpenAPI definitions kube's documents carry: object and list metadata, DELETE bodies, the
 * scale and token subresources, and CRD schemas (which CRDs name rather than hold: see json-schema-props.ts).
 */
export const PUBLISHED_TYPES: readonly GoStruct[] = [ObjectMeta, ListMeta, DeleteOptions, Scale, TokenRequest, JSONSchemaProps];

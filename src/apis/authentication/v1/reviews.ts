// authentication.k8s.io/v1 TokenReview and SelfSubjectReview (`kubectl auth whoami`): Go types with their
// generated.proto numbers, served create-only.
import { field as f, kindStruct, struct } from '../../../api/go-struct.js';
import { metadataField } from '../../meta/v1/object-meta.js';
import { createOnlyKind } from '../../create-only.js';

const o = { openapi: 'io.k8s.api.authentication.v1' };
const META_DOC = 'Standard object\'s metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata';

const UserInfo = struct(
  'UserInfo',
  [
    f(1, 'username', 'string', 'omit', { doc: 'The name that uniquely identifies this user among all active users.' }),
    f(2, 'uid', 'string', 'omit', { go: 'UID', doc: 'A unique value that identifies this user across time. If this user is deleted and another user by the same name is added, they will have different UIDs.' }),
    f(3, 'groups', 'string', 'slice omit', { listType: 'atomic', doc: 'The names of groups this user is a part of.' }),
    f(4, 'extra', 'stringList', 'map omit', { doc: 'Any additional information provided by the authenticator.' }),
  ],
  { ...o, doc: 'UserInfo holds the information about the user needed to implement the user.Info interface.' },
);

const TokenReviewSpec = struct(
  'TokenReviewSpec',
  [
    f(1, 'token', 'string', 'omit', { doc: 'Token is the opaque bearer token.' }),
    f(2, 'audiences', 'string', 'slice omit', { listType: 'atomic', doc: 'Audiences is a list of the identifiers that the resource server presented with the token identifies as. Audience-aware token authenticators will verify that the token was intended for at least one of the audiences in this list. If no audiences are provided, the audience will default to the audience of the Kubernetes apiserver.' }),
  ],
  { ...o, doc: 'TokenReviewSpec is a description of the token authentication request.' },
);

const TokenReviewStatus = struct(
  'TokenReviewStatus',
  [
    f(1, 'authenticated', 'bool', 'omit', { doc: 'Authenticated indicates that the token was associated with a known user.' }),
    f(2, 'user', UserInfo, 'omit', { doc: 'User is the UserInfo associated with the provided token.' }),
    f(4, 'audiences', 'string', 'slice omit', { listType: 'atomic', doc: "Audiences are audience identifiers chosen by the authenticator that are compatible with both the TokenReview and token. An identifier is any identifier in the intersection of the TokenReviewSpec audiences and the token's audiences. A client of the TokenReview API that sets the spec.audiences field should validate that a compatible audience identifier is returned in the status.audiences field to ensure that the TokenReview server is audience aware. If a TokenReview returns an empty status.audience field where status.authenticated is \"true\", the token is valid against the audience of the Kubernetes API server." }),
    f(3, 'error', 'string', 'omit', { doc: "Error indicates that the token couldn't be checked" }),
  ],
  { ...o, doc: 'TokenReviewStatus is the result of the token authentication request.' },
);

export const TokenReview = kindStruct(
  'TokenReview',
  [
    metadataField(META_DOC),
    f(2, 'spec', TokenReviewSpec, '', { doc: 'Spec holds information about the request being evaluated' }),
    f(3, 'status', TokenReviewStatus, 'omit', { doc: 'Status is filled in by the server and indicates whether the request can be authenticated.' }),
  ],
  { ...o, doc: 'TokenReview attempts to authenticate a token to a known user. Note: TokenReview requests may be cached by the webhook token authenticator plugin in the kube-apiserver.' },
);

const SelfSubjectReviewStatus = struct('SelfSubjectReviewStatus', [
  f(1, 'userInfo', UserInfo, 'omit', { doc: 'User attributes of the user making this request.' }),
], {
  ...o,
  doc: 'SelfSubjectReviewStatus is filled by the kube-apiserver and sent back to a user.',
});

export const SelfSubjectReview = kindStruct(
  'SelfSubjectReview',
  [metadataField(META_DOC), f(2, 'status', SelfSubjectReviewStatus, 'omit', { doc: 'Status is filled in by the server with the user attributes.' })],
  {
    ...o,
    doc: 'SelfSubjectReview contains the user information that the kube-apiserver has about the user making this request. When using impersonation, users will receive the user info of the user being impersonated.  If impersonation or request header authentication is used, any extra keys will have their case ignored and returned as lowercase.',
  },
);

// kube-aggregator's built-in priority of authentication.k8s.io/v1.
const group = { group: 'authentication.k8s.io', version: 'v1', groupPriorityMinimum: 17700, namespaced: false };

export const tokenReviewKind = createOnlyKind({ ...group, resource: 'tokenreviews', kind: 'TokenReview', object: TokenReview });
export const selfSubjectReviewKind = createOnlyKind({ ...group, resource: 'selfsubjectreviews', kind: 'SelfSubjectReview', object: SelfSubjectReview });

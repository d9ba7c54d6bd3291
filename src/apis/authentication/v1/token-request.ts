// authentication.k8s.io/v1 TokenRequest: the body of a ServiceAccount's `token` subresource. Its Go type
// (key order of the response, typed decoding of the request), the v1 defaulting (SetDefaults_TokenRequestSpec)
// and ValidateTokenRequest (pkg/apis/authentication/validation).
import { field as f, kindStruct, struct } from '../../../api/go-struct.js';
import { invalid, type FieldError } from '../../../api/field-error.js';
import type { JSONObject } from '../../../util/json.js';
import { isObject } from '../../../util/json.js';
import { metadataField } from '../../meta/v1/object-meta.js';

const AUTHENTICATION_V1 = 'io.k8s.api.authentication.v1';

export const TOKEN_REQUEST_GROUP = 'authentication.k8s.io';
export const TOKEN_REQUEST_VERSION = 'v1';
export const TOKEN_REQUEST_KIND = 'TokenRequest';

const BoundObjectReference = struct(
  'BoundObjectReference',
  [
    f(1, 'kind', 'string', 'omit', { doc: "Kind of the referent. Valid kinds are 'Pod' and 'Secret'." }),
    f(2, 'apiVersion', 'string', 'omit', { go: 'APIVersion', doc: 'API version of the referent.' }),
    f(3, 'name', 'string', 'omit', { doc: 'Name of the referent.' }),
    f(4, 'uid', 'string', 'omit', { go: 'UID', named: 'types.UID', doc: 'UID of the referent.' }),
  ],
  { openapi: AUTHENTICATION_V1, doc: 'BoundObjectReference is a reference to an object that a token is bound to.' },
);

const TokenRequestSpec = struct(
  'TokenRequestSpec',
  [
    f(1, 'audiences', 'string', 'slice', {
      listType: 'atomic',
      doc: 'Audiences are the intendend audiences of the token. A recipient of a token must identify themself with an identifier in the list of audiences of the token, and otherwise should reject the token. A token issued for multiple audiences may be used to authenticate against any of the audiences listed but implies a high degree of trust between the target audiences.',
    }),
    f(4, 'expirationSeconds', 'int64', 'ptr opt', {
      doc: "ExpirationSeconds is the requested duration of validity of the request. The token issuer may return a token with a different validity duration so a client needs to check the 'expiration' field in a response.",
    }),
    f(3, 'boundObjectRef', BoundObjectReference, 'ptr opt', {
      doc: "BoundObjectRef is a reference to an object that the token will be bound to. The token will only be valid for as long as the bound object exists. NOTE: The API server's TokenReview endpoint will validate the BoundObjectRef, but other audiences may not. Keep ExpirationSeconds small if you want prompt revocation.",
    }),
  ],
  { openapi: AUTHENTICATION_V1, doc: 'TokenRequestSpec contains client provided parameters of a token request.' },
);

const TokenRequestStatus = struct(
  'TokenRequestStatus',
  [
    f(1, 'token', 'string', '', { doc: 'Token is the opaque bearer token.' }),
    f(2, 'expirationTimestamp', 'time', '', { doc: 'ExpirationTimestamp is the time of expiration of the returned token.' }),
  ],
  { openapi: AUTHENTICATION_V1, doc: 'TokenRequestStatus is the result of a token request.' },
);

export const TokenRequest = kindStruct(
  'TokenRequest',
  [
    metadataField("Standard object's metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#metadata"),
    f(2, 'spec', TokenRequestSpec, '', { doc: 'Spec holds information about the request being evaluated' }),
    f(3, 'status', TokenRequestStatus, 'omit', { doc: 'Status is filled in by the server and indicates whether the token can be authenticated.' }),
  ],
  { openapi: AUTHENTICATION_V1, doc: 'TokenRequest requests a token for a given service account.' },
);

/** SetDefaults_TokenRequestSpec: a request without expirationSeconds asks for an hour. */
export const DEFAULT_EXPIRATION_SECONDS = 60 * 60;

/** validation.MinTokenAgeSec */
const MIN_TOKEN_AGE_SECONDS = 10 * 60;
const MAX_TOKEN_AGE_SECONDS = 2 ** 32;

/**
 * The spec of a decoded request, defaulted as the v1 defaulter does (a null expirationSeconds is absent). An
 * int64 beyond 2^53 is a bigint (util/json-int64), which validation refuses as too long.
 */
export function tokenRequestSpec(obj: JSONObject): { audiences: string[]; expirationSeconds: number | bigint; boundObjectRef?: JSONObject } {
  const spec = isObject(obj['spec']) ? obj['spec'] : {};
  const audiences = Array.isArray(spec['audiences']) ? spec['audiences'].map(String) : [];
  const v = spec['expirationSeconds'];
  const exp = typeof v === 'number' || typeof v === 'bigint' ? v : DEFAULT_EXPIRATION_SECONDS;
  const ref = isObject(spec['boundObjectRef']) ? spec['boundObjectRef'] : undefined;
  return ref ? { audiences, expirationSeconds: exp, boundObjectRef: ref } : { audiences, expirationSeconds: exp };
}

/** ValidateTokenRequest */
export function validateTokenRequest(expirationSeconds: number | bigint): FieldError[] {
  const errs: FieldError[] = [];
  if (expirationSeconds < MIN_TOKEN_AGE_SECONDS) errs.push(invalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration less than 10 minutes'));
  if (expirationSeconds > MAX_TOKEN_AGE_SECONDS) errs.push(invalid('spec.expirationSeconds', expirationSeconds, 'may not specify a duration larger than 2^32 seconds'));
  return errs;
}

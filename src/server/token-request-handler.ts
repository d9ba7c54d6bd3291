// POST /api/v1/namespaces/<ns>/serviceaccounts/<name>/token: the TokenRequest subresource (kube's TokenREST,
// pkg/registry/core/serviceaccount/storage/token.go, behind the generic create handler). The body is an
// authentication.k8s.io/v1 TokenRequest; the answer is that request, defaulted, with a signed token in its
// status, 201. Nothing is stored.
import * as S from '../api/status.js';
import { invalid as invalidField } from '../api/field-error.js';
import { goDecodeInto } from '../api/go-decode.js';
import type { GenericStore } from '../registry/store.js';
import type { Admission, AdmissionAttributes } from '../registry/admission.js';
import { metaOf } from '../registry/store.js';
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';
import { typedOrder } from '../registry/typed-order.js';
import { cannotBeHandledAs, reportStrictDecoding } from '../schema/unknown-fields.js';
import { JSONSchemaProps } from '../apis/apiextensions/json-schema-props.js';
import {
  TOKEN_REQUEST_GROUP,
  TOKEN_REQUEST_KIND,
  TOKEN_REQUEST_VERSION,
  TokenRequest,
  tokenRequestSpec,
  validateTokenRequest,
} from '../apis/authentication/v1/token-request.js';
import { issueToken, type ServiceAccountTokenConfig, type TokenSubject } from '../auth/service-account-token.js';
import { nonIntegerNumberLiterals } from '../util/json-number-literals.js';
import { decodeBody, isJsonBody, type StrictDecoding } from './negotiation.js';
import { typedOpaquePaths } from './duplicate-fields.js';
import { readBody, writeObject } from './http.js';
import { negotiate, writeQuery } from './resource-handler.js';
import type { RequestContext } from './context.js';

const API_VERSION = `${TOKEN_REQUEST_GROUP}/${TOKEN_REQUEST_VERSION}`;
const canonicalize = typedOrder(TokenRequest);

export interface TokenRequestOptions {
  config: ServiceAccountTokenConfig;
  /** Secrets, which a token may be bound to. */
  secrets: GenericStore;
  /** The server's admission chain, which sees the request as a create of serviceaccounts/token. */
  admission: Admission;
  /** The clock (ms since the epoch); tests move it. */
  now?: () => number;
}

/** rest.WipeObjectMetaSystemFields: what a client may not set on the request's metadata. */
const SYSTEM_FIELDS = ['creationTimestamp', 'uid', 'deletionTimestamp', 'deletionGracePeriodSeconds', 'selfLink'];

/** Go's RFC 3339 form of a metav1.Time: whole seconds, UTC. */
const rfc3339 = (ms: number): string => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

export function tokenRequestHandler(opts: TokenRequestOptions): (r: RequestContext, serviceAccounts: GenericStore) => Promise<void> {
  return async (r, serviceAccounts) => {
    const neg = negotiate(r, 'object');
    const wq = writeQuery(r, 'CreateOptions');
    const namespace = r.info.namespace;
    const name = r.info.name;
    const warnings: string[] = [];
    const req = await decodeTokenRequest(r, wq.fieldValidation, warnings);

    // The create handler: system fields wiped, the namespace the request's (or a 400 when another).
    const meta = isObject(req['metadata']) ? req['metadata'] : {};
    for (const k of SYSTEM_FIELDS) delete meta[k];
    for (const k of Object.keys(meta)) if (meta[k] === null) delete meta[k];
    if (typeof meta['namespace'] === 'string' && meta['namespace'] !== '' && meta['namespace'] !== namespace) {
      throw S.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    meta['namespace'] = namespace;
    // Mutating admission, before TokenREST.Create (NamespaceLifecycle: the namespace exists, is not terminating).
    const attrs: AdmissionAttributes = { operation: 'CREATE', resource: serviceAccounts.type.served, subresource: 'token', namespace, name, object: req, dryRun: wq.dryRun, user: r.user };
    await opts.admission.admit(attrs);

    if (typeof meta['name'] === 'string' && meta['name'] !== '' && meta['name'] !== name) {
      throw S.invalid(TOKEN_REQUEST_GROUP, TOKEN_REQUEST_KIND, name, [invalidField('metadata.name', meta['name'], 'must match the service account name if specified')]);
    }

    const sa = await serviceAccounts.get(namespace, name);
    const saMeta = metaOf(sa);
    const spec = tokenRequestSpec(req);
    if (spec.audiences.length === 0) spec.audiences = [...opts.config.apiAudiences];
    meta['name'] = name;
    const nowMs = (opts.now ?? Date.now)();
    meta['creationTimestamp'] = rfc3339(nowMs);

    const errs = validateTokenRequest(spec.expirationSeconds);
    if (errs.length > 0) throw S.invalid(TOKEN_REQUEST_GROUP, TOKEN_REQUEST_KIND, '', errs);
    // Within [600, 2^32] now: a plain number.
    let expirationSeconds = Number(spec.expirationSeconds);
    // createValidation: validating admission, on a copy of the request as defaulted.
    await opts.admission.validate({ ...attrs, object: structuredClone(req) });

    const subject: TokenSubject = { namespace, serviceAccount: { name, uid: String(saMeta.uid ?? '') } };
    if (spec.boundObjectRef) subject.secret = await boundSecret(spec.boundObjectRef, namespace, opts.secrets);

    const max = opts.config.maxExpirationSeconds;
    if (max > 0 && expirationSeconds > max) {
      warnings.push(`requested expiration of ${expirationSeconds} seconds shortened to ${max} seconds`);
      expirationSeconds = max;
    }
    // A first start's key is made when first needed, or may still be being made.
    await opts.config.whenReady?.();
    const token = issueToken(opts.config, subject, spec.audiences, expirationSeconds, nowMs);

    const out = canonicalize({
      kind: TOKEN_REQUEST_KIND,
      apiVersion: API_VERSION,
      metadata: meta,
      spec: { audiences: spec.audiences, expirationSeconds, boundObjectRef: spec.boundObjectRef ?? null },
      status: { token, expirationTimestamp: rfc3339(nowMs + expirationSeconds * 1000) },
    });
    for (const w of warnings) r.warn(w);
    writeObject(r.res, 201, out, neg);
  };
}

/** The request body as the create handler decodes it into authenticationv1.TokenRequest. */
async function decodeTokenRequest(r: RequestContext, fieldValidation: 'Ignore' | 'Warn' | 'Strict', warnings: string[]): Promise<JSONObject> {
  const body = await readBody(r.req);
  const contentType = r.req.headers['content-type'];
  const strict: StrictDecoding | undefined = fieldValidation === 'Ignore' ? undefined : { errors: [], opaque: typedOpaquePaths(TokenRequest) };
  const decoded = decodeBody(contentType, body, { apiVersion: API_VERSION, kind: TOKEN_REQUEST_KIND }, strict);
  if (decoded instanceof S.StatusError) throw decoded;
  if (!isObject(decoded)) throw S.badRequest(`Object 'Kind' is missing in '${body.toString('utf8')}'`);
  // The typed decoder defaults a missing kind and apiVersion from the endpoint.
  if (typeof decoded['kind'] !== 'string' || decoded['kind'] === '') decoded['kind'] = TOKEN_REQUEST_KIND;
  if (typeof decoded['apiVersion'] !== 'string' || decoded['apiVersion'] === '') decoded['apiVersion'] = API_VERSION;
  if (decoded['apiVersion'] !== API_VERSION) {
    throw S.badRequest(`the API version in the data (${String(decoded['apiVersion'])}) does not match the expected API version (${API_VERSION})`);
  }
  if (decoded['kind'] !== TOKEN_REQUEST_KIND) throw S.badRequest(`no kind "${String(decoded['kind'])}" is registered for version "${API_VERSION}"`);
  const unknown: string[] = [];
  const jsonText = isJsonBody(contentType) ? body.toString('utf8') : undefined;
  const literals = jsonText === undefined ? undefined : nonIntegerNumberLiterals(jsonText);
  const err = goDecodeInto(decoded, TokenRequest, { pkg: TOKEN_REQUEST_VERSION, jsonSchemaProps: JSONSchemaProps }, literals ? { unknownFields: unknown, numberLiterals: literals } : { unknownFields: unknown });
  if (err !== undefined) throw S.badRequest(cannotBeHandledAs(TOKEN_REQUEST_KIND, TOKEN_REQUEST_VERSION, TOKEN_REQUEST_KIND, err));
  reportStrictDecoding([...(strict?.errors ?? []), ...unknown], fieldValidation, warnings, TOKEN_REQUEST_KIND, TOKEN_REQUEST_VERSION);
  return decoded;
}

/** The parts of an apiVersion (schema.FromAPIVersionAndKind): "v1" is the core group. */
function groupOf(apiVersion: string): { group: string; version: string } {
  const i = apiVersion.indexOf('/');
  return i < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1) };
}

/**
 * The object a token is bound to: a Secret (read, its UID checked against the reference's). Pods and Nodes,
 * which kube also binds to, are not served here, so they are not found, as a missing one is on kube.
 */
async function boundSecret(ref: JSONObject, namespace: string, secrets: GenericStore): Promise<{ name: string; uid: string }> {
  const kind = typeof ref['kind'] === 'string' ? ref['kind'] : '';
  const apiVersion = typeof ref['apiVersion'] === 'string' ? ref['apiVersion'] : '';
  const refName = typeof ref['name'] === 'string' ? ref['name'] : '';
  const refUid = typeof ref['uid'] === 'string' ? ref['uid'] : '';
  const { group, version } = groupOf(apiVersion);
  if (group === '' && kind === 'Pod') throw S.notFound({ group: '', resource: 'pods' }, refName);
  if (group === '' && kind === 'Node') throw S.notFound({ group: '', resource: 'nodes' }, refName);
  if (group !== '' || kind !== 'Secret') throw S.badRequest(`cannot bind token to object of type ${gvkString(group, version, kind)}`);
  const secret = await secrets.get(namespace, refName);
  const uid = String(metaOf(secret).uid ?? '');
  if (refUid !== '' && refUid !== uid) {
    throw S.conflict({ group, resource: kind }, refName, `the UID in the bound object reference (${refUid}) does not match the UID in record. The object might have been deleted and then recreated`);
  }
  return { name: refName, uid };
}

/** schema.GroupVersionKind.String(): "group/version, Kind=kind". */
const gvkString = (group: string, version: string, kind: string): string => `${group}/${version}, Kind=${kind}`;

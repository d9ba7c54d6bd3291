// AdmissionReview requests and responses (k8s.io/apiserver pkg/admission/plugin/webhook/request): the first of a
// webhook's admissionReviewVersions we speak (v1, v1beta1), the request's fields as kube fills them, and the
// checks a response must pass before it is believed.
import { randomUUID } from 'node:crypto';
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';
import type { AdmissionAttributes } from '../registry/admission.js';
import type { GVR } from './webhook-rules.js';

export const REVIEW_VERSIONS = ['v1', 'v1beta1'] as const;
export type ReviewVersion = (typeof REVIEW_VERSIONS)[number];

/** CreateAdmissionObjects' choice, or undefined (kube's "does not accept known AdmissionReview versions"). */
export function reviewVersionFor(hook: JSONObject): ReviewVersion | undefined {
  const versions = Array.isArray(hook['admissionReviewVersions']) ? hook['admissionReviewVersions'] : [];
  return versions.find((v): v is ReviewVersion => (REVIEW_VERSIONS as readonly unknown[]).includes(v));
}

/** The resource and kind the webhook is called for (the request's, or an equivalent version's). */
export interface Invocation {
  resource: GVR;
  kind: { group: string; version: string; kind: string };
  object?: JSONObject;
  oldObject?: JSONObject;
}

const OPTIONS_KIND = { CREATE: 'CreateOptions', UPDATE: 'UpdateOptions', DELETE: 'DeleteOptions' } as const;

/** attr.GetOperationOptions() as it reaches the webhook: the request's options at meta.k8s.io/v1. */
function operationOptions(a: AdmissionAttributes): JSONObject {
  const base: JSONObject = { kind: OPTIONS_KIND[a.operation], apiVersion: 'meta.k8s.io/v1' };
  if (a.operation === 'DELETE') return { ...base, ...(a.options as JSONObject | undefined) };
  return a.dryRun ? { ...base, dryRun: ['All'] } : base;
}

/**
 * The request's own kind: the endpoint's. (kube's /scale requests are autoscaling/v1 Scale; the store admits the
 * scaled object itself there, so that is what is named and sent.)
 */
export function requestKind(a: AdmissionAttributes): { group: string; version: string; kind: string } {
  return { group: a.resource.group, version: a.resource.version, kind: a.resource.kind };
}

/** The AdmissionRequest (the `request` of the review, and of matchConditions' CEL). */
export function admissionRequest(uid: string, a: AdmissionAttributes, inv: Invocation): JSONObject {
  const u = a.user;
  const userInfo: JSONObject = {};
  if (u?.name) userInfo['username'] = u.name;
  if (u?.uid) userInfo['uid'] = u.uid;
  if (u?.groups?.length) userInfo['groups'] = [...u.groups];
  if (u?.extra && Object.keys(u.extra).length) userInfo['extra'] = structuredClone(u.extra);
  const req: JSONObject = {
    uid,
    kind: { ...inv.kind },
    resource: { ...inv.resource },
  };
  if (a.subresource) req['subResource'] = a.subresource;
  req['requestKind'] = requestKind(a);
  req['requestResource'] = { group: a.resource.group, version: a.resource.version, resource: a.resource.resource };
  if (a.subresource) req['requestSubResource'] = a.subresource;
  if (a.name) req['name'] = a.name;
  // A namespace's own requests carry its name as their namespace (kube's request info), but for its creation.
  const namespace = a.resource.group === '' && a.resource.resource === 'namespaces' && a.operation !== 'CREATE' ? a.name : a.namespace;
  if (namespace) req['namespace'] = namespace;
  req['operation'] = a.operation;
  req['userInfo'] = userInfo;
  req['object'] = inv.object ?? null;
  req['oldObject'] = inv.oldObject ?? null;
  req['dryRun'] = a.dryRun;
  req['options'] = operationOptions(a);
  return req;
}

/**
 * The `request` of matchConditions' CEL: a typed AdmissionRequest in kube, whose unset strings, lists and maps
 * read as empty rather than missing; object and oldObject are variables of their own.
 */
export function celAdmissionRequest(a: AdmissionAttributes, inv: Invocation): JSONObject {
  const req = admissionRequest('', a, inv);
  const { object: _o, oldObject: _old, ...rest } = req;
  const userInfo = { username: '', uid: '', groups: [], extra: {}, ...(req['userInfo'] as JSONObject) };
  return { name: '', namespace: '', subResource: '', requestSubResource: '', ...rest, userInfo };
}

export function admissionReview(version: ReviewVersion, a: AdmissionAttributes, inv: Invocation): { uid: string; review: JSONObject } {
  const uid = randomUUID();
  return { uid, review: { kind: 'AdmissionReview', apiVersion: `admission.k8s.io/${version}`, request: admissionRequest(uid, a, inv) } };
}

/** What a believed response says. */
export interface AdmissionResponse {
  allowed: boolean;
  result?: JSONObject;
  /** The decoded JSONPatch operations (mutating webhooks). */
  patch?: unknown[];
  warnings: string[];
  auditAnnotations: Record<string, string>;
}

/**
 * VerifyAdmissionResponse: the decoded answer, or the error text kube wraps as "received invalid webhook
 * response: ...". v1 answers must echo the request's uid and be an admission.k8s.io/v1 AdmissionReview; v1beta1
 * ones are taken as they come (a patch is then always a JSONPatch).
 */
export function verifyAdmissionResponse(version: ReviewVersion, uid: string, mutating: boolean, body: unknown): AdmissionResponse | { error: string } {
  if (!isObject(body) || typeof body['kind'] !== 'string' || body['kind'] === '') return { error: `Object 'Kind' is missing in '${JSON.stringify(body)}'` };
  const r = body['response'];
  if (!isObject(r)) return { error: 'webhook response was absent' };
  let patchText: string | undefined;
  if (version === 'v1') {
    const got = r['uid'] ?? '';
    if (got !== uid) return { error: `expected response.uid="${uid}", got "${String(got)}"` };
    const av = String(body['apiVersion'] ?? '');
    const slash = av.lastIndexOf('/');
    const gv = slash < 0 ? { group: '', version: av } : { group: av.slice(0, slash), version: av.slice(slash + 1) };
    if (body['kind'] !== 'AdmissionReview' || gv.group !== 'admission.k8s.io' || gv.version !== 'v1') {
      return { error: `expected webhook response of admission.k8s.io/v1, Kind=AdmissionReview, got ${gv.group}/${gv.version}, Kind=${String(body['kind'])}` };
    }
    const patch = typeof r['patch'] === 'string' ? r['patch'] : '';
    const patchType = r['patchType'];
    if (mutating) {
      if (patch.length > 0 && (patchType === undefined || patchType === null)) return { error: 'webhook returned response.patch but not response.patchType' };
      if (patch.length === 0 && patchType !== undefined && patchType !== null) return { error: 'webhook returned response.patchType but not response.patch' };
      if (patchType === '') return { error: 'webhook returned invalid response.patchType of ""' };
      if (patch.length > 0 && patchType !== 'JSONPatch') return { error: `unsupported patch type "${String(patchType)}"` };
      patchText = patch || undefined;
    } else {
      if (patch.length > 0) return { error: 'validating webhook may not return response.patch' };
      if (patchType !== undefined && patchType !== null) return { error: 'validating webhook may not return response.patchType' };
    }
  } else if (mutating && typeof r['patch'] === 'string' && r['patch'].length > 0) {
    patchText = r['patch'];
  }
  const out: AdmissionResponse = {
    allowed: r['allowed'] === true,
    warnings: Array.isArray(r['warnings']) ? r['warnings'].filter((w): w is string => typeof w === 'string') : [],
    auditAnnotations: isObject(r['auditAnnotations']) ? (Object.fromEntries(Object.entries(r['auditAnnotations']).map(([k, v]) => [k, String(v)])) as Record<string, string>) : {},
  };
  if (isObject(r['status'])) out.result = r['status'];
  if (patchText !== undefined) {
    let ops: unknown;
    try {
      ops = JSON.parse(Buffer.from(patchText, 'base64').toString('utf8'));
    } catch (e) {
      return { error: `json: cannot decode patch: ${(e as Error).message}` };
    }
    if (!Array.isArray(ops)) return { error: 'json: cannot unmarshal object into Go value of type jsonpatch.Patch' };
    out.patch = ops;
  }
  return out;
}

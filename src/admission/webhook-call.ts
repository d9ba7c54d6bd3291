// One admission webhook call (the callHook / callAttrMutatingHook of k8s.io/apiserver's validating and mutating
// dispatchers): the dry-run check against sideEffects, the review POSTed over the client conversion webhooks use,
// the response verified, warnings recorded, a denial turned into kube's Status. Outcomes are values: a call
// error is subject to the webhook's failurePolicy, a rejection or any other error is not.
import { addCurrentAuditAnnotation } from '../audit/record.js';
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';
import * as S from '../api/status.js';
import type { AdmissionAttributes } from '../registry/admission.js';
import type { WebhookClientConfig } from '../api/webhook.js';
import type { ServiceResolver } from '../conversion/types.js';
import { postReview, webhookTarget } from '../conversion/webhook-client.js';
import { admissionReview, reviewVersionFor, verifyAdmissionResponse, type AdmissionResponse, type Invocation } from './webhook-review.js';

export type CallOutcome =
  | { kind: 'ok'; response: AdmissionResponse }
  /** webhookutil.ErrCallingWebhook: the failure policy decides. code: its Status's (400 for a bad configuration, else 503). */
  | { kind: 'callError'; message: string; code: number }
  /** ErrWebhookRejection, or an error no policy softens (dry run unsupported). */
  | { kind: 'refused'; error: S.StatusError };

const callError = (name: string, reason: string, code = 503): CallOutcome => ({ kind: 'callError', message: `failed calling webhook "${name}": ${reason}`, code });

/** webhookerrors.ToStatusErr: the webhook's Status, at least a 400 Failure, its message prefixed. */
export function toStatusErr(name: string, result: JSONObject | undefined): S.StatusError {
  const r = result ?? {};
  const deniedBy = `admission webhook "${name}" denied the request`;
  const message = typeof r['message'] === 'string' && r['message'] ? `${deniedBy}: ${r['message']}` : typeof r['reason'] === 'string' && r['reason'] ? `${deniedBy}: ${r['reason']}` : `${deniedBy} without explanation`;
  const code = typeof r['code'] === 'number' && r['code'] >= 400 ? r['code'] : 400;
  const status = typeof r['status'] === 'string' && r['status'] !== '' && r['status'] !== 'Success' ? r['status'] : 'Failure';
  const s: S.Status = { kind: 'Status', apiVersion: 'v1', metadata: isObject(r['metadata']) ? r['metadata'] : {}, status, message } as S.Status;
  if (typeof r['reason'] === 'string' && r['reason']) s.reason = r['reason'];
  if (isObject(r['details'])) s.details = r['details'] as S.StatusDetails;
  s.code = code;
  return new S.StatusError(s);
}

const NO_SIDE_EFFECTS = ['None', 'NoneOnDryRun'];

export async function callWebhook(hook: JSONObject, a: AdmissionAttributes, inv: Invocation, mutating: boolean, resolver: ServiceResolver): Promise<CallOutcome> {
  const name = String(hook['name'] ?? '');
  if (a.dryRun) {
    const se = hook['sideEffects'];
    if (se === undefined || se === null) return callError(name, 'Webhook SideEffects is nil', 400);
    if (!NO_SIDE_EFFECTS.includes(String(se))) return { kind: 'refused', error: S.badRequest(`admission webhook "${name}" does not support dry run`) };
  }
  const version = reviewVersionFor(hook);
  if (!version) return callError(name, 'could not create admission objects: webhook does not accept known AdmissionReview versions (v1, v1beta1)', 400);
  const timeoutSeconds = typeof hook['timeoutSeconds'] === 'number' ? hook['timeoutSeconds'] : 10;
  let target;
  try {
    target = webhookTarget((hook['clientConfig'] ?? {}) as WebhookClientConfig, resolver, timeoutSeconds);
  } catch (e) {
    return callError(name, `could not get REST client: ${(e as Error).message}`, 400);
  }
  const { uid, review } = admissionReview(version, a, inv);
  let body: unknown;
  try {
    body = await postReview(target, review, { timeoutMs: timeoutSeconds * 1000, contextDeadline: true });
  } catch (e) {
    return callError(name, `failed to call webhook: ${(e as Error).message}`);
  }
  const response = verifyAdmissionResponse(version, uid, mutating, body);
  if ('error' in response) return callError(name, `received invalid webhook response: ${response.error}`);
  a.warnings?.push(...response.warnings);
  // kube prefixes a webhook's audit annotations with the webhook's name.
  for (const [k, v] of Object.entries(response.auditAnnotations)) addCurrentAuditAnnotation(`${name}/${k}`, v);
  if (!response.allowed) return { kind: 'refused', error: toStatusErr(name, response.result) };
  return { kind: 'ok', response };
}

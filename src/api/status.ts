// Kubernetes Status errors as values. Every failure a handler can produce is one of these;
// the server writes it as a meta/v1 Status with its code.
import { type FieldError, aggregate, errorBody } from './field-error.js';

export interface StatusCause {
  reason?: string;
  message?: string;
  field?: string;
}

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: StatusCause[];
  retryAfterSeconds?: number;
}

export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  metadata: Record<string, unknown>;
  status: 'Failure' | 'Success';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code: number;
}

/** A Status carried as a thrown/returned error. */
export class StatusError extends Error {
  constructor(readonly status: Status) {
    super(status.message ?? status.reason ?? 'error');
  }
  get code(): number {
    return this.status.code;
  }
  get reason(): string | undefined {
    return this.status.reason;
  }
}

export function isStatusError(e: unknown): e is StatusError {
  return e instanceof StatusError;
}

function failure(code: number, reason: string, message: string, details?: StatusDetails): StatusError {
  // Field order as metav1.Status encodes: ..., reason, details, code; empty details members left out.
  const s = { kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, reason } as Status;
  if (details) s.details = compact(details);
  s.code = code;
  return new StatusError(s);
}

function compact(d: StatusDetails): StatusDetails {
  const out: StatusDetails = {};
  if (d.name) out.name = d.name;
  if (d.group) out.group = d.group;
  if (d.kind) out.kind = d.kind;
  if (d.uid) out.uid = d.uid;
  if (d.causes?.length) out.causes = d.causes;
  if (d.retryAfterSeconds) out.retryAfterSeconds = d.retryAfterSeconds;
  return out;
}

/** A group-qualified resource, e.g. crontabs.stable.example.com; core resources have an empty group. */
export interface GroupResource {
  group: string;
  resource: string;
}

export const grString = (gr: GroupResource): string => (gr.group ? `${gr.resource}.${gr.group}` : gr.resource);

export const notFound = (gr: GroupResource, name: string): StatusError =>
  failure(404, 'NotFound', `${grString(gr)} "${name}" not found`, { name, group: gr.group || undefined, kind: gr.resource });

export const alreadyExists = (gr: GroupResource, name: string): StatusError =>
  failure(409, 'AlreadyExists', `${grString(gr)} "${name}" already exists`, { name, group: gr.group || undefined, kind: gr.resource });

export const conflict = (gr: GroupResource, name: string, why: string): StatusError =>
  failure(409, 'Conflict', `Operation cannot be fulfilled on ${grString(gr)} "${name}": ${why}`, {
    name,
    group: gr.group || undefined,
    kind: gr.resource,
  });

export const OPTIMISTIC_LOCK_MESSAGE = 'the object has been modified; please apply your changes to the latest version and try again';

/** 422 Invalid, kind qualified by group as in `CronTab.stable.example.com "x" is invalid: ...`. */
export function invalid(group: string, kind: string, name: string, errs: readonly FieldError[]): StatusError {
  const qualified = group ? `${kind}.${group}` : kind;
  return failure(422, 'Invalid', `${qualified} "${name}" is invalid: ${aggregate(errs)}`, {
    name,
    group: group || undefined,
    kind,
    // StatusCause.field is omitempty: a root path error has none.
    causes: errs.map((e) => ({ reason: e.type, message: errorBody(e), field: e.root ? undefined : e.field })),
  });
}

export const badRequest = (message: string): StatusError => failure(400, 'BadRequest', message);

export const forbidden = (gr: GroupResource, name: string, why: string, causes?: StatusCause[]): StatusError => {
  const subject = name ? `${grString(gr)} "${name}"` : grString(gr);
  return failure(403, 'Forbidden', `${subject} is forbidden: ${why}`, {
    name: name || undefined,
    group: gr.group || undefined,
    kind: gr.resource,
    causes,
  });
};

export const unauthorized = (message = 'Unauthorized'): StatusError => failure(401, 'Unauthorized', message);

/**
 * A route that does not exist for the method: go-restful's 405, which kube's service error handler turns
 * into NewGenericServerResponse(405, ...): its fixed message and empty (present) details.
 */
export const methodNotAllowed = (): StatusError =>
  failure(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});

export const unsupportedMediaType = (accepted: readonly string[]): StatusError =>
  failure(415, 'UnsupportedMediaType', `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`);

export const notAcceptable = (accepted: readonly string[]): StatusError =>
  failure(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`);

export const gone = (message: string): StatusError => failure(410, 'Expired', message);

export const requestEntityTooLarge = (message: string): StatusError => failure(413, 'RequestEntityTooLarge', message);

/** What ErrorToAPIStatus makes of an error that is not a Status (a converter's, say): a 500 with its text and no reason. */
export const plainError = (message: string): StatusError =>
  new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message, code: 500 });

export const internal = (message: string): StatusError =>
  failure(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] });

export const timeout = (message: string): StatusError => failure(504, 'Timeout', message);

/** apierrors.NewTimeoutError: "Timeout: " before the message, and empty details (retryAfterSeconds 0). */
export const timeoutError = (message: string): StatusError => failure(504, 'Timeout', `Timeout: ${message}`, {});

export const serviceUnavailable = (message: string): StatusError => failure(503, 'ServiceUnavailable', message);

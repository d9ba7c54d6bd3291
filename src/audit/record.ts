// What later steps of a request add to its audit event: the request body as read, annotations (the
// authorizer's decision, admission's auditAnnotations). Kept per request, keyed by the request itself, so
// code that holds only the IncomingMessage (readBody) can add to it; nothing is kept when audit is off.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface AuditRecord {
  /** Whether the level asks for the request body (Request or RequestResponse). */
  wantsRequest: boolean;
  requestBody?: Buffer;
  /** The decoded request object, when the handler decoded one (a protobuf body is logged as JSON, as kube does). */
  requestObject?: unknown;
  /** Whether the level asks for the response object (RequestResponse). */
  wantsResponse: boolean;
  responseObject?: unknown;
  annotations: Record<string, string>;
}

const records = new WeakMap<IncomingMessage, AuditRecord>();
const responses = new WeakMap<ServerResponse, AuditRecord>();

export function attachAuditRecord(req: IncomingMessage, res: ServerResponse, r: AuditRecord): void {
  records.set(req, r);
  responses.set(res, r);
}

/** Adds an annotation to the request's audit event (kube's audit.AddAuditAnnotation); the first value of a key stays. */
export function addAuditAnnotation(req: IncomingMessage, key: string, value: string): void {
  const r = records.get(req);
  if (r && !(key in r.annotations)) r.annotations[key] = value;
}

/** The body as the handler read it, for Request-level events (kube's LogRequestObject / LogRequestPatch). */
export function noteRequestBody(req: IncomingMessage, body: Buffer): void {
  const r = records.get(req);
  if (r?.wantsRequest) r.requestBody = body;
}

/** The request object as decoded (kube's LogRequestObject). */
export function noteRequestObject(req: IncomingMessage, obj: unknown): void {
  const r = records.get(req);
  if (r?.wantsRequest) r.requestObject = obj;
}

/** The object a response carries, whatever its encoding (kube's LogResponseObject). */
export function noteResponseObject(res: ServerResponse, obj: unknown): void {
  const r = responses.get(res);
  if (r?.wantsResponse) r.responseObject = obj;
}

// Admission runs deep below the handler, with no request in hand: the audited request's record is found
// through the async context instead (kube's request context). Made on first use, so a server that audits
// nothing never turns async context tracking on.
let current: AsyncLocalStorage<AuditRecord> | undefined;

/** Runs the rest of an audited request with its record as the current one. */
export function runAudited<T>(r: AuditRecord, fn: () => T): T {
  return (current ??= new AsyncLocalStorage()).run(r, fn);
}

/** Adds an annotation to the audit event of the request being served, if it is audited (admission's auditAnnotations). */
export function addCurrentAuditAnnotation(key: string, value: string): void {
  const r = current?.getStore();
  if (r && !(key in r.annotations)) r.annotations[key] = value;
}

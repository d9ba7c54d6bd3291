// What later steps of a request add to its audit event: the request body as read, annotations (the
// authorizer's decision, admission's auditAnnotations). Kept per request, keyed by the request itself, so
// code that holds only the IncomingMessage (readBody) can add to it; nothing is kept when audit is off.
import type { IncomingMessage } from 'node:http';

export interface AuditRecord {
  /** Whether the level asks for the request body (Request or RequestResponse). */
  wantsRequest: boolean;
  requestBody?: Buffer;
  annotations: Record<string, string>;
}

const records = new WeakMap<IncomingMessage, AuditRecord>();

export const attachAuditRecord = (req: IncomingMessage, r: AuditRecord): void => void records.set(req, r);

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

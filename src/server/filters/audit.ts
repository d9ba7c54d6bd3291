// WithAudit and WithFailedAuthenticationAudit: each request the policy selects becomes audit.k8s.io/v1 Events,
// one per stage (RequestReceived; ResponseStarted for watches; ResponseComplete; Panic), handed to the log
// backends (the log, the webhook): a blocking-strict backend that cannot store RequestReceived fails the request. Behind authentication, as kube's chain has it, so the policy sees the
// authenticated user (not the impersonated one, which the event records beside it).
import { randomUUID } from 'node:crypto';
import type { TLSSocket } from 'node:tls';
import { StatusError } from '../../api/status.js';
import type { UserInfo } from '../../api/user.js';
import type { AuditBackend as EventBackend, AuditEvent } from '../../audit/backend.js';
import { attachAuditRecord, runAudited, type AuditRecord } from '../../audit/record.js';
import { evaluatePolicy, levelAtLeast, type AuditConfig, type Policy, type Stage } from '../../audit/policy.js';
import type { Filter, RequestContext } from '../context.js';
import { isLongRunning } from '../long-running.js';
import { responseHeader, setEarlyHeader } from '../response.js';

/** Where events go: a policy to select them and the backends (kube's union of the log and the webhook). */
export interface AuditBackend {
  policy: Policy;
  backend: EventBackend;
}

interface ResponseStatus {
  metadata: Record<string, never>;
  status?: string;
  message?: string;
  reason?: string;
  details?: unknown;
  code: number;
}

/** The per-request state the event is built from. */
interface Pending {
  ctx: RequestContext;
  config: AuditConfig;
  auditID: string;
  received: string;
  user?: UserInfo;
  record: AuditRecord;
  responseStatus?: ResponseStatus;
  responseBody?: Buffer[];
}

export function withAudit(backend: AuditBackend): Filter {
  return async (ctx, next) => {
    const config = evaluatePolicy(backend.policy, attributesOf(ctx, ctx.user));
    if (config.level === 'None') return next();
    const p = begin(ctx, config);
    const stored = emit(backend, p, 'RequestReceived');
    if (!(typeof stored === 'boolean' ? stored : await stored)) {
      // kube's responsewriters.InternalError, plain text as http.Error writes it.
      const msg = `Internal Server Error: ${JSON.stringify(ctx.req.url ?? '')}: failed to store audit event`.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      ctx.res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' }).end(msg + '\n');
      return;
    }
    const res = ctx.res;
    const longRunning = isLongRunning(ctx.info);
    // The response code (and for RequestResponse the body) as the handler writes it.
    const writeHead = res.writeHead;
    res.writeHead = function (this: typeof res, code: number, ...rest: unknown[]) {
      p.responseStatus ??= { metadata: {}, code };
      const r = (writeHead as (...a: unknown[]) => typeof res).call(this, code, ...rest);
      if (longRunning) emit(backend, p, 'ResponseStarted');
      return r;
    } as typeof res.writeHead;
    if (config.level === 'RequestResponse' && !longRunning) captureBody(p);
    let panicked = false;
    try {
      await runAudited(p.record, next);
    } catch (e) {
      p.responseStatus = statusOf(e);
      // Anything but a Status is a panic in kube's terms: logged at the Panic stage, and still answered by the recovery filter.
      if (!(e instanceof StatusError)) {
        panicked = true;
        emit(backend, p, 'Panic');
      }
      throw e;
    } finally {
      // kube's panic ends the request at the Panic stage: no ResponseComplete follows.
      if (!panicked) complete(backend, p, longRunning);
    }
  };
}

/** ResponseComplete once the response is done (a thrown Status is written by the outer filter first). */
function complete(backend: AuditBackend, p: Pending, longRunning: boolean): void {
  const res = p.ctx.res;
  // Nothing written at all: kube fakes a success (and a watch's ResponseStarted).
  if (!p.responseStatus && !res.headersSent) {
    p.responseStatus = { metadata: {}, status: 'Success', message: 'Connection closed early', code: 200 };
    if (longRunning) emit(backend, p, 'ResponseStarted');
  }
  p.responseStatus ??= { metadata: {}, code: res.statusCode };
  const done = (): void => void emit(backend, p, 'ResponseComplete');
  if (res.writableFinished || res.destroyed) done();
  else res.once('close', done);
}

/**
 * WithAuditInit, outermost in kube's chain whether or not anything is audited: every response says which audit ID
 * its request has (the client's own Audit-ID, else a new UUID).
 */
export const withAuditInit: Filter = (ctx, next) => {
  const given = ctx.req.headers['audit-id'];
  setEarlyHeader(ctx.res, 'Audit-Id', typeof given === 'string' && given !== '' ? given : randomUUID());
  return next();
};

/** Failed authentication, audited as kube's WithFailedAuthenticationAudit does: one ResponseStarted event with no user. */
export function withFailedAuthenticationAudit(backend: AuditBackend): Filter {
  return async (ctx, next) => {
    try {
      await next();
    } catch (e) {
      if (ctx.user === undefined && e instanceof StatusError && e.code === 401) {
        const config = evaluatePolicy(backend.policy, attributesOf(ctx, undefined));
        if (config.level !== 'None') {
          const p = begin(ctx, config);
          p.responseStatus = { metadata: {}, message: authMethods(ctx), code: 401 };
          emit(backend, p, 'ResponseStarted');
        }
      }
      throw e;
    }
  };
}

function begin(ctx: RequestContext, config: AuditConfig): Pending {
  // The ID withAuditInit gave the request (and the response's Audit-Id header).
  const set = responseHeader(ctx.res, 'audit-id');
  const auditID = typeof set === 'string' ? set : randomUUID();
  const record: AuditRecord = { wantsRequest: levelAtLeast(config.level, 'Request'), wantsResponse: config.level === 'RequestResponse', annotations: {} };
  attachAuditRecord(ctx.req, ctx.res, record);
  return { ctx, config, auditID, received: microTime(new Date()), user: ctx.user, record };
}

function captureBody(p: Pending): void {
  const res = p.ctx.res;
  const chunks: Buffer[] = (p.responseBody = []);
  const keep = (c: unknown): void => {
    if (typeof c === 'string') chunks.push(Buffer.from(c));
    else if (c instanceof Uint8Array) chunks.push(Buffer.from(c));
  };
  const write = res.write;
  const end = res.end;
  res.write = function (this: typeof res, chunk: unknown, ...rest: unknown[]) {
    keep(chunk);
    return (write as (...a: unknown[]) => boolean).call(this, chunk, ...rest);
  } as typeof res.write;
  res.end = function (this: typeof res, chunk?: unknown, ...rest: unknown[]) {
    if (typeof chunk !== 'function') keep(chunk);
    return (end as (...a: unknown[]) => typeof res).call(this, chunk, ...rest);
  } as typeof res.end;
}

function emit(backend: AuditBackend, p: Pending, stage: Stage): boolean | Promise<boolean> {
  if (p.config.omitStages.includes(stage)) return true;
  const { ctx, config } = p;
  const info = ctx.info;
  const level = config.level;
  const ev: Record<string, unknown> = {
    kind: 'Event',
    apiVersion: 'audit.k8s.io/v1',
    level,
    auditID: p.auditID,
    stage,
    requestURI: ctx.req.url ?? '',
    verb: info.verb,
    user: p.user ? userJSON(p.user) : {},
  };
  if (p.user && ctx.user && ctx.user !== p.user) ev.impersonatedUser = userJSON(ctx.user);
  ev.sourceIPs = sourceIPs(ctx);
  if (ctx.req.headers['user-agent']) ev.userAgent = ctx.req.headers['user-agent'];
  if (info.isResourceRequest) {
    const ref: Record<string, string> = {};
    if (info.resource) ref.resource = info.resource;
    if (info.namespace) ref.namespace = info.namespace;
    if (info.name) ref.name = info.name;
    if (info.apiGroup) ref.apiGroup = info.apiGroup;
    if (info.apiVersion) ref.apiVersion = info.apiVersion;
    if (info.subresource) ref.subresource = info.subresource;
    ev.objectRef = ref;
  }
  if (stage !== 'RequestReceived' && p.responseStatus) ev.responseStatus = p.responseStatus;
  if (levelAtLeast(level, 'Request')) {
    // The decoded object when the handler decoded one, else the body when it is JSON (a patch, DeleteOptions).
    const obj = p.record.requestObject ?? (p.record.requestBody?.length ? jsonOf(p.record.requestBody, ctx.req.headers['content-type']) : undefined);
    if (obj !== undefined) ev.requestObject = config.omitManagedFields ? withoutManagedFields(obj) : obj;
  }
  if (level === 'RequestResponse' && stage === 'ResponseComplete') {
    const obj = p.record.responseObject ?? (p.responseBody?.length ? jsonOf(Buffer.concat(p.responseBody), String(ctx.res.getHeader('content-type') ?? '')) : undefined);
    if (obj !== undefined) ev.responseObject = config.omitManagedFields ? withoutManagedFields(obj) : obj;
  }
  ev.requestReceivedTimestamp = p.received;
  ev.stageTimestamp = microTime(new Date());
  if (Object.keys(p.record.annotations).length) ev.annotations = { ...p.record.annotations };
  return backend.backend.processEvents([ev as AuditEvent]);
}

function attributesOf(ctx: RequestContext, user: UserInfo | undefined) {
  const i = ctx.info;
  return {
    user,
    verb: i.verb,
    isResourceRequest: i.isResourceRequest,
    path: i.path,
    apiGroup: i.apiGroup,
    namespace: i.namespace,
    resource: i.resource,
    subresource: i.subresource,
    name: i.name,
  };
}

const userJSON = (u: UserInfo): Record<string, unknown> => {
  const o: Record<string, unknown> = { username: u.name };
  if (u.uid) o.uid = u.uid;
  if (u.groups.length) o.groups = u.groups;
  if (u.extra && Object.keys(u.extra).length) o.extra = u.extra;
  return o;
};

/** utilnet.SourceIPs: X-Forwarded-For, then X-Real-Ip, then the peer, each once. */
function sourceIPs(ctx: RequestContext): string[] {
  const ips: string[] = [];
  const add = (ip: string | undefined): void => {
    const v = ip?.trim().replace(/^::ffff:/, '');
    if (v && !ips.includes(v)) ips.push(v);
  };
  const xff = ctx.req.headers['x-forwarded-for'];
  if (typeof xff === 'string') for (const ip of xff.split(',')) add(ip);
  const real = ctx.req.headers['x-real-ip'];
  if (typeof real === 'string') add(real);
  add(ctx.req.socket.remoteAddress);
  return ips;
}

/** The Status fields kube copies into responseStatus (LogResponseObject's bounded copy). */
function statusOf(e: unknown): ResponseStatus {
  if (!(e instanceof StatusError)) {
    return { metadata: {}, status: 'Failure', message: `APIServer panic'd: ${e instanceof Error ? e.message : String(e)}`, reason: 'InternalError', code: 500 };
  }
  const s = e.status;
  const out: ResponseStatus = { metadata: {}, status: s.status, message: s.message, reason: s.reason || undefined, code: s.code };
  if (s.details) out.details = s.details;
  return out;
}

function authMethods(ctx: RequestContext): string {
  const m: string[] = [];
  const auth = (ctx.req.headers.authorization ?? '').trim();
  if (/^basic\s/i.test(auth)) m.push('basic');
  const parts = auth.split(' ');
  if (parts.length > 1 && parts[0]!.toLowerCase() === 'bearer') m.push('bearer');
  if (ctx.query.get('access_token')?.trim()) m.push('access_token');
  const sock = ctx.req.socket as Partial<TLSSocket>;
  if (typeof sock.getPeerCertificate === 'function' && Object.keys(sock.getPeerCertificate()).length) m.push('x509');
  return m.length ? `Authentication failed, attempted: ${m.join(', ')}` : 'Authentication failed, no credentials provided';
}

function jsonOf(body: Buffer, contentType: string | undefined): unknown {
  if (contentType && !/json/i.test(contentType)) return undefined;
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
}

function withoutManagedFields(obj: unknown): unknown {
  if (!obj || typeof obj !== 'object') return obj;
  const o = obj as Record<string, unknown>;
  const meta = o.metadata as Record<string, unknown> | undefined;
  const items = Array.isArray(o.items) ? o.items.map(withoutManagedFields) : undefined;
  if (!meta?.managedFields && !items) return obj;
  const copy: Record<string, unknown> = { ...o };
  if (meta?.managedFields) {
    const { managedFields: _drop, ...rest } = meta;
    copy.metadata = rest;
  }
  if (items) copy.items = items;
  return copy;
}

/** metav1.MicroTime: RFC 3339 with six fractional digits. */
const microTime = (d: Date): string => d.toISOString().replace(/\.(\d{3})Z$/, '.$1000Z');

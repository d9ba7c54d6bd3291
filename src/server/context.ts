// The request context every filter and handler shares: what the request is (set by the request-info
// filter), who makes it (authentication), the warnings for the response, when to give up, and whether the
// client is still there. It replaces flags and arrays passed from function to function.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { UserInfo } from '../api/user.js';
import { nonResourceInfo, type RequestInfo } from './request-info.js';
import { addWarning } from './http.js';
import { parseRequestURL } from './request-url.js';

export interface RequestContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** The URL path; under /clusters/<name>/, what follows it once the request is dispatched to that cluster. */
  path: string;
  readonly query: URLSearchParams;
  /** Set by the request-info filter; before it, a non-resource request for the path. */
  info: RequestInfo;
  /** Set by the authentication filter. */
  user?: UserInfo;
  /** The listener's address as discovery publishes it (serverAddressByClientCIDRs); '' on the insecure port. */
  readonly serverAddress: string;
  /** Adds a `Warning: 299` header to the response (each text once). */
  warn(text: string): void;
  /** Aborted when the client goes away (the connection closes before the response is done). */
  readonly signal: AbortSignal;
  /** When a short request must be done, in ms since the epoch; undefined for long-running ones (watches). */
  deadline?: number;
  /** When the request arrived, on performance.now()'s clock (kube's request received timestamp): latencies count from it. */
  readonly receivedAt: number;
  /** Set when an instrumented handler took the request (the metrics filter records it then; see filters/metrics.ts). */
  instrumented: boolean;
  /** A request under /clusters/* (every cluster): a LIST or WATCH of one resource across every logical cluster. */
  allClusters: boolean;
  /** Seconds spent waiting in a priority and fairness queue, and in admission webhooks: the SLI latency leaves them out. */
  queueWaitSeconds: number;
  mutatingWebhookSeconds: number;
  validatingWebhookSeconds: number;
}

/** The next step of the chain: the remaining filters, then the handler. */
type Next = () => Promise<void>;

/** One cross-cutting concern of the request path, as a filter of k8s.io/apiserver's handler chain. */
export type Filter = (ctx: RequestContext, next: Next) => Promise<void>;

export type Handler = (ctx: RequestContext) => Promise<void>;

/** Filters outermost first, then the handler, composed once. */
export function composeChain(filters: readonly Filter[], handler: Handler): Handler {
  return filters.reduceRight<Handler>((inner, filter) => (ctx) => filter(ctx, () => inner(ctx)), handler);
}

/**
 * A request's context. A class rather than an object literal: a literal with a getter is a dictionary-mode
 * object in V8, and every handler reads the context's fields (that made GET 40% slower).
 */
class Context implements RequestContext {
  info: RequestInfo;
  user?: UserInfo;
  deadline?: number;
  readonly receivedAt = performance.now();
  instrumented = false;
  allClusters = false;
  queueWaitSeconds = 0;
  mutatingWebhookSeconds = 0;
  validatingWebhookSeconds = 0;
  private controller?: AbortController;

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    public path: string,
    readonly query: URLSearchParams,
    readonly serverAddress: string,
  ) {
    this.info = nonResourceInfo(path, '');
  }

  warn(text: string): void {
    addWarning(this.res, text);
  }

  // Most requests never look at the signal: make it on first use.
  get signal(): AbortSignal {
    if (!this.controller) {
      const c = (this.controller = new AbortController());
      if (this.res.writableEnded || this.res.destroyed) c.abort();
      else this.res.once('close', () => c.abort());
    }
    return this.controller.signal;
  }
}

/** A fresh context for one request on a listener. */
export function newRequestContext(req: IncomingMessage, res: ServerResponse, serverAddress: string): RequestContext {
  const { path, query } = parseRequestURL(req.url ?? '/');
  return new Context(req, res, path, query, serverAddress);
}

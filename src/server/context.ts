// The request context every filter and handler shares: what the request is (set by the request-info
// filter), who makes it (authentication), the warnings for the response, when to give up, and whether the
// client is still there. It replaces flags and arrays passed from function to function.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { UserInfo } from '../api/user.js';
import { nonResourceInfo, type RequestInfo } from './request-info.js';
import { addWarning } from './http.js';

export interface RequestContext {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  readonly path: string;
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

/** A fresh context for one request on a listener. */
export function newRequestContext(req: IncomingMessage, res: ServerResponse, serverAddress: string): RequestContext {
  const raw = req.url ?? '/';
  const q = raw.indexOf('?');
  // Parsing through URL normalises the path as Go's net/url does for percent-encoded segments.
  const url = new URL(raw, 'http://localhost');
  let controller: AbortController | undefined;
  return {
    req,
    res,
    path: url.pathname,
    query: q < 0 ? new URLSearchParams() : url.searchParams,
    info: nonResourceInfo(url.pathname, ''),
    serverAddress,
    warn: (text) => addWarning(res, text),
    // Most requests never look at the signal: make it on first use.
    get signal(): AbortSignal {
      if (!controller) {
        const c = (controller = new AbortController());
        if (res.writableEnded || res.destroyed) c.abort();
        else res.once('close', () => c.abort());
      }
      return controller.signal;
    },
  };
}

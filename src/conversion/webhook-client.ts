// POSTing a ConversionReview as kube-apiserver's webhook client does (k8s.io/apiserver pkg/util/webhook with a
// client-go REST client): HTTPS only, the CA bundle or the system roots, the service's DNS name checked in the
// certificate whatever address it is reached at, a 30 s timeout, and client-go's wording for failures.
import https from 'node:https';
import { isIP } from 'node:net';
import { checkServerIdentity } from 'node:tls';
import type { WebhookClientConfig } from '../api/webhook.js';
import type { ServiceResolver } from './types.js';
import { parseJSON, stringifyJSON } from '../util/json-int64.js';
import { jsonDepthOffset, maxDepthMessage } from '../util/json-depth.js';

/** webhook.ClientManager's request timeout; client-go adds it to the URL as `?timeout=30s`. */
const TIMEOUT_MS = 30_000;
const MAX_BODY_BYTES = 64 << 20;

export interface WebhookTarget {
  /** The URL as Go prints it in errors. */
  url: URL;
  /** Where to connect. */
  host: string;
  port: number;
  /** The name the certificate must carry. */
  serverName: string;
  ca?: string;
}

/**
 * Where to POST. `timeoutSeconds` is what client-go writes into the URL (`?timeout=30s` for conversion, the
 * webhook's timeoutSeconds for admission).
 */
export function webhookTarget(cc: WebhookClientConfig, resolver: ServiceResolver, timeoutSeconds = 30): WebhookTarget {
  const ca = cc.caBundle ? Buffer.from(cc.caBundle, 'base64').toString('utf8') : undefined;
  if (cc.service) {
    const s = cc.service;
    const port = s.port ?? 443;
    const serverName = `${s.name}.${s.namespace}.svc`;
    const at = resolver({ namespace: s.namespace, name: s.name, port });
    const path = s.path ? (s.path.startsWith('/') ? s.path : `/${s.path}`) : '/';
    const url = new URL(`https://${serverName}:${port}${path}`);
    url.searchParams.set('timeout', `${timeoutSeconds}s`);
    return { url, host: at.host, port: at.port, serverName, ca };
  }
  const url = new URL(cc.url ?? '');
  url.searchParams.set('timeout', `${timeoutSeconds}s`);
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  return { url, host, port: Number(url.port || 443), serverName: host, ca };
}

/** Go's `Post "<url>": <error>` wording for a transport failure. */
function transportError(t: WebhookTarget, e: NodeJS.ErrnoException): string {
  const code = e.code ?? '';
  let msg: string;
  if (code === 'ECONNREFUSED') msg = `dial tcp ${t.host}:${t.port}: connect: connection refused`;
  else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') msg = `dial tcp: lookup ${t.host}: no such host`;
  else if (code === 'ERR_TLS_CERT_ALTNAME_INVALID') msg = `tls: failed to verify certificate: x509: certificate is not valid for ${t.serverName}`;
  else if (code === 'CERT_HAS_EXPIRED') msg = 'tls: failed to verify certificate: x509: certificate has expired or is not yet valid';
  else if (/CERT|SIGNATURE|ISSUER/.test(code)) msg = 'tls: failed to verify certificate: x509: certificate signed by unknown authority';
  else if (code === 'TIMEOUT') msg = 'context deadline exceeded (Client.Timeout exceeded while awaiting headers)';
  else if (code === 'DEADLINE') msg = 'context deadline exceeded';
  else if (code === 'ECONNRESET') msg = 'EOF';
  else msg = e.message;
  return `Post "${t.url.href}": ${msg}`;
}

/** client-go's error for a non-2xx answer that is not a Status (errors.NewGenericServerResponse). */
function statusCodeError(code: number, body: string): string {
  const server = body.length > 2048 ? `${body.slice(0, 2048)}...` : body;
  switch (code) {
    case 400: return 'the server rejected our request for an unknown reason';
    case 401: return 'the server has asked for the client to provide credentials';
    case 403: return 'the server does not allow access to the requested resource';
    case 404: return 'the server could not find the requested resource';
    case 405: return 'the server does not allow this method on the requested resource';
    case 429: return 'the server has received too many requests and has asked us to try again later';
    case 500: return `an error on the server (${JSON.stringify(server)}) has prevented the request from succeeding`;
    case 503: return 'the server is currently unable to handle the request';
    case 504: return 'the server was unable to return a response in the time allotted, but may still be processing the request';
    default: return `the server responded with the status code ${code} but did not return more information`;
  }
}

interface PostOptions {
  /** How long to wait for the whole answer (default 30 s). */
  timeoutMs?: number;
  /**
   * The limit is a request context's deadline (admission webhooks' timeoutSeconds), which Go reports as
   * `context deadline exceeded`, rather than the client's own timeout.
   */
  contextDeadline?: boolean;
}

/**
 * Connections are kept and reused, as Go's transport keeps them: a TLS handshake per review would cost more than
 * most webhooks' work. Node pools sockets by host, port, server name and CA, so a reused one was verified alike.
 * Up to 100 idle ones per webhook (kube's transport keeps 25): with fewer, a burst of concurrent writes opens a
 * new TLS connection for every review past the pool (50 concurrent creates ran at 0.24× instead of 0.42×).
 */
const agent = new https.Agent({ keepAlive: true, maxFreeSockets: 100 });

/** POSTs the review; resolves to the parsed answer, rejects with the error text kube would wrap. */
export async function postReview(t: WebhookTarget, review: unknown, opts: PostOptions = {}): Promise<unknown> {
  const body = stringifyJSON(review);
  const deadline = Date.now() + (opts.timeoutMs ?? TIMEOUT_MS);
  try {
    return await postOnce(t, body, opts, deadline);
  } catch (e) {
    // A kept connection the server closed as we reused it: Go's transport retries such a request on a new one.
    if (e instanceof StaleConnection) return postOnce(t, body, opts, deadline);
    throw e;
  }
}

/** The request failed on a reused connection before any answer. */
class StaleConnection extends Error {}

function postOnce(t: WebhookTarget, body: string, opts: PostOptions, deadline: number): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const req = https.request(
      {
        host: t.host,
        port: t.port,
        method: 'POST',
        path: `${t.url.pathname}${t.url.search}`,
        headers: { 'Content-Type': 'application/json', Accept: 'application/json, */*', 'Content-Length': Buffer.byteLength(body) },
        ...(isIP(t.serverName) ? {} : { servername: t.serverName }),
        // The certificate is checked for the service's name, not the address it was reached at.
        checkServerIdentity: (_host, cert) => checkServerIdentity(t.serverName, cert),
        ...(t.ca ? { ca: t.ca } : {}),
        agent,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > MAX_BODY_BYTES) req.destroy(new Error('response body too large'));
          else chunks.push(c);
        });
        res.on('end', () => {
          clearTimeout(timer);
          const text = Buffer.concat(chunks).toString('utf8');
          const code = res.statusCode ?? 0;
          let parsed: unknown;
          try {
            parsed = parseJSON(text);
          } catch (e) {
            if (code < 200 || code > 299) return reject(new Error(statusCodeError(code, text.trim())));
            return reject(new Error(`couldn't get version/kind; json parse error: ${(e as Error).message}`));
          }
          if (code < 200 || code > 299) {
            // A Status body speaks for itself.
            const p = parsed as { kind?: unknown; message?: unknown };
            if (p?.kind === 'Status' && typeof p.message === 'string') return reject(new Error(p.message));
            return reject(new Error(statusCodeError(code, text.trim())));
          }
          // A response deeper than the server's walkers take (json-depth.ts) fails as Go's decoder fails beyond its limit.
          const deep = jsonDepthOffset(text);
          if (deep >= 0) return reject(new Error(`couldn't get version/kind; json parse error: ${maxDepthMessage(text, deep)}`));
          resolve(parsed);
        });
        res.on('error', (e) => reject(new Error(transportError(t, e as NodeJS.ErrnoException))));
      },
    );
    // A deadline on the whole exchange, as Go's context and client timeouts are (not an idle timeout).
    const timer = setTimeout(
      () => req.destroy(Object.assign(new Error('timeout'), { code: opts.contextDeadline ? 'DEADLINE' : 'TIMEOUT' })),
      Math.max(0, deadline - Date.now()),
    );
    let answered = false;
    req.on('response', () => (answered = true));
    req.on('error', (e) => {
      clearTimeout(timer);
      const code = (e as NodeJS.ErrnoException).code;
      if (req.reusedSocket && !answered && (code === 'ECONNRESET' || code === 'EPIPE')) return reject(new StaleConnection());
      reject(new Error(transportError(t, e as NodeJS.ErrnoException)));
    });
    req.end(body);
  });
}

// plugin/pkg/audit/webhook: each batch of events POSTed as an audit.k8s.io/v1 EventList to the server a
// kubeconfig names (--audit-webhook-config-file), retried on any failure with kube's backoff (the initial
// delay, ×1.5 each time, 20 % jitter, five attempts at most); what still fails is logged and lost.
import * as http from 'node:http';
import * as https from 'node:https';
import type { Connection } from '../api/connection.js';
import { consoleErrorLog, pluginErrorMessage, type AuditBackend, type AuditEvent, type ErrorLog } from './backend.js';

/** Where the webhook is and how to reach it, as read from the kubeconfig's current context. */
export type WebhookTarget = Connection;

export interface WebhookOptions {
  /** --audit-webhook-initial-backoff in ms (kube's default 10 s). */
  initialBackoffMs?: number;
  /** --audit-webhook-version: only audit.k8s.io/v1 is served. */
  groupVersion?: string;
  log?: ErrorLog;
}

export const DEFAULT_INITIAL_BACKOFF_MS = 10_000;
// webhook.defaultRequestTimeout: one POST may take this long.
const REQUEST_TIMEOUT_MS = 30_000;
const BACKOFF_STEPS = 5;

/** wait.Backoff{Duration: initial, Factor: 1.5, Jitter: 0.2, Steps: 5}: the delays between the five attempts. */
export function retryDelays(initialMs: number, random: () => number = Math.random): number[] {
  const out: number[] = [];
  let d = initialMs;
  for (let i = 1; i < BACKOFF_STEPS; i++) {
    out.push(d + random() * 0.2 * d);
    d *= 1.5;
  }
  return out;
}

export function webhookBackend(target: WebhookTarget, opts: WebhookOptions = {}): AuditBackend {
  const url = new URL(target.server);
  const secure = url.protocol === 'https:';
  const agent = secure
    ? new https.Agent({ keepAlive: true, ca: target.ca, cert: target.cert, key: target.key, rejectUnauthorized: !target.insecureSkipTLSVerify })
    : new http.Agent({ keepAlive: true });
  const log = opts.log ?? consoleErrorLog;
  const apiVersion = opts.groupVersion ?? 'audit.k8s.io/v1';
  const pending = new Set<Promise<boolean>>();

  const post = (body: string): Promise<void> =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string | number> = {
        'Content-Type': 'application/json',
        Accept: 'application/json, */*',
        'Content-Length': Buffer.byteLength(body),
        'User-Agent': 'crd-apiserver',
      };
      if (target.token) headers.Authorization = `Bearer ${target.token}`;
      const req = (secure ? https : http).request(url, { method: 'POST', agent, headers, timeout: REQUEST_TIMEOUT_MS }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const code = res.statusCode ?? 0;
          if (code >= 200 && code < 300) return resolve();
          reject(new Error(responseError(code, Buffer.concat(chunks).toString('utf8'))));
        });
        res.on('error', reject);
      });
      req.on('timeout', () => req.destroy(new Error('context deadline exceeded (Client.Timeout exceeded while awaiting headers)')));
      req.on('error', (e: NodeJS.ErrnoException) => {
        // Go's words for the usual network failures.
        const dial = e.code === 'ECONNREFUSED' ? `dial tcp ${url.hostname}:${url.port || (secure ? 443 : 80)}: connect: connection refused` : e.message;
        reject(new Error(`Post "${target.server}": ${dial}`));
      });
      req.end(body);
    });

  const send = async (events: readonly AuditEvent[]): Promise<boolean> => {
    // The list carries the type; kube's encoder leaves it off each item (Go's nested TypeMeta stays empty).
    const items = events.map(({ kind: _kind, apiVersion: _apiVersion, ...rest }) => rest);
    const body = JSON.stringify({ kind: 'EventList', apiVersion, metadata: {}, items });
    const delays = retryDelays(opts.initialBackoffMs ?? DEFAULT_INITIAL_BACKOFF_MS);
    for (let attempt = 0; ; attempt++) {
      try {
        await post(body);
        return true;
      } catch (e) {
        // The audit webhook retries whatever the failure (kube's retryOnError): a lost event is worse than a late one.
        if (attempt >= delays.length) {
          log(pluginErrorMessage('webhook', (e as Error).message, events));
          return false;
        }
        await new Promise((r) => setTimeout(r, delays[attempt]));
      }
    }
  };

  return {
    name: 'webhook',
    processEvents(events) {
      const p = send(events);
      pending.add(p);
      void p.finally(() => pending.delete(p));
      return p;
    },
    async shutdown() {
      await Promise.all([...pending]);
      agent.destroy();
    },
  };
}

/** client-go's error for a response that is not a success (a Status body's message when there is one). */
function responseError(code: number, body: string): string {
  try {
    const s = JSON.parse(body) as { kind?: string; message?: string };
    if (s?.kind === 'Status' && s.message) return s.message;
  } catch {
    // not a Status
  }
  const text = body.trim();
  if (code >= 500) return `an error on the server (${JSON.stringify(text || 'unknown')}) has prevented the request from succeeding`;
  return text ? text : `the server responded with the status code ${code} but did not return more information`;
}

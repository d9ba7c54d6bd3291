import type { ServerResponse } from 'node:http';

/** kube's tooManyRequests: Retry-After, then Go's http.Error (plain text, not a Status). */
export function tooManyRequests(res: ServerResponse, retryAfterSeconds: number): void {
  const body = 'Too many requests, please try again later.\n';
  res.writeHead(429, {
    'Retry-After': String(retryAfterSeconds),
    'Content-Type': 'text/plain; charset=utf-8',
    'X-Content-Type-Options': 'nosniff',
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

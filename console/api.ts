// Every request the console makes: the API with the user's credentials. The browser presents its client
// certificate by itself (fetch's default same-origin credentials mode: 'omit' would withhold it); a bearer
// token typed into the login form is kept in sessionStorage (gone with the tab) and sent as an Authorization
// header. No cookies: a request another site makes the browser send carries no token, so there is nothing to
// forge (CSRF).

const TOKEN_KEY = 'crd-apiserver.token';

/**
 * The API the console reads: the one it is served under. '' at /console/, and /clusters/<name> at
 * /clusters/<name>/console/, a logical cluster's console.
 */
export const API_BASE = location.pathname.slice(0, Math.max(0, location.pathname.lastIndexOf('/console/')));

export function storedToken(): string | undefined {
  return sessionStorage.getItem(TOKEN_KEY) ?? undefined;
}

export function storeToken(token: string | undefined): void {
  if (token) sessionStorage.setItem(TOKEN_KEY, token);
  else sessionStorage.removeItem(TOKEN_KEY);
}

/** A failed API request: the HTTP status and the Status message the server answered. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly reason = '',
  ) {
    super(message);
  }
}

export const TABLE_ACCEPT = 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json';
export const DISCOVERY_ACCEPT = 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json';

function headers(accept: string): Record<string, string> {
  const h: Record<string, string> = { Accept: accept };
  const token = storedToken();
  if (token) h['Authorization'] = `Bearer ${token}`;
  return h;
}

async function errorOf(res: Response): Promise<ApiError> {
  const text = await res.text();
  try {
    const status = JSON.parse(text) as { kind?: string; message?: string; reason?: string };
    if (status.kind === 'Status') return new ApiError(res.status, status.message ?? res.statusText, status.reason);
  } catch {
    // not a Status: the text as it is
  }
  return new ApiError(res.status, text.trim() || `${res.status} ${res.statusText}`);
}

/** GET path; the decoded JSON, or an ApiError. */
export async function getJson<T = unknown>(path: string, accept = 'application/json', signal?: AbortSignal): Promise<T> {
  const res = await fetch(API_BASE + path, { headers: headers(accept), signal });
  if (!res.ok) throw await errorOf(res);
  return (await res.json()) as T;
}

export interface WatchEvent<T = unknown> {
  type: 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';
  object: T;
}

/**
 * Streams a watch (path with ?watch=1...) and calls onEvent per event until the server ends it or signal
 * aborts. Resolves when the stream ends; rejects with ApiError when the watch is refused.
 */
export async function watch<T>(path: string, accept: string, signal: AbortSignal, onEvent: (e: WatchEvent<T>) => void): Promise<void> {
  const res = await fetch(API_BASE + path, { headers: headers(accept), signal });
  if (!res.ok) throw await errorOf(res);
  if (!res.body) return;
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      buffered += value;
      let nl: number;
      while ((nl = buffered.indexOf('\n')) >= 0) {
        const line = buffered.slice(0, nl).trim();
        buffered = buffered.slice(nl + 1);
        if (line) onEvent(JSON.parse(line) as WatchEvent<T>);
      }
    }
  } finally {
    // onEvent threw (an ERROR event), or the stream ended: the connection is not left open.
    void reader.cancel().catch(() => undefined);
  }
}

/** A URL path with a query of the set parameters. */
export function withQuery(path: string, params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v) q.set(k, v);
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

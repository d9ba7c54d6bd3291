// The web console at /console/ (kube has none; see the README's "Web console"). Its shell is served before
// authentication: it is code, not data, and a browser cannot attach a bearer token to a page it navigates to,
// so the login form has to load first. Every request the console then makes for data is an API request with
// the user's credentials (the client certificate the browser presents, or the token typed into that form),
// authenticated and authorized like kubectl's.
import type { Filter, RequestContext } from '../context.js';
import { writeRaw } from '../http.js';
import type { ConsoleAssets } from '../console-assets.js';

export const CONSOLE_PATH = '/console';

/**
 * Restrictive headers for the shell: scripts and styles from this origin only, no framing (clickjacking), no
 * sniffing; revalidated on each load so a new server's console replaces the old.
 */
const HEADERS = {
  'Content-Security-Policy': "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Referrer-Policy': 'no-referrer',
  'Cache-Control': 'no-cache',
};

export function withConsole(assets: () => Promise<ConsoleAssets>): Filter {
  const serve = async (ctx: RequestContext, next: () => Promise<void>): Promise<void> => {
    const { path, req, res } = ctx;
    if (path === CONSOLE_PATH) {
      // Relative, so that a logical cluster's /clusters/<name>/console goes to its own console.
      res.writeHead(301, { Location: 'console/', 'Content-Length': 0 });
      return void res.end();
    }
    const file = (await assets()).files.get(path.slice(CONSOLE_PATH.length + 1));
    if (!file) return next();
    if (req.method === 'HEAD') {
      res.writeHead(200, { ...HEADERS, 'Content-Type': file.contentType, 'Content-Length': Buffer.byteLength(file.body) });
      return void res.end();
    }
    writeRaw(res, 200, file.contentType, file.body, HEADERS);
  };
  // Every other request passes by without a promise of this filter's own.
  return (ctx, next) => {
    const { path, req } = ctx;
    if (path !== CONSOLE_PATH && !path.startsWith(`${CONSOLE_PATH}/`)) return next();
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    return serve(ctx, next);
  };
}

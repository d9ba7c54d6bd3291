// WithRequestDeadline + WithTimeoutForNonLongRunningRequests: a request that is not long-running gets
// --request-timeout (60 s), or less when its `timeout` query parameter asks for less; when that runs out
// the client gets kube's 504 and the handler's later output is dropped. A body still being uploaded is cut
// with it. Watches are exempt (they end by their own timeoutSeconds).
import * as S from '../../api/status.js';
import { parseGoDuration } from '../../cel/time.js';
import type { Filter, RequestContext } from '../context.js';
import { isLongRunning } from '../long-running.js';

const INVALID_TIMEOUT = 'invalid timeout specified in the request URL';
/** performance.now()'s zero in ms since the epoch: arrival times (ctx.receivedAt) as wall-clock times. */
const TIME_ORIGIN = performance.timeOrigin;
const TIMED_OUT = 'request did not complete within the allotted timeout';

/** The `timeout` parameter in ms; undefined when absent; a 400 as parseTimeout words it when not a Go duration. */
function userTimeoutMs(query: URLSearchParams): number | undefined {
  const v = query.get('timeout');
  if (v === null || v === '') return undefined;
  const ns = parseGoDuration(v);
  if (ns === undefined) {
    const why = /^[-+]?(\d+\.?\d*|\.\d+)$/.test(v) ? `time: missing unit in duration ${JSON.stringify(v)}` : `time: invalid duration ${JSON.stringify(v)}`;
    throw S.badRequest(`${INVALID_TIMEOUT} - ${why}`);
  }
  return Number(ns / 1_000_000n);
}

export function withRequestTimeout(requestTimeoutMs: number): Filter {
  return async (ctx, next) => {
    if (isLongRunning(ctx.info)) return next();
    const asked = userTimeoutMs(ctx.query);
    // Only a shorter, positive timeout replaces the server's.
    const ms = asked !== undefined && asked > 0 && asked < requestTimeoutMs ? asked : requestTimeoutMs;
    // From the request's arrival, in ms since the epoch, without reading the clock again.
    ctx.deadline = TIME_ORIGIN + ctx.receivedAt + ms;
    // One timer and no extra promises: this runs on every request.
    let expired = false;
    const timer = setTimeout(() => {
      expired = true;
      timedOut(ctx);
    }, ms);
    try {
      await next();
    } catch (e) {
      // The handler went on after the 504 (as kube's goroutine does): what it throws from then on is dropped.
      if (!expired) throw e;
    } finally {
      clearTimeout(timer);
    }
  };
}

function timedOut(ctx: RequestContext): void {
  const { req, res } = ctx;
  if (res.headersSent) {
    // Part of the response is out: as Go's ErrAbortHandler, the connection is dropped.
    res.destroy();
    return;
  }
  // The request body may still be arriving (a slow upload): the connection closes after the answer.
  if (!req.complete) res.setHeader('Connection', 'close');
  // baseTimeoutWriter.timeout: WriteHeader(504) then json.Encoder's line with no Content-Type set, so
  // Go's sniffing calls the JSON text/plain.
  const body = JSON.stringify(S.timeoutError(TIMED_OUT).status) + '\n';
  res.writeHead(504, { 'Content-Type': 'text/plain; charset=utf-8', 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
  // The handler's own answer, if it still comes, fails: writeHead throws into the dropped promise, and a
  // late write's 'error' event must not go unheard (that would end the process).
  res.on('error', () => {});
}

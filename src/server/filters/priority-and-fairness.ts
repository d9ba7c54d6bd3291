// WithPriorityAndFairness: each request is classified by the FlowSchemas in force into a priority level and a
// flow, then runs at once (exempt), waits its turn in the level's fair queues, or is refused with 429 and a
// Retry-After when its queue is full or its wait runs out (a quarter of its deadline, at most a minute). The
// response names the schema and level by UID (X-Kubernetes-PF-FlowSchema-UID, -PriorityLevel-UID). A watch
// holds its seats only while it starts (our watch handler returns once the initial events are out), and is
// counted as open until its response closes: a write is charged for the watchers it will notify.
import type { ServerResponse } from 'node:http';
import type { Filter, RequestContext } from '../context.js';
import type { Classification, Dispatcher } from '../flowcontrol/dispatcher.js';
import { DroppedRequests } from '../flowcontrol/dropped-requests.js';
import type { RequestDescriptor, Ticket } from '../flowcontrol/queue-set.js';
import { isMutating, listEstimate, minimalEstimate, mutatingEstimate, type WorkEstimate } from '../flowcontrol/work-estimate.js';
import { anonymousUser } from '../../auth/authenticate.js';
import { tooManyRequests } from './too-many-requests.js';
import type { FlowcontrolMetrics } from '../metrics/flowcontrol-metrics.js';
import { setEarlyHeader } from '../response.js';

const MAX_WAIT_MS = 60_000;

export interface PriorityAndFairnessOptions {
  dispatcher: Dispatcher;
  /** The request timeout; a request without a deadline (a watch) may wait a quarter of it. */
  requestTimeoutMs: number;
  /** How many objects of a resource are stored, for the seats of a list; undefined when unknown. */
  objectCount?(group: string, resource: string): number | undefined;
  /** apiserver_flowcontrol_* (kube's fairqueuing metrics). */
  metrics?: FlowcontrolMetrics;
}

/** kube's nonMutatingRequestVerbs: the rest are mutating requests for the metrics. */
const READ_ONLY_VERBS = new Set(['get', 'list', 'watch']);

export function withPriorityAndFairness(opts: PriorityAndFairnessOptions): Filter {
  const dropped = new DroppedRequests();
  return async (ctx, next) => {
    const waitFrom = performance.now();
    const user = ctx.user ?? anonymousUser();
    const c = opts.dispatcher.classify(ctx.info, user);
    const i = ctx.info;
    const descr: RequestDescriptor = {
      flowSchema: c.schema.metadata.name,
      flowDistinguisher: c.flowDistinguisher,
      userName: user.name,
      info: { verb: i.verb, path: i.path, namespace: i.namespace, name: i.name, apiGroup: i.apiGroup, apiVersion: i.apiVersion, resource: i.resource, subresource: i.subresource },
    };
    const level = c.level.config.metadata.name;
    const observer = opts.metrics?.observer(level, descr.flowSchema, READ_ONLY_VERBS.has(i.verb) ? 'readOnly' : 'mutating');
    const started = c.level.queues.start(c.hashValue, estimate(ctx, c, opts), descr, observer);
    let ticket: Ticket | undefined;
    if ('ticket' in started) ticket = started.ticket;
    // The wall-clock arrival only when it must wait (Date.now is a call into V8's runtime).
    else if ('waiting' in started) ticket = await waitTurn(ctx, started, Date.now() - (performance.now() - waitFrom), opts.requestTimeoutMs);
    // kube times the wait of every request of a limited level, dispatched at once or not (the SLI leaves it out).
    if (c.level.config.spec.type !== 'Exempt') {
      const waited = (performance.now() - waitFrom) / 1000;
      ctx.queueWaitSeconds = waited;
      observer?.waited(waited, ticket !== undefined);
    }
    setHeaders(ctx.res, c);
    if (!ticket) {
      dropped.record(level);
      return tooManyRequests(ctx.res, dropped.retryAfter(level));
    }
    // kube's watch tracker counts a watch from when it starts executing until it ends.
    if (ctx.info.verb === 'watch') {
      const forget = opts.dispatcher.watches.register(ctx.info, ctx.query.get('fieldSelector'));
      if (ctx.res.destroyed) forget();
      else ctx.res.once('close', forget);
    }
    try {
      await next();
    } finally {
      ticket.finish();
    }
  };
}

/** Waits for dispatch until the wait limit, or until the client goes away. */
async function waitTurn(
  ctx: RequestContext,
  started: { waiting: Promise<Ticket | undefined>; cancel(): void },
  arrival: number,
  requestTimeoutMs: number,
): Promise<Ticket | undefined> {
  const limit = Math.min(ctx.deadline !== undefined ? (ctx.deadline - arrival) / 4 : requestTimeoutMs / 4, MAX_WAIT_MS);
  const timer = setTimeout(started.cancel, Math.max(0, arrival + limit - Date.now()));
  const signal = ctx.signal;
  signal.addEventListener('abort', started.cancel, { once: true });
  try {
    return await started.waiting;
  } finally {
    clearTimeout(timer);
    signal.removeEventListener('abort', started.cancel);
  }
}

/**
 * kube's work estimate: a list (or a watch's initial list) is charged for the objects it reads, a write for the
 * watchers it will send events to (held after it finishes), anything else one seat.
 */
function estimate(ctx: RequestContext, c: Classification, opts: PriorityAndFairnessOptions): WorkEstimate {
  const { verb, name, apiGroup, resource } = ctx.info;
  if (!ctx.info.isResourceRequest) return minimalEstimate();
  if (isMutating(verb)) return mutatingEstimate(ctx.info, opts.dispatcher.watches.interestedCount(ctx.info), c.level.maxSeats);
  if ((verb !== 'list' && verb !== 'watch') || !opts.objectCount) return minimalEstimate();
  if (verb === 'watch') {
    // Only a watch that starts with the current objects lists them.
    const rv = ctx.query.get('resourceVersion') ?? '';
    if (ctx.query.get('sendInitialEvents') !== 'true' && rv !== '' && rv !== '0') return minimalEstimate();
  }
  return listEstimate(name ? 1 : opts.objectCount(apiGroup, resource), c.level.maxSeats);
}

function setHeaders(res: ServerResponse, c: Classification): void {
  if (res.headersSent) return;
  setEarlyHeader(res, 'X-Kubernetes-PF-FlowSchema-UID', c.schema.metadata.uid ?? '');
  setEarlyHeader(res, 'X-Kubernetes-PF-PriorityLevel-UID', c.level.config.metadata.uid ?? '');
}

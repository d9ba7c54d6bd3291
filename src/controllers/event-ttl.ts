// Event expiry: kube-apiserver writes every event with an etcd lease of --event-ttl (one hour by default),
// renewed by each write, so an event disappears that long after its last write. Here a controller stands
// in for the leases: it notes when it saw each event's revision written and removes the event at that
// time plus the TTL, unless it was written again meanwhile. Watches see the removal as DELETED.
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';
import { metaOf, type GenericStore } from '../registry/store.js';
import { realClock, type Clock } from './clock.js';
import { Controller, RequeueAfter, type ControllerOptions } from './controller.js';
import { Informer, keyOf } from './informer.js';

/** kube-apiserver's --event-ttl default. */
export const DEFAULT_EVENT_TTL_MS = 60 * 60 * 1000;

interface Expiry {
  revision: number;
  at: number;
}

const revisionOf = (obj: JSONObject): number => Number(metaOf(obj).resourceVersion ?? 0) || 0;

/**
 * When an event found at start-up was last written, as well as its content tells: the newest of its
 * creation, managed-fields and event timestamps (the lease's own start is not kept anywhere).
 */
function lastWriteOf(ev: JSONObject, now: number): number {
  const meta = metaOf(ev);
  const times: unknown[] = [meta.creationTimestamp, ev['lastTimestamp'], ev['eventTime']];
  if (Array.isArray(meta.managedFields)) for (const m of meta.managedFields) if (isObject(m)) times.push(m['time']);
  if (isObject(ev['series'])) times.push(ev['series']['lastObservedTime']);
  const ms = times.map((t) => (typeof t === 'string' ? Date.parse(t) : NaN)).filter((t) => Number.isFinite(t));
  return Math.min(now, ms.length ? Math.max(...ms) : now);
}

type EventTtlOptions = Pick<ControllerOptions, 'clock' | 'onError'> & { ttlMs?: number };

export class EventTtlController {
  readonly controller: Controller;
  private readonly informer: Informer;
  private readonly clock: Clock;
  private readonly ttlMs: number;
  private readonly expiries = new Map<string, Expiry>();

  constructor(
    private readonly events: GenericStore,
    opts: EventTtlOptions = {},
  ) {
    this.clock = opts.clock ?? realClock;
    this.ttlMs = opts.ttlMs ?? DEFAULT_EVENT_TTL_MS;
    this.controller = new Controller({ ...opts, name: 'event ttl', sync: (key) => this.sync(key) });
    this.informer = new Informer(events, { name: 'events', clock: this.clock });
    const written = (ev: JSONObject): void => {
      const key = keyOf(ev);
      const revision = revisionOf(ev);
      // A relist hands every event over again: an unchanged revision keeps its expiry.
      if (this.expiries.get(key)?.revision === revision) return;
      const now = this.clock.now();
      const at = (this.informer.hasSynced() ? now : lastWriteOf(ev, now)) + this.ttlMs;
      this.expiries.set(key, { revision, at });
      this.controller.queue.addAfter(key, Math.max(0, at - now));
    };
    this.informer.addEventHandler({
      add: written,
      update: (_old, ev) => written(ev),
      delete: (ev) => this.expiries.delete(keyOf(ev)),
    });
  }

  async start(): Promise<void> {
    await this.controller.runAfter([this.informer]);
  }

  stop(): void {
    this.controller.stopWith([this.informer]);
  }

  /** Removes the event once its time has come, if the revision it was timed from is still the stored one. */
  async sync(key: string): Promise<void> {
    const expiry = this.expiries.get(key);
    if (!expiry) return;
    const wait = expiry.at - this.clock.now();
    if (wait > 0) throw new RequeueAfter(wait);
    const slash = key.indexOf('/');
    // Written again since (the informer then times it anew) or gone already: nothing to do.
    const removed = await this.events.expire(key.slice(0, slash), key.slice(slash + 1), expiry.revision);
    if (removed && this.expiries.get(key) === expiry) this.expiries.delete(key);
  }
}

// Logical clusters: isolated API servers in this process, each reached under /clusters/<name>/ (kcp's URL
// shape). Each is a whole server of its own (its CRDs, namespaces, RBAC, admission, discovery, controllers)
// over its own view of the one store, started the first time it is needed and stopped when its
// LogicalCluster goes. Authentication, flow control, audit and metrics are the root server's, shared.
import type { Handler, RequestContext } from './context.js';
import type { Informer } from '../controllers/informer.js';
import { metaOf } from '../registry/store.js';
import { ROOT_CLUSTER } from '../apis/tenancy/v1alpha1/logical-cluster.js';
import * as S from '../api/status.js';
import { writeError } from './http.js';
import { watchParam } from './request-info.js';

/** What a started cluster gives its dispatcher: the handler chain of each listener, and how to stop it. */
export interface ClusterInstance {
  chains: { secure?: Handler; insecure?: Handler };
  /** Whether its writing controllers run here now. */
  leading(): boolean;
  close(): Promise<void>;
}

export type Listener = 'secure' | 'insecure';

const PREFIX = '/clusters/';
const ALL_CLUSTERS = '*';

/**
 * Servers started for writes seen (touch) rather than for a request, at most this many at a time: a leader that
 * takes the Lease replays the history the store holds, which may name thousands of clusters at once, and each
 * start lists its cluster's objects and starts its controllers. Requests do not wait in this line.
 */
export const BACKGROUND_STARTS = 4;

/** How long a started cluster's server stays without requests before it is stopped (its state stays stored). */
export const DEFAULT_IDLE_TIMEOUT_MS = 10 * 60_000;

export class LogicalClusters {
  private readonly instances = new Map<string, Promise<ClusterInstance>>();
  /** The started ones, for requests to reach without a promise in between. */
  private readonly started = new Map<string, ClusterInstance>();
  /** Watches under way per started cluster, and when its last request began or watch ended. */
  private readonly inflight = new Map<string, number>();
  /** When each started cluster was last used, on performance.now()'s clock (monotonic). */
  private readonly lastUsed = new Map<string, number>();
  private readonly sweeper?: ReturnType<typeof setInterval>;
  /** Clusters touched and waiting for a background start, oldest first, and how many such starts are under way. */
  private readonly toStart = new Set<string>();
  private backgroundStarts = 0;

  constructor(
    /** The root's LogicalCluster objects, by name. */
    private readonly objects: Informer,
    private readonly startInstance: (name: string) => Promise<ClusterInstance>,
    /** A started cluster's server without requests for this long is stopped, to be started again when asked (0: never). */
    private readonly idleTimeoutMs = DEFAULT_IDLE_TIMEOUT_MS,
  ) {
    if (idleTimeoutMs > 0) {
      this.sweeper = setInterval(() => this.stopIdle(), Math.max(10, Math.min(60_000, idleTimeoutMs / 4)));
      this.sweeper.unref();
    }
  }

  /**
   * Stops the servers of clusters with no watch under way and no request for the idle timeout, and of clusters
   * deleted meanwhile (on a replica other than the one whose controller finalized them).
   */
  stopIdle(now = performance.now()): void {
    for (const name of this.started.keys()) {
      const idle = (this.inflight.get(name) ?? 0) === 0 && now - (this.lastUsed.get(name) ?? now) >= this.idleTimeoutMs;
      if (idle || !this.serves(name)) void this.stopInstance(name);
    }
  }

  /** Something changed in the cluster: its server is started if it is not, and counts as used now. */
  touch(name: string): void {
    if (!this.serves(name)) return;
    if (this.started.has(name)) this.lastUsed.set(name, performance.now());
    else if (!this.instances.has(name)) {
      this.toStart.add(name);
      this.startSome();
    }
  }

  /** Background starts of touched clusters, BACKGROUND_STARTS at a time; one a request started meanwhile is skipped. */
  private startSome(): void {
    while (this.backgroundStarts < BACKGROUND_STARTS && this.toStart.size > 0) {
      const name = this.toStart.values().next().value!;
      this.toStart.delete(name);
      if (this.instances.has(name) || !this.serves(name)) continue;
      this.backgroundStarts++;
      void this.instance(name)
        .catch((e: unknown) => console.error(`logical cluster ${name}:`, e))
        .finally(() => {
          this.backgroundStarts--;
          this.startSome();
        });
    }
  }

  /** Clusters touched and not yet started in the background (diagnostics, tests). */
  get waitingToStart(): number {
    return this.toStart.size;
  }

  /** The clusters that exist and are not being deleted. */
  names(): string[] {
    return this.objects
      .list()
      .filter((lc) => metaOf(lc).deletionTimestamp === undefined)
      .map((lc) => metaOf(lc).name ?? '');
  }

  /** Whether the cluster exists and is not being deleted. */
  serves(name: string): boolean {
    const lc = this.objects.get(name);
    return lc !== undefined && metaOf(lc).deletionTimestamp === undefined;
  }

  /** The cluster's server, started on first use (concurrent first requests share one start). */
  instance(name: string): Promise<ClusterInstance> {
    let p = this.instances.get(name);
    if (!p) {
      p = this.startInstance(name);
      this.instances.set(name, p);
      void p.then(
        (inst) => {
          if (this.instances.get(name) !== p) return;
          this.started.set(name, inst);
          this.lastUsed.set(name, performance.now());
        },
        // A start that failed is tried again by the next request.
        () => {
          if (this.instances.get(name) === p) this.instances.delete(name);
        },
      );
    }
    return p;
  }

  isStarted(name: string): boolean {
    return this.instances.has(name);
  }

  /** Stops the cluster's server, if it runs here. */
  async stopInstance(name: string): Promise<void> {
    const p = this.instances.get(name);
    if (!p) return;
    this.instances.delete(name);
    this.started.delete(name);
    this.inflight.delete(name);
    this.lastUsed.delete(name);
    const inst = await p.catch(() => undefined);
    await inst?.close();
  }

  async close(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    this.toStart.clear();
    await Promise.all([...this.instances.keys()].map((n) => this.stopInstance(n)));
  }

  /** The request on the cluster's chain for its listener, with the path the cluster sees; counted while under way. */
  private enter(name: string, inst: ClusterInstance, listener: Listener, root: Handler, ctx: RequestContext, rest: string): Promise<void> {
    const chain = inst.chains[listener];
    if (!chain) return root(ctx);
    ctx.path = rest;
    // The request's arrival (performance.now's clock, as every lastUsed): no clock read of its own.
    this.lastUsed.set(name, ctx.receivedAt);
    // Only a watch outlasts the idle timeout (other requests end within --request-timeout): only watches are
    // counted until they end, which spares every other request a listener.
    if (mayWatch(ctx.query.get('watch'), rest)) {
      this.inflight.set(name, (this.inflight.get(name) ?? 0) + 1);
      ctx.res.once('close', () => {
        if (this.started.get(name) !== inst) return;
        this.inflight.set(name, Math.max(0, (this.inflight.get(name) ?? 1) - 1));
        this.lastUsed.set(name, performance.now());
      });
    }
    return chain(ctx);
  }

  /**
   * The listener's entry: `/clusters/<name>/...` to that cluster's chain with the rest of the path (root's own
   * name to root's chain); everything else to root's. A path naming no served cluster goes to root's chain as
   * it is, where it is a non-resource URL: authorized as one (403 for most users), then not found.
   */
  dispatch(root: Handler, listener: Listener): Handler {
    // Not async: a request goes on as the chain it reaches returns, without a promise of its own around it.
    return (ctx: RequestContext) => {
      if (!ctx.path.startsWith(PREFIX)) return root(ctx);
      const end = ctx.path.indexOf('/', PREFIX.length);
      const name = ctx.path.slice(PREFIX.length, end < 0 ? undefined : end);
      const rest = end < 0 ? '/' : ctx.path.slice(end);
      if (name === ROOT_CLUSTER) {
        ctx.path = rest;
        return root(ctx);
      }
      // Every cluster at once: root's chain (root's authorization decides), its router reading across clusters.
      if (name === ALL_CLUSTERS) {
        ctx.path = rest;
        ctx.allClusters = true;
        return root(ctx);
      }
      if (!this.serves(name)) return root(ctx);
      const started = this.started.get(name);
      if (started) return this.enter(name, started, listener, root, ctx, rest);
      return this.startAndEnter(name, listener, root, ctx, rest);
    };
  }

  /** A request to a cluster whose server is not started yet: it starts (or 503 when it cannot), then takes it. */
  private async startAndEnter(name: string, listener: Listener, root: Handler, ctx: RequestContext, rest: string): Promise<void> {
    let inst: ClusterInstance;
    try {
      inst = await this.instance(name);
    } catch (e) {
      return writeError(ctx.res, S.serviceUnavailable(`logical cluster "${name}" could not be started: ${e instanceof Error ? e.message : String(e)}`), ctx.req.headers.accept);
    }
    return this.enter(name, inst, listener, root, ctx, rest);
  }
}

/** Whether a request may be a watch (`?watch`, as request info reads it, or a /watch/ path): it is then counted until it ends. */
function mayWatch(w: string | null, path: string): boolean {
  return watchParam(w) || path.includes('/watch/');
}

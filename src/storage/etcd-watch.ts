// One etcd watch stream shared by every watch of a store, resumed after the stream breaks.
//
// Unlike etcd3's Watcher (the client package the store once used), which resumes from the header
// revision of the last response it saw (the created response included) and so skips events that were
// still to come when the stream broke (a watch from an old revision is "created" at the current one,
// then replays), each watch here resumes from the revision after the last event it delivered, as
// clientv3 does, so a reconnect is invisible to the watcher: no gap, no duplicate. The stream is
// etcd-grpc.ts's, on the store's one connection.
import { decodeWatchResponse, encodeWatchCancel, encodeWatchCreate, type WatchEvent, type WatchResponse } from './etcd-kv-codec.js';
import type { EtcdGrpc, GrpcStream } from './etcd-grpc.js';

export interface RawWatchHandlers {
  /** The events of one response, in revision order (never empty). */
  onEvents(events: WatchEvent[]): void;
  /** History the watch still needs is compacted: etcd's compact revision. The watch is over. */
  onCompacted(compactRevision: number): void;
  /** etcd ended the watch for another reason. The watch is over. */
  onCanceled(reason: string): void;
}

export interface RawWatch {
  close(): void;
}

interface Sub extends RawWatchHandlers {
  id: number;
  key: Buffer;
  rangeEnd: Buffer;
  /** The revision to (re)start from: one past the last event delivered. */
  next: number;
  open: boolean;
}

const MIN_BACKOFF_MS = 50;
const MAX_BACKOFF_MS = 2_000;

export class EtcdWatchMux {
  private stream: GrpcStream | undefined;
  private readonly subs = new Map<number, Sub>();
  /** Ids of this stream's create requests not answered yet: etcd answers them in order, and a refused
   * one carries watch id -1, so the order is what tells whose it is. */
  private creating: number[] = [];
  private nextId = 1;
  private backoffMs = MIN_BACKOFF_MS;
  private timer: NodeJS.Timeout | undefined;
  private closed = false;
  constructor(
    private readonly grpc: EtcdGrpc,
    /** Called when the stream breaks (diagnostics and tests). */
    private readonly onDisconnect?: (err: Error) => void,
  ) {}

  get size(): number {
    return this.subs.size;
  }

  /** Watch [key, rangeEnd) from startRevision (etcd's: events at and after it), with previous values. */
  watch(key: Buffer, rangeEnd: Buffer, startRevision: number, handlers: RawWatchHandlers): RawWatch {
    // Client-chosen ids (etcd 3.4+) tie responses to watches without relying on creation order.
    const sub: Sub = { ...handlers, id: this.nextId++, key, rangeEnd, next: startRevision, open: true };
    this.subs.set(sub.id, sub);
    if (this.stream) this.create(this.stream, sub);
    else this.connect();
    return { close: () => this.cancel(sub) };
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.timer);
    for (const sub of this.subs.values()) sub.open = false;
    this.subs.clear();
    this.dropStream();
  }

  private cancel(sub: Sub): void {
    if (!sub.open) return;
    sub.open = false;
    this.subs.delete(sub.id);
    this.stream?.write(encodeWatchCancel(sub.id));
    if (this.subs.size === 0) this.dropStream();
  }

  private create(stream: GrpcStream, sub: Sub): void {
    this.creating.push(sub.id);
    stream.write(encodeWatchCreate({ key: sub.key, range_end: sub.rangeEnd, start_revision: sub.next, watch_id: sub.id }));
  }

  private connect(): void {
    if (this.stream || this.closed || this.subs.size === 0) return;
    let stream: GrpcStream;
    try {
      // A replaced stream's late answers are dropped: the new stream replays from each watch's `next`.
      stream = this.grpc.stream(
        '/etcdserverpb.Watch/Watch',
        (msg) => this.stream === stream && this.handle(decodeWatchResponse(msg)),
        (err) => {
          if (this.stream === stream) this.stream = undefined;
          if (!this.closed) this.retry(err ?? new Error('etcd watch stream ended'));
        },
      );
    } catch (err) {
      this.retry(err instanceof Error ? err : new Error(String(err)));
      return;
    }
    this.stream = stream;
    this.creating = [];
    for (const sub of this.subs.values()) this.create(stream, sub);
  }

  private retry(err: Error): void {
    this.onDisconnect?.(err);
    if (this.closed || this.subs.size === 0) return;
    clearTimeout(this.timer);
    this.timer = setTimeout(() => this.connect(), this.backoffMs);
    this.timer.unref();
    this.backoffMs = Math.min(this.backoffMs * 2, MAX_BACKOFF_MS);
  }

  private dropStream(): void {
    const s = this.stream;
    this.stream = undefined;
    this.creating = [];
    s?.close();
  }

  private handle(res: WatchResponse): void {
    const id = res.created ? this.creating.shift() : res.watch_id;
    const sub = id === undefined ? undefined : this.subs.get(id);
    if (!sub || !sub.open) return;
    if (res.created) {
      this.backoffMs = MIN_BACKOFF_MS;
      if (!res.canceled) return;
      sub.open = false;
      this.subs.delete(sub.id);
      sub.onCanceled(res.cancel_reason || 'etcd refused the watch');
      return;
    }
    if (res.events.length > 0) {
      // A response never repeats events, but one after a resume may start before `next` if the
      // previous stream's last response arrived after the resume was requested: skip those.
      const from = sub.next;
      const fresh = res.events.filter((e) => e.kv.mod_revision >= from);
      if (fresh.length > 0) {
        sub.next = fresh[fresh.length - 1]!.kv.mod_revision + 1;
        sub.onEvents(fresh);
      }
    }
    if (!res.canceled || !sub.open) return;
    sub.open = false;
    this.subs.delete(sub.id);
    const compactRevision = res.compact_revision;
    if (compactRevision > 0) sub.onCompacted(compactRevision);
    else sub.onCanceled(res.cancel_reason || 'watch canceled by etcd');
  }
}

// A KVStore on etcd v3, as kube-apiserver's storage/etcd3 uses it: revisions are etcd's, writes
// are transactions comparing the key's create or mod revision, lists are ranges (with etcd's
// count for `remaining`), watches are etcd watches with previous values.
//
// Compaction: our interface refuses reads and watches *at* the compacted revision, etcd only
// below it, so the store checks against the newest compacted revision it knows of (its own
// compactions, and what etcd reports when it refuses one) before asking etcd.
import { readFileSync } from 'node:fs';
import { EtcdWatchMux, type RawWatch } from './etcd-watch.js';
import { EtcdGrpc, type GrpcTls } from './etcd-grpc.js';
import {
  decodeCompaction,
  decodeRange,
  decodeTxn,
  encodeCompaction,
  encodeRange,
  encodeTxn,
  type EtcdKv,
  type RangeRequest,
  type TxnRequest,
  type WatchEvent,
} from './etcd-kv-codec.js';
import { TEXT_CODEC, type EtcdValueCodec } from './etcd-value-codec.js';
import { etcdRange, keyMapping, rangeStart, toEtcdKey, fromEtcdKey, type KeyMapping } from './etcd-keys.js';
import {
  StorageError,
  type KVStore,
  type KeyValue,
  type ListOptions,
  type ListResult,
  type StoreEvent,
  type WatchOptions,
  type Watcher,
  type WriteResult,
  compactedError,
} from './types.js';

export interface EtcdStoreOptions {
  /** etcd client URLs (--etcd-servers). */
  servers: string[];
  /** --etcd-prefix: replaces the `/registry` root of our keys in etcd (default '/registry'). */
  prefix?: string;
  /** The root of our keys that the prefix replaces (default '/registry'; tests use '' for bare keys). */
  root?: string;
  /** PEM files for TLS to etcd (--etcd-cafile, --etcd-certfile, --etcd-keyfile). */
  caFile?: string;
  certFile?: string;
  keyFile?: string;
  /** How long opening waits for etcd to answer (default 10 s). */
  dialTimeoutMs?: number;
  /**
   * kube's --etcd-compaction-interval: every interval, compact what is older than the previous interval,
   * coordinated with every other server on the etcd (default 0: off; `serve` uses kube's 5 minutes).
   */
  compactionIntervalMs?: number;
  /** The values' bytes in etcd (default: the JSON text as is); see etcd-value-codec.ts. */
  codec?: EtcdValueCodec;
}

/** The key kube-apiserver's compactors coordinate on, outside any prefix (its version is the compaction count). */
const COMPACT_REV_KEY = Buffer.from('compact_rev_key');

/** Connect to etcd and check that it answers. */
export async function openEtcdStore(opts: EtcdStoreOptions): Promise<EtcdStore> {
  if (opts.servers.length === 0) throw new Error('--etcd-servers must name at least one etcd URL');
  const store = new EtcdStore(opts);
  const timeout = opts.dialTimeoutMs ?? 10_000;
  try {
    await store.ping(timeout);
  } catch (err) {
    await store.close().catch(() => {});
    throw new StorageError('unavailable', `cannot reach etcd at ${opts.servers.join(',')}: ${message(err)}`);
  }
  return store;
}

interface OpenWatch {
  fail(err: StorageError): void;
}

/** A KVStore on etcd v3. */
export class EtcdStore implements KVStore {
  /** The gRPC connection to etcd (etcd-grpc.ts says why our own). */
  private readonly grpc: EtcdGrpc;
  private readonly keys: KeyMapping;
  private readonly codec: EtcdValueCodec;
  private readonly mux: EtcdWatchMux;
  /** The newest compacted revision known here (see the header). */
  private compacted = 0;
  private readonly inflight = new Set<Promise<unknown>>();
  private readonly watches = new Set<OpenWatch>();
  private closing = false;
  private closed = false;
  private closePromise: Promise<void> | undefined;
  /** A key nobody writes: reading it tells the current revision cheaply. */
  private readonly revisionKey: Buffer;
  private compactTimer: NodeJS.Timeout | undefined;
  /** The compactor's state between ticks: compact_rev_key's version as last seen, and etcd's revision then. */
  private compactVersion = 0;
  private compactNext = 0;

  constructor(opts: EtcdStoreOptions) {
    this.keys = keyMapping(opts.prefix ?? '/registry', opts.root ?? '/registry');
    this.codec = opts.codec ?? TEXT_CODEC;
    let tls: GrpcTls | undefined;
    if (opts.caFile || opts.certFile || opts.keyFile) {
      if ((opts.certFile === undefined) !== (opts.keyFile === undefined)) {
        throw new Error('--etcd-certfile and --etcd-keyfile must be given together');
      }
      tls = {
        ...(opts.caFile && { ca: readFileSync(opts.caFile) }),
        ...(opts.certFile && { cert: readFileSync(opts.certFile) }),
        ...(opts.keyFile && { key: readFileSync(opts.keyFile) }),
      };
    }
    this.grpc = new EtcdGrpc(opts.servers, tls);
    this.mux = new EtcdWatchMux(this.grpc);
    this.revisionKey = Buffer.from(`${this.keys.prefix}\0revision`, 'utf8');
    const interval = opts.compactionIntervalMs ?? 0;
    if (interval > 0) {
      this.compactTimer = setInterval(() => {
        // A failure is retried at the next tick, as kube's compactor does.
        if (!this.closing) this.compactTick().catch(() => {});
      }, interval);
      this.compactTimer.unref();
    }
  }

  /**
   * One step of kube-apiserver's compactor (storage/etcd3/compact.go), so that any number of servers (ours
   * or kube-apiserver's) on one etcd compact once per interval between them: whoever finds compact_rev_key's
   * version where it left it bumps it and compacts at the revision it saw one interval ago; the others learn
   * the version (and the compacted revision) and try again next interval. The first step never compacts.
   */
  async compactTick(): Promise<void> {
    const res = await this.rpc(
      this.txn({
        compare: [{ key: COMPACT_REV_KEY, target: 'version', result: 'equal', revision: this.compactVersion }],
        success: [{ put: { key: COMPACT_REV_KEY, value: Buffer.from(String(this.compactNext)) } }],
        failure: [{ range: { key: COMPACT_REV_KEY } }],
      }),
    );
    const target = this.compactNext;
    this.compactNext = res.revision;
    if (!res.succeeded) {
      const kv = res.responses[0]?.range?.kvs[0];
      this.compactVersion = kv ? kv.version : 0;
      const theirs = kv ? Number(kv.value.toString()) : NaN;
      if (Number.isSafeInteger(theirs) && theirs > 0) this.noteCompacted(theirs);
      return;
    }
    this.compactVersion++;
    if (target > 0) await this.compact(target);
  }

  /** Number of open watches (diagnostics). */
  get watcherCount(): number {
    return this.watches.size;
  }

  /** One read with a deadline: etcd is there and answers. */
  async ping(timeoutMs: number): Promise<number> {
    return (await this.range({ key: this.revisionKey }, Date.now() + timeoutMs)).revision;
  }

  async currentRevision(): Promise<number> {
    this.assertOpen();
    return (await this.rpc(this.range({ key: this.revisionKey }))).revision;
  }

  async compactedRevision(): Promise<number> {
    this.assertOpen();
    return this.compacted;
  }

  async get(key: string): Promise<KeyValue | undefined> {
    this.assertOpen();
    const res = await this.rpc(this.range({ key: toEtcdKey(this.keys, key) }));
    const kv = res.kvs[0];
    return kv && this.toKeyValue(kv);
  }

  async list(prefix: string, opts: ListOptions = {}): Promise<ListResult> {
    this.assertOpen();
    const requested = opts.revision ?? 0;
    if (requested !== 0) {
      if (!Number.isSafeInteger(requested) || requested < 0) throw new RangeError(`invalid revision ${requested}`);
      if (requested <= this.compacted) throw this.compactedError(requested);
    }
    const limit = opts.limit !== undefined && opts.limit > 0 ? Math.floor(opts.limit) : 0;
    const range = etcdRange(this.keys, prefix, opts.after);
    let res;
    try {
      res = await this.rpc(
        this.range({ key: rangeStart(range.key), range_end: range.rangeEnd, limit, revision: requested }),
        requested,
      );
    } catch (err) {
      throw err instanceof StorageError ? err : this.unavailable(err);
    }
    const items = res.kvs.map((kv) => this.toKeyValue(kv));
    const revision = requested !== 0 ? requested : res.revision;
    if (!res.more) return { items, revision, more: false };
    // etcd's count is every key of the range at that revision, the returned ones included.
    return { items, revision, more: true, remaining: res.count - items.length };
  }

  async count(prefix: string): Promise<number> {
    this.assertOpen();
    const range = etcdRange(this.keys, prefix);
    const res = await this.rpc(this.range({ key: rangeStart(range.key), range_end: range.rangeEnd, count_only: true }));
    return res.count;
  }

  async create(key: string, value: string): Promise<WriteResult> {
    this.assertWritable();
    const k = toEtcdKey(this.keys, key);
    const res = await this.rpc(
      this.txn({
        // Absent: its create revision compares as 0 (kube's notFound(key)).
        compare: [{ key: k, target: 'create', result: 'equal', revision: 0 }],
        success: [{ put: { key: k, value: this.codec.toStorage(key, value) } }],
        failure: [{ range: { key: k } }],
      }),
    );
    const revision = res.revision;
    if (!res.succeeded) return this.failed(res.responses[0]?.range?.kvs[0]);
    return { ok: true, kv: { key, value, createRevision: revision, modRevision: revision }, revision };
  }

  async update(key: string, value: string, expectedModRevision: number): Promise<WriteResult> {
    this.assertWritable();
    const k = toEtcdKey(this.keys, key);
    // An absent key's mod revision compares as 0: never let an expected 0 create it.
    if (!(expectedModRevision > 0)) return this.failed((await this.rpc(this.range({ key: k }))).kvs[0]);
    const res = await this.rpc(
      this.txn({
        compare: [{ key: k, target: 'mod', result: 'equal', revision: expectedModRevision }],
        success: [{ put: { key: k, value: this.codec.toStorage(key, value), prev_kv: true } }],
        failure: [{ range: { key: k } }],
      }),
    );
    if (!res.succeeded) return this.failed(res.responses[0]?.range?.kvs[0]);
    const revision = res.revision;
    const prev = res.responses[0]?.put?.prev_kv;
    const createRevision = prev ? prev.create_revision : revision;
    return { ok: true, kv: { key, value, createRevision, modRevision: revision }, revision };
  }

  async delete(key: string, expectedModRevision?: number): Promise<WriteResult> {
    this.assertWritable();
    const k = toEtcdKey(this.keys, key);
    const res = await this.rpc(
      this.txn({
        // Without an expectation, only "it exists" (a delete of nothing is not a write).
        compare:
          expectedModRevision === undefined
            ? [{ key: k, target: 'create', result: 'greater', revision: 0 }]
            : [{ key: k, target: 'mod', result: 'equal', revision: expectedModRevision }],
        success: [{ delete: { key: k, prev_kv: true } }],
        failure: [{ range: { key: k } }],
      }),
    );
    if (!res.succeeded) return this.failed(res.responses[0]?.range?.kvs[0]);
    const prev = res.responses[0]?.delete?.prev_kvs[0];
    // Cannot happen inside the transaction that just found the key; be explicit rather than guess.
    if (!prev) return { ok: false };
    // The value is gone already: one that cannot be read comes back as its bytes rather than failing the delete.
    return { ok: true, kv: this.toKeyValue(prev, true), revision: res.revision };
  }

  watch(prefix: string, opts: WatchOptions): Watcher {
    let open = true;
    let raw: RawWatch | undefined;
    const fail = (err: StorageError): void => {
      if (!open) return;
      open = false;
      this.watches.delete(entry);
      raw?.close();
      opts.onError?.(err);
    };
    const entry: OpenWatch = { fail };
    let refusal: StorageError | undefined;
    if (this.closing) refusal = new StorageError('closed', 'storage is closed');
    else if (this.compacted > 0 && opts.fromRevision <= this.compacted) refusal = this.compactedError(opts.fromRevision);
    if (refusal) {
      // Reported asynchronously: the caller does not have its Watcher yet.
      const err = refusal;
      queueMicrotask(() => fail(err));
      return { close: () => void (open = false) };
    }
    this.watches.add(entry);
    const range = etcdRange(this.keys, prefix);
    raw = this.mux.watch(rangeStart(range.key), range.rangeEnd, opts.fromRevision + 1, {
      onEvents: (events) => {
        for (const e of events) {
          if (!open) return;
          try {
            opts.onEvent(this.toEvent(e));
          } catch (err) {
            fail(new StorageError('closed', `watch ended: its event handler failed: ${message(err)}`));
          }
        }
      },
      onCompacted: (rev) => {
        this.noteCompacted(rev);
        fail(this.compactedError(opts.fromRevision));
      },
      onCanceled: (reason) => fail(new StorageError('unavailable', `etcd ended the watch: ${reason}`)),
    });
    return {
      close: () => {
        if (!open) return;
        open = false;
        this.watches.delete(entry);
        raw?.close();
      },
    };
  }

  async compact(revision: number): Promise<void> {
    this.assertOpen();
    if (revision <= this.compacted) return;
    try {
      await this.rpc(
        this.grpc.call('/etcdserverpb.KV/Compact', encodeCompaction(revision)).then(decodeCompaction),
        revision,
        Math.max(1, revision - 1),
      );
      this.noteCompacted(revision);
    } catch (err) {
      // Someone compacted further already: nothing left to do.
      if (err instanceof StorageError && err.code === 'compacted') return;
      throw err;
    }
  }

  /** Requests in flight complete; open watches end with 'closed'; the connection closes. */
  close(): Promise<void> {
    this.closePromise ??= this.shutdown();
    return this.closePromise;
  }

  private async shutdown(): Promise<void> {
    this.closing = true;
    clearInterval(this.compactTimer);
    await Promise.allSettled([...this.inflight]);
    const closed = new StorageError('closed', 'storage is closed');
    for (const w of [...this.watches]) w.fail(closed);
    this.mux.close();
    this.closed = true;
    this.grpc.close();
  }

  // ---- helpers ----

  private range(req: RangeRequest, deadline?: number) {
    return this.grpc.call('/etcdserverpb.KV/Range', encodeRange(req), { idempotent: true, deadline }).then(decodeRange);
  }

  private txn(req: TxnRequest) {
    return this.grpc.call('/etcdserverpb.KV/Txn', encodeTxn(req)).then(decodeTxn);
  }

  /** Track a request (close waits for it) and turn etcd's errors into StorageErrors. */
  private rpc<T>(p: Promise<T>, revision?: number, probeFrom?: number): Promise<T> {
    const tracked = p.catch((err: unknown) => this.translate(err, revision, probeFrom));
    this.inflight.add(tracked);
    void tracked.finally(() => this.inflight.delete(tracked)).catch(() => {});
    return tracked;
  }

  private async translate(err: unknown, revision: number | undefined, probeFrom: number | undefined): Promise<never> {
    const msg = message(err);
    if (revision !== undefined && revision > 0) {
      if (msg.includes('required revision has been compacted')) {
        // A read is refused below the compact revision, a compaction at or below it.
        await this.learnCompacted(probeFrom ?? revision);
        throw this.compactedError(revision);
      }
      if (msg.includes('required revision is a future revision')) {
        const current = await this.currentRevision().catch(() => undefined);
        throw new StorageError('future', `required revision ${revision} is a future revision (current revision ${current ?? 'unknown'})`, current);
      }
    }
    throw this.unavailable(err);
  }

  /**
   * etcd refused revision as compacted without saying up to where. A watch from it is refused with
   * the compact revision in the answer; until that arrives, what we know is "above revision".
   */
  private learnCompacted(revision: number): Promise<void> {
    this.noteCompacted(revision);
    return new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        probe.close();
        resolve();
      }, 2_000);
      const done = (): void => {
        clearTimeout(timer);
        resolve();
      };
      const probe = this.mux.watch(this.revisionKey, Buffer.alloc(0), revision, {
        onEvents: () => {},
        onCompacted: (rev) => {
          this.noteCompacted(rev);
          done();
        },
        onCanceled: done,
      });
    });
  }

  private noteCompacted(revision: number): void {
    if (revision > this.compacted) this.compacted = revision;
  }

  /** Our view of an etcd key-value: the value decoded (throws when it cannot be, unless lenient). */
  private toKeyValue(kv: EtcdKv, lenient = false): KeyValue {
    const key = fromEtcdKey(this.keys, kv.key);
    let decoded;
    try {
      decoded = this.codec.fromStorage(key, kv.value);
    } catch (err) {
      if (!lenient) throw err;
      decoded = { value: kv.value.toString('utf8') };
    }
    return {
      key,
      value: decoded.value,
      ...(decoded.stale && { stale: true }),
      createRevision: kv.create_revision,
      modRevision: kv.mod_revision,
    };
  }

  private toEvent(e: WatchEvent): StoreEvent {
    const prev = e.prev_kv ? this.toKeyValue(e.prev_kv) : undefined;
    if (e.type === 'delete') {
      // etcd's tombstone has only the key and the deletion's revision; ours carries the last value.
      const kv: KeyValue = {
        key: fromEtcdKey(this.keys, e.kv.key),
        value: prev?.value ?? '',
        createRevision: prev?.createRevision ?? 0,
        modRevision: e.kv.mod_revision,
      };
      return { type: 'delete', kv, ...(prev && { prev }) };
    }
    return { type: 'put', kv: this.toKeyValue(e.kv), ...(prev && { prev }) };
  }

  private failed(current: EtcdKv | undefined): WriteResult {
    return current ? { ok: false, current: this.toKeyValue(current) } : { ok: false };
  }

  private assertOpen(): void {
    if (this.closed) throw new StorageError('closed', 'storage is closed');
  }

  private assertWritable(): void {
    if (this.closing) throw new StorageError('closed', 'storage is closed');
  }

  private compactedError(revision: number): StorageError {
    return compactedError(revision, this.compacted);
  }

  private unavailable(err: unknown): StorageError {
    if (err instanceof StorageError) return err;
    return new StorageError('unavailable', `etcd: ${message(err)}`);
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

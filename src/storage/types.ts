// The revisioned key-value store every resource lives in. Shaped after etcd v3 so that an etcd
// backend implements it as is: one global revision counter, per-key create/mod revisions,
// compare-and-swap writes, watch from a revision, compaction.

export interface KeyValue {
  key: string;
  /** The stored bytes: the object's JSON without metadata.resourceVersion. */
  value: string;
  createRevision: number;
  modRevision: number;
  /**
   * Set when the stored bytes were not written as the current encryption configuration writes them
   * (read by a provider other than the first): an update then writes even an unchanged value, so
   * that rewriting objects completes a key rotation (kube's "stale" in GuaranteedUpdate).
   */
  stale?: boolean;
}

export type WatchEventType = 'put' | 'delete';

export interface StoreEvent {
  type: WatchEventType;
  /** For a delete: the key with the deletion's revision as modRevision and the last value. */
  kv: KeyValue;
  /** The value before this event, when there was one. */
  prev?: KeyValue;
}

export interface ListOptions {
  /** At most this many keys; 0 or absent means all. */
  limit?: number;
  /** Start strictly after this key (a continue token decodes to it). */
  after?: string;
  /** Read as of this revision (must not be compacted); absent means the newest. */
  revision?: number;
  /** false: leave `remaining` out (counting it reads every key after the page; a reader of every page needs it not). */
  countRemaining?: boolean;
}

export interface ListResult {
  items: KeyValue[];
  /** The revision the list was read at. */
  revision: number;
  /** True when there are keys after the last item. */
  more: boolean;
  /** How many keys remain after the last item (only when more). */
  remaining?: number;
}

/** A label an object must have: with one of `values`, or any value when absent. */
export interface LabelRequirement {
  key: string;
  values?: readonly string[];
}

/** What a label-selected list asks a store's label index for (KVStore.listByLabels). */
export interface LabelQuery {
  /** The keys the index covers: the resource's, ending with '/'; the listed prefix lies within. */
  scope: string;
  /** Requirements every selected object meets (at least one). */
  required: readonly LabelRequirement[];
}

/** A list by labels: every item meets `met` as its stored bytes read, except those at `unread`. */
export interface LabelListResult extends ListResult {
  /** The requirement the index took the items by. */
  met: LabelRequirement;
  /** Indexes of the items whose labels could not be read from their bytes (ascending). */
  unread: readonly number[];
}

/**
 * Outcome of a conditional write. On success `revision` is the write's own revision and `kv` the new
 * value (for create and update, kv.modRevision === revision) or, for delete, the value that was
 * deleted (with its last modRevision). On failure `current` is the key's value now, if any.
 */
export type WriteResult =
  | { ok: true; kv: KeyValue; revision: number }
  | { ok: false; current?: KeyValue };

export interface Watcher {
  /** Stop delivering events; idempotent. */
  close(): void;
}

export interface WatchOptions {
  /** Deliver every event with a revision greater than this. */
  fromRevision: number;
  /**
   * Called for each event, in revision order, never concurrently, and never from within watch().
   * If it throws, the watch ends with a 'closed' error; other watches are unaffected.
   */
  onEvent(ev: StoreEvent): void;
  /**
   * Called once if the watch cannot continue, e.g. 'compacted' (history it still needs is gone; a
   * watch from a compacted revision fails before any event) or 'closed' (the store closed).
   */
  onError?(err: StorageError): void;
  /**
   * Backpressure for a replay of history: asked between batches of past events, a promise to wait for before
   * the next (the consumer's output is full), or undefined to go on. Live events are never held back.
   */
  backlogFull?(): Promise<void> | undefined;
}

/** KVStore.getAtHand's answer when the value cannot be had without waiting. */
export const NOT_AT_HAND: unique symbol = Symbol('not at hand');

export class StorageError extends Error {
  constructor(
    readonly code: 'compacted' | 'future' | 'unavailable' | 'closed',
    message: string,
    readonly revision?: number,
  ) {
    super(message);
  }
}

/** etcd's error for a read or watch at a revision compaction removed, as both backends word it. */
export const compactedError = (revision: number, compacted: number): StorageError =>
  new StorageError('compacted', `required revision ${revision} has been compacted (compacted revision ${compacted})`, compacted);

/**
 * Every method's result reflects every write whose promise resolved before the call was made
 * (read-your-writes), also for a store that serves reads from a cache.
 * test/storage/kv-suite.ts checks an implementation against this interface.
 */
export interface KVStore {
  /** The newest revision (0 on an empty store). */
  currentRevision(): Promise<number>;
  /** The newest compacted revision; reads and watches at or below it fail with 'compacted'. */
  compactedRevision(): Promise<number>;
  get(key: string): Promise<KeyValue | undefined>;
  /**
   * get, answered without waiting where the store can (a watch cache serving alone on its store): the value,
   * or undefined when the key is absent; NOT_AT_HAND when only get can tell. Read-your-writes as get.
   */
  getAtHand?(key: string): KeyValue | undefined | typeof NOT_AT_HAND;
  /** Keys starting with prefix, in key order. */
  list(prefix: string, opts?: ListOptions): Promise<ListResult>;
  count(prefix: string): Promise<number>;
  /**
   * list, narrowed by a label index where the store keeps one: the keys that may meet every requirement (all
   * that do, and maybe others; the caller applies its selector), in key order; `more` when any key under
   * prefix, candidate or not, follows the last item, as list's own; no `remaining`. Undefined when the index
   * cannot answer (an older revision, the cache not current): list instead.
   */
  listByLabels?(prefix: string, query: LabelQuery, opts?: ListOptions): Promise<LabelListResult | undefined>;
  /** Create if absent; fails (ok: false, current) when the key exists. */
  create(key: string, value: string): Promise<WriteResult>;
  /** Replace if the key's modRevision equals expected; fails with the current value otherwise (or absent). */
  update(key: string, value: string, expectedModRevision: number): Promise<WriteResult>;
  /** Delete if present and (when given) its modRevision equals expected. */
  delete(key: string, expectedModRevision?: number): Promise<WriteResult>;
  /** Watch keys starting with prefix. */
  watch(prefix: string, opts: WatchOptions): Watcher;
  /** Drop history at and below revision; a no-op at or below the compacted revision, 'future' past the newest. */
  compact(revision: number): Promise<void>;
  /** Writes already issued complete; open watches end with 'closed'; later calls fail with 'closed'. Idempotent. */
  close(): Promise<void>;
}

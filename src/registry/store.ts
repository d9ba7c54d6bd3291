// The generic resource store: one implementation of get/list/watch/create/update/delete over the
// revisioned KV store, for every resource type. Strategies supply what differs between types.
import { randomUUID } from 'node:crypto';
import type { KVStore, KeyValue, LabelListResult, LabelQuery, ListResult as KVListResult, StoreEvent, WatchOptions, Watcher } from '../storage/types.js';
import { positiveRequirements, type LabelSelector } from './selectors.js';
import { NOT_AT_HAND, StorageError } from '../storage/types.js';
import { labelPairsInSlab, labelRecord } from '../storage/stored-labels.js';
import { asciiBytes, storedResourceVersionAt, valueIs, valueLength, valueStartsWith, type AsciiBytes } from '../storage/value-slabs.js';
import * as S from '../api/status.js';
import { invalid, required, type FieldError } from '../api/field-error.js';
import { goRendered } from '../schema/objectmeta.js';
import type { JSONObject } from '../util/json.js';
import { isObject, isPlainJson, sortKeysDeep, sortKeysDeepChecked, sortKeysDeepShared, deepCopyJSON } from '../util/json.js';
import { rfc3339 } from '../util/time.js';
import type { ResourceType, Subresource } from './resource-type.js';
import { gcFinalizers, markAsDeleting, setFinalizers, shouldDeleteDuringUpdate, type DeleteOptions } from './deletion.js';
import { NO_ADMISSION, type Admission, type AdmissionAttributes, type LatencyTracker } from './admission.js';
import type { UserInfo } from '../api/user.js';
import { FieldManager } from './field-manager/field-manager.js';

export type { ObjectMeta } from '../api/meta.js';
import type { ObjectMeta } from '../api/meta.js';
import { parseJSON, stringifyJSON } from '../util/json-int64.js';
import { REUSE_MIN_TEXT, spliceStoredText, unchangedMember } from './stored-text-reuse.js';
import { objectEnd, resourceVersionAt, storedLabels } from '../util/stored-json.js';

export const metaOf = (obj: JSONObject): ObjectMeta => {
  if (!isObject(obj['metadata'])) obj['metadata'] = {};
  return obj['metadata'] as ObjectMeta;
};

export interface ListOptions {
  namespace: string;
  labelMatch?: (labels: Record<string, string>) => boolean;
  /** The selector labelMatch matches, when it is a label selector: a store's label index narrows the list by it. */
  labelSelector?: LabelSelector;
  fieldMatch?: (fields: Record<string, string>) => boolean;
  limit?: number;
  continueToken?: string;
  /** Exact revision to read at (from a continue token or resourceVersionMatch=Exact). */
  revision?: number;
  /** Read at least this fresh (NotOlderThan). */
  minRevision?: number;
  /**
   * false: no remainingItemCount. Counting it reads every key after the page, which a reader of every page
   * (an informer's relist) pays for at each one; from a store without the cache, that is per page O(keys).
   */
  countRemaining?: boolean;
}

/** Label and field selectors, as matchers over an object's labels and selectable fields. */
export type ListFilter = Pick<ListOptions, 'labelMatch' | 'labelSelector' | 'fieldMatch'>;

/** An update's object as read and the stored key-value it was read from (encodeStored's `previous`). */
interface PreviousStored {
  object: JSONObject;
  kv: KeyValue;
}

/** A delete's scope: the requester, and whether mutating admission already ran (each item of a deletecollection). */
interface DeleteScope extends RequestScope {
  admitted?: boolean;
  /** Collects validating admission's warnings for the response. */
  warnings?: string[];
}

export interface ListResult {
  items: JSONObject[];
  resourceVersion: string;
  continueToken?: string;
  remainingItemCount?: number;
}

export type WatchEventType = 'ADDED' | 'MODIFIED' | 'DELETED' | 'BOOKMARK' | 'ERROR';

export interface WatchEvent {
  type: WatchEventType;
  object: JSONObject;
}

/**
 * A watch event as a JSON watch stream writes it (GenericStore.watchStored): the object, or, when it is
 * served as stored, its stored JSON text with the place its resourceVersion goes, undecoded.
 */
export type StoredWatchEvent = WatchEvent | { type: WatchEventType; raw: RawObject; object?: undefined };

export type { DeleteOptions } from './deletion.js';

interface WriteOptions extends RequestScope {
  dryRun?: boolean;
  /**
   * The manager an Update operation is recorded for in managedFields (fieldManager, else from the User-Agent);
   * absent, managedFields are left as the write has them (a server-side apply records its own).
   */
  manager?: string;
  /** An apply patch creates a missing object even where PUT does not (rest.Update's forceAllowCreate). */
  forceAllowCreate?: boolean;
  /** Collects the strategy's warnings for the response. */
  warnings?: string[];
  /**
   * The object written is the caller's to give away (a request body decoded for this write, a status write's
   * copy): nothing changes it or its parts afterwards, so the object built for storage, which shares parts with
   * it, may be the write's watch event object (read-only to every watcher) instead of a decode of its bytes.
   */
  givenAway?: boolean;
}

interface UpdateOptions extends WriteOptions {
  /**
   * How the copy of the current object that `mutate` gets is made: a deep copy unless given. A caller whose mutate
   * only replaces top-level fields (and metadata's) may share the rest with the current object, which stays the
   * old object of the update (the CRD controllers' status writes: a deep copy of the schemas, each time, for nothing).
   */
  copyCurrent?: (current: JSONObject) => JSONObject;
  /** `mutate` does not read the current object (a PUT's body replaces it): it gets none of its own, no copy made. */
  replacesCurrent?: boolean;
  /**
   * The current object as the caller has it from this store's watch (an informer's, unchanged): taken as the
   * object read, instead of decoding the stored bytes again, when it is the watch event's own object for the
   * key's current revision (sharedCurrent). It is then the update's old object, shared with every watcher:
   * nothing in an update changes its old object (test/crd/status-update.test.ts writes with it frozen).
   */
  readAs?: JSONObject;
}

/** Who is writing, for admission: the request's user (absent for the server's own writes). */
interface RequestScope {
  user?: UserInfo;
  /** Where admission webhooks add the time they took (the request's SLI latency leaves it out). */
  latency?: LatencyTracker;
}

const GENERATE_CHARS = 'bcdfghjklmnpqrstvwxz2456789';
const randomSuffix = (): string => {
  let s = '';
  for (let i = 0; i < 5; i++) s += GENERATE_CHARS[Math.floor(Math.random() * GENERATE_CHARS.length)];
  return s;
};

const MAX_CONFLICT_RETRIES = 5;

export class GenericStore {
  constructor(
    readonly kv: KVStore,
    readonly type: ResourceType,
    private readonly admission: Admission = NO_ADMISSION,
  ) {}

  private readonly fieldManagers = new Map<Subresource, FieldManager>();

  /** The field manager of writes through `sub`, when the type tracks managed fields. */
  fieldManager(sub: Subresource): FieldManager | undefined {
    const types = this.type.managedFields;
    if (!types) return undefined;
    let fm = this.fieldManagers.get(sub);
    if (!fm) {
      const { group, version, kind } = this.type.served;
      fm = new FieldManager({ types, group, version, kind, subresource: sub, resetFields: this.type.strategy.resetFields?.(sub) });
      this.fieldManagers.set(sub, fm);
    }
    return fm;
  }

  /** Admission attributes for a write through this endpoint. */
  private attrs(a: Omit<AdmissionAttributes, 'resource'>): AdmissionAttributes {
    return { resource: this.type.served, ...a };
  }

  /**
   * rest.BeforeCreate/BeforeUpdate's NewInvalid names the group-kind of the object: a typed object's is its
   * registered kind, an unstructured one's (custom resources) the kind and group it was sent with.
   */
  private invalidObject(obj: JSONObject, name: string, errs: FieldError[]): S.StatusError {
    if (this.type.goType) return S.invalid(this.type.served.group, this.type.served.kind, name, errs);
    const apiVersion = typeof obj['apiVersion'] === 'string' ? obj['apiVersion'] : '';
    const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
    return S.invalid(group, typeof obj['kind'] === 'string' ? obj['kind'] : '', name, errs);
  }

  private get gr(): S.GroupResource {
    return this.type.gr;
  }

  key(namespace: string, name: string): string {
    return this.type.served.namespaced ? `${this.type.keyPrefix}${namespace}/${name}` : `${this.type.keyPrefix}${name}`;
  }

  private prefix(namespace: string): string {
    return this.type.served.namespaced && namespace ? `${this.type.keyPrefix}${namespace}/` : this.type.keyPrefix;
  }

  /**
   * Stored bytes to an object at this endpoint's version, with its resourceVersion, for types whose
   * conversion is local (no asyncCodec); `read` serves every type.
   */
  decode(kv: KeyValue, revision = kv.modRevision): JSONObject {
    const parsed = parseJSON(kv.value) as JSONObject;
    const obj = this.servedAsStored(kv) ? parsed : this.type.fromStorage(parsed);
    setResourceVersion(obj, String(revision));
    return obj;
  }

  /**
   * Whether this endpoint serves the stored object as it is: stored at its version, written after its schema
   * last changed (so pruning it again changes nothing), nothing to default.
   */
  private servedAsStored(kv: KeyValue): boolean {
    const prefix = this.type.storedBytesPrefix;
    // Without decoding a cached value (value-slabs.ts): only the prefix's bytes are read.
    return prefix !== undefined && valueStartsWith(kv, prefix) && kv.modRevision > (this.type.rawSinceRevision ?? 0);
  }

  /** Stored bytes to an object at this endpoint's version, through the type's conversion. */
  async read(kv: KeyValue, revision = kv.modRevision): Promise<JSONObject> {
    if (!this.type.asyncCodec || this.servedAsStored(kv)) return this.decode(kv, revision);
    const [obj] = await this.type.asyncCodec.decode([parseJSON(kv.value) as JSONObject]);
    setResourceVersion(obj!, String(revision));
    return obj!;
  }

  /** Many stored objects at once: a conversion webhook gets them all in one review. */
  async readAll(kvs: readonly KeyValue[]): Promise<JSONObject[]> {
    const codec = this.type.asyncCodec;
    if (!codec) return kvs.map((kv) => this.decode(kv));
    const out: (JSONObject | undefined)[] = kvs.map((kv) => (this.servedAsStored(kv) ? this.decode(kv) : undefined));
    const todo = kvs.filter((_, i) => out[i] === undefined);
    if (todo.length === 0) return out as JSONObject[];
    const objs = await codec.decode(todo.map((kv) => parseJSON(kv.value) as JSONObject));
    let j = 0;
    return out.map((o, i) => {
      if (o) return o;
      const obj = objs[j++]!;
      setResourceVersion(obj, String(kvs[i]!.modRevision));
      return obj;
    });
  }

  /**
   * Objects as response JSON, without parsing what is served as stored: `item(i)` gives the i-th object's
   * text, with the place its resourceVersion goes. What needs decoding is decoded first, in one batch (a
   * conversion fails before anything is sent), and written out when its item is asked for.
   */
  async rawObjects(kvs: readonly KeyValue[]): Promise<RawObjects> {
    const at = kvs.map((kv) => this.resourceVersionAt(kv));
    const todo = kvs.filter((_, i) => at[i]! < 0);
    const decoded = todo.length > 0 ? await this.readAll(todo) : [];
    // Item index to its place among the decoded.
    const index = new Map<number, number>();
    if (decoded.length > 0) at.forEach((a, i) => a < 0 && index.set(i, index.size));
    let size = 0;
    for (const kv of kvs) size += valueLength(kv);
    return {
      length: kvs.length,
      size,
      item: (i) => {
        const kv = kvs[i]!;
        const a = at[i]!;
        if (a >= 0) {
          // A cached value's bytes are copied as they are; its text is decoded only if asked for.
          const bytes = asciiBytes(kv);
          if (bytes !== undefined) return new SlabRawObject(kv, bytes, a, String(kv.modRevision));
          return { text: kv.value, at: a, resourceVersion: String(kv.modRevision) };
        }
        return { text: stringifyJSON(decoded[index.get(i)!]), at: -1, resourceVersion: '' };
      },
    };
  }

  /**
   * rawObjects of one key-value, at once when it is served as stored (no batch to make for a write's or a GET's
   * answer); undefined when it needs decoding (then rawObjects). `text`: kv's value when the caller has it (a
   * write's), which a value held in a slab would otherwise decode again.
   */
  rawObjectAsStored(kv: KeyValue, text?: string): RawObject | undefined {
    const at = this.resourceVersionAt(kv);
    return at < 0 ? undefined : { text: text ?? kv.value, at, resourceVersion: String(kv.modRevision) };
  }

  /**
   * Objects as served: those served as stored parsed one at a time as `item(i)` asks (a long list is never
   * all decoded at once); the others converted first, in one batch, so that a failure comes before any output.
   */
  async lazyObjects(kvs: readonly KeyValue[]): Promise<{ readonly length: number; item(i: number): JSONObject }> {
    const local = kvs.map((kv) => this.servedAsStored(kv));
    const todo = kvs.filter((_, i) => !local[i]);
    const converted = todo.length > 0 ? await this.readAll(todo) : [];
    const index = new Map<number, number>();
    if (converted.length > 0) local.forEach((l, i) => !l && index.set(i, index.size));
    return { length: kvs.length, item: (i) => (local[i] ? this.decode(kvs[i]!) : converted[index.get(i)!]!) };
  }

  /**
   * Where the resourceVersion goes in the stored bytes, or -1 when they are not served as they are. Finding
   * it scans the whole object (the placeholder must be there once only), as long as writing it out takes: the
   * watch cache's values have it found as they are cached; others' remembered for as long as the key-value lives.
   */
  private resourceVersionAt(kv: KeyValue): number {
    if (!this.servedAsStored(kv)) return -1;
    let at = storedResourceVersionAt(kv) ?? this.placeholders.get(kv);
    if (at === undefined) this.placeholders.set(kv, (at = resourceVersionAt(kv.value)));
    return at;
  }

  private readonly placeholders = new WeakMap<KeyValue, number>();

  /**
   * What a Table row of a stored object served as it is is made from, without parsing it again: where its
   * metadata object is in the stored bytes (from its `{` to after its `}`, the resourceVersion's place inside
   * it) and its cells (TableConvertor.cellsAt, made from `obj` the first time). Undefined when the bytes are
   * not served as stored, the metadata does not follow the apiVersion and kind, or the type's convertor
   * cannot keep its cells. Remembered for as long as the key-value lives, as the resourceVersion's place is.
   */
  tableRowParts(kv: KeyValue, obj: () => JSONObject): TableRowParts | undefined {
    const cellsAt = this.type.table.cellsAt;
    if (!cellsAt || !this.servedAsStored(kv)) return undefined;
    let parts = this.rowParts.get(kv);
    if (parts === undefined) {
      const at = this.resourceVersionAt(kv);
      const key = '"metadata":{';
      const start = this.type.storedBytesPrefix!.length + key.length - 1;
      const end = kv.value.startsWith(key, start - key.length + 1) ? objectEnd(kv.value, start) : -1;
      parts = at > start && end > at ? { start, end, at, cells: cellsAt(obj()) } : null;
      this.rowParts.set(kv, parts);
    }
    return parts ?? undefined;
  }

  private readonly rowParts = new WeakMap<KeyValue, TableRowParts | null>();

  /**
   * Watch events reach every watcher of a prefix as the same event object: decode once for all of them.
   * Keyed by the event (short-lived), not the key-value, which a cache may keep for as long as it is current.
   */
  private decodeShared(ev: StoreEvent, which: 'kv' | 'prev' | 'left'): JSONObject {
    let entry = this.shared.get(ev);
    if (!entry) {
      entry = {};
      this.shared.set(ev, entry);
    }
    if (which === 'left') {
      // The previous object at the event's revision: a copy, since the previous object is shared too.
      const prev = this.decodeShared(ev, 'prev');
      return (entry.left ??= { ...prev, metadata: { ...metaOf(prev), resourceVersion: String(ev.kv.modRevision) } });
    }
    if (which === 'kv') {
      if (entry.kv === undefined) {
        entry.kv = (ev.type === 'put' ? this.takeBuilt(ev.kv) : undefined) ?? this.decode(ev.kv);
        if (ev.type === 'put' && this.remembersEventObjects) this.eventObjects.set(entry.kv, ev.kv.key);
      }
      return entry.kv;
    }
    return (entry.prev ??= this.decode(ev.prev!));
  }

  /**
   * The objects of put events decoded here (all of the stored bytes, or their built object: decode's result
   * either way), by the key they are the value of; with their resourceVersion, the key-value they are.
   * Weak: an entry lives as long as its object (an informer's cache holds it).
   */
  private readonly eventObjects = new WeakMap<JSONObject, string>();
  /**
   * Whether put events' objects are remembered (rememberEventObjects): only where updates are given `readAs`.
   * Other stores never pay for it: a million creates' events would each add an entry, dead ones cleared only by
   * full collections.
   */
  private remembersEventObjects = false;

  /** From now on, remember put events' objects, for updates given `readAs` (the CRD controllers' status writes). */
  rememberEventObjects(): void {
    this.remembersEventObjects = true;
  }

  /**
   * `readAs` when it is what reading `kv` gives: a put event's object of this store for kv's key at kv's
   * revision (the key's value at a revision is one), which its watchers never change. Else undefined.
   */
  private sharedCurrent(kv: KeyValue, readAs: JSONObject | undefined): JSONObject | undefined {
    if (readAs === undefined || this.type.asyncCodec || this.eventObjects.get(readAs) !== kv.key) return undefined;
    const meta = readAs['metadata'];
    return isObject(meta) && meta['resourceVersion'] === String(kv.modRevision) ? readAs : undefined;
  }

  private readonly shared = new WeakMap<StoreEvent, { kv?: JSONObject; prev?: JSONObject; left?: JSONObject }>();
  /** Conversions of watch events under way, shared by every watcher that needs them. */
  private readonly converting = new WeakMap<StoreEvent, Promise<void>>();

  /**
   * Converts the objects of watch events through the async codec into the shared cache, all in one call
   * (except events another watcher is already converting: those are awaited).
   */
  private async convertEvents(events: readonly StoreEvent[], withPrev: boolean): Promise<void> {
    const pending: Promise<void>[] = [];
    const todo: { ev: StoreEvent; which: 'kv' | 'prev' }[] = [];
    for (const ev of events) {
      const running = this.converting.get(ev);
      if (running) {
        pending.push(running);
        continue;
      }
      const entry = this.shared.get(ev);
      if (!entry?.kv) todo.push({ ev, which: 'kv' });
      if (withPrev && ev.prev && !entry?.prev) todo.push({ ev, which: 'prev' });
    }
    if (todo.length > 0) {
      const run = this.readAll(todo.map((t) => (t.which === 'kv' ? t.ev.kv : t.ev.prev!))).then((objs) => {
        todo.forEach((t, i) => {
          let entry = this.shared.get(t.ev);
          if (!entry) this.shared.set(t.ev, (entry = {}));
          entry[t.which] = objs[i]!;
        });
      });
      for (const t of todo) this.converting.set(t.ev, run);
      // Once settled, later watchers read the cache (or retry after a failure).
      const forget = (): void => todo.forEach((t) => this.converting.delete(t.ev));
      run.then(forget, forget);
      pending.push(run);
    }
    await Promise.all(pending);
  }

  private async encode(obj: JSONObject): Promise<string> {
    return (await this.encodeBuilt(obj)).value;
  }

  /**
   * The stored bytes of an object, and the object they are the JSON text of when it is a fresh copy that
   * parsing them would give back exactly (see `built`), else undefined.
   */
  private encodeBuilt(obj: JSONObject, givenAway = false, previous?: PreviousStored): Promise<{ value: string; built: JSONObject | undefined }> | { value: string; built: JSONObject | undefined } {
    // Without a conversion webhook, at once: no async function and promise per write for nothing.
    const codec = this.type.asyncCodec;
    return codec ? codec.encode(obj).then((stored) => this.encodeStored(stored)) : this.encodeStored(this.type.toStorage(obj), givenAway, previous);
  }

  private encodeStored(stored: JSONObject, givenAway = false, previous?: PreviousStored): { value: string; built: JSONObject | undefined } {
    // An empty resourceVersion holds its place in the canonical key order; reads fill it in.
    const meta = { ...metaOf(stored), resourceVersion: '' };
    const order = this.type.storedOrder ?? this.type.strategy.canonicalize;
    const unordered = { ...stored, metadata: meta };
    // An update that kept the spec of the object it read (a /status write) takes the spec's text from the text it
    // replaces (stored-text-reuse.ts); the object built for the watch event then holds the spec read, whose key
    // order is that text's.
    const kept = previous && unchangedMember(stored, previous.object);
    const serialize = (ordered: JSONObject, orderPrior: (o: JSONObject) => JSONObject): { value: string; made: JSONObject } => {
      if (!kept || !previous) return { value: stringifyJSON(ordered), made: ordered };
      const value = this.keptMemberText(ordered, kept, stored, previous, orderPrior);
      return value === undefined ? { value: stringifyJSON(ordered), made: ordered } : { value, made: { ...ordered, [kept]: previous.object[kept] } };
    };
    // sortKeysDeep copies at every depth, so its copy can be handed on (other orders share members with
    // the request's object); only what is served as stored is.
    if (order !== sortKeysDeep || this.type.storedBytesPrefix === undefined) {
      const ordered = order(unordered);
      const { value, made } = serialize(ordered, order);
      // Other orders copy only along the type's structs: their result is handed on only when the caller gave its
      // object away, and only in plain JSON (isPlainJson: parsing its text gives it back exactly). A check, no copy.
      const plain = givenAway && this.type.storedBytesPrefix !== undefined && isPlainJson(ordered);
      return { value, built: plain ? made : undefined };
    }
    // An object given away may share what is in order already with its sorted form (the event's object then
    // shares it with the request's, which nothing changes after the write: see `built`).
    const { copy, plain } = givenAway ? sortKeysDeepShared(unordered) : sortKeysDeepChecked(unordered);
    const { value, made } = serialize(copy, (o) => sortKeysDeepShared(o).copy);
    return { value, built: plain ? made : undefined };
  }

  /**
   * What an update may take a kept member's text from: the object read and the key-value whose text it is, when
   * reading it only parsed that text (served as stored: no conversion, nothing defaulted) and the text is large.
   */
  private previousStored(kv: KeyValue, current: JSONObject): PreviousStored | undefined {
    if (this.type.asyncCodec || valueLength(kv) < REUSE_MIN_TEXT || !this.servedAsStored(kv)) return undefined;
    return { object: current, kv };
  }

  /** The stored text of `ordered` with member `kept`'s text from the previous stored text (spliceStoredText), if it fits. */
  private keptMemberText(ordered: JSONObject, kept: string, stored: JSONObject, previous: PreviousStored, orderPrior: (o: JSONObject) => JSONObject): string | undefined {
    const prior = previous.object;
    // The previous object as its text was made: at the storage version (previousStored), resourceVersion empty.
    const priorOrdered = orderPrior({ ...prior, metadata: { ...metaOf(prior), resourceVersion: '' } });
    const same = new Set<string>();
    for (const k of Object.keys(stored)) if (k !== kept && k !== 'metadata' && stored[k] === prior[k]) same.add(k);
    return spliceStoredText(ordered, priorOrdered, previous.kv.value, kept, same);
  }

  /**
   * Objects this store is writing, by key, as built in memory: the text of each is the value being written.
   * The watch event of the write takes it instead of parsing the value again (watchers share one decoded
   * object per event, and never change it). Kept until the write settles.
   */
  private readonly building = new Map<string, { value: string; built: JSONObject }>();

  /** A kv write of `value`, announcing its built object to the watch event the write makes. */
  private async writeBuilt<T>(key: string, value: string, built: JSONObject | undefined, write: () => Promise<T>): Promise<T> {
    if (!built) return write();
    const entry = { value, built };
    this.building.set(key, entry);
    try {
      return await write();
    } finally {
      if (this.building.get(key) === entry) this.building.delete(key);
    }
  }

  /** The object built for the write whose event this is, if its bytes are served as they are. Taken once. */
  private takeBuilt(kv: KeyValue): JSONObject | undefined {
    const entry = this.building.get(kv.key);
    if (!entry || entry.value !== kv.value || !this.servedAsStored(kv)) return undefined;
    this.building.delete(kv.key);
    setResourceVersion(entry.built, String(kv.modRevision));
    return entry.built;
  }

  async get(namespace: string, name: string): Promise<JSONObject> {
    return this.read(await this.getKV(namespace, name));
  }

  /**
   * get, with undefined for a missing object instead of a 404: no Status is made for it (with its stack), for
   * callers that expect absence (start-up checks its ~200 bootstrap objects that way, token checks their objects).
   */
  async find(namespace: string, name: string): Promise<JSONObject | undefined> {
    const kv = await this.storedKV(namespace, name);
    return kv === undefined ? undefined : this.read(kv);
  }

  /**
   * Removes an object as the expiry of its etcd lease would (events' --event-ttl): no admission, no
   * finalizers, only if it was not written since `revision`. Watches see it DELETED. Whether it was removed.
   */
  async expire(namespace: string, name: string, revision: number): Promise<boolean> {
    return (await this.kv.delete(this.key(namespace, name), revision)).ok;
  }

  /**
   * The object as get gives it, decoded once per stored key-value (a caching store hands out the same one
   * while it is current) and shared by every caller, who must not change it: for lookups on every request.
   */
  async getShared(namespace: string, name: string): Promise<JSONObject> {
    return this.sharedRead(await this.getKV(namespace, name));
  }

  /**
   * getShared with undefined for a missing object (as find): at once when the cache holds the object in memory
   * and it was read shared before (sharedAtHand), else a promise. Admission's namespace lookup of every
   * namespaced write takes no promise so.
   */
  findShared(namespace: string, name: string): JSONObject | undefined | Promise<JSONObject | undefined> {
    const atHand = this.sharedAtHand(namespace, name);
    return atHand !== NOT_AT_HAND ? atHand : this.findSharedLater(namespace, name);
  }

  private async findSharedLater(namespace: string, name: string): Promise<JSONObject | undefined> {
    const kv = await this.storedKV(namespace, name);
    return kv === undefined ? undefined : this.sharedRead(kv);
  }

  private async sharedRead(kv: KeyValue): Promise<JSONObject> {
    let obj = this.sharedReads.get(kv);
    if (obj === undefined) this.sharedReads.set(kv, (obj = await this.read(kv)));
    return obj;
  }

  private readonly sharedReads = new WeakMap<KeyValue, JSONObject>();

  /**
   * getShared at once, when the cache holds the object in memory and it was read shared before: the object,
   * undefined when there is no such object, else NOT_AT_HAND (then getShared).
   */
  sharedAtHand(namespace: string, name: string): JSONObject | undefined | typeof NOT_AT_HAND {
    const kv = this.kvAtHand(namespace, name);
    if (kv === NOT_AT_HAND || kv === undefined) return kv;
    return this.sharedReads.get(kv) ?? NOT_AT_HAND;
  }

  /**
   * The object's stored key-value when the cache has it in memory now (undefined: no such object), else
   * NOT_AT_HAND (read it with getKV). A GET answered from memory then takes no turn of the microtask queue.
   */
  kvAtHand(namespace: string, name: string): KeyValue | undefined | typeof NOT_AT_HAND {
    return this.kv.getAtHand ? this.kv.getAtHand(this.key(namespace, name)) : NOT_AT_HAND;
  }

  /**
   * The object's stored key-value, undefined when there is none: from the cache's memory without its async layers
   * (a logical cluster's view adds another) where it can, with no promise then.
   */
  private storedKV(namespace: string, name: string): KeyValue | undefined | Promise<KeyValue | undefined> {
    const atHand = this.kvAtHand(namespace, name);
    return atHand !== NOT_AT_HAND ? atHand : this.kv.get(this.key(namespace, name));
  }

  getKV(namespace: string, name: string): Promise<KeyValue> {
    let kv: KeyValue | undefined | Promise<KeyValue | undefined>;
    try {
      kv = this.storedKV(namespace, name);
    } catch (e) {
      return Promise.reject(e);
    }
    if (kv instanceof Promise) return kv.then((x) => x ?? Promise.reject(S.notFound(this.gr, name)));
    return kv ? Promise.resolve(kv) : Promise.reject(S.notFound(this.gr, name));
  }

  async list(opts: ListOptions): Promise<ListResult> {
    const r = await this.listKV(opts);
    return { ...r, items: await this.readAll(r.items) };
  }

  /** A list as stored key-values: selectors applied, paging done, nothing decoded that need not be. */
  async listKV(opts: ListOptions): Promise<Omit<ListResult, 'items'> & { items: KeyValue[] }> {
    const prefix = this.prefix(opts.namespace);
    let after: string | undefined;
    let revision = opts.revision;
    if (opts.continueToken) {
      const tok = decodeContinue(opts.continueToken, prefix);
      after = prefix + tok.start;
      revision = tok.rv;
    }
    const limit = opts.limit && opts.limit > 0 ? opts.limit : 0;
    const items: KeyValue[] = [];
    let listRevision = 0;
    let lastKey: string | undefined;
    let more = false;
    let remaining: number | undefined;
    const filtered = Boolean(opts.labelMatch || opts.fieldMatch);
    const byLabels = this.labelQuery(opts);
    // With a label index, pages hold only the keys that can match (the selectors still decide); where the
    // store cannot answer from it (an older revision), the page is read whole, as without one.
    const read = async (o: { after: string | undefined; revision: number | undefined; limit: number; countRemaining?: boolean }): Promise<KVListResult | LabelListResult> =>
      (byLabels && (await this.kv.listByLabels!(prefix, byLabels, o))) || this.kv.list(prefix, o);
    try {
      // Selectors filter after reading, so read pages until the limit is filled or the keys run out.
      for (;;) {
        const want = limit ? (filtered ? Math.max(limit - items.length, 100) : limit - items.length) : 0;
        const page = await read({ after, revision, limit: want, ...(opts.countRemaining === false ? { countRemaining: false } : {}) });
        listRevision = page.revision;
        revision = page.revision;
        let stopAt = -1;
        const selected = filtered ? await this.selected(page.items, opts, 'met' in page ? this.metAlone(page, opts) : undefined) : undefined;
        for (let i = 0; i < page.items.length; i++) {
          const kv = page.items[i]!;
          lastKey = kv.key;
          if (!selected || selected[i]) items.push(kv);
          if (limit && items.length >= limit) {
            stopAt = i;
            break;
          }
        }
        if (stopAt >= 0) {
          const leftInPage = page.items.length - 1 - stopAt;
          more = leftInPage > 0 || page.more;
          if (more && !filtered && opts.countRemaining !== false) remaining = leftInPage + (page.more ? (page.remaining ?? 0) : 0);
          break;
        }
        if (!page.more) break;
        after = lastKey;
      }
    } catch (e) {
      if (e instanceof StorageError && e.code === 'compacted') {
        throw S.gone(opts.continueToken ? CONTINUE_EXPIRED : 'The resourceVersion for the provided list is too old.');
      }
      throw mapStorageError(e, Boolean(opts.continueToken), revision);
    }
    if (opts.minRevision !== undefined && listRevision < opts.minRevision) {
      // NotOlderThan reads are the watch cache's, which asks the client to retry after a second.
      throw tooLargeResourceVersion(opts.minRevision, listRevision, 1);
    }
    const result: Omit<ListResult, 'items'> & { items: KeyValue[] } = { items, resourceVersion: String(listRevision) };
    if (more && lastKey !== undefined) {
      result.continueToken = encodeContinue(listRevision, lastKey.slice(prefix.length));
      if (remaining !== undefined) result.remainingItemCount = remaining;
    }
    return result;
  }

  /**
   * What a store's label index is asked for a list, when it may be: a label selector with a requirement an
   * object meets only by having the label, and labels as served that are the stored ones (as the scan reads
   * them from the stored bytes), so not through a conversion webhook (which may change them). The stored
   * labels of an object converted otherwise are its served ones, or more when pruning drops malformed ones:
   * the index never leaves out an object the selector takes.
   */
  private labelQuery(opts: ListOptions): LabelQuery | undefined {
    if (!opts.labelSelector || !opts.labelMatch || !this.kv.listByLabels || this.type.asyncCodec || !selectingFromStoredBytes) return undefined;
    const required = positiveRequirements(opts.labelSelector);
    return required.length > 0 ? { scope: this.type.keyPrefix, required } : undefined;
  }

  /**
   * Items of a page by labels the selector takes without reading their labels again: when its one requirement
   * is the one the index took them by, those whose labels the index read and which are served as stored (the
   * selector would read the same labels from the same bytes). Undefined when that is none.
   */
  private metAlone(page: LabelListResult, opts: ListFilter): ((i: number) => boolean) | undefined {
    const reqs = opts.labelSelector?.requirements;
    if (opts.fieldMatch || reqs?.length !== 1 || positiveRequirements(opts.labelSelector!)[0]?.key !== page.met.key) return undefined;
    const r = reqs[0]!;
    const same = page.met.values === undefined ? r.operator === 'exists' : r.operator !== 'exists' && r.values.length === page.met.values.length && r.values.every((v, i) => v === page.met.values![i]);
    if (!same) return undefined;
    const unread = new Set(page.unread);
    return (i) => !unread.has(i) && this.servedAsStored(page.items[i]!);
  }

  /**
   * Which key-values the selectors select. Selectors see objects as served (a conversion webhook may change
   * labels): a label selector reads the labels out of the bytes of objects served as stored, the rest are decoded.
   */
  private async selected(kvs: readonly KeyValue[], opts: ListFilter, known?: (i: number) => boolean): Promise<boolean[]> {
    const out = new Array<boolean>(kvs.length);
    const todo: number[] = [];
    for (let i = 0; i < kvs.length; i++) {
      if (known?.(i)) {
        out[i] = true;
        continue;
      }
      const labels = opts.fieldMatch || !selectingFromStoredBytes ? undefined : this.labelsAsStored(kvs[i]!);
      if (labels) out[i] = opts.labelMatch!(labels);
      else todo.push(i);
    }
    if (todo.length > 0) {
      const objs = await this.readAll(todo.map((i) => kvs[i]!));
      todo.forEach((i, j) => (out[i] = this.matches(objs[j]!, opts)));
    }
    return out;
  }

  /** metadata.labels straight from the stored bytes, when they are served as stored; else undefined. */
  private labelsAsStored(kv: KeyValue): Readonly<Record<string, string>> | undefined {
    if (!this.servedAsStored(kv)) return undefined;
    const at = this.type.storedBytesPrefix!.length;
    const key = '"metadata":';
    if (!valueStartsWith(kv, key, at)) return undefined;
    // A cached value's labels from its bytes, not its text decoded whole (a selector's candidates of a label
    // index's list are read so): labelsOfStored's reading, which finds metadata here too, after the prefix's
    // two members, and when it reads labels storedLabels reads the same.
    const pairs = labelPairsInSlab(kv);
    return pairs !== undefined ? labelRecord(pairs) : storedLabels(kv.value, at + key.length);
  }

  private matches(obj: JSONObject, opts: { labelMatch?: ListOptions['labelMatch']; fieldMatch?: ListOptions['fieldMatch'] }): boolean {
    if (opts.labelMatch && !opts.labelMatch(metaOf(obj).labels ?? {})) return false;
    if (opts.fieldMatch && !opts.fieldMatch(this.type.selectableFields(obj))) return false;
    return true;
  }

  async currentRevision(): Promise<number> {
    return this.kv.currentRevision();
  }

  async create(namespace: string, input: JSONObject, opts: WriteOptions = {}): Promise<JSONObject> {
    const out = await this.createStored(namespace, input, opts);
    return 'kv' in out ? this.read(out.kv) : out.object;
  }

  /**
   * create, answering with what was written as stored (whose bytes a response may send as they are: see
   * rawObjects), or with the object when nothing was (a dry run).
   */
  async createStored(namespace: string, input: JSONObject, opts: WriteOptions = {}): Promise<Written | { object: JSONObject }> {
    // The create handler records the managed fields first, before admission and the strategy.
    // Steps that answer at once (most, on most creates) are not awaited: no turn of the microtask queue each.
    const fm = opts.manager !== undefined ? this.fieldManager('') : undefined;
    const updated = fm ? fm.update(undefined, input, opts.manager!) : input;
    const obj = updated instanceof Promise ? await updated : updated;
    const meta = metaOf(obj);
    this.fillNamespace(meta, namespace);
    const dryRun = opts.dryRun === true;
    // Mutating admission runs before the strategy: before name generation and validation.
    const admitting = this.admission.admit(this.attrs({ operation: 'CREATE', subresource: '', namespace, name: meta.name ?? '', object: obj, dryRun, user: opts.user, latency: opts.latency, warnings: opts.warnings }));
    if (admitting) await admitting;
    if (!meta.name && meta.generateName) meta.name = meta.generateName + randomSuffix();
    const name = meta.name ?? '';
    // Metadata the server owns.
    meta.uid = randomUUID();
    meta.creationTimestamp = rfc3339();
    delete meta.resourceVersion;
    delete meta.deletionTimestamp;
    delete meta.deletionGracePeriodSeconds;
    delete meta['selfLink'];
    this.type.strategy.prepareForCreate(obj);
    // rest.BeforeCreate: the strategy's validation, and only when it passes, the common metadata checks (a
    // missing name among them): a strategy's own errors come alone.
    const errs = this.type.strategy.validate(obj);
    if (!errs.length && !name) errs.push(required('metadata.name', 'name or generateName is required'));
    if (errs.length) throw this.invalidObject(obj, name, errs);
    const validating = this.admission.validate(this.attrs({ operation: 'CREATE', subresource: '', namespace, name, object: obj, dryRun, user: opts.user, latency: opts.latency, warnings: opts.warnings }));
    if (validating) await validating;
    opts.warnings?.push(...(this.type.strategy.warnings?.(obj) ?? []));
    if (opts.dryRun) {
      const existing = await this.kv.get(this.key(namespace, name));
      if (existing) throw S.alreadyExists(this.gr, name);
      return { object: obj };
    }
    const key = this.key(namespace, name);
    const encoding = this.encodeBuilt(obj, opts.givenAway);
    const { value, built } = encoding instanceof Promise ? await encoding : encoding;
    const res = await this.writeBuilt(key, value, built, () => this.kv.create(key, value));
    if (!res.ok) throw S.alreadyExists(this.gr, name);
    return { kv: res.kv, text: value };
  }

  private fillNamespace(meta: ObjectMeta, namespace: string): void {
    if (!this.type.served.namespaced) {
      delete meta.namespace;
      return;
    }
    if (meta.namespace && meta.namespace !== namespace) {
      throw S.badRequest('the namespace of the provided object does not match the namespace sent on the request');
    }
    meta.namespace = namespace;
  }

  /**
   * Read-modify-write with optimistic concurrency: `mutate` gets the current object (or undefined) and
   * returns the desired one. Retries on conflicts unless the desired object carries a resourceVersion precondition.
   */
  async update(
    namespace: string,
    name: string,
    mutate: (current: JSONObject | undefined) => Promise<JSONObject> | JSONObject,
    sub: Subresource,
    opts: UpdateOptions = {},
  ): Promise<{ object: JSONObject; created: boolean }> {
    const out = await this.updateStored(namespace, name, mutate, sub, opts);
    return { object: 'kv' in out ? await this.read(out.kv) : out.object, created: out.created };
  }

  /** update, answering with what was written as stored when something was (as createStored does). */
  async updateStored(
    namespace: string,
    name: string,
    mutate: (current: JSONObject | undefined) => Promise<JSONObject> | JSONObject,
    sub: Subresource,
    opts: UpdateOptions = {},
  ): Promise<(Written | { object: JSONObject }) & { created: boolean }> {
    const key = this.key(namespace, name);
    for (let attempt = 0; ; attempt++) {
      const kv = await this.kv.get(key);
      const current = kv ? (this.sharedCurrent(kv, opts.readAs) ?? (await this.read(kv))) : undefined;
      const mutated = await mutate(current ? (opts.replacesCurrent ? current : opts.copyCurrent ? opts.copyCurrent(current) : deepCopyJSON(current)) : undefined);
      // The update handler's first transformer records the managed fields, before admission.
      const fm = opts.manager !== undefined ? this.fieldManager(sub) : undefined;
      const desired = fm ? await fm.update(current, mutated, opts.manager!) : mutated;
      const meta = metaOf(desired);
      if (meta.name !== undefined && meta.name !== name) {
        throw S.badRequest(`the name of the object (${meta.name}) does not match the name on the URL (${name})`);
      }
      meta.name = name;
      this.fillNamespace(meta, namespace);
      if (!current || !kv) {
        if ((!this.type.strategy.allowCreateOnUpdate && !opts.forceAllowCreate) || sub !== '') throw S.notFound(this.gr, name);
        if (meta.resourceVersion) throw S.notFound(this.gr, name);
        return { ...(await this.createStored(namespace, desired, { ...opts, manager: undefined })), created: true };
      }
      const precondition = meta.resourceVersion;
      if (!precondition && !this.type.strategy.allowUnconditionalUpdate) {
        // genericregistry.Store names the resource as the kind here, and prints the uint64 zero with %#v.
        throw S.invalid(this.gr.group, this.gr.resource, name, [
          invalid('metadata.resourceVersion', goRendered({}, '0x0'), 'must be specified for an update'),
        ]);
      }
      if (precondition && precondition !== String(kv.modRevision)) {
        throw S.conflict(this.gr, name, S.OPTIMISTIC_LOCK_MESSAGE);
      }
      // An unconditional update takes the stored object's resourceVersion, so validation passes (genericregistry.Store).
      if (!precondition) meta.resourceVersion = String(kv.modRevision);
      const old = current;
      const dryRun = opts.dryRun === true;
      const attrs = (): AdmissionAttributes =>
        this.attrs({ operation: 'UPDATE', subresource: sub, namespace, name, object: desired, oldObject: old, dryRun, user: opts.user, latency: opts.latency, warnings: opts.warnings });
      // Mutating admission sees the object as sent (or patched), before the strategy prepares it.
      await this.admission.admit(attrs());
      carryOverServerMeta(meta, metaOf(old));
      this.type.strategy.prepareForUpdate(desired, old, sub);
      const errs = this.type.strategy.validateUpdate(desired, old, sub);
      if (errs.length) throw this.invalidObject(desired, name, errs);
      await this.admission.validate({ ...attrs(), warnings: opts.warnings });
      if (opts.warnings) opts.warnings.push(...(this.type.strategy.warnings?.(desired, old) ?? []));
      // Finalizers emptied on an object being deleted: the update completes the deletion. The answer is
      // the updated object at the revision it was read at (deleteWithoutFinalizers returns it so).
      const deletable = this.type.strategy.deletableOnUpdate?.(desired) ?? true;
      if (shouldDeleteDuringUpdate(meta, metaOf(old)) && deletable) {
        const out = await this.read({ ...kv, value: await this.encode(desired) });
        if (opts.dryRun) return { object: out, created: false };
        const del = await this.kv.delete(key, kv.modRevision);
        if (del.ok) return { object: out, created: false };
        if (!del.current) return { object: out, created: false }; // deleted meanwhile: as kube, not an error
        if (attempt >= MAX_CONFLICT_RETRIES) throw S.conflict(this.gr, name, S.OPTIMISTIC_LOCK_MESSAGE);
        continue;
      }
      const { value, built } = await this.encodeBuilt(desired, opts.givenAway, this.previousStored(kv, current));
      // No-op: no new revision, unless the stored bytes need rewriting under the current encryption.
      if (valueIs(kv, value) && !kv.stale) return { object: current, created: false };
      if (opts.dryRun) {
        setResourceVersion(desired, String(kv.modRevision));
        return { object: this.type.strategy.canonicalize(desired), created: false };
      }
      const res = await this.writeBuilt(key, value, built, () => this.kv.update(key, value, kv.modRevision));
      if (res.ok) return { kv: res.kv, text: value, created: false };
      if (!res.current) throw S.notFound(this.gr, name);
      // Someone wrote between our read and our write: read again (a stale precondition then fails above).
      if (attempt >= MAX_CONFLICT_RETRIES) throw S.conflict(this.gr, name, S.OPTIMISTIC_LOCK_MESSAGE);
    }
  }

  /**
   * Delete, as genericregistry.Store.Delete for types without graceful deletion (a type's strategy may
   * first do its own, as the namespace and CRD REST do). The delete options' propagation adds or drops
   * the orphan / foregroundDeletion finalizers; an object left with finalizers is marked deleting
   * (deletionTimestamp, deletionGracePeriodSeconds 0) and kept until an update empties them; one without
   * is removed. Returns the object (the kept one, or the last state of the removed one) and whether it is gone.
   */
  async delete(namespace: string, name: string, opts: DeleteOptions = {}, scope: DeleteScope = {}): Promise<{ object: JSONObject; deleted: boolean }> {
    const key = this.key(namespace, name);
    const attrs = (oldObject?: JSONObject): AdmissionAttributes =>
      this.attrs({ operation: 'DELETE', subresource: '', namespace, name, oldObject, options: opts, dryRun: opts.dryRun === true, user: scope.user, latency: scope.latency });
    // Mutating admission of a delete runs before the object is read, as kube's delete handler calls it.
    if (!scope.admitted) await this.admission.admit(attrs());
    for (let attempt = 0; ; attempt++) {
      const kv = await this.kv.get(key);
      if (!kv) throw S.notFound(this.gr, name);
      const current = await this.read(kv);
      const failed = preconditionFailure(this.type, name, opts.preconditions, metaOf(current));
      if (failed) throw failed;
      await this.admission.validate({ ...attrs(current), warnings: scope.warnings });
      const decided = this.type.strategy.beforeDelete?.(deepCopyJSON(current), opts);
      if (decided === 'keep') return { object: current, deleted: false };
      const next = decided ? decided.update : markForDeletion(deepCopyJSON(current), opts);
      if (next) {
        const value = await this.encode(next);
        // Nothing changes (deleting again while finalizers remain): no write, no event.
        if (value === kv.value) return { object: current, deleted: false };
        if (opts.dryRun) return { object: await this.read({ ...kv, value }), deleted: false };
        const res = await this.kv.update(key, value, kv.modRevision);
        if (res.ok) return { object: await this.read(res.kv), deleted: false };
        if (!res.current) throw S.notFound(this.gr, name);
      } else {
        if (opts.dryRun) return { object: current, deleted: true };
        const res = await this.kv.delete(key, kv.modRevision);
        if (res.ok) return { object: current, deleted: true };
        if (!res.current) throw S.notFound(this.gr, name);
      }
      // Written meanwhile: read again (the preconditions are checked against what is there now).
      if (attempt >= MAX_CONFLICT_RETRIES) throw S.conflict(this.gr, name, S.OPTIMISTIC_LOCK_MESSAGE);
    }
  }

  /**
   * Store.DeleteCollection: mutating admission once for the collection, then each listed object deleted
   * with the same options (preconditions included) as a single delete, each through validating admission.
   * Objects gone meanwhile are skipped. Returns the list as it was read, before the deletes.
   */
  async deleteCollection(namespace: string, filter: ListFilter, opts: DeleteOptions = {}, scope: RequestScope = {}): Promise<ListResult> {
    await this.admission.admit(this.attrs({ operation: 'DELETE', subresource: '', namespace, name: '', options: opts, dryRun: opts.dryRun === true, user: scope.user, latency: scope.latency }));
    const all = await this.list({ namespace, ...filter });
    for (const obj of all.items) {
      const m = metaOf(obj);
      try {
        await this.delete(m.namespace ?? '', m.name ?? '', opts, { ...scope, admitted: true });
      } catch (e) {
        if (!(e instanceof S.StatusError && e.code === 404)) throw e;
      }
    }
    return all;
  }

  /**
   * Watch from a revision. Events are filtered as kube-apiserver's watch cache filters them: an object that
   * stops matching the selectors is sent as DELETED (its previous state at the event's revision), one that
   * starts matching as ADDED. The watch follows every key of the resource, as the watch cache does, so its
   * resourceVersion() moves with changes in other namespaces too.
   */
  watch(
    namespace: string,
    fromRevision: number,
    filter: ListFilter,
    onEvent: (ev: WatchEvent) => void,
    onError: (status: S.StatusError) => void,
    onEnd?: () => void,
    backlogFull?: () => Promise<void> | undefined,
  ): ResourceWatcher {
    return this.openWatch(namespace, fromRevision, filter, (ev) => this.toWatchEvent(ev, filter), onEvent, onError, onEnd, backlogFull);
  }

  /**
   * watch, for a stream that writes JSON: an event whose object is served as stored carries the stored bytes
   * (RawObject) instead of the decoded object, which it is the JSON text of once its resourceVersion is in.
   * A replay of history then neither parses nor stringifies its objects.
   */
  watchStored(
    namespace: string,
    fromRevision: number,
    filter: ListFilter,
    onEvent: (ev: StoredWatchEvent) => void,
    onError: (status: S.StatusError) => void,
    onEnd?: () => void,
    backlogFull?: () => Promise<void> | undefined,
  ): ResourceWatcher {
    // Converted events are decoded together, in batches (convertingWatch): objects only.
    const convert = this.type.asyncCodec || filter.fieldMatch ? (ev: StoreEvent) => this.toWatchEvent(ev, filter) : (ev: StoreEvent) => this.toStoredWatchEvent(ev, filter);
    return this.openWatch(namespace, fromRevision, filter, convert, onEvent, onError, onEnd, backlogFull);
  }

  private openWatch<E>(
    namespace: string,
    fromRevision: number,
    filter: ListFilter,
    convert: (ev: StoreEvent) => E | undefined,
    onEvent: (ev: E) => void,
    onError: (status: S.StatusError) => void,
    onEnd: (() => void) | undefined,
    backlogFull: (() => Promise<void> | undefined) | undefined,
  ): ResourceWatcher {
    const own = this.prefix(namespace);
    let processed = fromRevision;
    let closed = false;
    const fail = (e: unknown): void => {
      if (closed) return;
      close();
      onError(e instanceof S.StatusError ? e : S.internal(e instanceof Error ? e.message : String(e)));
    };
    const deliver = (ev: StoreEvent): void => {
      // An object that cannot be decoded (converted) ends this watch, not the others.
      let out: E | undefined;
      try {
        out = ev.kv.key.startsWith(own) ? convert(ev) : undefined;
      } catch (e) {
        fail(e);
        return;
      }
      processed = ev.kv.modRevision;
      if (out && !closed) onEvent(out);
    };
    const onStorageError = (err: StorageError): void => {
      if (closed) return;
      close();
      onError(mapStorageError(err, false, fromRevision));
    };
    const inner = this.type.asyncCodec
      ? this.kv.watch(this.type.keyPrefix, this.convertingWatch(own, fromRevision, Boolean(filter.labelMatch || filter.fieldMatch), deliver, fail, onStorageError, () => closed))
      : this.kv.watch(this.type.keyPrefix, { fromRevision, onEvent: (ev) => !closed && deliver(ev), onError: onStorageError, ...(backlogFull ? { backlogFull } : {}) });
    const close = (): void => {
      closed = true;
      inner.close();
      this.watchers.delete(entry);
    };
    const entry = {
      end: (): void => {
        if (closed) return;
        close();
        onEnd?.();
      },
    };
    this.watchers.add(entry);
    return { close, resourceVersion: () => processed };
  }

  /** Open watches, ended when this store is torn down. */
  private readonly watchers = new Set<{ end(): void }>();

  /**
   * Ends every open watch without an error, as kube ends the watches of a CRD's storage when it rebuilds
   * it: clients re-list and watch again, from the new storage.
   */
  endWatches(): void {
    for (const w of [...this.watchers]) w.end();
  }

  /**
   * Storage watch options for a type with an asynchronous codec: conversion takes a round trip, so events
   * queue, what has gathered is converted in one call, and events are delivered in order.
   */
  private convertingWatch(
    own: string,
    fromRevision: number,
    withPrev: boolean,
    deliver: (ev: StoreEvent) => void,
    fail: (e: unknown) => void,
    onStorageError: (err: StorageError) => void,
    isClosed: () => boolean,
  ): WatchOptions {
    const queue: StoreEvent[] = [];
    let pumping = false;
    let storageError: StorageError | undefined;
    const pump = async (): Promise<void> => {
      pumping = true;
      while (queue.length > 0 && !isClosed()) {
        const batch = queue.splice(0);
        try {
          await this.convertEvents(
            batch.filter((ev) => ev.kv.key.startsWith(own)),
            withPrev,
          );
        } catch (e) {
          fail(e);
          return;
        }
        for (const ev of batch) {
          if (isClosed()) return;
          deliver(ev);
        }
      }
      pumping = false;
      // Deliver what was converted before the storage error.
      if (storageError) onStorageError(storageError);
    };
    return {
      fromRevision,
      onEvent: (ev: StoreEvent) => {
        queue.push(ev);
        if (!pumping) void pump();
      },
      onError: (err) => {
        if (pumping) storageError = err;
        else onStorageError(err);
      },
    };
  }

  private toWatchEvent(ev: StoreEvent, filter: ListFilter): WatchEvent | undefined {
    // Event objects are shared by every watcher of this resource: read-only from here on.
    const obj = this.decodeShared(ev, 'kv');
    if (ev.type === 'delete') return this.matches(obj, filter) ? { type: 'DELETED', object: obj } : undefined;
    const now = this.matches(obj, filter);
    if (!ev.prev) return now ? { type: 'ADDED', object: obj } : undefined;
    const filtered = Boolean(filter.labelMatch || filter.fieldMatch);
    const before = !filtered || this.matches(this.decodeShared(ev, 'prev'), filter);
    if (now && before) return { type: 'MODIFIED', object: obj };
    if (now) return { type: 'ADDED', object: obj };
    // Leaving the selectors: the previous object, at the event's resourceVersion (cacheWatcher's convertToWatchEvent).
    if (before) return { type: 'DELETED', object: this.decodeShared(ev, 'left') };
    return undefined;
  }

  /**
   * toWatchEvent, giving the stored bytes of what is served as stored instead of the decoded object (the same
   * object as JSON once its resourceVersion, the event's, is in: list-stored-bytes and watch-stored-bytes tests).
   * Label selectors read the labels from the bytes as a list's do; what cannot be read so is decoded.
   */
  private toStoredWatchEvent(ev: StoreEvent, filter: ListFilter): StoredWatchEvent | undefined {
    const at = this.eventResourceVersionAt(ev.kv);
    if (at < 0) return this.toWatchEvent(ev, filter);
    const raw = this.eventRaw(ev.kv, at);
    if (ev.type === 'delete') return this.storedMatches(ev, 'kv', filter) ? { type: 'DELETED', raw } : undefined;
    const now = this.storedMatches(ev, 'kv', filter);
    if (!ev.prev) return now ? { type: 'ADDED', raw } : undefined;
    const before = !filter.labelMatch || this.storedMatches(ev, 'prev', filter);
    if (now && before) return { type: 'MODIFIED', raw };
    if (now) return { type: 'ADDED', raw };
    if (!before) return undefined;
    // Leaving the selectors: the previous object at the event's resourceVersion, as toWatchEvent sends it.
    const prevAt = this.eventResourceVersionAt(ev.prev);
    return prevAt < 0 ? { type: 'DELETED', object: this.decodeShared(ev, 'left') } : { type: 'DELETED', raw: { text: ev.prev.value, at: prevAt, resourceVersion: raw.resourceVersion } };
  }

  /**
   * resourceVersionAt for a watch event's key-value, remembered for the last one only: every watcher of the
   * resource is handed an event in turn (one search for all), and a replay's key-values are read once, which
   * the WeakMap's bookkeeping cost more than the search.
   */
  private eventResourceVersionAt(kv: KeyValue): number {
    if (kv !== this.lastEventKv) {
      this.lastEventKv = kv;
      this.lastEventAt = this.servedAsStored(kv) ? (storedResourceVersionAt(kv) ?? resourceVersionAt(kv.value)) : -1;
    }
    return this.lastEventAt;
  }

  private lastEventKv: KeyValue | undefined;
  private lastEventAt = -1;

  /**
   * The stored bytes of a watch event's key-value as every watcher of it is handed them: one object for all (a
   * large event's line is then made once for all of them: WatchLines), its bytes copied from the cache's slab
   * rather than its text decoded where the value is held there. Remembered for the last key-value only.
   */
  private eventRaw(kv: KeyValue, at: number): RawObject {
    if (kv !== this.lastRawKv || this.lastRaw === undefined) {
      const bytes = asciiBytes(kv);
      this.lastRaw = bytes !== undefined ? new SlabRawObject(kv, bytes, at, String(kv.modRevision)) : { text: kv.value, at, resourceVersion: String(kv.modRevision) };
      this.lastRawKv = kv;
    }
    return this.lastRaw;
  }

  private lastRawKv: KeyValue | undefined;
  private lastRaw: RawObject | undefined;

  /** Whether the event's object (or previous object) meets the label selector, read from its bytes when they are served as stored. */
  private storedMatches(ev: StoreEvent, which: 'kv' | 'prev', filter: ListFilter): boolean {
    if (!filter.labelMatch && !filter.fieldMatch) return true;
    const labels = filter.fieldMatch || !selectingFromStoredBytes ? undefined : this.labelsAsStored(ev[which]!);
    return labels ? filter.labelMatch!(labels) : this.matches(this.decodeShared(ev, which), filter);
  }
}

/** A watch of one resource through its store. */
export interface ResourceWatcher extends Watcher {
  /**
   * The watch cache's resourceVersion as this watch has seen it: the revision of the newest event of the
   * resource it has processed (sent or filtered out), or where it started. Every event up to it has been sent.
   */
  resourceVersion(): number;
}

/**
 * Delete preconditions. rest.BeforeDelete words a mismatch against the object's kind; the namespace REST
 * checks them itself, worded as storage.Preconditions.Check does, against the resource.
 */
function preconditionFailure(type: ResourceType, name: string, pre: DeleteOptions['preconditions'], meta: ObjectMeta): S.StatusError | undefined {
  if (!pre) return undefined;
  const legacy = type.strategy.storagePreconditionMessages === true;
  const gr = legacy ? type.gr : { group: type.served.group, resource: type.served.kind };
  if (pre.uid !== undefined && pre.uid !== meta.uid) {
    const uid = meta.uid ?? '';
    return S.conflict(
      gr,
      name,
      legacy
        ? `Precondition failed: UID in precondition: ${pre.uid}, UID in object meta: ${uid}`
        : `the UID in the precondition (${pre.uid}) does not match the UID in record (${uid}). The object might have been deleted and then recreated`,
    );
  }
  if (pre.resourceVersion !== undefined && pre.resourceVersion !== meta.resourceVersion) {
    const rv = meta.resourceVersion ?? '';
    return S.conflict(
      gr,
      name,
      legacy
        ? `Precondition failed: ResourceVersion in precondition: ${pre.resourceVersion}, ResourceVersion in object meta: ${rv}`
        : `the ResourceVersion in the precondition (${pre.resourceVersion}) does not match the ResourceVersion in record (${rv}). The object might have been modified`,
    );
  }
  return undefined;
}

/**
 * The generic store's delete of an object (updateForGracefulDeletionAndFinalizers without graceful
 * deletion): the garbage collector's finalizers as the options ask, then, if any finalizer remains, the
 * object marked as deleting (returned, to be written), else undefined: remove it now.
 */
function markForDeletion(obj: JSONObject, opts: DeleteOptions): JSONObject | undefined {
  const meta = metaOf(obj);
  const fins = gcFinalizers(meta.finalizers ?? [], opts);
  if (fins) setFinalizers(meta, fins);
  if (!meta.finalizers?.length) return undefined;
  markAsDeleting(meta);
  return obj;
}

/**
 * Metadata a client cannot change on update, as rest.BeforeUpdate keeps it: the creation and deletion
 * timestamps and a grace period left out. What a client sets besides (a deletionTimestamp on an object not
 * being deleted, another grace period) is left for validation to refuse as immutable.
 */
function carryOverServerMeta(meta: ObjectMeta, old: ObjectMeta): void {
  // Nulls are absent values, as the typed ObjectMeta reads them.
  if (meta.deletionTimestamp === null) delete meta.deletionTimestamp;
  if (meta.deletionGracePeriodSeconds === null) delete meta.deletionGracePeriodSeconds;
  if (old.creationTimestamp) meta.creationTimestamp = old.creationTimestamp;
  if (!meta.uid) meta.uid = old.uid;
  if (old.deletionTimestamp) meta.deletionTimestamp = old.deletionTimestamp;
  if (typeof old.deletionGracePeriodSeconds === 'number' && meta.deletionGracePeriodSeconds === undefined) {
    meta.deletionGracePeriodSeconds = old.deletionGracePeriodSeconds;
  }
  delete meta['selfLink'];
}

/** Objects as response JSON (GenericStore.rawObjects). */
export interface RawObjects {
  readonly length: number;
  /** About how many bytes the items take (their stored length), to size the first buffer. */
  readonly size?: number;
  item(i: number): RawObject;
}

/**
 * One object as response JSON: `text` with `resourceVersion` inserted at `at` (between the quotes of the
 * stored empty resourceVersion), or, when `at` is negative, `text` as it is.
 */
export interface RawObject {
  text: string;
  at: number;
  resourceVersion: string;
  /**
   * text as bytes, when it is ASCII (one byte a character) and held in buffers (the watch cache's slabs,
   * value-slabs.ts): a writer copies them (copyAscii) rather than decode text to encode it again. Never with
   * start, end, before or after. Bytes are never written over, so they stay right across a wait (value-slabs.ts).
   */
  bytes?: AsciiBytes;
  /** Only text[start, end) is the object (default: all of it), with `before` and `after` written around it. */
  start?: number;
  end?: number;
  before?: string;
  after?: string;
}

/** A RawObject of a value in a slab: its text decoded only if asked for (a class: one shape, the getter shared). */
class SlabRawObject implements RawObject {
  constructor(
    private readonly kv: KeyValue,
    readonly bytes: AsciiBytes,
    readonly at: number,
    readonly resourceVersion: string,
  ) {}

  get text(): string {
    return this.kv.value;
  }
}

/** A Table row's makings: where the metadata object is in stored JSON text, the resourceVersion's place in it, the cells. */
export interface TableRowParts {
  start: number;
  end: number;
  at: number;
  cells: (now: number) => unknown[];
}

/** A write's key-value, and its value's text as written (held in a slab, the key-value's must be decoded to read it). */
export interface Written {
  kv: KeyValue;
  text?: string;
}

/** The object's JSON as one string. */
export function rawObjectText(o: RawObject): string {
  const start = o.start ?? 0;
  const end = o.end ?? o.text.length;
  const body = o.at < 0 ? o.text.slice(start, end) : o.text.slice(start, o.at) + o.resourceVersion + o.text.slice(o.at, end);
  return (o.before ?? '') + body + (o.after ?? '');
}

function setResourceVersion(obj: JSONObject, rv: string): void {
  const meta = metaOf(obj);
  meta.resourceVersion = rv;
}

/**
 * Whether label selectors read labels from the stored bytes (see GenericStore.selected). Always on when serving;
 * tests turn it off (with serveStoredBytes) to compare both paths.
 */
let selectingFromStoredBytes = true;
export function selectFromStoredBytes(on: boolean): void {
  selectingFromStoredBytes = on;
}

interface ContinueToken {
  v: string;
  rv: number;
  start: string;
}

function encodeContinue(rv: number, lastKeySuffix: string): string {
  const tok: ContinueToken = { v: 'meta.k8s.io/v1', rv, start: lastKeySuffix + '\u0000' };
  return Buffer.from(JSON.stringify(tok)).toString('base64url');
}

function decodeContinue(token: string, _prefix: string): { rv: number; start: string } {
  let tok: ContinueToken;
  try {
    tok = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as ContinueToken;
  } catch {
    throw S.badRequest('continue key is not valid: illegal base64 data at input byte 0');
  }
  if (tok?.v !== 'meta.k8s.io/v1') throw S.badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (typeof tok.rv !== 'number' || tok.rv <= 0) throw S.badRequest('continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)');
  if (typeof tok.start !== 'string' || tok.start.length === 0 || tok.start.includes('/..') || tok.start.startsWith('/'))
    throw S.badRequest('continue key is not valid: invalid start key');
  // The stored start is the last key plus NUL: list strictly after the last key.
  return { rv: tok.rv, start: tok.start.endsWith('\u0000') ? tok.start.slice(0, -1) : tok.start };
}

const CONTINUE_EXPIRED =
  'The provided continue parameter is too old to display a consistent list result. You can start a new list without the continue parameter, or use the continue token in this response to retrieve the remainder of the results. Continuing with the provided token results in an inconsistent list - objects that were created, modified, or deleted between the time the first chunk was returned and now may show up in the list.';

function mapStorageError(e: StorageError, continuing: boolean, requested?: number): S.StatusError;
function mapStorageError(e: unknown, continuing: boolean, requested?: number): unknown;
function mapStorageError(e: unknown, continuing: boolean, requested?: number): unknown {
  if (!(e instanceof StorageError)) return e;
  if (e.code === 'compacted') {
    if (continuing) return S.gone(CONTINUE_EXPIRED);
    return S.gone(`too old resource version: ${requested ?? ''} (${e.revision ?? ''})`);
  }
  // Exact reads go to storage, which gives no retry hint.
  if (e.code === 'future') return tooLargeResourceVersion(requested ?? 0, e.revision ?? 0, 0);
  return S.serviceUnavailable(e.message);
}

/** storage.NewTooLargeResourceVersionError: a 504 Timeout with a ResourceVersionTooLarge cause. */
function tooLargeResourceVersion(requested: number, current: number, retryAfterSeconds: number): S.StatusError {
  const details: S.StatusDetails = { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }] };
  if (retryAfterSeconds) details.retryAfterSeconds = retryAfterSeconds;
  return new S.StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `Timeout: Too large resource version: ${requested}, current: ${current}`,
    reason: 'Timeout',
    details,
    code: 504,
  });
}

// Watch streams: newline-delimited JSON watch events (or length-prefixed protobuf WatchEvent frames), with
// bookmarks, timeouts and Table encoding.
import { gvString } from '../api/resource.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GenericStore, StoredWatchEvent } from '../registry/store.js';
import type { JSONObject } from '../util/json.js';
import type { StatusError } from '../api/status.js';
import { watchContentType, type Negotiated } from './negotiation.js';
import { encodeProtobufWatchFrame, NotMarshalable } from './protobuf.js';
import { partialObjectMetadata, toTable, type TableOptions } from './table.js';
import type { ListFilter } from './list-options.js';
import { stringifyJSON } from '../util/json-int64.js';
import { WatchLines } from './watch-lines.js';

interface WatchRequest {
  namespace: string;
  /** Events after this revision. */
  fromRevision: number;
  /** Objects to send as ADDED first (a watch without resourceVersion, or sendInitialEvents). */
  initial?: JSONObject[];
  /** Send the initial-events-end bookmark after the initial objects. */
  initialEventsEnd?: boolean;
  filter: ListFilter;
  bookmarks: boolean;
  timeoutMs: number;
  /** How often to send a bookmark when allowed. */
  bookmarkIntervalMs: number;
  neg: Negotiated;
  tableOptions?: TableOptions;
  /** How much a watcher may have written but not yet flushed to a client that does not read. */
  buffer?: WatchBufferLimits;
  /** Told of each event written, with its encoded size (apiserver_watch_events_total and _sizes). */
  onEvent?: (bytes: number) => void;
  /** Plain JSON events of objects served as stored are written from their stored bytes (GenericStore.watchStored). */
  storedBytes?: boolean;
}

/**
 * kube's cacheWatcher hands events to its client through a bounded channel and closes a watcher whose
 * channel stays full (the client re-lists and watches again); here the buffer is the socket's unsent output.
 */
export interface WatchBufferLimits {
  bytes: number;
  events: number;
}

/**
 * 10 MiB: a hundred 100 KiB objects, or thousands of ordinary ones, is more than a reading client ever
 * lags by, and a few thousand stuck watchers still fit in memory. 1000 events: kube's largest watch
 * channels (the cache's per-watcher buffer) hold about as many, and tiny events cost per-write overhead
 * that the byte count does not see.
 */
export const DEFAULT_WATCH_BUFFER: WatchBufferLimits = { bytes: 10 * 1024 * 1024, events: 1000 };

/** How long a watch may stay over its buffer limits without its client taking any of the output. */
const STUCK_MS = 1000;

// Event objects are shared by every watcher of a resource (see GenericStore.watch): serialize each once.
const jsonOf = new WeakMap<JSONObject, string>();
function objectJSON(obj: JSONObject): string {
  let json = jsonOf.get(obj);
  if (json === undefined) {
    json = stringifyJSON(obj);
    jsonOf.set(obj, json);
  }
  return json;
}

export function serveWatch(req: IncomingMessage, res: ServerResponse, store: GenericStore, w: WatchRequest): void {
  const served = store.type.served;
  const apiVersion = gvString(served.group, served.version);
  // Events and bookmarks go out only above this revision (cacheWatcher's resourceVersion): the snapshot the
  // initial events came from, or where the watch started.
  const startRevision = w.fromRevision;
  let closed = false;
  const tableOpts = w.tableOptions ? { ...w.tableOptions } : undefined;

  // JSON or protobuf: one negotiated as YAML was refused with 406 before it got here.
  res.writeHead(200, {
    'Content-Type': watchContentType(w.neg),
    'Cache-Control': 'no-cache, private',
    'Transfer-Encoding': 'chunked',
  });
  res.flushHeaders();

  // doTransformObject for each event: Status objects (ERROR events) are never transformed.
  const encodeObject = (obj: JSONObject, type: string): JSONObject => {
    if (type === 'ERROR') return obj;
    if (w.neg.transform?.as === 'PartialObjectMetadata') return partialObjectMetadata(obj, w.neg.transform.version);
    if (!tableOpts || type === 'BOOKMARK') return obj;
    const t = toTable(store.type.table, [obj], {}, tableOpts);
    // Headers only on the first event, as kube-apiserver's watch encoder does.
    tableOpts.noHeaders = true;
    return t;
  };
  const limits = w.buffer ?? DEFAULT_WATCH_BUFFER;
  // Live events (not the initial ones, bounded by what a list returns anyway) written behind output the
  // socket had not taken yet, and how many of those it has taken since.
  let pendingEvents = 0;
  let taken = 0;
  let stuckTimer: NodeJS.Timeout | undefined;
  const overLimits = (): boolean => res.writableLength > limits.bytes || pendingEvents > limits.events;
  /** Ends the watch if, STUCK_MS from now, it is still over the limits and the client has taken nothing meanwhile. */
  const watchForStuck = (takenBefore: number): void => {
    stuckTimer = setTimeout(() => {
      // Judged after the loop's next I/O pass: after a long pause (a major GC of a large heap) timers run
      // before the socket's completed writes are counted, and a client that read meanwhile looked stuck.
      setImmediate(() => {
        stuckTimer = undefined;
        if (closed || abandoned || !overLimits()) return;
        // The client does not keep up: end the watch and drop what it never read, freeing the buffers
        // (destroying the socket, since ending it would wait for the unread output to drain).
        if (taken === takenBefore) abandon();
        else watchForStuck(taken);
      });
    }, STUCK_MS);
  };
  let abandoned = false;
  // Deferred: an event may arrive while the watch is still being set up (store.watch replaying).
  const abandon = (): void => {
    abandoned = true;
    setImmediate(() => {
      finish();
      res.destroy();
    });
  };
  // Events go out in one write per turn of the event loop (a replay delivers a thousand in one).
  const lines = new WatchLines((chunk, liveEvents) => {
    // What is held is what the socket has not taken (writableLength): a write the kernel accepts at once
    // holds nothing. Over the limits, the client gets STUCK_MS to take some of it: a burst written in one
    // turn (a resumed watch replaying thousands of events) reaches a client that reads only after the turn,
    // and ending the watch at once took such a client for a stuck one. The initial events are not counted
    // (bounded by what a list returns anyway).
    if (liveEvents === 0 || res.writableLength === 0) {
      res.write(chunk);
      return;
    }
    pendingEvents += liveEvents;
    res.write(chunk, () => {
      pendingEvents -= liveEvents;
      taken += liveEvents;
    });
    if (stuckTimer === undefined && overLimits()) watchForStuck(taken);
  });
  const send = (ev: StoredWatchEvent, live = true): void => {
    if (closed || abandoned) return;
    let size: number;
    if (ev.object === undefined) size = lines.raw(ev.type, ev.raw, live);
    else {
      const object = encodeObject(ev.object, ev.type);
      if (w.neg.format === 'protobuf') {
        let frame: Buffer;
        try {
          frame = encodeProtobufWatchFrame(ev.type, object);
        } catch (e) {
          // kube's watch encoder fails on an object without a protobuf form (a custom resource's event under a
          // transform that does not apply to it) and ends the watch.
          if (!(e instanceof NotMarshalable)) throw e;
          abandoned = true;
          setImmediate(finish);
          return;
        }
        size = lines.bytes(frame, live);
      } else size = lines.text(`{"type":"${ev.type}","object":${objectJSON(object)}}\n`, live);
    }
    w.onEvent?.(size);
  };
  const bookmark = (rv: number, annotations?: Record<string, string>): JSONObject => {
    const metadata: JSONObject = { resourceVersion: String(rv), creationTimestamp: null };
    if (annotations) metadata['annotations'] = annotations;
    return { kind: served.kind, apiVersion, metadata };
  };

  for (const obj of w.initial ?? []) send({ type: 'ADDED', object: obj }, false);
  if (w.initialEventsEnd) send({ type: 'BOOKMARK', object: bookmark(startRevision, { 'k8s.io/initial-events-end': 'true' }) }, false);

  const finish = (): void => {
    if (closed) return;
    closed = true;
    watcher.close();
    clearTimeout(timer);
    clearTimeout(stuckTimer);
    if (ticker) clearInterval(ticker);
    lines.flush();
    res.end();
  };
  const watch = w.storedBytes && !w.neg.transform && w.neg.format === 'json' ? store.watchStored.bind(store) : store.watch.bind(store);
  const watcher = watch(
    w.namespace,
    w.fromRevision,
    w.filter,
    (ev) => send(ev),
    (err: StatusError) => {
      send({ type: 'ERROR', object: err.status as unknown as JSONObject });
      finish();
    },
    // The resource's storage was rebuilt (its CRD changed): the stream ends, and clients watch again.
    finish,
    // A replay of history goes at the client's pace: the next batch once the socket has taken the last.
    () => {
      if (closed || abandoned) return undefined;
      lines.flush();
      return res.writableNeedDrain ? drainedOrClosed(res) : undefined;
    },
  );
  const timer = setTimeout(finish, w.timeoutMs);
  // Periodic bookmarks carry the watch cache's resourceVersion, whatever the selectors let through, and only
  // once it is above where the watch started.
  const tick = (): void => {
    const rv = watcher.resourceVersion();
    if (rv > startRevision) send({ type: 'BOOKMARK', object: bookmark(rv) });
  };
  const ticker = w.bookmarks ? setInterval(tick, w.bookmarkIntervalMs) : undefined;
  req.on('close', finish);
  res.on('close', finish);
}

/** Resolves when the response's buffered output has drained, or it closed. */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

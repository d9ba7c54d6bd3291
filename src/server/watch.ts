// Watch streams: newline-delimited JSON watch events, with bookmarks, timeouts and Table encoding.
import { gvString } from '../api/resource.js';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GenericStore, WatchEvent } from '../registry/store.js';
import type { JSONObject } from '../util/json.js';
import type { StatusError } from '../api/status.js';
import { serialize } from './http.js';
import type { Negotiated } from './negotiation.js';
import { toTable, type TableOptions } from './table.js';
import type { ListFilter } from './list-options.js';

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
}

// Event objects are shared by every watcher of a resource (see GenericStore.watch): serialize each once.
const jsonOf = new WeakMap<JSONObject, string>();
function objectJSON(obj: JSONObject): string {
  let json = jsonOf.get(obj);
  if (json === undefined) {
    json = JSON.stringify(obj);
    jsonOf.set(obj, json);
  }
  return json;
}

export function serveWatch(req: IncomingMessage, res: ServerResponse, store: GenericStore, w: WatchRequest): void {
  const served = store.type.served;
  const apiVersion = gvString(served.group, served.version);
  let lastRV = String(w.fromRevision);
  let closed = false;
  const tableOpts = w.tableOptions ? { ...w.tableOptions } : undefined;

  res.writeHead(200, {
    'Content-Type': w.neg.format === 'yaml' ? 'application/yaml' : 'application/json',
    'Cache-Control': 'no-cache, private',
    'Transfer-Encoding': 'chunked',
  });
  res.flushHeaders();

  const encodeObject = (obj: JSONObject, type: string): JSONObject => {
    if (!tableOpts || type === 'BOOKMARK' || type === 'ERROR') return obj;
    const t = toTable(store.type.table, [obj], {}, tableOpts);
    // Headers only on the first event, as kube-apiserver's watch encoder does.
    tableOpts.noHeaders = true;
    return t;
  };
  const send = (ev: WatchEvent): void => {
    if (closed) return;
    const rv = (ev.object['metadata'] as JSONObject | undefined)?.['resourceVersion'];
    if (typeof rv === 'string' && ev.type !== 'ERROR') lastRV = rv;
    const object = encodeObject(ev.object, ev.type);
    if (w.neg.format === 'yaml') res.write(serialize({ type: ev.type, object }, 'yaml') + '---\n');
    else res.write(`{"type":"${ev.type}","object":${objectJSON(object)}}\n`);
  };
  const bookmark = (annotations?: Record<string, string>): JSONObject => {
    const metadata: JSONObject = { resourceVersion: lastRV, creationTimestamp: null };
    if (annotations) metadata['annotations'] = annotations;
    return { kind: served.kind, apiVersion, metadata };
  };

  for (const obj of w.initial ?? []) send({ type: 'ADDED', object: obj });
  if (w.initialEventsEnd) {
    lastRV = String(w.fromRevision);
    send({ type: 'BOOKMARK', object: bookmark({ 'k8s.io/initial-events-end': 'true' }) });
  }

  const finish = (): void => {
    if (closed) return;
    closed = true;
    watcher.close();
    clearTimeout(timer);
    if (ticker) clearInterval(ticker);
    res.end();
  };
  const watcher = store.watch(
    w.namespace,
    w.fromRevision,
    w.filter,
    (ev) => send(ev),
    (err: StatusError) => {
      send({ type: 'ERROR', object: err.status as unknown as JSONObject });
      finish();
    },
  );
  const timer = setTimeout(finish, w.timeoutMs);
  const ticker = w.bookmarks ? setInterval(() => send({ type: 'BOOKMARK', object: bookmark() }), w.bookmarkIntervalMs) : undefined;
  req.on('close', finish);
  res.on('close', finish);
}

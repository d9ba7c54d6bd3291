// A list kept current by a watch, as client-go's reflector keeps one: list, watch from the list's
// resourceVersion, watch again from the last one seen when the server ends the stream, list again when that
// is too old (410 Gone).
import { ApiError, getJson, watch, withQuery, type WatchEvent } from './api.ts';

export interface ListWatchOptions<L, E> {
  path: string;
  accept: string;
  query?: Record<string, string | undefined>;
  signal: AbortSignal;
  /** False: list once, no watch (a kind without the watch verb). */
  watch?: boolean;
  /** A fresh list (the first, and after a 410). */
  onList(list: L): void;
  onEvent(e: WatchEvent<E>): void;
  onError(e: ApiError): void;
}

interface ListMeta {
  metadata?: { resourceVersion?: string };
}

/** An event's resourceVersion: the object's, or for a Table (whose own metadata is empty in a watch) its row's. */
function rvOf(o: unknown): string | undefined {
  const m = o as (ListMeta & { rows?: Array<{ object?: ListMeta }> }) | undefined;
  return m?.metadata?.resourceVersion || m?.rows?.[0]?.object?.metadata?.resourceVersion || undefined;
}

export async function listWatch<L extends ListMeta, E>(o: ListWatchOptions<L, E>): Promise<void> {
  let rv: string | undefined;
  while (!o.signal.aborted) {
    try {
      if (rv === undefined) {
        const list = await getJson<L>(withQuery(o.path, o.query ?? {}), o.accept, o.signal);
        rv = rvOf(list) ?? '';
        o.onList(list);
      }
      if (o.watch === false) return;
      await watch<E>(withQuery(o.path, { ...o.query, watch: '1', allowWatchBookmarks: 'true', resourceVersion: rv }), o.accept, o.signal, (e) => {
        if (e.type === 'ERROR') {
          const status = e.object as { code?: number; message?: string; reason?: string };
          throw new ApiError(status.code ?? 500, status.message ?? 'watch error', status.reason);
        }
        rv = rvOf(e.object) ?? rv;
        if (e.type !== 'BOOKMARK') o.onEvent(e);
      });
    } catch (e) {
      if (o.signal.aborted) return;
      if (e instanceof ApiError && e.code === 410) {
        rv = undefined;
        continue;
      }
      if (e instanceof ApiError) {
        o.onError(e);
        return;
      }
      // The connection dropped: try again shortly from where it was.
      await new Promise((r) => setTimeout(r, 1000));
    }
  }
}

// One object: its YAML (managedFields folded away, one click to unfold) and the Events about it.
import { useEffect, useState } from 'preact/hooks';
import { stringify } from 'yaml';
import { ApiError, getJson, withQuery } from './api.ts';
import { objectPath, type KindRef } from './discovery.ts';

interface KubeObject {
  metadata?: { name?: string; namespace?: string; uid?: string; managedFields?: unknown[] };
  [k: string]: unknown;
}

interface CoreEvent {
  metadata: { uid: string };
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  lastTimestamp?: string;
  eventTime?: string;
  firstTimestamp?: string;
  source?: { component?: string };
  reportingComponent?: string;
}

export function ObjectView({ kind, namespace, name }: { kind: KindRef; namespace: string; name: string }) {
  const [obj, setObj] = useState<KubeObject>();
  const [error, setError] = useState<string>();
  const [reloads, setReloads] = useState(0);
  useEffect(() => {
    const ctl = new AbortController();
    setError(undefined);
    getJson<KubeObject>(objectPath(kind, namespace, name), 'application/json', ctl.signal)
      .then(setObj)
      .catch((e: unknown) => !ctl.signal.aborted && setError(e instanceof ApiError ? `${e.code} ${e.message}` : String(e)));
    return () => ctl.abort();
  }, [kind.group, kind.version, kind.resource, namespace, name, reloads]);
  if (error)
    return (
      <p class="error" role="alert">
        {error}
      </p>
    );
  if (!obj) return <p class="muted">Loading…</p>;
  const { managedFields: managed, ...meta } = obj.metadata ?? {};
  const shown: KubeObject = obj.metadata ? { ...obj, metadata: meta } : obj;
  return (
    <section class="object">
      <h2>
        {namespace ? `${namespace}/` : ''}
        {name}{' '}
        <button class="link" onClick={() => setReloads((n) => n + 1)}>
          reload
        </button>
      </h2>
      <pre class="yaml" aria-label="YAML">
        {stringify(shown, { lineWidth: 0 })}
      </pre>
      {managed && (
        <details class="managed">
          <summary>
            metadata.managedFields: {managed.length} {managed.length === 1 ? 'entry' : 'entries'} (folded)
          </summary>
          <pre class="yaml">{stringify(managed, { lineWidth: 0 })}</pre>
        </details>
      )}
      {obj.metadata?.uid && <Events uid={obj.metadata.uid} namespace={kind.namespaced ? namespace : ''} reloads={reloads} />}
    </section>
  );
}

function Events({ uid, namespace, reloads }: { uid: string; namespace: string; reloads: number }) {
  const [events, setEvents] = useState<CoreEvent[]>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    const ctl = new AbortController();
    const path = namespace ? `/api/v1/namespaces/${encodeURIComponent(namespace)}/events` : '/api/v1/events';
    getJson<{ items: CoreEvent[] }>(withQuery(path, { fieldSelector: `involvedObject.uid=${uid}` }), 'application/json', ctl.signal)
      .then((l) => setEvents(l.items))
      .catch((e: unknown) => !ctl.signal.aborted && setError(e instanceof ApiError ? `${e.code} ${e.message}` : String(e)));
    return () => ctl.abort();
  }, [uid, namespace, reloads]);
  return (
    <>
      <h2>Events</h2>
      {error && <p class="error">{error}</p>}
      {events && events.length === 0 && <p class="muted">No events.</p>}
      {events && events.length > 0 && (
        <table class="grid events">
          <thead>
            <tr>
              <th>Type</th>
              <th>Reason</th>
              <th>Last seen</th>
              <th>Count</th>
              <th>From</th>
              <th>Message</th>
            </tr>
          </thead>
          <tbody>
            {events.map((e) => (
              <tr key={e.metadata.uid}>
                <td>{e.type ?? ''}</td>
                <td>{e.reason ?? ''}</td>
                <td>{e.lastTimestamp ?? e.eventTime ?? e.firstTimestamp ?? ''}</td>
                <td>{e.count ?? 1}</td>
                <td>{e.source?.component ?? e.reportingComponent ?? ''}</td>
                <td>{e.message ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}

// A kind's objects as the server prints them (its Table: the printer columns), filtered by namespace and label
// selector, kept live by a watch of the same Table.
import { useEffect, useState } from 'preact/hooks';
import { TABLE_ACCEPT, type ApiError } from './api.ts';
import { collectionPath, type KindRef } from './discovery.ts';
import { listWatch } from './live.ts';
import { href } from './route.ts';

interface Column {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
}

interface Row {
  cells: unknown[];
  object?: { metadata?: { name?: string; namespace?: string; uid?: string } };
}

interface Table {
  metadata?: { resourceVersion?: string };
  columnDefinitions?: Column[];
  rows?: Row[];
}

const keyOf = (r: Row): string => r.object?.metadata?.uid ?? `${r.object?.metadata?.namespace ?? ''}/${r.object?.metadata?.name ?? ''}`;

export function ObjectsTable({ kind }: { kind: KindRef }) {
  const [filter, setFilter] = useState({ namespace: '', labelSelector: '' });
  const [draft, setDraft] = useState(filter);
  const [columns, setColumns] = useState<Column[]>([]);
  const [rows, setRows] = useState<Map<string, Row>>(new Map());
  const [error, setError] = useState<ApiError>();
  const [live, setLive] = useState(false);
  const canList = kind.verbs.includes('list');
  const watched = kind.verbs.includes('watch');
  useEffect(() => {
    if (!canList) return;
    const ctl = new AbortController();
    let current = new Map<string, Row>();
    setRows(current);
    setError(undefined);
    setLive(false);
    void listWatch<Table, Table>({
      path: collectionPath(kind, filter.namespace || undefined),
      accept: TABLE_ACCEPT,
      query: { labelSelector: filter.labelSelector || undefined },
      signal: ctl.signal,
      watch: watched,
      onList: (t) => {
        setColumns(t.columnDefinitions ?? []);
        current = new Map((t.rows ?? []).map((r) => [keyOf(r), r]));
        setRows(current);
        setLive(true);
      },
      onEvent: (e) => {
        // Each event is a Table of one row (its columns only in the first).
        current = new Map(current);
        for (const r of e.object.rows ?? []) {
          if (e.type === 'DELETED') current.delete(keyOf(r));
          else current.set(keyOf(r), r);
        }
        setRows(current);
      },
      onError: (e) => {
        setError(e);
        setLive(false);
      },
    });
    return () => ctl.abort();
  }, [kind.group, kind.version, kind.resource, filter.namespace, filter.labelSelector, canList, watched]);

  const shown = columns.map((c, i) => ({ c, i })).filter(({ c }) => !c.priority);
  const allNamespaces = kind.namespaced && !filter.namespace;
  const sorted = [...rows.values()].sort((a, b) => keyName(a).localeCompare(keyName(b)));
  return (
    <section class="objects">
      <form
        class="filters"
        onSubmit={(e) => {
          e.preventDefault();
          setFilter({ namespace: draft.namespace.trim(), labelSelector: draft.labelSelector.trim() });
        }}
      >
        {kind.namespaced && (
          <label>
            Namespace
            <input name="namespace" placeholder="all namespaces" value={draft.namespace} onInput={(e) => setDraft({ ...draft, namespace: e.currentTarget.value })} />
          </label>
        )}
        <label>
          Label selector
          <input name="labelSelector" placeholder="app=web,tier!=db" value={draft.labelSelector} onInput={(e) => setDraft({ ...draft, labelSelector: e.currentTarget.value })} />
        </label>
        <button type="submit">Apply</button>
        <span class={`live${live && watched ? ' on' : ''}`}>{live ? `${watched ? 'live · ' : ''}${rows.size} object${rows.size === 1 ? '' : 's'}` : ''}</span>
      </form>
      {!canList && <p class="muted">This kind cannot be listed.</p>}
      {error && (
        <p class="error" role="alert">
          {error.code} {error.message}
        </p>
      )}
      {!error && canList && (
        <table class="grid objects-table">
          <thead>
            <tr>
              {allNamespaces && <th>Namespace</th>}
              {shown.map(({ c }) => (
                <th key={c.name} title={c.description}>
                  {c.name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {sorted.map((r) => {
              const m = r.object?.metadata ?? {};
              return (
                <tr key={keyOf(r)} data-name={m.name}>
                  {allNamespaces && <td>{m.namespace ?? ''}</td>}
                  {shown.map(({ c, i }) => (
                    <td key={c.name}>{c.format === 'name' && m.name ? <a href={href({ group: kind.group, version: kind.version, resource: kind.resource, tab: 'objects', namespace: m.namespace ?? '', name: m.name })}>{cell(r.cells[i])}</a> : cell(r.cells[i])}</td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {!error && canList && live && rows.size === 0 && <p class="muted">No objects.</p>}
    </section>
  );
}

const keyName = (r: Row): string => `${r.object?.metadata?.namespace ?? ''}/${r.object?.metadata?.name ?? ''}`;

function cell(v: unknown): string {
  if (v === null || v === undefined) return '<none>';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

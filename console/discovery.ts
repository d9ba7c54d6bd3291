// The API groups, versions and kinds the server serves, from aggregated discovery (apidiscovery.k8s.io/v2,
// one request each for /api and /apis), or from the older per-version documents when the server answers
// without it.
import { DISCOVERY_ACCEPT, getJson } from './api.ts';

export interface KindRef {
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
  subresources: string[];
  shortNames: string[];
  /** The version's freshness or deprecation as discovery reports it. */
  versionNote?: string;
}

export interface GroupInfo {
  group: string;
  /** Versions in discovery's order: the preferred first. */
  versions: Array<{ version: string; kinds: KindRef[] }>;
}

interface DiscoveryResource {
  resource: string;
  responseKind?: { kind?: string };
  scope?: string;
  verbs?: string[];
  shortNames?: string[];
  subresources?: Array<{ subresource: string }>;
}

interface AggregatedList {
  kind?: string;
  items?: Array<{ metadata?: { name?: string }; versions?: Array<{ version: string; resources?: DiscoveryResource[]; freshness?: string }> }>;
}

interface ResourceList {
  resources: Array<{ name: string; kind: string; namespaced: boolean; verbs?: string[]; shortNames?: string[] }>;
}

export async function discover(): Promise<GroupInfo[]> {
  const [core, groups] = await Promise.all([getJson<AggregatedList>('/api', DISCOVERY_ACCEPT), getJson<AggregatedList>('/apis', DISCOVERY_ACCEPT)]);
  const out = [core, groups].every((d) => d.kind === 'APIGroupDiscoveryList') ? [...fromAggregated(core), ...fromAggregated(groups)] : await fromLegacy();
  return out.sort((a, b) => (a.group === '' ? -1 : b.group === '' ? 1 : a.group.localeCompare(b.group)));
}

function fromAggregated(list: AggregatedList): GroupInfo[] {
  return (list.items ?? []).map((g) => {
    const group = g.metadata?.name ?? '';
    return {
      group,
      versions: (g.versions ?? []).map((v) => ({
        version: v.version,
        kinds: kindsOf(
          group,
          v.version,
          (v.resources ?? []).map((r) => ({
            resource: r.resource,
            kind: r.responseKind?.kind ?? '',
            namespaced: r.scope === 'Namespaced',
            verbs: r.verbs ?? [],
            shortNames: r.shortNames ?? [],
            subresources: (r.subresources ?? []).map((s) => s.subresource),
          })),
          v.freshness === 'Stale' ? 'discovery is stale' : undefined,
        ),
      })),
    };
  });
}

async function fromLegacy(): Promise<GroupInfo[]> {
  const core = await getJson<{ versions: string[] }>('/api');
  const groups = await getJson<{ groups: Array<{ name: string; versions: Array<{ version: string }> }> }>('/apis');
  const all = [{ name: '', versions: core.versions.map((version) => ({ version })) }, ...groups.groups];
  return Promise.all(
    all.map(async (g) => ({
      group: g.name,
      versions: await Promise.all(
        g.versions.map(async ({ version }) => {
          const list = await getJson<ResourceList>(g.name ? `/apis/${g.name}/${version}` : `/api/${version}`);
          const subs = new Map<string, string[]>();
          for (const r of list.resources) {
            const [base, sub] = r.name.split('/');
            if (sub) subs.set(base!, [...(subs.get(base!) ?? []), sub]);
          }
          const rows = list.resources
            .filter((r) => !r.name.includes('/'))
            .map((r) => ({ resource: r.name, kind: r.kind, namespaced: r.namespaced, verbs: r.verbs ?? [], shortNames: r.shortNames ?? [], subresources: subs.get(r.name) ?? [] }));
          return { version, kinds: kindsOf(g.name, version, rows) };
        }),
      ),
    })),
  );
}

function kindsOf(group: string, version: string, rows: Array<Omit<KindRef, 'group' | 'version'>>, versionNote?: string): KindRef[] {
  return rows.map((r) => ({ group, version, ...r, ...(versionNote ? { versionNote } : {}) })).sort((a, b) => a.kind.localeCompare(b.kind));
}

/** The API path of a kind's collection, in a namespace or across all. */
export function collectionPath(k: Pick<KindRef, 'group' | 'version' | 'resource' | 'namespaced'>, namespace?: string): string {
  const base = k.group ? `/apis/${k.group}/${k.version}` : `/api/${k.version}`;
  return k.namespaced && namespace ? `${base}/namespaces/${encodeURIComponent(namespace)}/${k.resource}` : `${base}/${k.resource}`;
}

/** The API path of one object. */
export function objectPath(k: Pick<KindRef, 'group' | 'version' | 'resource' | 'namespaced'>, namespace: string, name: string): string {
  return `${collectionPath(k, k.namespaced ? namespace : undefined)}/${encodeURIComponent(name)}`;
}

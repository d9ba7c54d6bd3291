// Discovery documents built from the served resources, shaped as kube-apiserver 1.33 serves them:
// legacy /api, /apis, /apis/<g>, /apis/<g>/<v>, /api/v1 and aggregated discovery (apidiscovery.k8s.io
// v2 and v2beta1), plus the Accept negotiation that picks between them. Object keys are written in Go
// struct field order and empty fields left out where Go's omitempty would, so the JSON (and the ETag
// hashed from it) matches kube's.

import { gvString, type ServedResource } from '../api/resource.js';
import { compareKubeVersions } from '../api/versions.js';
import { goJSON, sha512HexUpper } from './discovery-json.js';
import { BUILTIN_KINDS } from '../apis/index.js';

// ---------------------------------------------------------------------------------------------
// Grouping helpers

const BUILTIN_GROUPS = new Set(BUILTIN_KINDS.map((k) => k.served.group));

/** Built-in groups (those of the declared kinds) are served by kube's generic installer; every other group comes from CRDs. */
export const isBuiltinGroup = (group: string): boolean => BUILTIN_GROUPS.has(group);

const GROUP_PRIORITIES = new Map(BUILTIN_KINDS.flatMap((k) => (k.groupPriorityMinimum === undefined ? [] : [[k.served.group, k.groupPriorityMinimum] as const])));

/**
 * The APIService groupPriorityMinimum kube-apiserver gives a group: the aggregator's built-in table for
 * the built-in groups (as their kinds declare it), 1000 for the APIServices it registers for CRD groups.
 */
export function groupPriorityMinimum(group: string): number {
  return GROUP_PRIORITIES.get(group) ?? 1000;
}

/** group -> version -> resources, versions in priority order. */
function byGroupVersion(resources: readonly ServedResource[]): Map<string, Map<string, ServedResource[]>> {
  const groups = new Map<string, Map<string, ServedResource[]>>();
  for (const r of resources) {
    let versions = groups.get(r.group);
    if (!versions) groups.set(r.group, (versions = new Map()));
    let list = versions.get(r.version);
    if (!list) versions.set(r.version, (list = []));
    if (!list.some((x) => x.resource === r.resource)) list.push(r);
  }
  for (const [g, versions] of groups) {
    groups.set(g, new Map([...versions].sort(([a], [b]) => compareKubeVersions(a, b))));
  }
  return groups;
}

/** The group's served versions, highest priority (the preferred version) first. */
export function groupVersions(group: string, resources: readonly ServedResource[]): string[] {
  return [...(byGroupVersion(resources.filter((r) => r.group === group)).get(group)?.keys() ?? [])];
}

// ---------------------------------------------------------------------------------------------
// Legacy (unaggregated) discovery: meta/v1 APIVersions, APIGroupList, APIGroup, APIResourceList

export interface ServerAddressByClientCIDR {
  clientCIDR: string;
  serverAddress: string;
}

export interface APIVersions {
  kind: 'APIVersions';
  versions: string[];
  serverAddressByClientCIDRs: ServerAddressByClientCIDR[];
}

export interface GroupVersionForDiscovery {
  groupVersion: string;
  version: string;
}

export interface APIGroup {
  kind?: 'APIGroup';
  apiVersion?: 'v1';
  name: string;
  versions: GroupVersionForDiscovery[];
  preferredVersion: GroupVersionForDiscovery;
}

export interface APIGroupList {
  kind: 'APIGroupList';
  apiVersion: 'v1';
  groups: APIGroup[];
}

export interface APIResource {
  name: string;
  singularName: string;
  namespaced: boolean;
  group?: string;
  version?: string;
  kind: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  storageVersionHash?: string;
}

export interface APIResourceList {
  kind: 'APIResourceList';
  apiVersion?: 'v1';
  groupVersion: string;
  resources: APIResource[];
}

/**
 * GET /api: the legacy versions. kube lists 0.0.0.0/0 -> its advertised host:port; `serverAddress`
 * is that host:port.
 */
export function apiVersions(serverAddress: string, clientCIDR = '0.0.0.0/0'): APIVersions {
  return { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR, serverAddress }] };
}

function discoveryGroup(group: string, versions: readonly string[]): APIGroup {
  const entries = versions.map((v) => ({ groupVersion: `${group}/${v}`, version: v }));
  return { name: group, versions: entries, preferredVersion: entries[0]! };
}

/**
 * GET /apis. kube-aggregator lists groups by APIService: highest groupPriorityMinimum first, ties by
 * APIService name ("<version>.<group>"), a group placed where its first APIService falls.
 */
export function apiGroupList(resources: readonly ServedResource[]): APIGroupList {
  const groups = [...byGroupVersion(resources)].filter(([g]) => g !== '');
  const firstName = (g: string, versions: Map<string, unknown>): string =>
    [...versions.keys()].map((v) => `${v}.${g}`).sort()[0]!;
  groups.sort(([ga, va], [gb, vb]) => {
    const byPriority = groupPriorityMinimum(gb) - groupPriorityMinimum(ga);
    if (byPriority !== 0) return byPriority;
    const na = firstName(ga, va);
    const nb = firstName(gb, vb);
    return na < nb ? -1 : na > nb ? 1 : 0;
  });
  return { kind: 'APIGroupList', apiVersion: 'v1', groups: groups.map(([g, versions]) => discoveryGroup(g, [...versions.keys()])) };
}

/** GET /apis/<group>; undefined when nothing is served in the group (kube answers 404). */
export function apiGroup(group: string, resources: readonly ServedResource[]): APIGroup | undefined {
  if (group === '') return undefined;
  const versions = groupVersions(group, resources);
  if (versions.length === 0) return undefined;
  return { kind: 'APIGroup', apiVersion: 'v1', ...discoveryGroup(group, versions) };
}

const SUBRESOURCE_VERBS = ['get', 'patch', 'update'];

interface SubresourceEntry {
  name: string;
  group?: string;
  version?: string;
  kind: string;
  verbs: readonly string[];
}

/** The subresources kube lists for a resource, each with the kind its endpoint returns and its verbs. */
function subresourcesOf(r: ServedResource): SubresourceEntry[] {
  const out: SubresourceEntry[] = [];
  if (r.subresources.status) out.push({ name: 'status', kind: r.kind, verbs: SUBRESOURCE_VERBS });
  if (r.subresources.scale) out.push({ name: 'scale', group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: SUBRESOURCE_VERBS });
  for (const s of r.subresources.others ?? []) out.push({ name: s.name, group: s.group, version: s.version, kind: s.kind, verbs: s.verbs });
  // The generic installer registers paths sorted, so built-ins list scale before status; the CRD
  // discovery controller appends status then scale.
  if (isBuiltinGroup(r.group)) out.sort((a, b) => (a.name < b.name ? -1 : 1));
  return out;
}

function apiResource(r: ServedResource): APIResource {
  const out: APIResource = { name: r.resource, singularName: r.singularName, namespaced: r.namespaced, kind: r.kind, verbs: [...r.verbs] };
  if (r.shortNames.length > 0) out.shortNames = [...r.shortNames];
  if (r.categories.length > 0) out.categories = [...r.categories];
  if (r.storageVersionHash) out.storageVersionHash = r.storageVersionHash;
  return out;
}

/**
 * GET /apis/<group>/<version> and GET /api/v1. Each subresource is its own entry ("crontabs/status")
 * with an empty singularName; scale names its autoscaling/v1 Scale kind. The core list carries no
 * apiVersion, as kube's legacy group handler writes it.
 */
export function apiResourceList(group: string, version: string, resources: readonly ServedResource[]): APIResourceList {
  const served = resources
    .filter((r) => r.group === group && r.version === version)
    .sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
  const entries: APIResource[] = [];
  for (const r of served) {
    entries.push(apiResource(r));
    for (const s of subresourcesOf(r)) {
      entries.push({
        name: `${r.resource}/${s.name}`,
        singularName: '',
        namespaced: r.namespaced,
        ...(s.group !== undefined ? { group: s.group, version: s.version } : {}),
        kind: s.kind,
        verbs: [...s.verbs],
      });
    }
  }
  if (isBuiltinGroup(group)) entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const groupVersion = gvString(group, version);
  if (group === '') return { kind: 'APIResourceList', groupVersion, resources: entries };
  return { kind: 'APIResourceList', apiVersion: 'v1', groupVersion, resources: entries };
}

// ---------------------------------------------------------------------------------------------
// Aggregated discovery: apidiscovery.k8s.io/v2 (and v2beta1, the same shape) APIGroupDiscoveryList

type AggregatedVersion = 'v2' | 'v2beta1';

export interface GroupVersionKind {
  group: string;
  version: string;
  kind: string;
}

interface APISubresourceDiscovery {
  subresource: string;
  responseKind: GroupVersionKind;
  verbs: string[];
}

interface APIResourceDiscovery {
  resource: string;
  responseKind: GroupVersionKind;
  scope: 'Namespaced' | 'Cluster';
  singularResource: string;
  verbs: string[];
  shortNames?: string[];
  categories?: string[];
  subresources?: APISubresourceDiscovery[];
}

interface APIVersionDiscovery {
  version: string;
  resources?: APIResourceDiscovery[];
  freshness: 'Current' | 'Stale';
}

interface APIGroupDiscovery {
  /** Go encodes ObjectMeta's zero creationTimestamp as null; name is left out for the core group. */
  metadata: { name?: string; creationTimestamp: null };
  versions?: APIVersionDiscovery[];
}

export interface APIGroupDiscoveryList {
  kind: 'APIGroupDiscoveryList';
  apiVersion: `apidiscovery.k8s.io/${AggregatedVersion}`;
  metadata: Record<string, never>;
  items: APIGroupDiscovery[];
}

function resourceDiscovery(r: ServedResource): APIResourceDiscovery {
  // The generic installer leaves the group/version of a built-in's own kind empty; the CRD discovery
  // controller fills them in.
  const builtin = isBuiltinGroup(r.group);
  const own: GroupVersionKind = builtin ? { group: '', version: '', kind: r.kind } : { group: r.group, version: r.version, kind: r.kind };
  const out: APIResourceDiscovery = {
    resource: r.resource,
    responseKind: own,
    scope: r.namespaced ? 'Namespaced' : 'Cluster',
    singularResource: r.singularName,
    verbs: [...r.verbs],
  };
  if (r.shortNames.length > 0) out.shortNames = [...r.shortNames];
  if (r.categories.length > 0) out.categories = [...r.categories];
  const subs = subresourcesOf(r).map((s) => ({
    subresource: s.name,
    responseKind: s.group !== undefined ? { group: s.group, version: s.version ?? '', kind: s.kind } : { ...own },
    verbs: [...s.verbs],
  }));
  if (subs.length > 0) out.subresources = subs;
  return out;
}

/**
 * The aggregated discovery document. scope 'api' holds only the core group (its name empty, so its
 * metadata carries just creationTimestamp: null); 'apis' holds every other group, ordered by
 * groupPriorityMinimum then name, each group's versions in priority order and resources by name.
 */
export function aggregatedDiscovery(resources: readonly ServedResource[], version: AggregatedVersion, scope: 'api' | 'apis'): APIGroupDiscoveryList {
  const groups = [...byGroupVersion(resources)].filter(([g]) => (scope === 'api' ? g === '' : g !== ''));
  groups.sort(([a], [b]) => groupPriorityMinimum(b) - groupPriorityMinimum(a) || (a < b ? -1 : a > b ? 1 : 0));
  const items = groups.map(([group, versions]): APIGroupDiscovery => {
    const metadata: APIGroupDiscovery['metadata'] = group ? { name: group, creationTimestamp: null } : { creationTimestamp: null };
    const vs = [...versions].map(([v, rs]): APIVersionDiscovery => {
      const sorted = [...rs].sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
      if (sorted.length === 0) return { version: v, freshness: 'Current' };
      return { version: v, resources: sorted.map(resourceDiscovery), freshness: 'Current' };
    });
    return { metadata, versions: vs };
  });
  return { kind: 'APIGroupDiscoveryList', apiVersion: `apidiscovery.k8s.io/${version}`, metadata: {}, items };
}

/**
 * The ETag kube sets on aggregated discovery: sha512 (upper-case hex) of json.Marshal of the cached
 * v2 list, which has no kind/apiVersion set. v2 and v2beta1 responses carry the same ETag.
 */
export function aggregatedDiscoveryETag(list: APIGroupDiscoveryList): string {
  return sha512HexUpper(goJSON({ metadata: list.metadata, items: list.items }));
}

// ---------------------------------------------------------------------------------------------
// Content negotiation for /api and /apis

type DiscoveryFormat = AggregatedVersion | 'legacy';

interface AcceptClause {
  type: string;
  subType: string;
  q: number;
  params: Record<string, string>;
}

const trimSpaces = (s: string): string => s.replace(/^ +| +$/g, '');

/** strconv.ParseFloat(s, 32) where a syntax error yields 0, as goautoneg uses it. */
function parseGoFloat(s: string): number {
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(s)) return Math.fround(Number(s));
  if (/^[+-]?inf(inity)?$/i.test(s)) return s.startsWith('-') ? -Infinity : Infinity;
  if (/^nan$/i.test(s)) return NaN;
  return 0;
}

/**
 * github.com/munnerz/goautoneg ParseAccept, which kube's negotiation uses: clauses sorted so that
 * higher q, then concrete types, come first. Go sorts these short lists by insertion sort, which keeps
 * the client's order among equals; this does the same.
 */
export function parseAcceptClauses(header: string): AcceptClause[] {
  const clauses: AcceptClause[] = [];
  for (const raw of header.split(',')) {
    const parts = trimSpaces(raw).split(';');
    const range = parts[0]!.split('/');
    const type = trimSpaces(range[0]!);
    let subType: string;
    if (range.length === 1 && type === '*') subType = '*';
    else if (range.length === 2) subType = trimSpaces(range[1]!);
    else continue;
    const clause: AcceptClause = { type, subType, q: 1, params: {} };
    for (const param of parts.slice(1)) {
      const eq = param.indexOf('=');
      if (eq < 0) continue;
      const token = trimSpaces(param.slice(0, eq));
      if (token === 'q') clause.q = parseGoFloat(param.slice(eq + 1));
      else clause.params[token] = trimSpaces(param.slice(eq + 1));
    }
    clauses.push(clause);
  }
  const less = (a: AcceptClause, b: AcceptClause): boolean =>
    a.q > b.q || (a.type !== '*' && b.type === '*') || (a.subType !== '*' && b.subType === '*');
  for (let i = 1; i < clauses.length; i++) {
    for (let j = i; j > 0 && less(clauses[j]!, clauses[j - 1]!); j--) {
      [clauses[j - 1], clauses[j]] = [clauses[j]!, clauses[j - 1]!];
    }
  }
  return clauses;
}

type Convert = { group?: string; version?: string; kind?: string } | undefined;

/**
 * acceptMediaTypeOptions for our only serializer, JSON: the as/g/v transform it asks for, or false when
 * the clause carries an option JSON cannot honour (a stream other than watch, a server version).
 */
function clauseConvert(params: Record<string, string>): { convert: Convert } | false {
  let convert: Convert;
  for (const [k, v] of Object.entries(params)) {
    if (k === 'as') convert = { ...convert, kind: v };
    else if (k === 'g') convert = { ...convert, group: v };
    else if (k === 'v') convert = { ...convert, version: v };
    else if (k === 'stream' && v !== '' && v !== 'watch') return false;
    else if (k === 'sv' && v !== '') return false;
  }
  return { convert };
}

const matchesJSON = (c: AcceptClause): boolean =>
  (c.type === 'application' && (c.subType === 'json' || c.subType === '*')) || (c.type === '*' && c.subType === '*');

/**
 * Which document GET /api or /apis answers with, as kube's aggregated-discovery wrapper decides: the
 * first acceptable clause asking for apidiscovery.k8s.io v2 or v2beta1 APIGroupDiscoveryList wins;
 * otherwise the first plain (untransformed) clause gets the legacy document; null means 406.
 * kubectl 1.27-1.29 send `application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json`,
 * 1.30+ put the same clause for v2 in front of those.
 */
export function pickDiscoveryFormat(acceptHeader: string | undefined): DiscoveryFormat | null {
  if (!acceptHeader) return 'legacy';
  const clauses = parseAcceptClauses(acceptHeader).filter(matchesJSON);
  for (const c of clauses) {
    const opts = clauseConvert(c.params);
    const cv = opts && opts.convert;
    if (cv && cv.group === 'apidiscovery.k8s.io' && cv.kind === 'APIGroupDiscoveryList' && (cv.version === 'v2' || cv.version === 'v2beta1')) {
      return cv.version;
    }
  }
  for (const c of clauses) {
    const opts = clauseConvert(c.params);
    if (opts && opts.convert === undefined) return 'legacy';
  }
  return null;
}

/**
 * The Content-Type kube answers with. client-go 1.27 compares it as an exact string, so legacy
 * documents must say exactly `application/json` (no charset).
 */
export function discoveryContentType(format: DiscoveryFormat): string {
  return format === 'legacy' ? 'application/json' : `application/json;g=apidiscovery.k8s.io;v=${format};as=APIGroupDiscoveryList`;
}

interface DiscoveryResponse {
  status: 200 | 304 | 406;
  headers: Record<string, string>;
  /** JSON text; absent for 304. For 406 the caller renders its NotAcceptable Status. */
  body?: string;
}

/** Media types a 406 from discovery lists, as kube's message does. */
export const DISCOVERY_ACCEPTED_MEDIA_TYPES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

/**
 * GET /api or GET /apis end to end: negotiates, builds the document, and for aggregated answers sets
 * ETag (quoted), Vary: Accept and Cache-Control: public, answering 304 when If-None-Match equals the ETag.
 */
export function serveRootDiscovery(opts: {
  path: '/api' | '/apis';
  resources: readonly ServedResource[];
  accept?: string;
  ifNoneMatch?: string;
  /** host:port for /api's serverAddressByClientCIDRs */
  serverAddress: string;
}): DiscoveryResponse {
  const format = pickDiscoveryFormat(opts.accept);
  if (format === null) return { status: 406, headers: {} };
  if (format === 'legacy') {
    const doc = opts.path === '/api' ? apiVersions(opts.serverAddress) : apiGroupList(opts.resources);
    return { status: 200, headers: { 'Content-Type': discoveryContentType('legacy') }, body: goJSON(doc) };
  }
  const list = aggregatedDiscovery(opts.resources, format, opts.path === '/api' ? 'api' : 'apis');
  const etag = `"${aggregatedDiscoveryETag(list)}"`;
  const headers = { ETag: etag, Vary: 'Accept', 'Cache-Control': 'public' };
  if (opts.ifNoneMatch === etag) return { status: 304, headers };
  return { status: 200, headers: { ...headers, 'Content-Type': discoveryContentType(format) }, body: goJSON(list) };
}

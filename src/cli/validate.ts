// `crd-apiserver validate`: manifests judged offline exactly as a create on the server judges them, by the
// server itself: one started in this process with its state in memory. CRDs (from --crds, and any among the
// files) are created for real and awaited until Established, so the objects after them are judged by their
// schemas, defaults, pruning and CEL rules; every other object is a dry-run create (dryRun=All) with the
// chosen fieldValidation, sent as its document's own text (so duplicate keys are seen as the server sees
// them). Namespaces the objects name are created first: a missing namespace is not what is being checked.
// Each problem the server reports is placed at the line and column of its field in the file.
import { readFileSync } from 'node:fs';
import { LineCounter, parseAllDocuments, type Document } from 'yaml';
import { startServer } from '../server/server.js';
import { createCachedStore } from '../storage/cache.js';
import { openSqliteStore } from '../storage/sqlite-store.js';
import { manifestFiles } from '../util/manifests.js';
import { positionOf, type Position } from '../util/yaml-positions.js';
import { isObject, type JSONObject } from '../util/json.js';

export type FieldValidation = 'Strict' | 'Warn' | 'Ignore';

export interface ValidateOptions {
  /** CRD manifests to install first: files or directories. */
  crds?: readonly string[];
  /** The manifests to judge: files, directories, or '-' for standard input. */
  files: readonly string[];
  /** kube's fieldValidation for the dry-run creates (default Strict, as kubectl's). */
  fieldValidation?: FieldValidation;
  /** What '-' reads (default: standard input). */
  stdin?: () => string;
}

export interface Problem extends Position {
  /** The field the server named (absent: the object as a whole). */
  field?: string;
  message: string;
}

export interface Verdict extends Position {
  file: string;
  /** The document's index in its file (from 0). */
  document: number;
  apiVersion?: string;
  kind?: string;
  name?: string;
  namespace?: string;
  valid: boolean;
  /** The server's Status message, for an invalid object. */
  message?: string;
  problems: Problem[];
  /** Warnings the server sent (fieldValidation=Warn: unknown and duplicate fields; deprecations), placed like problems. */
  warnings: Problem[];
}

interface Source {
  file: string;
  index: number;
  doc: Document;
  lines: LineCounter;
  /** The document's own text, sent as the request body. */
  text: string;
  json: boolean;
  object: unknown;
}

/** Every document of the paths, with what places its fields. */
function readSources(paths: readonly string[], stdin: () => string): Source[] {
  const out: Source[] = [];
  for (const path of paths) {
    const files = path === '-' ? ['-'] : manifestFiles(path);
    for (const file of files) {
      const text = file === '-' ? stdin() : readFileSync(file, 'utf8');
      const lines = new LineCounter();
      // Duplicate keys are the server's to judge (fieldValidation), from the document's text.
      const docs = parseAllDocuments(text, { lineCounter: lines, uniqueKeys: false });
      for (const [index, doc] of (Array.isArray(docs) ? docs : [docs]).entries()) {
        const [start, , end] = doc.range;
        const object: unknown = doc.errors.length > 0 ? undefined : doc.toJS();
        if (object === null || (object === undefined && doc.errors.length === 0)) continue;
        out.push({ file: file === '-' ? '<stdin>' : file, index, doc, lines, text: text.slice(start, end), json: /\.json$/i.test(file), object });
      }
    }
  }
  return out;
}

export async function validateManifests(opts: ValidateOptions): Promise<Verdict[]> {
  const stdin = opts.stdin ?? (() => readFileSync(0, 'utf8'));
  const crdSources = readSources(opts.crds ?? [], stdin);
  const sources = readSources(opts.files, stdin);
  const kv = await createCachedStore(openSqliteStore(':memory:', { sync: 'normal' }));
  const server = await startServer({ kv, insecurePort: 0 });
  try {
    const api = new Api(server.insecureUrl!);
    const verdicts: Verdict[] = [];
    for (const s of crdSources) verdicts.push(await judge(api, s, 'Strict'));
    for (const s of sources) verdicts.push(await judge(api, s, opts.fieldValidation ?? 'Strict'));
    return verdicts;
  } finally {
    await server.close();
    await kv.close();
  }
}

const CRD_GROUP = 'apiextensions.k8s.io';

async function judge(api: Api, s: Source, fieldValidation: FieldValidation): Promise<Verdict> {
  const start = positionOf(s.doc, s.lines, '');
  const base = { file: s.file, document: s.index, ...start, problems: [] as Problem[], warnings: [] as Problem[] };
  if (s.doc.errors.length > 0) {
    const e = s.doc.errors[0]!;
    const { line, col } = s.lines.linePos(e.pos[0]);
    return { ...base, line, column: col, valid: false, message: e.message, problems: [{ line, column: col, message: e.message }] };
  }
  const o = s.object;
  const apiVersion = isObject(o) && typeof o['apiVersion'] === 'string' ? o['apiVersion'] : '';
  const kind = isObject(o) && typeof o['kind'] === 'string' ? o['kind'] : '';
  const meta = isObject(o) && isObject(o['metadata']) ? o['metadata'] : {};
  const name = typeof meta['name'] === 'string' ? meta['name'] : typeof meta['generateName'] === 'string' ? meta['generateName'] : undefined;
  const who = { apiVersion, kind, name };
  if (!apiVersion || !kind) {
    const message = !kind ? "Object 'Kind' is missing" : "Object 'apiVersion' is missing";
    return { ...base, ...who, valid: false, message, problems: [{ ...start, message }] };
  }
  const group = apiVersion.includes('/') ? apiVersion.slice(0, apiVersion.indexOf('/')) : '';
  const version = apiVersion.slice(apiVersion.indexOf('/') + 1);
  const resource = await api.resourceFor(group, version, kind);
  if (!resource) {
    const message = `no matches for kind "${kind}" in version "${apiVersion}"`;
    return { ...base, ...who, valid: false, message, problems: [{ ...start, message }] };
  }
  const isCrd = group === CRD_GROUP && kind === 'CustomResourceDefinition';
  const namespace = resource.namespaced ? (typeof meta['namespace'] === 'string' && meta['namespace'] ? meta['namespace'] : 'default') : undefined;
  if (namespace) await api.ensureNamespace(namespace);
  const prefix = group ? `/apis/${group}/${version}` : `/api/${version}`;
  const path = `${prefix}${namespace ? `/namespaces/${namespace}` : ''}/${resource.name}`;
  const query = `${isCrd ? '' : 'dryRun=All&'}fieldValidation=${fieldValidation}`;
  const res = await api.call('POST', `${path}?${query}`, s.text, s.json ? 'application/json' : 'application/yaml');
  const out: Verdict = { ...base, ...who, ...(namespace ? { namespace } : {}), valid: res.status < 300, warnings: res.warnings.flatMap((w) => placed(s, w, start)) };
  if (res.status >= 300) {
    const status = res.json;
    out.message = typeof status['message'] === 'string' ? status['message'] : `status ${res.status}`;
    const causes = (isObject(status['details']) && Array.isArray(status['details']['causes']) ? status['details']['causes'] : []) as Array<{ field?: string; message?: string }>;
    out.problems = causes.length > 0
      ? causes.map((c) => ({ ...positionOf(s.doc, s.lines, c.field ?? ''), ...(c.field ? { field: c.field } : {}), message: c.message ?? '' }))
      : placed(s, out.message, start);
  } else if (isCrd) {
    await api.waitEstablished(name ?? '');
  }
  return out;
}

/**
 * A message placed at the fields it names: the strict decoder's `unknown field "spec.x"` and `duplicate field
 * "spec.y"` (one problem each, at the field), or the whole message at the object.
 */
function placed(s: Source, message: string, start: Position): Problem[] {
  const named = [...message.matchAll(/(unknown|duplicate) field "([^"]+)"/g)];
  if (named.length === 0) return [{ ...start, message }];
  // The server's words around each field: `CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: `.
  const lead = message.slice(0, named[0]!.index);
  return named.map((m) => ({ ...positionOf(s.doc, s.lines, m[2]!), field: m[2]!, message: `${lead}${m[1]} field "${m[2]}"` }));
}

/** Plain HTTP to the in-process server's insecure port (system:masters). */
class Api {
  private readonly groups = new Map<string, Promise<Array<{ name: string; kind: string; namespaced: boolean }>>>();
  private readonly namespaces = new Set<string>();

  constructor(private readonly base: string) {}

  async call(method: string, path: string, body?: string, contentType = 'application/json'): Promise<{ status: number; json: JSONObject; warnings: string[] }> {
    const res = await fetch(this.base + path, { method, body, headers: body === undefined ? {} : { 'content-type': contentType } });
    const text = await res.text();
    let json: JSONObject = {};
    try {
      json = text ? (JSON.parse(text) as JSONObject) : {};
    } catch {
      json = { message: text };
    }
    // RFC 7234 warnings as kube sends them: 299 - "text".
    const warnings = (res.headers.get('warning') ?? '')
      .split(/,\s*(?=299 )/)
      .map((w) => /^299 - "(.*)"$/.exec(w.trim())?.[1]?.replace(/\\"/g, '"'))
      .filter((w): w is string => Boolean(w));
    return { status: res.status, json, warnings };
  }

  /** The resource serving kind in group/version (discovery, asked again after a CRD is installed). */
  async resourceFor(group: string, version: string, kind: string): Promise<{ name: string; namespaced: boolean } | undefined> {
    const key = `${group}/${version}`;
    const find = async (): Promise<{ name: string; namespaced: boolean } | undefined> =>
      (await this.groups.get(key))?.find((r) => r.kind === kind && !r.name.includes('/'));
    if (!this.groups.has(key)) this.groups.set(key, this.discover(group, version));
    const found = await find();
    if (found) return found;
    this.groups.set(key, this.discover(group, version));
    return find();
  }

  private async discover(group: string, version: string): Promise<Array<{ name: string; kind: string; namespaced: boolean }>> {
    const res = await this.call('GET', group ? `/apis/${group}/${version}` : `/api/${version}`);
    if (res.status !== 200 || !Array.isArray(res.json['resources'])) return [];
    return res.json['resources'] as Array<{ name: string; kind: string; namespaced: boolean }>;
  }

  async ensureNamespace(name: string): Promise<void> {
    if (this.namespaces.has(name)) return;
    const res = await this.call('POST', '/api/v1/namespaces', JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }));
    if (res.status < 300 || res.status === 409) this.namespaces.add(name);
  }

  async waitEstablished(name: string, timeoutMs = 10_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const res = await this.call('GET', `/apis/${CRD_GROUP}/v1/customresourcedefinitions/${name}`);
      const conditions = ((res.json['status'] as JSONObject | undefined)?.['conditions'] ?? []) as Array<{ type: string; status: string }>;
      if (conditions.some((c) => c.type === 'Established' && c.status === 'True')) {
        this.groups.clear();
        return;
      }
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}

/** The verdicts as text: one line per problem, `file:line:column: Kind name: field: message`, and the warnings. */
export function formatVerdicts(verdicts: readonly Verdict[]): string {
  const lines: string[] = [];
  for (const v of verdicts) {
    const who = `${v.kind ?? '?'}${v.name ? ` ${v.namespace ? `${v.namespace}/` : ''}${v.name}` : ''}`;
    for (const w of v.warnings) lines.push(`${v.file}:${w.line}:${w.column}: warning: ${who}: ${w.message}`);
    if (v.valid) continue;
    // A cause names its field before its message, as kube joins them; a placed message already names it.
    for (const p of v.problems) lines.push(`${v.file}:${p.line}:${p.column}: ${who}: ${p.field && !p.message.includes(`"${p.field}"`) ? `${p.field}: ` : ''}${p.message}`);
  }
  const bad = verdicts.filter((v) => !v.valid).length;
  lines.push(bad === 0 ? `${verdicts.length} object${verdicts.length === 1 ? '' : 's'} valid` : `${bad} of ${verdicts.length} object${verdicts.length === 1 ? '' : 's'} invalid`);
  return lines.join('\n') + '\n';
}

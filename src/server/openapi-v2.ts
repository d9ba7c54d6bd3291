// /openapi/v2: the Swagger 2.0 document kube-apiserver serves, for what this server serves. Custom
// resources are built as apiextensions-apiserver's OpenAPI controller builds them (BuildOpenAPIV2 for
// every served version, defaults pruned, merged); built-in kinds and the meta/v1 types they use come
// from the declarations the v3 documents use, in v2 form. Served by kube-openapi's handler: JSON or
// gnostic protobuf by Accept, ETag (sha512 of the JSON, shared by both forms), 304 on If-None-Match.

import type { ServedResource } from '../api/resource.js';
import { BUILTIN_KINDS } from '../apis/index.js';
import { goJSON, sha512HexUpper } from './discovery-json.js';
import { isBuiltinGroup, parseAcceptClauses } from './discovery.js';
import { definitionName } from './openapi.js';
import type { Schema } from './openapi-schema.js';
import { builtinDefinitionV2, builtinKindDefinitionsV2, v2Refs } from './openapi-v2-definitions.js';
import { openapiV2Paths } from './openapi-v2-paths.js';
import { openapiV2Protobuf } from './openapi-v2-protobuf.js';
import { kindSchemaV2, listSchemaV2 } from './openapi-v2-schema.js';
import { withSelectableFields } from './openapi-schema.js';
import { lazyBuiltin } from '../util/lazy-builtin.js';

const zlib = lazyBuiltin<typeof import('node:zlib')>('node:zlib');

export interface OpenAPIV2Document {
  swagger: '2.0';
  info: { title: string; version: string };
  paths: Record<string, Schema>;
  definitions: Record<string, Schema>;
  parameters: Record<string, Schema>;
  securityDefinitions: Record<string, Schema>;
  security: Record<string, string[]>[];
}

const sortedKeys = <T>(o: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The definitions of one served resource: its kind and list. */
function resourceDefinitions(r: ServedResource): Record<string, Schema> {
  const kindName = definitionName(r.group, r.version, r.kind);
  const declared = isBuiltinGroup(r.group) ? BUILTIN_KINDS.find((k) => k.served.group === r.group && k.served.version === r.version && k.served.kind === r.kind) : undefined;
  // A CRD version's selectableFields are published on its kind and list, in v2 as in v3.
  const kinds = declared ? builtinKindDefinitionsV2(declared) : { [kindName]: withSelectableFields(kindSchemaV2(r), r.selectableFields) };
  // A resource that cannot be listed (the create-only reviews) has no list type.
  if (!r.verbs.includes('list')) return kinds;
  // A declared list type replaces the CRD-style list.
  return { [definitionName(r.group, r.version, r.listKind)]: withSelectableFields(listSchemaV2(kindName, r), r.selectableFields), ...kinds };
}

/**
 * The whole document. CRD definitions never replace built-in ones (kube's MergeSpecs gives the static
 * spec priority); each referenced meta/v1 or autoscaling/v1 definition is added once.
 */
export function openapiV2Document(resources: readonly ServedResource[], gitVersion = 'v1.33.0'): OpenAPIV2Document {
  const definitions: Record<string, Schema> = {};
  const ordered = [...resources].sort((a, b) => Number(isBuiltinGroup(b.group)) - Number(isBuiltinGroup(a.group)));
  for (const r of ordered) for (const [name, schema] of Object.entries(resourceDefinitions(r))) definitions[name] ??= schema;
  const { paths, parameters } = openapiV2Paths(resources);
  const pending = v2Refs([paths, parameters, definitions]);
  while (pending.size > 0) {
    const [name] = pending;
    pending.delete(name!);
    if (definitions[name!]) continue;
    const schema = builtinDefinitionV2(name!);
    if (!schema) continue;
    definitions[name!] = schema;
    for (const ref of v2Refs(schema)) pending.add(ref);
  }
  return {
    swagger: '2.0',
    info: { title: 'Kubernetes', version: gitVersion },
    paths,
    definitions: sortedKeys(definitions),
    parameters,
    securityDefinitions: { BearerToken: { description: 'Bearer Token authentication', type: 'apiKey', name: 'authorization', in: 'header' } },
    security: [{ BearerToken: [] }],
  };
}

export interface PublishedOpenAPIV2 {
  json: string;
  protobuf: Uint8Array;
  /** sha512 of the JSON, upper-case hex; the protobuf form carries the same ETag. */
  hash: string;
  lastModified: Date;
  /** Each form gzipped, made on first request. */
  gzipped: { json?: Uint8Array; protobuf?: Uint8Array };
}

export function publishOpenAPIV2(resources: readonly ServedResource[], opts: { gitVersion?: string; now?: Date } = {}): PublishedOpenAPIV2 {
  const doc = openapiV2Document(resources, opts.gitVersion);
  const json = goJSON(doc);
  return { json, protobuf: openapiV2Protobuf(doc as unknown as Record<string, unknown>), hash: sha512HexUpper(json), lastModified: opts.now ?? new Date(), gzipped: {} };
}

const PROTOBUF_SUBTYPES = ['com.github.proto-openapi.spec.v2@v1.0+protobuf', 'com.github.proto-openapi.spec.v2.v1.0+protobuf'];
const PROTOBUF_CONTENT_TYPE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/** If-None-Match as net/http's ServeContent checks it: any listed (weak-compared) tag or "*". */
function noneMatch(ifNoneMatch: string | undefined, etag: string): boolean {
  return !!ifNoneMatch && ifNoneMatch.split(',').some((t) => t.trim() === '*' || t.trim().replace(/^W\//, '') === etag);
}

/** gziphandler: a client that accepts gzip (q > 0) gets bodies of 1400 bytes and more compressed. */
function acceptsGzip(acceptEncoding: string | undefined): boolean {
  return (acceptEncoding ?? '').split(',').some((part) => {
    const [coding, ...params] = part.split(';').map((x) => x.trim());
    const q = params.find((p) => p.startsWith('q='));
    return coding === 'gzip' && (q === undefined || Number(q.slice(2)) > 0);
  });
}
const GZIP_MIN_SIZE = 1400;

/**
 * GET /openapi/v2 as kube-openapi's handler serves it (behind gziphandler): JSON or protobuf by Accept,
 * ETag, 304, else 406; gzip when the client accepts it.
 */
export function serveOpenAPIV2(
  published: PublishedOpenAPIV2,
  request: { accept?: string; ifNoneMatch?: string; acceptEncoding?: string },
): { status: 200 | 304 | 406; headers: Record<string, string>; body?: string | Uint8Array } {
  const etag = `"${published.hash}"`;
  const vary = 'Accept-Encoding, Accept';
  for (const clause of parseAcceptClauses(request.accept || '*/*')) {
    if (clause.type !== 'application' && clause.type !== '*') continue;
    const json = clause.subType === 'json' || clause.subType === '*';
    const proto = PROTOBUF_SUBTYPES.includes(clause.subType);
    if (!json && !proto) continue;
    if (noneMatch(request.ifNoneMatch, etag)) return { status: 304, headers: { Vary: vary, Etag: etag } };
    const headers: Record<string, string> = { Vary: vary, 'Content-Type': json ? 'application/json' : PROTOBUF_CONTENT_TYPE, Etag: etag, 'Last-Modified': published.lastModified.toUTCString() };
    const body = json ? published.json : published.protobuf;
    if (!acceptsGzip(request.acceptEncoding) || Buffer.byteLength(body) < GZIP_MIN_SIZE) return { status: 200, headers, body };
    const form = json ? 'json' : 'protobuf';
    const gzipped = (published.gzipped[form] ??= zlib().gzipSync(body));
    return { status: 200, headers: { ...headers, 'Content-Encoding': 'gzip' }, body: gzipped };
  }
  return { status: 406, headers: { Vary: vary } };
}

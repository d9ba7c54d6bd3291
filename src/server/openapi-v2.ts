// A minimal /openapi/v2. kube serves the whole cluster's Swagger 2.0 there; we publish only OpenAPI
// v3, but kubectl 1.27 and 1.28 fetch /openapi/v2 (as protobuf) before create/apply/explain and fail
// outright on a 404. An empty but well-formed document satisfies them: they find no model for our
// kinds and go on to use OpenAPI v3 (field validation) and JSON merge patch, as they do for CRDs.

import { goJSON, sha512HexUpper } from './discovery-json.js';
import { parseAcceptClauses } from './discovery.js';

interface OpenAPIV2Document {
  swagger: '2.0';
  info: { title: string; version: string };
  paths: Record<string, never>;
  definitions: Record<string, never>;
}

export function openapiV2Document(gitVersion = 'v1.33.0'): OpenAPIV2Document {
  return { swagger: '2.0', info: { title: 'Kubernetes', version: gitVersion }, paths: {}, definitions: {} };
}

// Protobuf wire format for the few gnostic openapi_v2 fields we set.
function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}
const lengthDelimited = (field: number, bytes: Uint8Array | number[]): number[] => [...varint((field << 3) | 2), ...varint(bytes.length), ...bytes];
const stringField = (field: number, s: string): number[] => (s ? lengthDelimited(field, new TextEncoder().encode(s)) : []);

/** gnostic openapi_v2.Document: swagger=1, info=2 (title=1, version=2), paths=8, definitions=9. */
export function openapiV2Protobuf(doc: OpenAPIV2Document): Uint8Array {
  const info = [...stringField(1, doc.info.title), ...stringField(2, doc.info.version)];
  return Uint8Array.from([...stringField(1, doc.swagger), ...lengthDelimited(2, info), ...lengthDelimited(8, []), ...lengthDelimited(9, [])]);
}

export interface PublishedOpenAPIV2 {
  json: string;
  protobuf: Uint8Array;
  /** sha512 of the JSON, upper-case hex; the protobuf form carries the same ETag. */
  hash: string;
  lastModified: Date;
}

export function publishOpenAPIV2(gitVersion?: string, now = new Date()): PublishedOpenAPIV2 {
  const doc = openapiV2Document(gitVersion);
  const json = goJSON(doc);
  return { json, protobuf: openapiV2Protobuf(doc), hash: sha512HexUpper(json), lastModified: now };
}

const PROTOBUF_SUBTYPES = ['com.github.proto-openapi.spec.v2@v1.0+protobuf', 'com.github.proto-openapi.spec.v2.v1.0+protobuf'];
const PROTOBUF_CONTENT_TYPE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';

/** GET /openapi/v2 as kube-openapi's handler serves it: JSON or protobuf by Accept, ETag, 304, else 406. */
export function serveOpenAPIV2(
  published: PublishedOpenAPIV2,
  request: { accept?: string; ifNoneMatch?: string },
): { status: 200 | 304 | 406; headers: Record<string, string>; body?: string | Uint8Array } {
  const etag = `"${published.hash}"`;
  for (const clause of parseAcceptClauses(request.accept || '*/*')) {
    if (clause.type !== 'application' && clause.type !== '*') continue;
    const json = clause.subType === 'json' || clause.subType === '*';
    const proto = PROTOBUF_SUBTYPES.includes(clause.subType);
    if (!json && !proto) continue;
    const headers = { Vary: 'Accept', 'Content-Type': json ? 'application/json' : PROTOBUF_CONTENT_TYPE, Etag: etag };
    if (request.ifNoneMatch?.split(',').some((t) => t.trim() === '*' || t.trim().replace(/^W\//, '') === etag)) {
      return { status: 304, headers: { Vary: 'Accept', Etag: etag } };
    }
    return { status: 200, headers: { ...headers, 'Last-Modified': published.lastModified.toUTCString() }, body: json ? published.json : published.protobuf };
  }
  return { status: 406, headers: { Vary: 'Accept' } };
}

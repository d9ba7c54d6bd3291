// Content negotiation: what a client sends (JSON or YAML bodies) and what it accepts back (JSON, YAML,
// or a transformed form: Table, PartialObjectMetadata[List]) — as k8s.io/apiserver's negotiation does it.
import { parseKubeYaml } from '../util/yaml.js';
import { badRequest, notAcceptable, unsupportedMediaType, StatusError } from '../api/status.js';
import { decodeProtobufObject, PROTOBUF_CONTENT_TYPE, type DecodeTarget } from './protobuf.js';
import { jsonDuplicateFields, yamlDuplicateKeysError, type OpaquePath } from './duplicate-fields.js';

interface MediaRange {
  type: string; // e.g. application/json, */*
  params: Record<string, string>;
  q: number;
}

function parseAccept(header: string | undefined): MediaRange[] {
  if (!header) return [{ type: '*/*', params: {}, q: 1 }];
  const out: MediaRange[] = [];
  for (const part of header.split(',')) {
    const [typeRaw, ...paramParts] = part.split(';');
    const type = (typeRaw ?? '').trim().toLowerCase();
    if (!type) continue;
    const params: Record<string, string> = {};
    let q = 1;
    for (const p of paramParts) {
      const eq = p.indexOf('=');
      if (eq < 0) continue;
      const k = p.slice(0, eq).trim().toLowerCase();
      const v = p.slice(eq + 1).trim().replace(/^"(.*)"$/, '$1');
      if (k === 'q') q = Number(v);
      else params[k] = v;
    }
    out.push({ type, params, q: Number.isFinite(q) ? q : 0 });
  }
  // Stable sort by q, highest first: the order the client wrote breaks ties.
  return out.map((m, i) => ({ m, i })).sort((a, b) => b.m.q - a.m.q || a.i - b.i).map(({ m }) => m).filter((m) => m.q > 0);
}

type OutputFormat = 'json' | 'yaml';
export type Transform = 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';

export interface Negotiated {
  format: OutputFormat;
  contentType: string;
  transform?: { as: Transform; version: 'v1' | 'v1beta1' };
  pretty: boolean;
}

const SUPPORTED_OUTPUT = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

const formatOf = (type: string): OutputFormat | undefined =>
  type === 'application/json' || type === 'application/*' || type === '*/*' ? 'json' : type === 'application/yaml' ? 'yaml' : undefined;

/**
 * Picks the response form for an object or list endpoint. Protobuf is never chosen: clients that ask for it
 * always offer JSON as a fallback. Transformed forms are taken only when the endpoint allows them.
 */
export function negotiateOutput(accept: string | undefined, allowTransform: boolean, isList: boolean): Negotiated | StatusError {
  for (const m of parseAccept(accept)) {
    const format = formatOf(m.type);
    if (!format) continue;
    const as = m.params['as'];
    if (as) {
      if (!allowTransform) continue;
      const g = m.params['g'];
      const v = m.params['v'];
      if (g !== 'meta.k8s.io' || (v !== 'v1' && v !== 'v1beta1')) continue;
      if (as === 'Table' || (as === 'PartialObjectMetadata' && !isList) || (as === 'PartialObjectMetadataList' && isList)) {
        return { format, contentType: contentTypeFor(format), transform: { as, version: v }, pretty: false };
      }
      continue;
    }
    return { format, contentType: contentTypeFor(format), pretty: false };
  }
  return notAcceptable(SUPPORTED_OUTPUT);
}

const contentTypeFor = (f: OutputFormat): string => (f === 'json' ? 'application/json' : 'application/yaml');

const BODY_TYPES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

/** Collects a strict decoder's errors (duplicate keys) for the caller; `opaque` names subtrees it does not see. */
export interface StrictDecoding {
  opaque?: OpaquePath;
  errors: string[];
}

const bodyType = (contentType: string | undefined): string => (contentType ?? 'application/json').split(';')[0]!.trim().toLowerCase();

/** Whether a request body of this content type is read as JSON. */
export const isJsonBody = (contentType: string | undefined): boolean => ['application/json', ''].includes(bodyType(contentType));

/**
 * Decodes a request body: JSON, YAML, or Kubernetes protobuf (built-in kinds, decoded into `into`).
 * With `strict`, duplicate keys in a JSON or YAML body are reported there as kube's strict decoders word them.
 */
export function decodeBody(contentType: string | undefined, body: Buffer, into?: DecodeTarget, strict?: StrictDecoding): unknown | StatusError {
  const type = bodyType(contentType);
  if (type === PROTOBUF_CONTENT_TYPE) {
    const r = decodeProtobufObject(body, into);
    return r instanceof StatusError ? r : r.object;
  }
  const text = body.toString('utf8');
  if (type === 'application/json' || type === '') {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      return badRequest(jsonErrorMessage(text, e));
    }
    if (strict) strict.errors.push(...jsonDuplicateFields(text, value, strict.opaque));
    return value;
  }
  if (type === 'application/yaml' || type === 'application/x-yaml' || type === 'text/yaml') {
    let value: unknown;
    try {
      // sigs.k8s.io/yaml's YAMLToJSON: YAML 1.1 scalars, for built-in kinds and custom resources alike.
      value = parseKubeYaml(text);
    } catch (e) {
      return badRequest(`error converting YAML to JSON: ${(e as Error).message}`);
    }
    // The YAML was converted to JSON with the last key winning: only go-yaml's strict pass finds duplicates.
    const dup = strict ? yamlDuplicateKeysError(text) : undefined;
    if (dup !== undefined) strict!.errors.push(dup);
    return value;
  }
  return unsupportedMediaType(BODY_TYPES);
}

function jsonErrorMessage(text: string, e: unknown): string {
  if (text.trim() === '') return 'Object \'Kind\' is missing in \'\'';
  return `couldn't get version/kind; json parse error: ${(e as Error).message}`;
}

// Content negotiation: what a client sends (JSON, YAML or protobuf bodies) and what it accepts back (JSON,
// YAML, protobuf for kinds that have a protobuf form, or a transformed form: Table, PartialObjectMetadata[List])
// — as k8s.io/apiserver's negotiation does it.
import { parseKubeYaml } from '../util/yaml.js';
import { badRequest, notAcceptable, unsupportedMediaType, StatusError } from '../api/status.js';
import { decodeProtobufObject, PROTOBUF_CONTENT_TYPE, PROTOBUF_WATCH_CONTENT_TYPE, type DecodeTarget } from './protobuf.js';
import { jsonDepthOffset, maxDepthMessage, valueDepthExceeds, yamlDepthExceeds, yamlMaxDepthMessage } from '../util/json-depth.js';
import { goJsonSyntaxError } from '../util/go-json.js';
import { jsonDuplicateFields, yamlDuplicateKeysError, type OpaquePath } from './duplicate-fields.js';
import { parseAcceptClauses } from './discovery.js';
import { parseJSON } from '../util/json-int64.js';

interface MediaRange {
  type: string; // e.g. application/json, */*
  params: Record<string, string>;
  q: number;
}

/**
 * The clauses of an Accept header as kube's negotiation reads them (goautoneg: case kept, q=0 clauses
 * kept and sorted last, concrete types before wildcards at equal q); no header at all is the first
 * serializer, JSON.
 */
function parseAccept(header: string | undefined): readonly MediaRange[] {
  if (!header) return ANY;
  // Clients send the same few headers on every request: each is parsed once (the ranges are only read).
  let ranges = acceptCache.get(header);
  if (ranges === undefined) {
    ranges = parseAcceptClauses(header).map((c) => ({ type: `${c.type}/${c.subType}`, params: c.params, q: c.q }));
    if (acceptCache.size >= ACCEPT_CACHE_SIZE) acceptCache.clear();
    acceptCache.set(header, ranges);
  }
  return ranges;
}

const ANY: readonly MediaRange[] = [{ type: '*/*', params: {}, q: 1 }];
const ACCEPT_CACHE_SIZE = 256;
const acceptCache = new Map<string, readonly MediaRange[]>();

export type OutputFormat = 'json' | 'yaml' | 'protobuf';
export type Transform = 'Table' | 'PartialObjectMetadata' | 'PartialObjectMetadataList';

export interface Negotiated {
  format: OutputFormat;
  contentType: string;
  transform?: { as: Transform; version: 'v1' | 'v1beta1' };
  pretty: boolean;
}

const SUPPORTED_OUTPUT = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

const formatOf = (type: string): OutputFormat | undefined =>
  type === 'application/json' || type === 'application/*' || type === '*/*'
    ? 'json'
    : type === 'application/yaml'
      ? 'yaml'
      : type === PROTOBUF_CONTENT_TYPE
        ? 'protobuf'
        : undefined;

/** What a response holds: one object, a list, or a watch stream of objects. */
export type ResponseShape = 'object' | 'list' | 'watch';

/** Which metadata-only form fits a response: a watch's events are single objects, as for a get. */
const partialKind = (shape: ResponseShape): Transform => (shape === 'list' ? 'PartialObjectMetadataList' : 'PartialObjectMetadata');

/**
 * Picks the response form for an object, list or watch endpoint. Transformed forms are taken only when the
 * endpoint allows them. Protobuf is taken for the endpoint's own objects only when they have a protobuf
 * form (`protobuf`: built-in kinds; a custom resource endpoint's StandardSerializers leave it out, so a
 * protobuf clause is passed over), and for PartialObjectMetadata[List] on any endpoint, never for Table
 * (RequestScope.AllowsMediaTypeTransform: Table is JSON or YAML only).
 */
export function negotiateOutput(accept: string | undefined, allowTransform: boolean, shape: ResponseShape, protobuf = false): Negotiated | StatusError {
  for (const m of parseAccept(accept)) {
    const format = formatOf(m.type);
    if (!format) continue;
    // stream=watch asks for a streaming serializer: JSON has one, YAML none (acceptMediaTypeOptions).
    const stream = m.params['stream'];
    if (stream && (format === 'yaml' || stream !== 'watch')) continue;
    const as = m.params['as'];
    // Any of as, g, v asks for a conversion; without a transforming endpoint it is not acceptable.
    if (as !== undefined || 'g' in m.params || 'v' in m.params) {
      if (!allowTransform) continue;
      const g = m.params['g'];
      const v = m.params['v'];
      if (g !== 'meta.k8s.io' || (v !== 'v1' && v !== 'v1beta1')) continue;
      if (as === 'Table' && format === 'protobuf') continue;
      // kube takes both metadata-only forms for a watch too; its events then fail the list transform and go
      // out as they are (doTransformObject's fallback in the watch encoder).
      if (as === 'Table' || as === partialKind(shape) || (shape === 'watch' && as === 'PartialObjectMetadataList')) {
        return { format, contentType: contentTypeFor(format), transform: { as, version: v }, pretty: false };
      }
      continue;
    }
    if (format === 'protobuf' && !protobuf) continue;
    return { format, contentType: contentTypeFor(format), pretty: false };
  }
  return notAcceptable(SUPPORTED_OUTPUT);
}

const contentTypeFor = (f: OutputFormat): string => (f === 'json' ? 'application/json' : f === 'yaml' ? 'application/yaml' : PROTOBUF_CONTENT_TYPE);

/** A watch's Content-Type: JSON as it is, protobuf with ";stream=watch" (serveWatchHandler). */
export const watchContentType = (neg: Negotiated): string => (neg.format === 'protobuf' ? PROTOBUF_WATCH_CONTENT_TYPE : 'application/json');

/**
 * The format of an error's Status, as responsewriters.ErrorNegotiated picks it (no transforms allowed; Status
 * has a protobuf form, and every endpoint's serializer, custom resources' included, can write it);
 * undefined when the client accepts nothing we serve, in which case kube writes indented JSON.
 */
export function negotiateErrorFormat(accept: string | undefined): OutputFormat | undefined {
  const neg = negotiateOutput(accept, false, 'object', true);
  return neg instanceof StatusError ? undefined : neg.format;
}

/**
 * A watch needs a streaming serializer (NegotiateOutputMediaTypeStream): YAML has none, so a watch negotiated
 * as YAML is not acceptable, naming the stream media types.
 */
export function watchNotAcceptable(neg: Negotiated): StatusError | undefined {
  return neg.format === 'yaml' ? notAcceptable(STREAM_OUTPUT) : undefined;
}

const STREAM_OUTPUT = ['application/json;stream=watch', 'application/vnd.kubernetes.protobuf;stream=watch'];

const BODY_TYPES = ['application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'];

/** Collects a strict decoder's errors (duplicate keys) for the caller; `opaque` names subtrees it does not see. */
export interface StrictDecoding {
  opaque?: OpaquePath;
  errors: string[];
}

const bodyType = (contentType: string | undefined): string =>
  // The usual header as it is (read twice per body); any other parsed.
  contentType === 'application/json' ? contentType : (contentType ?? 'application/json').split(';')[0]!.trim().toLowerCase();

/** Whether a request body of this content type is read as JSON. */
export const isJsonBody = (contentType: string | undefined): boolean => {
  const type = bodyType(contentType);
  return type === 'application/json' || type === '';
};

/**
 * Decodes a request body: JSON, YAML, or Kubernetes protobuf (built-in kinds, decoded into `into`).
 * With `strict`, duplicate keys in a JSON or YAML body are reported there as kube's strict decoders word them.
 */
export function decodeBody(contentType: string | undefined, body: Buffer, into?: DecodeTarget, strict?: StrictDecoding, bodyText?: string): unknown | StatusError {
  const type = bodyType(contentType);
  if (type === PROTOBUF_CONTENT_TYPE) {
    // Nested messages and embedded JSON (FieldsV1) can go deeper than the server's walkers (json-depth.ts):
    // refused in protobuf-go's words, as JSON and YAML bodies are refused in Go's.
    let r: ReturnType<typeof decodeProtobufObject>;
    try {
      r = decodeProtobufObject(body, into);
    } catch (e) {
      if (e instanceof RangeError) return protobufTooDeep(into);
      throw e;
    }
    if (r instanceof StatusError) return r;
    return valueDepthExceeds(r.object) ? protobufTooDeep(into) : r.object;
  }
  // bodyText: the caller's UTF-8 decoding of body, when it has one.
  const text = bodyText ?? body.toString('utf8');
  if (type === 'application/json' || type === '') {
    // Too deep (json-depth.ts): refused as Go refuses a body beyond its limit, with the scanner's first error.
    const deep = jsonDepthOffset(text);
    if (deep >= 0) return badRequest(`couldn't get version/kind; json parse error: ${goJsonSyntaxError(body) ?? maxDepthMessage(text, deep)}`);
    let value: unknown;
    try {
      value = parseJSON(text);
    } catch (e) {
      return badRequest(jsonErrorMessage(text, e));
    }
    if (strict) strict.errors.push(...jsonDuplicateFields(text, value, strict.opaque));
    return value;
  }
  if (type === 'application/yaml' || type === 'application/x-yaml' || type === 'text/yaml') {
    // Too deep (json-depth.ts) for the yaml package: refused in go-yaml's words, before it parses.
    if (yamlDepthExceeds(text)) return badRequest(`error converting YAML to JSON: ${yamlMaxDepthMessage}`);
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

function protobufTooDeep(into: DecodeTarget | undefined): StatusError {
  const message = 'exceeded maximum recursion depth';
  if (!into) return badRequest(message);
  const version = into.apiVersion.slice(into.apiVersion.indexOf('/') + 1);
  return badRequest(`${into.kind} in version ${JSON.stringify(version)} cannot be handled as a ${into.kind}: ${message}`);
}

function jsonErrorMessage(text: string, e: unknown): string {
  if (text.trim() === '') return 'Object \'Kind\' is missing in \'\'';
  return `couldn't get version/kind; json parse error: ${(e as Error).message}`;
}

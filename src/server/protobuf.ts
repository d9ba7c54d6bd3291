// Request bodies in Kubernetes' protobuf encoding (application/vnd.kubernetes.protobuf), which
// client-go's typed clients send for built-in kinds: the magic prefix "k8s\x00", then a
// runtime.Unknown {typeMeta{apiVersion=1, kind=2}=1, raw=2, contentEncoding=3, contentType=4}
// whose raw bytes are the object's own message. Decoded to the JSON the same object would
// have been sent as, so the rest of the server sees one form. Errors follow
// k8s.io/apimachinery's protobuf serializer and k8s.io/apiserver's handlers.
import { StatusError, badRequest } from '../api/status.js';
import { decodeMessage, field, message, render, RenderError, type State } from './protobuf-message.js';
import { deleteOptionsSchema, protobufKind, responseSchema, type ProtobufKind } from './protobuf-types.js';
import { encodeFields, ProtoWriter } from './protobuf-encode.js';
import { Cursor, WireError } from './protobuf-wire.js';

export const PROTOBUF_CONTENT_TYPE = 'application/vnd.kubernetes.protobuf';

/** True for a Content-Type naming the protobuf encoding, parameters aside. */
export function isProtobufContentType(contentType: string | undefined): boolean {
  return (contentType ?? '').split(';')[0]!.trim().toLowerCase() === PROTOBUF_CONTENT_TYPE;
}

interface ProtobufObject {
  apiVersion: string;
  kind: string;
  /** The object as JSON, kind and apiVersion first. */
  object: Record<string, unknown>;
}

/** The type an endpoint decodes into, e.g. {apiVersion: 'v1', kind: 'Namespace'}. */
export interface DecodeTarget {
  apiVersion: string;
  kind: string;
}

const PREFIX = Buffer.from('k8s\x00', 'latin1');
const TYPE_META = message('TypeMeta', [field(1, 'apiVersion', 'string', '', 'APIVersion'), field(2, 'kind', 'string')]);
const UNKNOWN = message('Unknown', [
  field(1, 'typeMeta', TYPE_META, '', 'TypeMeta'),
  field(2, 'raw', 'bytes', '', 'Raw'),
  field(3, 'contentEncoding', 'string'),
  field(4, 'contentType', 'string'),
]);
const TYPE_META_FIELD = UNKNOWN.fields[0]!;
const RAW_FIELD = UNKNOWN.fields[1]!;

/** Where kube's schemes say they were made, as their "not registered" errors quote them. */
const LEGACY_SCHEME = 'pkg/api/legacyscheme/scheme.go:30';
const META_INTERNAL_SCHEME = 'pkg/apis/meta/internalversion/scheme/register.go:27';

interface GVK {
  group: string;
  version: string;
  kind: string;
}

const gvString = (g: GVK): string => (g.group ? `${g.group}/${g.version}` : g.version);

/** A decode failure: Go's error text, and the kind the serializer had worked out by then. */
class DecodeFailure {
  constructor(
    readonly message: string,
    readonly gvk?: GVK,
  ) {}
}

interface Envelope {
  gvk: GVK;
  raw: Uint8Array;
}

/** schema.ParseGroupVersion, falling back to no group/version as FromAPIVersionAndKind does. */
function parseGVK(apiVersion: string, kind: string): GVK {
  if (apiVersion === '' || apiVersion === '/') return { group: '', version: '', kind };
  const slashes = apiVersion.split('/').length - 1;
  if (slashes === 0) return { group: '', version: apiVersion, kind };
  if (slashes === 1) {
    const i = apiVersion.indexOf('/');
    return { group: apiVersion.slice(0, i), version: apiVersion.slice(i + 1), kind };
  }
  return { group: '', version: '', kind };
}

/** Go's %#v of a runtime.TypeMeta, as the missing-kind errors print it. */
const typeMetaString = (apiVersion: string, kind: string): string =>
  `runtime.TypeMeta{APIVersion:${JSON.stringify(apiVersion)}, Kind:${JSON.stringify(kind)}}`;

/** protobuf.Serializer.Decode up to the point where the target type is chosen. */
function openEnvelope(body: Uint8Array, defaults?: GVK): Envelope | DecodeFailure {
  if (body.length === 0) return new DecodeFailure('empty data');
  if (body.length < PREFIX.length || !PREFIX.equals(body.subarray(0, PREFIX.length))) {
    return new DecodeFailure(`provided data does not appear to be a protobuf message, expected prefix [${[...PREFIX].join(' ')}]`);
  }
  if (body.length === PREFIX.length) return new DecodeFailure('empty body');
  let st: State;
  try {
    st = decodeMessage(UNKNOWN, new Cursor(body, PREFIX.length));
  } catch (e) {
    if (e instanceof WireError) return new DecodeFailure(e.message);
    throw e;
  }
  const tm = st.get(TYPE_META_FIELD) as State | undefined;
  const apiVersion = (tm?.get(TYPE_META.fields[0]!) as string | undefined) ?? '';
  const kind = (tm?.get(TYPE_META.fields[1]!) as string | undefined) ?? '';
  const gvk = parseGVK(apiVersion, kind);
  // copyKindDefaults: the endpoint's kind and group/version fill in what the client left out.
  if (defaults) {
    if (!gvk.kind) gvk.kind = defaults.kind;
    if (!gvk.version && defaults.version) {
      gvk.group = defaults.group;
      gvk.version = defaults.version;
    }
  }
  if (!gvk.kind) return new DecodeFailure(`Object 'Kind' is missing in '${typeMetaString(apiVersion, kind)}'`, gvk);
  if (!gvk.version) return new DecodeFailure(`Object 'apiVersion' is missing in '${typeMetaString(apiVersion, kind)}'`, gvk);
  return { gvk, raw: (st.get(RAW_FIELD) as Uint8Array | undefined) ?? new Uint8Array() };
}

function decodeRaw(type: ProtobufKind, env: Envelope): ProtobufObject | DecodeFailure {
  try {
    const state = decodeMessage(type.schema, new Cursor(env.raw));
    const apiVersion = gvString(env.gvk);
    const object = { kind: env.gvk.kind, apiVersion, ...render(type.schema, state) };
    return { apiVersion, kind: env.gvk.kind, object };
  } catch (e) {
    if (e instanceof WireError || e instanceof RenderError) return new DecodeFailure(e.message, env.gvk);
    throw e;
  }
}

/** handlers.summarizeData: the body's start, as text when it looks like JSON, else as hex. */
function summarize(body: Uint8Array, max = 30): string {
  if (body.length === 0) return '<empty>';
  const head = Buffer.from(body.subarray(0, max));
  const text = body[0] === 0x7b ? head.toString('utf8') : head.toString('hex');
  return body.length > max ? `${text} ...` : text;
}

/**
 * Decodes a protobuf request body for a create or update. `into` is the endpoint's type: its
 * group/version and kind default what the envelope leaves out, and name it in errors (kube's
 * transformDecodeError wording, 400). A custom resource endpoint (a type with no protobuf
 * message here) answers as kube's does for unstructured objects.
 */
export function decodeProtobufObject(body: Buffer, into?: DecodeTarget): ProtobufObject | StatusError {
  const target = into ? parseGVK(into.apiVersion, into.kind) : undefined;
  const builtin = into ? protobufKind(into.apiVersion, into.kind) !== undefined : true;
  const env = openEnvelope(body, target);
  let result: ProtobufObject | DecodeFailure;
  if (env instanceof DecodeFailure) result = env;
  else if (!builtin) {
    // The versioning codec decodes into a fresh, kindless Unstructured, which the custom
    // resource typer rejects before any bytes of the object are read.
    result = new DecodeFailure("Object 'Kind' is missing in 'object has no kind field '", env.gvk);
  } else {
    const known = protobufKind(gvString(env.gvk), env.gvk.kind);
    result = known
      ? decodeRaw(known, env)
      : new DecodeFailure(`no kind ${JSON.stringify(env.gvk.kind)} is registered for version ${JSON.stringify(gvString(env.gvk))} in scheme "${LEGACY_SCHEME}"`, env.gvk);
  }
  if (!(result instanceof DecodeFailure)) return result;
  if (!into) return badRequest(result.message);
  if (result.gvk?.kind) {
    return badRequest(`${result.gvk.kind} in version ${JSON.stringify(result.gvk.version)} cannot be handled as a ${into.kind}: ${result.message}`);
  }
  return badRequest(`the object provided is unrecognized (must be of type ${into.kind}): ${result.message} (${summarize(body)})`);
}

/**
 * Decodes a protobuf DELETE body as meta/v1 DeleteOptions, of any apiVersion (kube registers it
 * unversioned for this). Failures are what kube's delete handler answers for a decode error that
 * is not a Status: 500 with no reason and Go's error text.
 */
export function decodeProtobufDeleteOptions(body: Buffer): Record<string, unknown> | StatusError {
  const env = openEnvelope(body, { group: 'meta.k8s.io', version: 'v1', kind: 'DeleteOptions' });
  let result: ProtobufObject | DecodeFailure;
  if (env instanceof DecodeFailure) result = env;
  else if (env.gvk.kind !== 'DeleteOptions') {
    result = new DecodeFailure(
      `no kind ${JSON.stringify(env.gvk.kind)} is registered for version ${JSON.stringify(gvString(env.gvk))} in scheme "${META_INTERNAL_SCHEME}"`,
    );
  } else {
    result = decodeRaw({ apiVersion: gvString(env.gvk), kind: 'DeleteOptions', schema: deleteOptionsSchema() }, env);
  }
  if (!(result instanceof DecodeFailure)) return result.object;
  return new StatusError({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Failure', message: result.message, code: 500 });
}

/**
 * Decodes an object as kube-apiserver stores it in etcd (the same envelope, of the storage version): its
 * JSON, kind and apiVersion first. Throws Go's error text when the bytes are not such an object.
 */
export function decodeStoredObject(bytes: Uint8Array): Record<string, unknown> {
  const env = openEnvelope(bytes);
  if (env instanceof DecodeFailure) throw new Error(env.message);
  const known = protobufKind(gvString(env.gvk), env.gvk.kind);
  if (!known) throw new Error(`no kind ${JSON.stringify(env.gvk.kind)} is registered for version ${JSON.stringify(gvString(env.gvk))}`);
  const result = decodeRaw(known, env);
  if (result instanceof DecodeFailure) throw new Error(result.message);
  return result.object;
}

// ------------------------------------------------------------------ responses

/** The Content-Type of a protobuf watch, as kube's watch handler sets it. */
export const PROTOBUF_WATCH_CONTENT_TYPE = `${PROTOBUF_CONTENT_TYPE};stream=watch`;

/** An object with no protobuf form here; kube's serializer fails the same way (errNotMarshalable). */
export class NotMarshalable extends Error {}

/**
 * protobuf.Serializer.Encode: the prefix, then runtime.Unknown{typeMeta, raw, contentEncoding "",
 * contentType ""} (all four always written) around the object's own message.
 */
function writeEnvelope(w: ProtoWriter, obj: Record<string, unknown>): void {
  const apiVersion = typeof obj['apiVersion'] === 'string' ? obj['apiVersion'] : '';
  const kind = typeof obj['kind'] === 'string' ? obj['kind'] : '';
  const schema = responseSchema(apiVersion, kind);
  if (!schema) {
    throw new NotMarshalable(`object ${kind === 'Table' ? '*v1.Table' : '*unstructured.Unstructured'} does not implement the protobuf marshalling interface and cannot be encoded to a protobuf message`);
  }
  w.raw(PREFIX);
  w.nested(1, () => {
    w.string(1, apiVersion);
    w.string(2, kind);
  });
  w.nested(2, () => encodeFields(w, schema, obj));
  w.string(3, '');
  w.string(4, '');
}

/** An object (a built-in kind, its list, Status, PartialObjectMetadata[List]) as kube's protobuf serializer writes it. */
export function encodeProtobufObject(obj: Record<string, unknown>): Buffer {
  const w = new ProtoWriter();
  writeEnvelope(w, obj);
  return w.finish();
}

/** Whether encodeProtobufObject can write objects of this apiVersion and kind. */
export const hasProtobufForm = (apiVersion: string, kind: string): boolean => responseSchema(apiVersion, kind) !== undefined;

/**
 * One watch event on a protobuf watch: LengthDelimitedFramer's 4-byte big-endian length, then
 * metav1.WatchEvent{type = 1, object = 2 RawExtension{raw = 1: the object, enveloped}} as the raw
 * (unprefixed) serializer writes it.
 */
export function encodeProtobufWatchFrame(type: string, obj: Record<string, unknown>): Buffer {
  const w = new ProtoWriter();
  w.raw(FRAME_PLACEHOLDER);
  w.string(1, type);
  w.nested(2, () => w.nested(1, () => writeEnvelope(w, obj)));
  const out = w.finish();
  out.writeUInt32BE(out.length - 4, 0);
  return out;
}

const FRAME_PLACEHOLDER = new Uint8Array(4);

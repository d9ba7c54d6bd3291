// The protobuf messages the server decodes, derived from the declared Go structs (src/apis): field
// numbers from the generated.proto files, in Go struct order with the JSON tags of the 1.33 types
// (omitempty, pointer) so the decoded JSON matches what encoding/json writes for the same object.
import type { GoEmbed, GoField, GoStruct } from '../api/go-struct.js';
import { PROTOBUF_TYPES } from '../apis/index.js';
import { DeleteOptions as DeleteOptionsStruct } from '../apis/meta/v1/delete-options.js';
import { ListMeta as ListMetaStruct } from '../apis/meta/v1/list-meta.js';
import { ObjectMeta as ObjectMetaStruct } from '../apis/meta/v1/object-meta.js';
import { field, message, type FieldKind, type MessageSchema } from './protobuf-message.js';

const memo = new Map<GoStruct, MessageSchema>();

function fieldKind(f: GoField, where: string): FieldKind {
  if (typeof f.type === 'object') return messageOf(f.type);
  const t = f.type;
  if (t === 'json' || t === 'float64' || t === 'jsonSchemaProps' || t === 'jsonSchemaPropsOrArray' || t === 'jsonSchemaPropsOrBool' || t === 'jsonSchemaPropsOrStringArray') {
    throw new Error(`${where}: no protobuf form declared`);
  }
  if (f.map) {
    if (t === 'bytes') return 'bytesMap';
    if (t === 'stringList') return 'stringListMap';
    if (t !== 'string') throw new Error(`${where}: only map[string]string and map[string][]byte are decoded from protobuf`);
    return 'stringMap';
  }
  if (t === 'stringList') throw new Error(`${where}: a string list is declared only as a map's value`);
  return t;
}

/**
 * The fields of s, with each embedded struct's (listed flat, as JSON has them) replaced by one inline message
 * field where the first of them stands; throws when they are not all there, together and in order.
 */
function protobufFields(s: GoStruct): (GoField | GoEmbed)[] {
  const out: (GoField | GoEmbed)[] = [];
  for (let i = 0; i < s.fields.length; ) {
    const e = s.embeds?.find((x) => x.struct.fields[0] === s.fields[i]);
    if (!e) {
      out.push(s.fields[i++]!);
      continue;
    }
    if (e.struct.fields.some((g, j) => s.fields[i + j] !== g)) throw new Error(`${s.name}: the fields of embedded ${e.go} are not listed together, in order`);
    out.push(e);
    i += e.struct.fields.length;
  }
  for (const e of s.embeds ?? []) if (!out.includes(e)) throw new Error(`${s.name}: the fields of embedded ${e.go} are not listed`);
  return out;
}

/** The message of a struct; throws for fields without protobuf numbers (a declaration mistake). */
export function messageOf(s: GoStruct): MessageSchema {
  const known = memo.get(s);
  if (known) return known;
  const fields = protobufFields(s).map((f) => {
    if ('struct' in f) return field(f.proto, f.go, messageOf(f.struct), 'inline', f.go);
    const where = `${s.name}.${f.json}`;
    if (f.proto === undefined) throw new Error(`${where}: no protobuf field number declared`);
    const flags = [f.omitempty ? 'omit' : '', f.pointer ? 'ptr' : '', f.slice ? 'rep' : ''].filter(Boolean).join(' ');
    return field(f.proto, f.json, fieldKind(f, where), flags, f.go);
  });
  const out = message(s.name, fields);
  memo.set(s, out);
  return out;
}

export interface ProtobufKind {
  apiVersion: string;
  kind: string;
  schema: MessageSchema;
}

/** The messages, made on first use: a server that never reads or writes protobuf does not build them at start. */
interface Tables {
  deleteOptions: MessageSchema;
  kinds: readonly ProtobufKind[];
  responses: ReadonlyMap<string, MessageSchema>;
}

let tables: Tables | undefined;

const typeKey = (apiVersion: string, kind: string): string => `${apiVersion} ${kind}`;

function buildTables(): Tables {
  const kinds: readonly ProtobufKind[] = PROTOBUF_TYPES.map((t) => ({ apiVersion: t.apiVersion, kind: t.object.name, schema: messageOf(t.object) }));
  const LIST_META = messageOf(ListMetaStruct);
  const OBJECT_META = messageOf(ObjectMetaStruct);
  /** Every built-in XList: k8s.io/api's ListMeta = 1, Items = 2 (the order collections.go insists on). */
  const listOf = (kind: string, item: MessageSchema): MessageSchema =>
    message(`${kind}List`, [field(1, 'metadata', LIST_META, 'omit', 'ListMeta'), field(2, 'items', item, 'rep')]);
  const STATUS_CAUSE = message('StatusCause', [field(1, 'reason', 'string', 'omit'), field(2, 'message', 'string', 'omit'), field(3, 'field', 'string', 'omit')]);
  const STATUS_DETAILS = message('StatusDetails', [
    field(1, 'name', 'string', 'omit'),
    field(2, 'group', 'string', 'omit'),
    field(3, 'kind', 'string', 'omit'),
    field(6, 'uid', 'string', 'omit', 'UID'),
    field(4, 'causes', STATUS_CAUSE, 'rep omit'),
    field(5, 'retryAfterSeconds', 'int32', 'omit'),
  ]);
  /** meta/v1 Status, which errors and some deletions answer with (unversioned: apiVersion v1 everywhere). */
  const STATUS = message('Status', [
    field(1, 'metadata', LIST_META, 'omit', 'ListMeta'),
    field(2, 'status', 'string', 'omit'),
    field(3, 'message', 'string', 'omit'),
    field(4, 'reason', 'string', 'omit'),
    field(5, 'details', STATUS_DETAILS, 'ptr omit'),
    field(6, 'code', 'int32', 'omit'),
  ]);
  const PARTIAL = message('PartialObjectMetadata', [field(1, 'metadata', OBJECT_META, 'omit', 'ObjectMeta')]);
  // meta/v1beta1's list numbers its fields the other way round: items = 1, metadata = 2.
  const PARTIAL_LIST_V1BETA1 = message('PartialObjectMetadataList', [field(2, 'metadata', LIST_META, 'omit', 'ListMeta'), field(1, 'items', PARTIAL, 'rep')]);

  const responses = new Map<string, MessageSchema>();
  for (const k of kinds) {
    responses.set(typeKey(k.apiVersion, k.kind), k.schema);
    responses.set(typeKey(k.apiVersion, `${k.kind}List`), listOf(k.kind, k.schema));
  }
  responses.set(typeKey('v1', 'Status'), STATUS);
  for (const v of ['v1', 'v1beta1']) responses.set(typeKey(`meta.k8s.io/${v}`, 'PartialObjectMetadata'), PARTIAL);
  responses.set(typeKey('meta.k8s.io/v1', 'PartialObjectMetadataList'), listOf('PartialObjectMetadata', PARTIAL));
  responses.set(typeKey('meta.k8s.io/v1beta1', 'PartialObjectMetadataList'), PARTIAL_LIST_V1BETA1);
  return { deleteOptions: messageOf(DeleteOptionsStruct), kinds, responses };
}

/** meta/v1 DeleteOptions' message. */
export function deleteOptionsSchema(): MessageSchema {
  return (tables ??= buildTables()).deleteOptions;
}

export function protobufKind(apiVersion: string, kind: string): ProtobufKind | undefined {
  return (tables ??= buildTables()).kinds.find((k) => k.apiVersion === apiVersion && k.kind === kind);
}

/**
 * The message an object of this apiVersion and kind is written as: built-in kinds and their lists, Status,
 * PartialObjectMetadata[List]. Undefined for custom resources, Table (+protobuf=false) and CRDs (whose
 * JSONSchemaProps is declared here without protobuf numbers).
 */
export function responseSchema(apiVersion: string, kind: string): MessageSchema | undefined {
  return (tables ??= buildTables()).responses.get(typeKey(apiVersion, kind));
}

// The protobuf messages the server decodes, derived from the declared Go structs (src/apis): field
// numbers from the generated.proto files, in Go struct order with the JSON tags of the 1.33 types
// (omitempty, pointer) so the decoded JSON matches what encoding/json writes for the same object.
import type { GoField, GoStruct } from '../api/go-struct.js';
import { PROTOBUF_TYPES } from '../apis/index.js';
import { DeleteOptions as DeleteOptionsStruct } from '../apis/meta/v1/delete-options.js';
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
    if (t !== 'string') throw new Error(`${where}: only map[string]string and map[string][]byte are decoded from protobuf`);
    return 'stringMap';
  }
  return t;
}

/** The message of a struct; throws for fields without protobuf numbers (a declaration mistake). */
export function messageOf(s: GoStruct): MessageSchema {
  const known = memo.get(s);
  if (known) return known;
  const fields = s.fields.map((f) => {
    const where = `${s.name}.${f.json}`;
    if (f.proto === undefined) throw new Error(`${where}: no protobuf field number declared`);
    const flags = [f.omitempty ? 'omit' : '', f.pointer ? 'ptr' : '', f.slice ? 'rep' : ''].filter(Boolean).join(' ');
    return field(f.proto, f.json, fieldKind(f, where), flags, f.go);
  });
  const out = message(s.name, fields);
  memo.set(s, out);
  return out;
}

export const DeleteOptions = messageOf(DeleteOptionsStruct);

export interface ProtobufKind {
  apiVersion: string;
  kind: string;
  schema: MessageSchema;
}

const PROTOBUF_KINDS: readonly ProtobufKind[] = PROTOBUF_TYPES.map((t) => ({ apiVersion: t.apiVersion, kind: t.object.name, schema: messageOf(t.object) }));

export function protobufKind(apiVersion: string, kind: string): ProtobufKind | undefined {
  return PROTOBUF_KINDS.find((k) => k.apiVersion === apiVersion && k.kind === kind);
}

// The vocabulary of built-in type declarations (src/apis): a Go struct as data, with what kube's Go
// tags and generated.proto say about each field. Consumers derive their tables from it: protobuf
// messages (server), strategic merge patch metadata and typed key order (registry).

type GoScalar = 'string' | 'int64' | 'int32' | 'float64' | 'bool' | 'bytes';

/**
 * A field's element type. time: metav1.Time (a struct in Go, an RFC 3339 string in JSON);
 * microTime: metav1.MicroTime (likewise, with six fractional digits); fieldsV1:
 * metav1.FieldsV1 (raw JSON); jsonSchemaProps: apiextensions' JSONSchemaProps, whose custom unmarshalers
 * decode some members without strict checks; json: apiextensions' JSON, any value (merged without
 * strategies, never decoded from protobuf); the jsonSchemaPropsOr* types: apiextensions' unions of a
 * schema with an array or a bool, each a Go struct with its own UnmarshalJSON. The apiextensions types are
 * published in OpenAPI under the package of the struct that holds them. stringList: a named []string as a
 * map's value (authentication's ExtraValue in map[string]ExtraValue; protobuf: a message of repeated items).
 */
export type GoFieldType =
  | GoScalar
  | 'time'
  | 'microTime'
  | 'fieldsV1'
  | 'jsonSchemaProps'
  | 'jsonSchemaPropsOrArray'
  | 'jsonSchemaPropsOrBool'
  | 'jsonSchemaPropsOrStringArray'
  | 'json'
  | 'stringList'
  | GoStruct;

export interface GoField {
  /** The JSON name (the json tag). */
  json: string;
  /** The Go field name, when it is not the JSON name capitalised (ObjectMeta, UID, APIVersion). */
  go?: string;
  type: GoFieldType;
  /**
   * The Go name of a named scalar type (ResourceScope, types.UID), as decoding errors name it: unqualified
   * names are in the package of the struct that declares the field.
   */
  named?: string;
  /** The Go name of a named slice or map type (ValidationRules, JSONSchemaDefinitions), qualified likewise. */
  collection?: string;
  /** []T */
  slice?: true;
  /** map[string]T */
  map?: true;
  /** *T: written whenever set, even when zero. */
  pointer?: true;
  /** The json tag's omitempty. */
  omitempty?: true;
  /** A +optional marker on a field without omitempty: OpenAPI does not require it. */
  optional?: true;
  /** The field number in generated.proto; absent where the type has no protobuf form here. */
  proto?: number;
  /** The patchStrategy tag: "merge", "replace", "retainKeys" or "merge,retainKeys". */
  patchStrategy?: string;
  patchMergeKey?: string;
  /** The +listType marker: how server-side apply and OpenAPI clients treat the list. */
  listType?: 'atomic' | 'set' | 'map';
  /** The +listMapKey markers of a map list. */
  listMapKeys?: readonly string[];
  /** The field's documentation, as kube publishes it in OpenAPI. */
  doc?: string;
  /** A +default marker: the default kube-openapi publishes (else the zero value of a required scalar). */
  default?: unknown;
}

export interface GoStruct {
  /** The Go type name, as error messages name it. */
  name: string;
  /** Its Go package's name when that is not the decoded kind's version (meta/v1 types: "v1"). */
  pkg?: string;
  /** Embeds metav1.TypeMeta inline: kind and apiVersion come first in JSON (not in protobuf). */
  typeMeta?: true;
  fields: readonly GoField[];
  /**
   * The namespace of its OpenAPI definition's name (io.k8s.apimachinery.pkg.apis.meta.v1). A kind's definition is
   * published under it; other structs with one have their definition derived from this declaration.
   */
  openapi?: string;
  /** The type's documentation, as kube publishes it in OpenAPI. */
  doc?: string;
  /** The +structType=atomic marker. */
  mapType?: 'atomic';
  /** The +union markers: the discriminator's JSON name, and each member field's JSON name → discriminator value. */
  union?: { discriminator: string; fields: Readonly<Record<string, string>> };
  /**
   * Structs embedded anonymously (RuleWithOperations' `Rule`). JSON inlines their fields, so those are among
   * `fields` above, which every JSON consumer reads; only protobuf sees the embedding, as one message field.
   */
  embeds?: readonly GoEmbed[];
}

/** An anonymous struct member (Go embedding) and the protobuf field that carries it. */
export interface GoEmbed {
  /** The Go field name, which is the embedded type's name. */
  go: string;
  proto: number;
  struct: GoStruct;
}

/** A struct that embeds TypeMeta: a top-level kind. */
type StructExtra = Pick<GoStruct, 'openapi' | 'doc' | 'mapType' | 'pkg' | 'union' | 'embeds'>;
export const kindStruct = (name: string, fields: readonly GoField[], extra: StructExtra = {}): GoStruct => ({ name, typeMeta: true, fields, ...extra });
export const struct = (name: string, fields: readonly GoField[], extra: StructExtra = {}): GoStruct => ({ name, fields, ...extra });

/**
 * Embeds `inner` (anonymously, as field `proto` in protobuf): its fields, to list among the embedding
 * struct's at the place Go declares it, and the embedding to put in that struct's `embeds`.
 */
export function embedded(proto: number, inner: GoStruct): { fields: readonly GoField[]; embed: GoEmbed } {
  return { fields: inner.fields, embed: { go: inner.name, proto, struct: inner } };
}

/** The JSON keys of TypeMeta, in Go order. */
export const TYPE_META_KEYS = ['kind', 'apiVersion'] as const;

/**
 * One field, compactly: flags are space separated among "omit" (omitempty), "opt" (+optional without
 * omitempty), "ptr" (*T), "slice" ([]T) and "map" (map[string]T); extra carries the Go name and patch
 * tags. proto is absent (undefined) for fields without a protobuf number here.
 */
export function field(
  proto: number | undefined,
  json: string,
  type: GoFieldType,
  flags = '',
  extra: Pick<GoField, 'go' | 'patchStrategy' | 'patchMergeKey' | 'listType' | 'listMapKeys' | 'doc' | 'named' | 'collection' | 'default'> = {},
): GoField {
  const fl = new Set(flags.split(' ').filter(Boolean));
  const out: GoField = { json, type, ...extra };
  if (proto !== undefined) out.proto = proto;
  if (fl.has('slice')) out.slice = true;
  if (fl.has('map')) out.map = true;
  if (fl.has('ptr')) out.pointer = true;
  if (fl.has('omit')) out.omitempty = true;
  if (fl.has('opt')) out.optional = true;
  return out;
}

// What a built-in kind declares: one object per served group-version-resource, from which the server
// derives its resource type (strategy with typed key order, table convertor, discovery entry) and its
// endpoint, and from whose Go struct the protobuf, patch and OpenAPI tables derive.
import type { GoStruct } from '../api/go-struct.js';
import type { ServedResource } from '../api/resource.js';
import type { Strategy, Subresource, TableColumn } from '../registry/resource-type.js';
import type { JSONObject } from '../util/json.js';

/**
 * A printer column: its header, and the cell as the value at a field path (as a string, as an age, or as the
 * number of keys of the map, or items of the list, there plus those of the maps at `alsoCount`: a ConfigMap's
 * DATA), or as a printer function computes it (kube's printers that derive cells from several fields).
 */
export type TableColumnDecl = TableColumn &
  ({ field: readonly string[]; render: 'string' | 'age' | 'count'; alsoCount?: readonly (readonly string[])[] } | { cell(obj: JSONObject): unknown });

export interface KindDeclaration {
  /** Discovery's view of the resource, but for the storage version hash (from storageVersion). */
  served: Omit<ServedResource, 'storageVersionHash'>;
  /** The groupPriorityMinimum of the group's APIService in kube-aggregator's built-in table (absent: core). */
  groupPriorityMinimum?: number;
  /** The version discovery's storageVersionHash names. */
  storageVersion: string;
  /** Storage key prefix ending in '/'. */
  keyPrefix: string;
  /** The Go type of the objects at this version. */
  object: GoStruct;
  /** Its list type, when kube's OpenAPI definition of the list is published from it (else the CRD-style list). */
  list?: GoStruct;
  /** Whether request bodies decode from protobuf (every field of `object` then has a protobuf number). */
  protobuf: boolean;
  /** The strategy but for the output key order, which is the Go field order of `object`. */
  strategy: Omit<Strategy, 'canonicalize'>;
  /** Printer columns; absent: rest.NewDefaultTableConvertor's Name and Created At. */
  table?: readonly TableColumnDecl[];
  /** The order the printer puts a list's rows in; absent: as listed. */
  tableOrder?(a: JSONObject, b: JSONObject): number;
  /** Field selector values of an object. */
  selectableFields(obj: JSONObject): Record<string, string>;
  /** No field label conversion function is registered for the kind: kube's default one refuses other fields. */
  defaultFieldLabelConversion?: true;
  /** Subresources served besides the main resource. */
  subresources: readonly Subresource[];
  /** The group of the version discovery's storageVersionHash names, when not the served group (events.k8s.io: core). */
  storageGroup?: string;
  /** Conversion to and from the stored form when that is another version. */
  storage?: {
    fromStorage(obj: JSONObject): JSONObject;
    toStorage(obj: JSONObject): JSONObject;
    /** The stored version's Go type, whose key order stored objects then keep (else this version's). */
    object?: GoStruct;
  };
  /**
   * Not stored: a POST answers with the object the server's handler for the kind fills in, as kube's create-only
   * REST storages (access and token reviews) do. The strategy then only admits the decoded body.
   */
  createOnly?: true;
  /** Warnings sent with every response of the endpoint. */
  warnings?: readonly string[];
}

// A resource the generic store serves: built-ins (Namespace, CustomResourceDefinition) and every served
// version of every CRD are one of these. The strategy holds what differs between them.
import type { ServedResource } from '../api/resource.js';
import type { FieldError } from '../api/field-error.js';
import type { GroupResource } from '../api/status.js';
import type { JSONObject } from '../util/json.js';
import type { GoStruct } from '../api/go-struct.js';
import type { DeleteOptions } from './deletion.js';
import type { ManagedFieldsTypes } from './field-manager/types.js';

export type Subresource = '' | 'status' | 'scale' | 'finalize' | 'token';

export interface Strategy {
  /** Reset what a client may not set on create (status, generation, ...). Mutates obj. */
  prepareForCreate(obj: JSONObject): void;
  validate(obj: JSONObject): FieldError[];
  /** Carry over what a write through this endpoint may not change, bump generation. Mutates obj. */
  prepareForUpdate(obj: JSONObject, old: JSONObject, sub: Subresource): void;
  validateUpdate(obj: JSONObject, old: JSONObject, sub: Subresource): FieldError[];
  /** Whether PUT to a missing object creates it. */
  allowCreateOnUpdate: boolean;
  /** Whether an update without metadata.resourceVersion is accepted (last write wins). */
  allowUnconditionalUpdate: boolean;
  /** Non-error warnings for a create or update (e.g. deprecated fields). */
  warnings?(obj: JSONObject, old?: JSONObject): string[];
  /**
   * Decoding a request body into this type, after patches are applied: custom resources default and prune
   * by their schema here. The body decoder's strict errors (duplicate fields, reported first) and unknown
   * fields become warnings (Warn), a 400 (Strict) or nothing (Ignore).
   */
  admitBody?(obj: JSONObject, fieldValidation: 'Ignore' | 'Warn' | 'Strict', warnings: string[], decodeErrors?: readonly string[]): void;
  /** Output key order: sort every level (unstructured objects) or keep the typed order. */
  canonicalize(obj: JSONObject): JSONObject;
  /**
   * The type's own delete around the generic one (namespaces and CRDs mark themselves terminating first):
   * given a copy of the current object, `{ update }` writes that object and answers with it (kept),
   * 'keep' answers with the object unchanged, undefined leaves the request to the generic store's delete.
   */
  beforeDelete?(obj: JSONObject, opts: DeleteOptions): { update: JSONObject } | 'keep' | undefined;
  /** Word delete precondition failures as storage.Preconditions.Check does (namespaces), not as rest.BeforeDelete. */
  storagePreconditionMessages?: boolean;
  /** Whether a completed delete answers with the deleted object (namespaces) rather than a Success Status. */
  returnDeletedObject?: boolean;
  /** Extra condition for an update of a deleting object without finalizers to complete the deletion. */
  deletableOnUpdate?(obj: JSONObject): boolean;
  /** GetResetFields: the top-level fields a write through `sub` cannot change (so nobody owns them there). */
  resetFields?(sub: Subresource): readonly string[];
}

export interface TableColumn {
  name: string;
  type: string;
  format: string;
  description: string;
  priority: number;
}

export interface TableConvertor {
  columns: TableColumn[];
  cells(obj: JSONObject): unknown[];
  /**
   * The same cells with what depends on the time (ages) rendered later: what a list of unchanged objects can
   * keep and render again at each request. Absent: the cells are made from the object every time.
   */
  cellsAt?(obj: JSONObject): (now: number) => unknown[];
  /** The order of a list's rows, when the printer sorts them (kube's FlowSchema list printer does). */
  order?(a: JSONObject, b: JSONObject): number;
}

export interface ResourceType {
  served: ServedResource;
  gr: GroupResource;
  /** Storage key prefix ending in '/': /registry/<group>/<resource>/ */
  keyPrefix: string;
  /**
   * The Go type objects decode into, for built-in kinds: typed decoding defaults a missing kind and apiVersion
   * and refuses another kind, strategic merge patch follows its patch tags. Absent for custom resources,
   * which are unstructured (their strategy reports apiVersion and kind as field errors) and whose
   * subresources apiextensions' crdHandler serves.
   */
  goType?: GoStruct;
  strategy: Strategy;
  table: TableConvertor;
  /** Field selector values this resource supports, e.g. metadata.name, metadata.namespace. */
  selectableFields(obj: JSONObject): Record<string, string>;
  /**
   * Kinds without a field label conversion function of their own (ConfigMap) are converted by
   * runtime.DefaultMetaV1FieldSelectorConversion, which words the refusal of other fields its own way.
   */
  defaultFieldLabelConversion?: true;
  /**
   * How stored objects this endpoint returns unchanged begin (their apiVersion and kind, in stored key order);
   * reads of such objects skip parsing. Absent when every object needs conversion.
   */
  storedBytesPrefix?: string;
  /** Stored form (at the storage version) to this endpoint's version. */
  fromStorage(obj: JSONObject): JSONObject;
  /** This endpoint's version to the stored form. */
  toStorage(obj: JSONObject): JSONObject;
  /** The key order of the stored form, when it is another Go type's (else the strategy's canonicalize). */
  storedOrder?(obj: JSONObject): JSONObject;
  /**
   * Conversion that needs a round trip (a conversion webhook). When present, the store decodes and encodes
   * through it instead of fromStorage/toStorage, converting what it reads together in one call.
   */
  asyncCodec?: AsyncCodec;
  /**
   * Stored objects written after this revision need no decoding work beyond the resourceVersion when they are
   * at this endpoint's version (see storedBytesPrefix): the schema they were pruned by is the current one.
   */
  rawSinceRevision?: number;
  /** Server-side apply and managedFields: the kind's merge schemas and conversions; absent, writes are not tracked. */
  managedFields?: ManagedFieldsTypes;
}

export interface AsyncCodec {
  /** Stored forms (parsed, in order) to this endpoint's version. */
  decode(stored: JSONObject[]): Promise<JSONObject[]>;
  /** An object at this endpoint's version to its stored form. */
  encode(obj: JSONObject): Promise<JSONObject>;
}

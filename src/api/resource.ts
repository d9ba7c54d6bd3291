// What the server knows about one served resource at one group-version: the model discovery,
// OpenAPI publishing, request routing and the registry all read. Built-in resources and every
// served version of every CRD produce one each.

export interface ScaleSubresource {
  specReplicasPath: string;
  statusReplicasPath: string;
  labelSelectorPath?: string;
}

/**
 * A subresource served by its own handler rather than as a view of the object (a ServiceAccount's `token`):
 * what discovery lists for it, the kind its requests and answers carry, and its verbs.
 */
export interface DeclaredSubresource {
  name: string;
  group: string;
  version: string;
  kind: string;
  verbs: readonly string[];
}

export interface PrinterColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

export interface ServedResource {
  group: string; // '' for the core group
  version: string;
  /** Plural, lower case: the URL segment. */
  resource: string;
  singularName: string;
  kind: string;
  listKind: string;
  namespaced: boolean;
  verbs: string[];
  shortNames: string[];
  categories: string[];
  subresources: { status?: boolean; scale?: ScaleSubresource; others?: readonly DeclaredSubresource[] };
  /** The stored version's hash, as discovery publishes it. */
  storageVersionHash: string;
  /** The OpenAPI v3 schema of the whole object (apiextensions JSONSchemaProps form), when there is one. */
  schema?: Record<string, unknown>;
  /** A CRD's spec.preserveUnknownFields (v1beta1's default): OpenAPI v2 then publishes no properties. */
  preserveUnknownFields?: boolean;
  printerColumns?: PrinterColumn[];
  /** Fields offered to field selectors beyond metadata, by their path without the leading dot (a CRD version's selectableFields). */
  selectableFields?: string[];
  deprecated?: boolean;
  deprecationWarning?: string;
  /** Position among the group's versions, as Kubernetes version priority orders them (0 = preferred). */
  versionPriority?: number;
  /**
   * Changes whenever any field but verbs does (a CRD's uid, generation and accepted names, and the version):
   * what the OpenAPI documents built from it are named by, without reading the schema. Absent: its content.
   */
  revision?: string;
}

export const gvString = (group: string, version: string): string => (group ? `${group}/${version}` : version);

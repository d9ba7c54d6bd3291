// OpenAPI v3 definitions of the Kubernetes types our documents reference, as kube-apiserver 1.33
// publishes them: derived from the Go types declared under src/apis (ObjectMeta, ListMeta, DeleteOptions,
// Scale, JSONSchemaProps and what they hold), and for the others converted from
// k8s.io/apiextensions-apiserver v0.33.0 pkg/generated/openapi with kube-openapi builder3 semantics (refs
// with siblings wrapped in allOf).
import { PUBLISHED_TYPES } from '../apis/index.js';
import { APIEXTENSIONS_V1, CUSTOM_TYPE_DOCS } from '../apis/apiextensions/json-schema-props.js';
import { publishedStructs, structDefinition, structDefinitionName } from './openapi-struct.js';

export interface Definition {
  schema: Record<string, unknown>;
  /** Definitions this one references, which a document must also carry. */
  deps: string[];
}

/** TypeMeta apiVersion and kind, which kube adds to every custom resource and list schema. */
export const TYPE_META_PROPERTIES: Record<"apiVersion" | "kind", Record<string, unknown>> = {
  "apiVersion": {
    "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
    "type": "string"
  },
  "kind": {
    "description": "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
    "type": "string"
  }
};

// Definitions of the types not declared under src/apis (meta/v1 Status, discovery, version).
const UNDECLARED: Record<string, Definition> = {
  "io.k8s.apimachinery.pkg.apis.meta.v1.Time": {
    "schema": {
      "description": "Time is a wrapper around time.Time which supports correct marshaling to YAML and JSON.  Wrappers are provided for many of the factory methods that the time package offers.",
      "type": "string",
      "format": "date-time"
    },
    "deps": []
  },
  "io.k8s.apimachinery.pkg.apis.meta.v1.MicroTime": {
    "schema": {
      "description": "MicroTime is version of Time with microsecond level precision.",
      "type": "string",
      "format": "date-time"
    },
    "deps": []
  },
  "io.k8s.apimachinery.pkg.apis.meta.v1.FieldsV1": {
    "schema": {
      "description": "FieldsV1 stores a set of fields in a data structure like a Trie, in JSON format.\n\nEach key is either a '.' representing the field itself, and will always map to an empty set, or a string representing a sub-field or item. The string will follow one of these four formats: 'f:<name>', where <name> is the name of a field in a struct, or key in a map 'v:<value>', where <value> is the exact json formatted value of a list item 'i:<index>', where <index> is position of a item in a list 'k:<keys>', where <keys> is a map of  a list item's key fields to their unique values If a key maps to an empty Fields value, the field that key represents is part of the set.\n\nThe exact format is defined in sigs.k8s.io/structured-merge-diff",
      "type": "object"
    },
    "deps": []
  },
  "io.k8s.apimachinery.pkg.apis.meta.v1.Status": {
    "schema": {
      "description": "Status is a return value for calls that don't return other objects.",
      "type": "object",
      "properties": {
        "kind": {
          "description": "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
          "type": "string"
        },
        "apiVersion": {
          "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
          "type": "string"
        },
        "metadata": {
          "description": "Standard list metadata. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
          "default": {},
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta"
            }
          ]
        },
        "status": {
          "description": "Status of the operation. One of: \"Success\" or \"Failure\". More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#spec-and-status",
          "type": "string"
        },
        "message": {
          "description": "A human-readable description of the status of this operation.",
          "type": "string"
        },
        "reason": {
          "description": "A machine-readable description of why this operation is in the \"Failure\" status. If this value is empty there is no information available. A Reason clarifies an HTTP status code but does not override it.",
          "type": "string"
        },
        "details": {
          "description": "Extended data associated with the reason.  Each reason may define its own extended details. This field is optional and the data returned is not guaranteed to conform to any schema except that defined by the reason type.",
          "x-kubernetes-list-type": "atomic",
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails"
            }
          ]
        },
        "code": {
          "description": "Suggested HTTP return code for this status, 0 if not set.",
          "type": "integer",
          "format": "int32"
        }
      }
    },
    "deps": [
      "io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta",
      "io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails"
    ]
  },
  "io.k8s.apimachinery.pkg.apis.meta.v1.StatusDetails": {
    "schema": {
      "description": "StatusDetails is a set of additional properties that MAY be set by the server to provide additional information about a response. The Reason field of a Status object defines what attributes will be set. Clients must ignore fields that do not match the defined type of each attribute, and should assume that any attribute may be empty, invalid, or under defined.",
      "type": "object",
      "properties": {
        "name": {
          "description": "The name attribute of the resource associated with the status StatusReason (when there is a single name which can be described).",
          "type": "string"
        },
        "group": {
          "description": "The group attribute of the resource associated with the status StatusReason.",
          "type": "string"
        },
        "kind": {
          "description": "The kind attribute of the resource associated with the status StatusReason. On some operations may differ from the requested resource Kind. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
          "type": "string"
        },
        "uid": {
          "description": "UID of the resource. (when there is a single resource which can be described). More info: https://kubernetes.io/docs/concepts/overview/working-with-objects/names#uids",
          "type": "string"
        },
        "causes": {
          "description": "The Causes array includes more details associated with the StatusReason failure. Not all StatusReasons may provide detailed causes.",
          "type": "array",
          "items": {
            "default": {},
            "allOf": [
              {
                "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause"
              }
            ]
          },
          "x-kubernetes-list-type": "atomic"
        },
        "retryAfterSeconds": {
          "description": "If specified, the time in seconds before the operation should be retried. Some errors may indicate the client must take an alternate action - for those errors this field may indicate how long to wait before taking the alternate action.",
          "type": "integer",
          "format": "int32"
        }
      }
    },
    "deps": [
      "io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause"
    ]
  },
  "io.k8s.apimachinery.pkg.apis.meta.v1.StatusCause": {
    "schema": {
      "description": "StatusCause provides more information about an api.Status failure, including cases when multiple errors are encountered.",
      "type": "object",
      "properties": {
        "reason": {
          "description": "A machine-readable description of the cause of the error. If this value is empty there is no information available.",
          "type": "string"
        },
        "message": {
          "description": "A human-readable description of the cause of the error.  This field may be presented as-is to a reader.",
          "type": "string"
        },
        "field": {
          "description": "The field of the resource that has caused this error, as named by its JSON serialization. May include dot and postfix notation for nested attributes. Arrays are zero-indexed.  Fields may appear more than once in an array of causes due to fields having multiple errors. Optional.\n\nExamples:\n  \"name\" - the field \"name\" on the current resource\n  \"items[0].name\" - the field \"name\" on the first array entry in \"items\"",
          "type": "string"
        }
      }
    },
    "deps": []
  },
  "io.k8s.apimachinery.pkg.apis.meta.v1.Patch": {
    "schema": {
      "description": "Patch is provided to give a concrete name and type to the Kubernetes PATCH request body.",
      "type": "object"
    },
    "deps": []
  },
  "io.k8s.apimachinery.pkg.apis.meta.v1.APIResourceList": {
    "schema": {
      "description": "APIResourceList is a list of APIResource, it is used to expose the name of the resources supported in a specific group and version, and if the resource is namespaced.",
      "type": "object",
      "properties": {
        "kind": {
          "description": "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
          "type": "string"
        },
        "apiVersion": {
          "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
          "type": "string"
        },
        "groupVersion": {
          "description": "groupVersion is the group and version this APIResourceList is for.",
          "default": "",
          "type": "string"
        },
        "resources": {
          "description": "resources contains the name of the resources and if they are namespaced.",
          "type": "array",
          "items": {
            "default": {},
            "allOf": [
              {
                "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.APIResource"
              }
            ]
          },
          "x-kubernetes-list-type": "atomic"
        }
      },
      "required": [
        "groupVersion",
        "resources"
      ]
    },
    "deps": [
      "io.k8s.apimachinery.pkg.apis.meta.v1.APIResource"
    ]
  },
  "io.k8s.apimachinery.pkg.apis.meta.v1.APIResource": {
    "schema": {
      "description": "APIResource specifies the name of a resource and whether it is namespaced.",
      "type": "object",
      "properties": {
        "name": {
          "description": "name is the plural name of the resource.",
          "default": "",
          "type": "string"
        },
        "singularName": {
          "description": "singularName is the singular name of the resource.  This allows clients to handle plural and singular opaquely. The singularName is more correct for reporting status on a single item and both singular and plural are allowed from the kubectl CLI interface.",
          "default": "",
          "type": "string"
        },
        "namespaced": {
          "description": "namespaced indicates if a resource is namespaced or not.",
          "default": false,
          "type": "boolean"
        },
        "group": {
          "description": "group is the preferred group of the resource.  Empty implies the group of the containing resource list. For subresources, this may have a different value, for example: Scale\".",
          "type": "string"
        },
        "version": {
          "description": "version is the preferred version of the resource.  Empty implies the version of the containing resource list For subresources, this may have a different value, for example: v1 (while inside a v1beta1 version of the core resource's group)\".",
          "type": "string"
        },
        "kind": {
          "description": "kind is the kind for the resource (e.g. 'Foo' is the kind for a resource 'foo')",
          "default": "",
          "type": "string"
        },
        "verbs": {
          "description": "verbs is a list of supported kube verbs (this includes get, list, watch, create, update, patch, delete, deletecollection, and proxy)",
          "type": "array",
          "items": {
            "default": "",
            "type": "string"
          }
        },
        "shortNames": {
          "description": "shortNames is a list of suggested short names of the resource.",
          "type": "array",
          "items": {
            "default": "",
            "type": "string"
          },
          "x-kubernetes-list-type": "atomic"
        },
        "categories": {
          "description": "categories is a list of the grouped resources this resource belongs to (e.g. 'all')",
          "type": "array",
          "items": {
            "default": "",
            "type": "string"
          },
          "x-kubernetes-list-type": "atomic"
        },
        "storageVersionHash": {
          "description": "The hash value of the storage version, the version this resource is converted to when written to the data store. Value must be treated as opaque by clients. Only equality comparison on the value is valid. This is an alpha feature and may change or be removed in the future. The field is populated by the apiserver only if the StorageVersionHash feature gate is enabled. This field will remain optional even if it graduates.",
          "type": "string"
        }
      },
      "required": [
        "name",
        "singularName",
        "namespaced",
        "kind",
        "verbs"
      ]
    },
    "deps": []
  },
  "io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup": {
    "schema": {
      "description": "APIGroup contains the name, the supported versions, and the preferred version of a group.",
      "type": "object",
      "properties": {
        "kind": {
          "description": "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
          "type": "string"
        },
        "apiVersion": {
          "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
          "type": "string"
        },
        "name": {
          "description": "name is the name of the group.",
          "default": "",
          "type": "string"
        },
        "versions": {
          "description": "versions are the versions supported in this group.",
          "type": "array",
          "items": {
            "default": {},
            "allOf": [
              {
                "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.GroupVersionForDiscovery"
              }
            ]
          },
          "x-kubernetes-list-type": "atomic"
        },
        "preferredVersion": {
          "description": "preferredVersion is the version preferred by the API server, which probably is the storage version.",
          "default": {},
          "allOf": [
            {
              "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.GroupVersionForDiscovery"
            }
          ]
        },
        "serverAddressByClientCIDRs": {
          "description": "a map of client CIDR to server address that is serving this group. This is to help clients reach servers in the most network-efficient way possible. Clients can use the appropriate server address as per the CIDR that they match. In case of multiple matches, clients should use the longest matching CIDR. The server returns only those CIDRs that it thinks that the client can match. For example: the master will return an internal IP CIDR only, if the client reaches the server using an internal IP. Server looks at X-Forwarded-For header or X-Real-Ip header or request.RemoteAddr (in that order) to get the client IP.",
          "type": "array",
          "items": {
            "default": {},
            "allOf": [
              {
                "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ServerAddressByClientCIDR"
              }
            ]
          },
          "x-kubernetes-list-type": "atomic"
        }
      },
      "required": [
        "name",
        "versions"
      ]
    },
    "deps": [
      "io.k8s.apimachinery.pkg.apis.meta.v1.GroupVersionForDiscovery",
      "io.k8s.apimachinery.pkg.apis.meta.v1.ServerAddressByClientCIDR"
    ]
  },
  "io.k8s.apimachinery.pkg.apis.meta.v1.APIGroupList": {
    "schema": {
      "description": "APIGroupList is a list of APIGroup, to allow clients to discover the API at /apis.",
      "type": "object",
      "properties": {
        "kind": {
          "description": "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
          "type": "string"
        },
        "apiVersion": {
          "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
          "type": "string"
        },
        "groups": {
          "description": "groups is a list of APIGroup.",
          "type": "array",
          "items": {
            "default": {},
            "allOf": [
              {
                "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup"
              }
            ]
          },
          "x-kubernetes-list-type": "atomic"
        }
      },
      "required": [
        "groups"
      ]
    },
    "deps": [
      "io.k8s.apimachinery.pkg.apis.meta.v1.APIGroup"
    ]
  },
  "io.k8s.apimachinery.pkg.apis.meta.v1.APIVersions": {
    "schema": {
      "description": "APIVersions lists the versions that are available, to allow clients to discover the API at /api, which is the root path of the legacy v1 API.",
      "type": "object",
      "properties": {
        "kind": {
          "description": "Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to. Cannot be updated. In CamelCase. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#types-kinds",
          "type": "string"
        },
        "apiVersion": {
          "description": "APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values. More info: https://git.k8s.io/community/contributors/devel/sig-architecture/api-conventions.md#resources",
          "type": "string"
        },
        "versions": {
          "description": "versions are the api versions that are available.",
          "type": "array",
          "items": {
            "default": "",
            "type": "string"
          },
          "x-kubernetes-list-type": "atomic"
        },
        "serverAddressByClientCIDRs": {
          "description": "a map of client CIDR to server address that is serving this group. This is to help clients reach servers in the most network-efficient way possible. Clients can use the appropriate server address as per the CIDR that they match. In case of multiple matches, clients should use the longest matching CIDR. The server returns only those CIDRs that it thinks that the client can match. For example: the master will return an internal IP CIDR only, if the client reaches the server using an internal IP. Server looks at X-Forwarded-For header or X-Real-Ip header or request.RemoteAddr (in that order) to get the client IP.",
          "type": "array",
          "items": {
            "default": {},
            "allOf": [
              {
                "$ref": "#/components/schemas/io.k8s.apimachinery.pkg.apis.meta.v1.ServerAddressByClientCIDR"
              }
            ]
          },
          "x-kubernetes-list-type": "atomic"
        }
      },
      "required": [
        "versions",
        "serverAddressByClientCIDRs"
      ]
    },
    "deps": [
      "io.k8s.apimachinery.pkg.apis.meta.v1.ServerAddressByClientCIDR"
    ]
  },
  "io.k8s.apimachinery.pkg.apis.meta.v1.GroupVersionForDiscovery": {
    "schema": {
      "description": "GroupVersion contains the \"group/version\" and \"version\" string of a version. It is made a struct to keep extensibility.",
      "type": "object",
      "properties": {
        "groupVersion": {
          "description": "groupVersion specifies the API group and version in the form \"group/version\"",
          "default": "",
          "type": "string"
        },
        "version": {
          "description": "version specifies the version in the form of \"version\". This is to save the clients the trouble of splitting the GroupVersion.",
          "default": "",
          "type": "string"
        }
      },
      "required": [
        "groupVersion",
        "version"
      ]
    },
    "deps": []
  },
  "io.k8s.apimachinery.pkg.apis.meta.v1.ServerAddressByClientCIDR": {
    "schema": {
      "description": "ServerAddressByClientCIDR helps the client to determine the server address that they should use, depending on the clientCIDR that they match.",
      "type": "object",
      "properties": {
        "clientCIDR": {
          "description": "The CIDR with which clients can match their IP to figure out the server address that they should use.",
          "default": "",
          "type": "string"
        },
        "serverAddress": {
          "description": "Address of this server, suitable for a client that matches the above CIDR. This can be a hostname, hostname:port, IP or IP:port.",
          "default": "",
          "type": "string"
        }
      },
      "required": [
        "clientCIDR",
        "serverAddress"
      ]
    },
    "deps": []
  },
  "io.k8s.apimachinery.pkg.version.Info": {
    "schema": {
      "description": "Info contains versioning information. how we'll want to distribute that information.",
      "type": "object",
      "properties": {
        "major": {
          "description": "Major is the major version of the binary version",
          "default": "",
          "type": "string"
        },
        "minor": {
          "description": "Minor is the minor version of the binary version",
          "default": "",
          "type": "string"
        },
        "emulationMajor": {
          "description": "EmulationMajor is the major version of the emulation version",
          "type": "string"
        },
        "emulationMinor": {
          "description": "EmulationMinor is the minor version of the emulation version",
          "type": "string"
        },
        "minCompatibilityMajor": {
          "description": "MinCompatibilityMajor is the major version of the minimum compatibility version",
          "type": "string"
        },
        "minCompatibilityMinor": {
          "description": "MinCompatibilityMinor is the minor version of the minimum compatibility version",
          "type": "string"
        },
        "gitVersion": {
          "default": "",
          "type": "string"
        },
        "gitCommit": {
          "default": "",
          "type": "string"
        },
        "gitTreeState": {
          "default": "",
          "type": "string"
        },
        "buildDate": {
          "default": "",
          "type": "string"
        },
        "goVersion": {
          "default": "",
          "type": "string"
        },
        "compiler": {
          "default": "",
          "type": "string"
        },
        "platform": {
          "default": "",
          "type": "string"
        }
      },
      "required": [
        "major",
        "minor",
        "gitVersion",
        "gitCommit",
        "gitTreeState",
        "buildDate",
        "goVersion",
        "compiler",
        "platform"
      ]
    },
    "deps": []
  }
};

/** The definitions a schema references, sorted. */
function refsOf(schema: unknown, out = new Set<string>()): Set<string> {
  if (Array.isArray(schema)) for (const v of schema) refsOf(v, out);
  else if (typeof schema === 'object' && schema !== null) {
    for (const [k, v] of Object.entries(schema)) {
      if (k === '$ref' && typeof v === 'string') out.add(v.slice('#/components/schemas/'.length));
      else refsOf(v, out);
    }
  }
  return out;
}

/** apiextensions' custom-marshalled types: kube's definitions of them hold only their docs (any JSON value fits). */
const CUSTOM_TYPES: Record<string, Definition> = Object.fromEntries(
  Object.entries(CUSTOM_TYPE_DOCS).map(([name, description]) => [`${APIEXTENSIONS_V1}.${name}`, { schema: { description }, deps: [] }]),
);

let definitions: Record<string, Definition> | undefined;

/** Every definition by name, built on first use (not as the module loads: a start that serves no OpenAPI needs none). */
export function openapiDefinitions(): Record<string, Definition> {
  return (definitions ??= {
    ...UNDECLARED,
    ...CUSTOM_TYPES,
    ...Object.fromEntries(
      publishedStructs(PUBLISHED_TYPES).map((s) => {
        const schema = structDefinition(s, TYPE_META_PROPERTIES);
        return [structDefinitionName(s)!, { schema, deps: [...refsOf(schema)].sort() }];
      }),
    ),
  });
}

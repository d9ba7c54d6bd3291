// OpenAPI v3 publishing as kube-apiserver 1.33 does it: the /openapi/v3 index of group-version
// documents (each URL pinned by the sha512 of its bytes), and the per-group-version documents with
// every operation kube serves for a resource (the apiextensions OpenAPI builder's routes, operation
// IDs, x-kubernetes-action / -group-version-kind, query parameters, bodies) plus the schemas they use.
// kubectl reads these: create/apply --validate=strict looks for fieldValidation on the kind's PATCH
// operation, apply looks for strategic-merge-patch support, explain walks components.schemas.

import { CUSTOM_RESOURCE_PATCH_TYPES } from '../registry/patch.js';
import { type ServedResource } from '../api/resource.js';
import { isBuiltinGroup, parseAcceptClauses } from './discovery.js';
import { compareKubeVersions } from '../api/versions.js';
import { goJSON, sha512HexUpper } from './discovery-json.js';
import { stringifyJSON } from '../util/json-int64.js';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { openapiDefinitions } from './openapi-definitions.js';
import { builtinKindDefinitions } from './openapi-builtin-kinds.js';
import { BUILTIN_KINDS } from '../apis/index.js';
import { type GVK, type Schema, gvkExtension, publishedListSchema, publishedObjectSchema, withSelectableFields } from './openapi-schema.js';

export type { Schema } from './openapi-schema.js';

export interface OpenAPIV3Document {
  openapi: '3.0.0';
  info: { title: string; version: string };
  paths: Record<string, Schema>;
  components: { schemas: Record<string, Schema> };
}

interface OpenAPIV3Index {
  paths: Record<string, { serverRelativeURL: string }>;
}

interface OpenAPIOptions {
  /** The server's gitVersion, which kube puts in info.version of built-in documents. */
  gitVersion?: string;
}

const SCHEMAS = '#/components/schemas/';
export const META = 'io.k8s.apimachinery.pkg.apis.meta.v1.';
const ref = (name: string): Schema => ({ $ref: SCHEMAS + name });

// ---------------------------------------------------------------------------------------------
// Names

/** Definition name of a kind: kube's friendly name of "<group>/<version>.<Kind>" for CRs, Go type paths for built-ins. */
export function definitionName(group: string, version: string, kind: string): string {
  const builtin = BUILTIN_KINDS.find((k) => k.served.group === group && k.served.version === version)?.object.openapi;
  if (builtin) return `${builtin}.${kind}`;
  return `${group.split('.').reverse().join('.')}.${version}.${kind}`;
}

/** The /openapi/v3 key of a group-version: "api/v1" or "apis/<group>/<version>". */
const groupVersionKey = (group: string, version: string): string => (group ? `apis/${group}/${version}` : `api/${version}`);

/** apiserver endpoints/openapi.ToValidOperationID. */
function toValidOperationID(s: string, capitalizeFirst: boolean): string {
  let out = '';
  let capitalize = capitalizeFirst;
  let i = 0;
  for (const ch of s) {
    if (/\p{L}/u.test(ch) || ch === '_' || (i !== 0 && /\p{Nd}/u.test(ch))) {
      out += capitalize ? ch.toUpperCase() : ch;
      capitalize = false;
    } else {
      capitalize = true;
    }
    i += Buffer.byteLength(ch);
  }
  return out;
}

const OPERATION_VERBS = ['get', 'log', 'read', 'replace', 'patch', 'delete', 'deletecollection', 'watch', 'connect', 'proxy', 'list', 'create'];

/**
 * apiserver endpoints/openapi.GetOperationIDAndTags: the verb (shortest known prefix, so
 * "deletecollection..." splits as "delete" + "collection..."), then group (".k8s.io" trimmed) and
 * version camel-cased, then the rest: deleteStableExampleComV1CollectionNamespacedCronTab.
 */
export function operationIDAndTags(operation: string, path: string): { id: string; tags: string[] } {
  const verb = OPERATION_VERBS.filter((v) => operation.startsWith(v)).sort((a, b) => a.length - b.length)[0] ?? '';
  const rest = operation.slice(verb.length);
  let parts = path.replace(/^\/+|\/+$/g, '').split('/');
  if (parts[0] === 'api') parts = ['apis', 'core', ...parts.slice(1)];
  let prefix = verb;
  const tags: string[] = [];
  if (parts.length >= 2 && parts[0] === 'apis') {
    const trimmed = parts[1]!.endsWith('.k8s.io') ? parts[1]!.slice(0, -'.k8s.io'.length) : parts[1]!;
    prefix += toValidOperationID(trimmed, prefix !== '');
    let tag = toValidOperationID(trimmed, false);
    if (parts.length > 2) {
      prefix += toValidOperationID(parts[2]!, prefix !== '');
      tag += '_' + toValidOperationID(parts[2]!, false);
    }
    tags.push(tag);
  } else if (parts.length >= 1) {
    tags.push(toValidOperationID(parts[0]!, false));
  }
  return { id: prefix + toValidOperationID(rest, prefix !== ''), tags };
}

// ---------------------------------------------------------------------------------------------
// Parameters

export interface Parameter {
  name: string;
  in: 'query' | 'path';
  description: string;
  required?: true;
  schema: { type: 'string' | 'integer' | 'boolean'; uniqueItems: true };
}

const param = (name: string, type: Parameter['schema']['type'], description: string): Parameter => ({
  name,
  in: 'query',
  description,
  schema: { type, uniqueItems: true },
});
const pathParam = (name: string, description: string): Parameter => ({ name, in: 'path', description, required: true, schema: { type: 'string', uniqueItems: true } });

const PRETTY = param(
  'pretty',
  'string',
  "If 'true', then the output is pretty printed. Defaults to 'false' unless the user-agent indicates a browser or command-line HTTP tool (curl and wget).",
);

const RESOURCE_VERSION_DOC =
  'resourceVersion sets a constraint on what resource versions a request may be served from. See https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details.\n\nDefaults to unset';
const DRY_RUN_DOC =
  'When present, indicates that modifications should not be persisted. An invalid or unrecognized dryRun directive will result in an error response and no further processing of the request. Valid values are: - All: all dry run stages will be processed';
const FIELD_MANAGER_DOC =
  'fieldManager is a name associated with the actor or entity that is making these changes. The value must be less than or 128 characters long, and only contain printable characters, as defined by https://golang.org/pkg/unicode/#IsPrint.';
const FIELD_VALIDATION_DOC =
  'fieldValidation instructs the server on how to handle objects in the request (POST/PUT/PATCH) containing unknown or duplicate fields. Valid values are: - Ignore: This will ignore any unknown fields that are silently dropped from the object, and will ignore all but the last duplicate field that the decoder encounters. This is the default behavior prior to v1.23. - Warn: This will send a warning via the standard warning response header for each unknown field that is dropped from the object, and for each duplicate field that is encountered. The request will still succeed if there are no other errors, and will only persist the last of any duplicate fields. This is the default in v1.23+ - Strict: This will fail the request with a BadRequest error if any unknown fields would be dropped from the object, or if any duplicate fields are present. The error returned from the server will contain all unknown and duplicate fields encountered.';

/** endpoints.AddObjectParams over each options struct: one query parameter per field, with its SwaggerDoc. */
const OPTIONS_PARAMS: Record<'get' | 'list' | 'create' | 'update' | 'patch' | 'delete', Parameter[]> = {
  get: [param('resourceVersion', 'string', RESOURCE_VERSION_DOC)],
  list: [
    param('labelSelector', 'string', 'A selector to restrict the list of returned objects by their labels. Defaults to everything.'),
    param('fieldSelector', 'string', 'A selector to restrict the list of returned objects by their fields. Defaults to everything.'),
    param(
      'watch',
      'boolean',
      'Watch for changes to the described resources and return them as a stream of add, update, and remove notifications. Specify resourceVersion.',
    ),
    param(
      'allowWatchBookmarks',
      'boolean',
      'allowWatchBookmarks requests watch events with type "BOOKMARK". Servers that do not implement bookmarks may ignore this flag and bookmarks are sent at the server\'s discretion. Clients should not assume bookmarks are returned at any specific interval, nor may they assume the server will send any BOOKMARK event during a session. If this is not a watch, this field is ignored.',
    ),
    param('resourceVersion', 'string', RESOURCE_VERSION_DOC),
    param(
      'resourceVersionMatch',
      'string',
      'resourceVersionMatch determines how resourceVersion is applied to list calls. It is highly recommended that resourceVersionMatch be set for list calls where resourceVersion is set See https://kubernetes.io/docs/reference/using-api/api-concepts/#resource-versions for details.\n\nDefaults to unset',
    ),
    param('timeoutSeconds', 'integer', 'Timeout for the list/watch call. This limits the duration of the call, regardless of any activity or inactivity.'),
    param(
      'limit',
      'integer',
      'limit is a maximum number of responses to return for a list call. If more items exist, the server will set the `continue` field on the list metadata to a value that can be used with the same initial query to retrieve the next set of results. Setting a limit may return fewer than the requested amount of items (up to zero items) in the event all requested objects are filtered out and clients should only use the presence of the continue field to determine whether more results are available. Servers may choose not to support the limit argument and will return all of the available results. If limit is specified and the continue field is empty, clients may assume that no more results are available. This field is not supported if watch is true.\n\nThe server guarantees that the objects returned when using continue will be identical to issuing a single list call without a limit - that is, no objects created, modified, or deleted after the first request is issued will be included in any subsequent continued requests. This is sometimes referred to as a consistent snapshot, and ensures that a client that is using limit to receive smaller chunks of a very large result can ensure they see all possible objects. If objects are updated during a chunked list the version of the object that was present at the time the first list result was calculated is returned.',
    ),
    param(
      'continue',
      'string',
      'The continue option should be set when retrieving more results from the server. Since this value is server defined, clients may only use the continue value from a previous query result with identical query parameters (except for the value of continue) and the server may reject a continue value it does not recognize. If the specified continue value is no longer valid whether due to expiration (generally five to fifteen minutes) or a configuration change on the server, the server will respond with a 410 ResourceExpired error together with a continue token. If the client needs a consistent list, it must restart their list without the continue field. Otherwise, the client may send another list request with the token received with the 410 error, the server will respond with a list starting from the next key, but from the latest snapshot, which is inconsistent from the previous list results - objects that are created, modified, or deleted after the first list request will be included in the response, as long as their keys are after the "next key".\n\nThis field is not supported when watch is true. Clients may start a watch from the last resourceVersion value returned by the server and not miss any modifications.',
    ),
    param(
      'sendInitialEvents',
      'boolean',
      '`sendInitialEvents=true` may be set together with `watch=true`. In that case, the watch stream will begin with synthetic events to produce the current state of objects in the collection. Once all such events have been sent, a synthetic "Bookmark" event  will be sent. The bookmark will report the ResourceVersion (RV) corresponding to the set of objects, and be marked with `"k8s.io/initial-events-end": "true"` annotation. Afterwards, the watch stream will proceed as usual, sending watch events corresponding to changes (subsequent to the RV) to objects watched.\n\nWhen `sendInitialEvents` option is set, we require `resourceVersionMatch` option to also be set. The semantic of the watch request is as following: - `resourceVersionMatch` = NotOlderThan\n  is interpreted as "data at least as new as the provided `resourceVersion`"\n  and the bookmark event is send when the state is synced\n  to a `resourceVersion` at least as fresh as the one provided by the ListOptions.\n  If `resourceVersion` is unset, this is interpreted as "consistent read" and the\n  bookmark event is send when the state is synced at least to the moment\n  when request started being processed.\n- `resourceVersionMatch` set to any other value or unset\n  Invalid error is returned.\n\nDefaults to true if `resourceVersion=""` or `resourceVersion="0"` (for backward compatibility reasons) and to false otherwise.',
    ),
  ],
  create: [param('dryRun', 'string', DRY_RUN_DOC), param('fieldManager', 'string', FIELD_MANAGER_DOC), param('fieldValidation', 'string', FIELD_VALIDATION_DOC)],
  update: [param('dryRun', 'string', DRY_RUN_DOC), param('fieldManager', 'string', FIELD_MANAGER_DOC), param('fieldValidation', 'string', FIELD_VALIDATION_DOC)],
  patch: [
    param('dryRun', 'string', DRY_RUN_DOC),
    param(
      'force',
      'boolean',
      'Force is going to "force" Apply requests. It means user will re-acquire conflicting fields owned by other people. Force flag must be unset for non-apply patch requests.',
    ),
    param(
      'fieldManager',
      'string',
      FIELD_MANAGER_DOC +
        ' This field is required for apply requests (application/apply-patch) but optional for non-apply patch types (JsonPatch, MergePatch, StrategicMergePatch).',
    ),
    param('fieldValidation', 'string', FIELD_VALIDATION_DOC),
  ],
  delete: [
    param(
      'gracePeriodSeconds',
      'integer',
      'The duration in seconds before the object should be deleted. Value must be non-negative integer. The value zero indicates delete immediately. If this value is nil, the default grace period for the specified type will be used. Defaults to a per object value if not specified. zero means delete immediately.',
    ),
    param(
      'orphanDependents',
      'boolean',
      'Deprecated: please use the PropagationPolicy, this field will be deprecated in 1.7. Should the dependent objects be orphaned. If true/false, the "orphan" finalizer will be added to/removed from the object\'s finalizers list. Either this field or PropagationPolicy may be set, but not both.',
    ),
    param(
      'propagationPolicy',
      'string',
      "Whether and how garbage collection will be performed. Either this field or OrphanDependents may be set, but not both. The default policy is decided by the existing finalizer set in the metadata.finalizers and the resource-specific default policy. Acceptable values are: 'Orphan' - orphan the dependents; 'Background' - allow the garbage collector to delete the dependents in the background; 'Foreground' - a cascading policy that deletes all dependents in the foreground.",
    ),
    param('dryRun', 'string', DRY_RUN_DOC),
    param(
      'ignoreStoreReadErrorWithClusterBreakingPotential',
      'boolean',
      'if set to true, it will trigger an unsafe deletion of the resource in case the normal deletion flow fails with a corrupt object error. A resource is considered corrupt if it can not be retrieved from the underlying storage successfully because of a) its data can not be transformed e.g. decryption failure, or b) it fails to decode into an object. NOTE: unsafe deletion ignores finalizer constraints, skips precondition checks, and removes the object from the storage. WARNING: This may potentially break the cluster if the workload associated with the resource being unsafe-deleted relies on normal deletion flow. Use only if you REALLY know what you are doing. The default value is false, and the user must opt in to enable it',
    ),
  ],
};

export const byNameIn = (a: Parameter, b: Parameter): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.in < b.in ? -1 : a.in > b.in ? 1 : 0);

// ---------------------------------------------------------------------------------------------
// Routes

export type Method = 'get' | 'put' | 'post' | 'delete' | 'patch';
export type Action = 'list' | 'post' | 'deletecollection' | 'get' | 'put' | 'delete' | 'patch';

export interface Route {
  method: Method;
  path: string;
  action: Action;
  operation: string;
  /** The kind the route's operation is about, when not the resource's (a declared subresource's, TokenRequest). */
  gvk?: GVK;
  description: string;
  /** Definition returned with 200 (and 201/202 where the action has them). */
  returns: string;
  /** Definition of the body, when the route reads one. */
  reads?: string;
  params: Parameter[];
}

const JSON_YAML = ['application/json', 'application/yaml'];
/** A CRD's PATCH accepts no strategic merge patch; kubectl apply then falls back to JSON merge patch. */
const PATCH_TYPES = CUSTOM_RESOURCE_PATCH_TYPES;

/** GetArticleForNoun: plurals (ending in s, not ss) get none; otherwise a/an. */
const article = (noun: string): string =>
  !noun.endsWith('ss') && noun.endsWith('s') ? ' ' : /^[aeiou]/i.test(noun) ? ' an ' : ' a ';

function describe(kind: string, sub: string, verb: 'list' | 'create' | 'deletecollection' | 'read' | 'replace' | 'delete' | 'patch'): string {
  const of = sub ? ` ${sub} of` : '';
  switch (verb) {
    case 'list':
      return `list${of} objects of kind ${kind}`;
    case 'read':
    case 'replace':
      return `${verb}${of} the specified ${kind}`;
    case 'patch':
      return `partially update${of} the specified ${kind}`;
    case 'create':
    case 'delete':
      return `${verb}${of}${article(kind)}${kind}`;
    case 'deletecollection':
      return `delete collection of${sub ? `${of} a` : ''} ${kind}`;
  }
}

const capitalize = (s: string): string => s.charAt(0).toUpperCase() + s.slice(1);

/** The definition name kube's namer gives a Go type of a built-in group (io.k8s.api.<group>.<version>.<Kind>). */
const builtinDefinitionName = (group: string, version: string, kind: string): string => `io.k8s.api.${group === '' ? 'core' : group.replace(/\.k8s\.io$/, '')}.${version}.${kind}`;

/** The routes apiextensions' OpenAPI builder declares for one resource; built-ins keep only those their verbs allow. */
export function routesFor(r: ServedResource): Route[] {
  const kindName = definitionName(r.group, r.version, r.kind);
  const listName = definitionName(r.group, r.version, r.listKind);
  const base = r.group ? `/apis/${r.group}/${r.version}` : `/api/${r.version}`;
  const ns = r.namespaced ? 'Namespaced' : '';
  const routes: Route[] = [];
  const status = META + 'Status';
  const add = (path: string, sub: string, method: Method, action: Action, opVerb: Parameters<typeof describe>[2], returns: string, reads?: string, operation?: string): void => {
    const params: Parameter[] = [PRETTY];
    if (path.includes('{namespace}')) params.push(pathParam('namespace', 'object name and auth scope, such as for teams and projects'));
    if (path.includes('{name}')) params.push(pathParam('name', `name of the ${r.kind}`));
    const options = { list: 'list', deletecollection: 'list', get: 'get', put: 'update', patch: 'patch', post: 'create', delete: 'delete' } as const;
    params.push(...OPTIONS_PARAMS[options[action]]);
    routes.push({
      method,
      path,
      action,
      operation: operation ?? `${opVerb}${ns}${r.kind}${capitalize(sub)}`,
      description: describe(r.kind, sub, opVerb),
      returns,
      reads,
      params,
    });
  };
  const allowed = (verb: string): boolean => !isBuiltinGroup(r.group) || r.verbs.includes(verb);

  let root = `${base}/${r.resource}`;
  if (r.namespaced) {
    if (allowed('list')) add(root, '', 'get', 'list', 'list', listName, undefined, `list${r.kind}ForAllNamespaces`);
    root = `${base}/namespaces/{namespace}/${r.resource}`;
  }
  if (allowed('list')) add(root, '', 'get', 'list', 'list', listName);
  if (allowed('create')) add(root, '', 'post', 'post', 'create', kindName, kindName);
  if (allowed('deletecollection')) add(root, '', 'delete', 'deletecollection', 'deletecollection', status);
  const item = `${root}/{name}`;
  if (allowed('get')) add(item, '', 'get', 'get', 'read', kindName);
  if (allowed('update')) add(item, '', 'put', 'put', 'replace', kindName, kindName);
  if (allowed('delete')) add(item, '', 'delete', 'delete', 'delete', status, META + 'DeleteOptions');
  if (allowed('patch')) add(item, '', 'patch', 'patch', 'patch', kindName, META + 'Patch');
  if (r.subresources.status) {
    add(`${item}/status`, 'status', 'get', 'get', 'read', kindName);
    add(`${item}/status`, 'status', 'put', 'put', 'replace', kindName, kindName);
    add(`${item}/status`, 'status', 'patch', 'patch', 'patch', kindName, META + 'Patch');
  }
  if (r.subresources.scale) {
    const scale = 'io.k8s.api.autoscaling.v1.Scale';
    add(`${item}/scale`, 'scale', 'get', 'get', 'read', scale);
    add(`${item}/scale`, 'scale', 'put', 'put', 'replace', scale, scale);
    add(`${item}/scale`, 'scale', 'patch', 'patch', 'patch', scale, META + 'Patch');
  }
  // Declared subresources (a ServiceAccount's token): a POST reading and returning their own kind.
  for (const s of r.subresources.others ?? []) {
    if (!s.verbs.includes('create')) continue;
    const def = builtinDefinitionName(s.group, s.version, s.kind);
    add(`${item}/${s.name}`, s.name, 'post', 'post', 'create', def, def);
    routes[routes.length - 1]!.gvk = { group: s.group, version: s.version, kind: s.kind };
  }
  return routes;
}

const content = (types: readonly string[], definition: string): Schema => Object.fromEntries(types.map((t) => [t, { schema: ref(definition) }]));

export const RESPONSE_CODES: Record<Action, [number, string][]> = {
  list: [[200, 'OK']],
  post: [
    [200, 'OK'],
    [201, 'Created'],
    [202, 'Accepted'],
  ],
  deletecollection: [[200, 'OK']],
  get: [[200, 'OK']],
  put: [
    [200, 'OK'],
    [201, 'Created'],
  ],
  delete: [
    [200, 'OK'],
    [202, 'Accepted'],
  ],
  patch: [[200, 'OK']],
};

/** One operation as builder3 writes it: tags, description, operationId, parameters, requestBody, responses, extensions. */
function operation(route: Route, gvk: GVK, opParams: Parameter[]): Schema {
  const { id, tags } = operationIDAndTags(route.operation, route.path);
  const op: Schema = { tags, description: route.description, operationId: id };
  if (opParams.length > 0) op['parameters'] = opParams;
  if (route.reads) {
    const body: Schema = { content: content(route.method === 'patch' ? PATCH_TYPES : JSON_YAML, route.reads) };
    // go-restful marks a read body required; the builder un-marks DeleteOptions.
    if (route.action !== 'delete') body['required'] = true;
    op['requestBody'] = body;
  }
  const responses: Schema = {};
  for (const [code, description] of RESPONSE_CODES[route.action]) responses[code] = { description, content: content(JSON_YAML, route.returns) };
  responses['401'] = { description: 'Unauthorized' };
  op['responses'] = responses;
  op['x-kubernetes-action'] = route.action;
  op['x-kubernetes-group-version-kind'] = { group: gvk.group, version: gvk.version, kind: gvk.kind };
  return op;
}

const PATH_METHOD_ORDER: Method[] = ['get', 'put', 'post', 'delete', 'patch'];
const mapKey = (p: Parameter): string => `${p.in}\u0000${p.name}`;

/** Groups routes by path; parameters every operation of a path shares move to the path item. */
function pathItems(routes: readonly Route[], gvkOf: (r: Route) => GVK): Record<string, Schema> {
  const byPath = new Map<string, Route[]>();
  for (const r of routes) {
    const list = byPath.get(r.path) ?? [];
    list.push(r);
    byPath.set(r.path, list);
  }
  const paths: Record<string, Schema> = {};
  for (const [path, rs] of byPath) {
    const counts = new Map<string, number>();
    for (const r of rs) for (const p of r.params) counts.set(mapKey(p), (counts.get(mapKey(p)) ?? 0) + 1);
    const common = new Set([...counts].filter(([, n]) => n === rs.length).map(([k]) => k));
    const item: Schema = {};
    for (const m of PATH_METHOD_ORDER) {
      const r = rs.find((x) => x.method === m);
      if (r) item[m] = operation(r, gvkOf(r), r.params.filter((p) => !common.has(mapKey(p))).sort(byNameIn));
    }
    item['parameters'] = rs[0]!.params.filter((p) => common.has(mapKey(p))).sort(byNameIn);
    paths[path] = item;
  }
  return paths;
}

// ---------------------------------------------------------------------------------------------
// Components

/**
 * The x-kubernetes-group-version-kind kube's definition namer adds to registered Go types. For
 * DeleteOptions it lists every group-version of the kube-apiserver scheme (each registers the
 * meta/v1 option types); the unversioned discovery types and Status are registered at core v1.
 */
const SCHEME_GROUP_VERSIONS: [string, string[]][] = [
  ['', ['v1']],
  ['admission.k8s.io', ['v1', 'v1beta1']],
  ['admissionregistration.k8s.io', ['v1', 'v1alpha1', 'v1beta1']],
  ['apiextensions.k8s.io', ['v1', 'v1beta1']],
  ['apiregistration.k8s.io', ['v1', 'v1beta1']],
  ['apps', ['v1', 'v1beta1', 'v1beta2']],
  ['authentication.k8s.io', ['v1', 'v1alpha1', 'v1beta1']],
  ['authorization.k8s.io', ['v1', 'v1beta1']],
  ['autoscaling', ['v1', 'v2', 'v2beta1', 'v2beta2']],
  ['batch', ['v1', 'v1beta1']],
  ['certificates.k8s.io', ['v1', 'v1alpha1', 'v1beta1']],
  ['coordination.k8s.io', ['v1', 'v1alpha2', 'v1beta1']],
  ['discovery.k8s.io', ['v1', 'v1beta1']],
  ['events.k8s.io', ['v1', 'v1beta1']],
  ['extensions', ['v1beta1']],
  ['flowcontrol.apiserver.k8s.io', ['v1', 'v1beta1', 'v1beta2', 'v1beta3']],
  ['imagepolicy.k8s.io', ['v1alpha1']],
  ['internal.apiserver.k8s.io', ['v1alpha1']],
  ['networking.k8s.io', ['v1', 'v1alpha1', 'v1beta1']],
  ['node.k8s.io', ['v1', 'v1alpha1', 'v1beta1']],
  ['policy', ['v1', 'v1beta1']],
  ['rbac.authorization.k8s.io', ['v1', 'v1alpha1', 'v1beta1']],
  ['resource.k8s.io', ['v1alpha3', 'v1beta1', 'v1beta2']],
  ['scheduling.k8s.io', ['v1', 'v1alpha1', 'v1beta1']],
  ['storage.k8s.io', ['v1', 'v1alpha1', 'v1beta1']],
  ['storagemigration.k8s.io', ['v1alpha1']],
];

export function registeredKinds(name: string): GVK[] | undefined {
  if (name === META + 'DeleteOptions') {
    return SCHEME_GROUP_VERSIONS.flatMap(([group, versions]) => versions.map((version) => ({ group, version, kind: 'DeleteOptions' })));
  }
  const unversioned = ['Status', 'APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList'];
  for (const kind of unversioned) if (name === META + kind) return [{ group: '', version: 'v1', kind }];
  if (name === 'io.k8s.api.autoscaling.v1.Scale') return [{ group: 'autoscaling', version: 'v1', kind: 'Scale' }];
  if (name === 'io.k8s.api.authentication.v1.TokenRequest') return [{ group: 'authentication.k8s.io', version: 'v1', kind: 'TokenRequest' }];
  return undefined;
}

function collectRefs(value: unknown, out: Set<string>): void {
  if (Array.isArray(value)) for (const v of value) collectRefs(v, out);
  else if (typeof value === 'object' && value !== null) {
    for (const [k, v] of Object.entries(value)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith(SCHEMAS)) out.add(v.slice(SCHEMAS.length));
      else collectRefs(v, out);
    }
  }
}

/** components.schemas: the given schemas plus every Kubernetes definition reachable from them or from paths. */
function components(own: Record<string, Schema>, paths: Record<string, Schema>): Record<string, Schema> {
  const schemas: Record<string, Schema> = { ...own };
  const pending = new Set<string>();
  collectRefs(paths, pending);
  collectRefs(own, pending);
  while (pending.size > 0) {
    const [name] = pending;
    pending.delete(name!);
    if (schemas[name!] || !openapiDefinitions()[name!]) continue;
    const def = openapiDefinitions()[name!]!;
    const schema = structuredClone(def.schema);
    const kinds = registeredKinds(name!);
    if (kinds) schema['x-kubernetes-group-version-kind'] = gvkExtension(kinds);
    schemas[name!] = schema;
    collectRefs(schema, pending);
  }
  return Object.fromEntries(Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

// ---------------------------------------------------------------------------------------------
// Documents

const CRD_INFO = { title: 'Kubernetes CRD Swagger', version: 'v0.1.0' };
const kubeInfo = (opts?: OpenAPIOptions): { title: string; version: string } => ({ title: 'Kubernetes', version: opts?.gitVersion ?? 'v1.33.0' });

/** A GET route of the discovery endpoints kube documents (getAPIVersions, getAPIGroup, getAPIResources). */
function discoveryPath(path: string, operation: string, description: string, returns: string, types = JSON_YAML): Record<string, Schema> {
  const { id, tags } = operationIDAndTags(operation, path);
  return {
    [path]: { get: { tags, description, operationId: id, responses: { '200': { description: 'OK', content: content(types, returns) }, '401': { description: 'Unauthorized' } } } },
  };
}

/**
 * The document for one group-version (/openapi/v3/apis/<g>/<v> or /openapi/v3/api/v1): every
 * resource's operations and the schemas they use. CRD documents are titled "Kubernetes CRD Swagger"
 * as apiextensions-apiserver builds them; built-in ones also document the group-version's discovery GET.
 */
export function openapiV3GroupVersion(group: string, version: string, resources: readonly ServedResource[], opts?: OpenAPIOptions): OpenAPIV3Document {
  const served = resources
    .filter((r) => r.group === group && r.version === version)
    .sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
  const own: Record<string, Schema> = {};
  const routes: { route: Route; gvk: GVK }[] = [];
  for (const r of served) {
    const gvk = { group: r.group, version: r.version, kind: r.kind };
    const kindName = definitionName(r.group, r.version, r.kind);
    own[kindName] = withSelectableFields(publishedObjectSchema(r.schema, gvk), r.selectableFields);
    // A resource that cannot be listed (the create-only reviews) has no list type.
    if (r.verbs.includes('list')) own[definitionName(r.group, r.version, r.listKind)] = withSelectableFields(publishedListSchema(SCHEMAS + kindName, gvk, r.listKind, r.resource), r.selectableFields);
    // A built-in kind declared in full is published from its Go types, as kube publishes it.
    const declared = isBuiltinGroup(group) ? BUILTIN_KINDS.find((k) => k.served.group === group && k.served.version === version && k.served.kind === r.kind) : undefined;
    Object.assign(own, declared && builtinKindDefinitions(declared));
    for (const route of routesFor(r)) routes.push({ route, gvk: route.gvk ?? gvk });
  }
  const gvkByRoute = new Map(routes.map(({ route, gvk }) => [route, gvk]));
  let paths = pathItems(
    routes.map((x) => x.route),
    (r) => gvkByRoute.get(r)!,
  );
  const builtin = isBuiltinGroup(group);
  if (builtin) {
    const base = group ? `/apis/${group}/${version}/` : `/api/${version}/`;
    paths = { ...discoveryPath(base, 'getAPIResources', 'get available resources', META + 'APIResourceList'), ...paths };
  }
  return { openapi: '3.0.0', info: builtin ? kubeInfo(opts) : CRD_INFO, paths, components: { schemas: components(own, paths) } };
}

function bareDocument(paths: Record<string, Schema>, opts?: OpenAPIOptions): OpenAPIV3Document {
  return { openapi: '3.0.0', info: kubeInfo(opts), paths, components: { schemas: components({}, paths) } };
}

/**
 * Every document kube-apiserver would list for what we serve, by /openapi/v3 key: "api", "api/v1",
 * "apis", each built-in group ("apis/apiextensions.k8s.io"), every served group-version, and "version".
 * CRD groups get no group-level document (kube registers only their group-versions).
 */
const apiDocument = (opts?: OpenAPIOptions): OpenAPIV3Document => bareDocument(discoveryPath('/api/', 'getAPIVersions', 'get available API versions', META + 'APIVersions'), opts);
const apisDocument = (opts?: OpenAPIOptions): OpenAPIV3Document => bareDocument(discoveryPath('/apis/', 'getAPIVersions', 'get available API versions', META + 'APIGroupList'), opts);
const groupDocument = (g: string, opts?: OpenAPIOptions): OpenAPIV3Document =>
  bareDocument(discoveryPath(`/apis/${g}/`, 'getAPIGroup', 'get information of a group', META + 'APIGroup'), opts);
const versionDocument = (opts?: OpenAPIOptions): OpenAPIV3Document =>
  bareDocument(discoveryPath('/version/', 'getCodeVersion', 'get the version information for this server', 'io.k8s.apimachinery.pkg.version.Info', ['application/json']), opts);

/**
 * Every document kube-apiserver would list for what we serve, by /openapi/v3 key: "api", "api/v1",
 * "apis", each built-in group ("apis/apiextensions.k8s.io"), every served group-version, and "version".
 * CRD groups get no group-level document (kube registers only their group-versions).
 */
export function openapiV3Documents(resources: readonly ServedResource[], opts?: OpenAPIOptions): Map<string, OpenAPIV3Document> {
  const docs = new Map<string, OpenAPIV3Document>();
  const gvs = new Map<string, { group: string; version: string }>();
  for (const r of resources) gvs.set(groupVersionKey(r.group, r.version), { group: r.group, version: r.version });
  docs.set('api', apiDocument(opts));
  docs.set('apis', apisDocument(opts));
  const builtinGroups = new Set([...gvs.values()].map((gv) => gv.group).filter((g) => g !== '' && isBuiltinGroup(g)));
  for (const g of builtinGroups) docs.set(`apis/${g}`, groupDocument(g, opts));
  const ordered = [...gvs.values()].sort((a, b) => (a.group < b.group ? -1 : a.group > b.group ? 1 : compareKubeVersions(a.version, b.version)));
  for (const { group, version } of ordered) docs.set(groupVersionKey(group, version), openapiV3GroupVersion(group, version, resources, opts));
  docs.set('version', versionDocument(opts));
  return docs;
}

// ---------------------------------------------------------------------------------------------
// Publishing: the index over each document's hash, the documents built on first fetch

interface PublishedDocument {
  /** Names what the body is built from (see documentHash): the ETag and the ?hash= of its index URL. */
  readonly hash: string;
  /** The JSON, built and serialised on first read, then kept. */
  readonly body: string;
}

export interface PublishedOpenAPIV3 {
  index: PublishedDocument;
  documents: Map<string, PublishedDocument>;
  lastModified: Date;
}

/** kube-openapi handler3 constructServerRelativeURL. */
export const serverRelativeURL = (key: string, hash: string): string => `/openapi/v3/${key}?hash=${hash}`;

class BuiltDocument implements PublishedDocument {
  readonly body: string;
  readonly hash: string;
  constructor(doc: unknown) {
    this.body = goJSON(doc);
    this.hash = sha512HexUpper(this.body);
  }
}

class LazyDocument implements PublishedDocument {
  private built?: string;
  constructor(
    readonly hash: string,
    private build: (() => OpenAPIV3Document) | undefined,
  ) {}
  get body(): string {
    if (this.built === undefined) {
      this.built = goJSON(this.build!());
      this.build = undefined; // lets go of the resources it was built from
    }
    return this.built;
  }
}

/** What a served resource's document depends on, when it carries no revision: its content, once per object. */
const contentKeys = new WeakMap<ServedResource, string>();
function resourceKey(r: ServedResource): string {
  if (r.revision !== undefined) return `${r.revision}\u0000${r.verbs.join(',')}`;
  let k = contentKeys.get(r);
  if (k === undefined) contentKeys.set(r, (k = sha512HexUpper(stringifyJSON(r))));
  return k;
}

/**
 * The hash of how custom resources' documents are rendered: a sample's document, built once per process. Such
 * a document's hash names its inputs rather than its bytes, so a change in the code that renders them (same
 * inputs, other bytes) must change their hashes too, or a client's cache of the immutable ?hash= URLs would
 * keep the old bytes.
 */
let rendering: string | undefined;
function renderingHash(): string {
  const sample: ServedResource = {
    group: 'rendering.example.com',
    version: 'v1',
    resource: 'samples',
    singularName: 'sample',
    kind: 'Sample',
    listKind: 'SampleList',
    namespaced: true,
    verbs: ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'],
    shortNames: [],
    categories: [],
    subresources: { status: true, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
    storageVersionHash: '',
    schema: {
      type: 'object',
      properties: {
        spec: { type: 'object', properties: { replicas: { type: 'integer', format: 'int32', default: 1 }, list: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' } } },
        status: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
      },
    },
    selectableFields: ['spec.replicas'],
  };
  return (rendering ??= sha512HexUpper(goJSON(openapiV3GroupVersion(sample.group, sample.version, [sample]))));
}

/**
 * sha512 of what a document is built from: how documents are rendered, its key, the server's version and
 * each resource's revision or content. kube's ?hash= is the sha512 of the bytes, which needs every document
 * built for the index; this one changes whenever the bytes would, and stays the same across restarts while
 * the CRDs do.
 */
function inputHash(rendering: string, key: string, resources: readonly ServedResource[], opts?: OpenAPIOptions): string {
  return sha512HexUpper([rendering, opts?.gitVersion ?? '', key, ...resources.map(resourceKey)].join('\u0000'));
}

/**
 * Documents of built-in resources alone (and the discovery ones), by their inputs' hash: the same for every
 * publish of a process, so built once, and named by the sha512 of their bytes as kube names them.
 */
const builtinDocuments = new Map<string, BuiltDocument>();

/** A document /openapi/v3 lists: its key, the resources it is built from, and how it is built. */
interface DocumentSource {
  key: string;
  inputs: readonly ServedResource[];
  build: () => OpenAPIV3Document;
}

/** The documents of openapiV3Documents, not built yet, in index order's groups. */
function documentSources(resources: readonly ServedResource[], opts?: OpenAPIOptions): DocumentSource[] {
  const gvs = new Map<string, { group: string; version: string; resources: ServedResource[] }>();
  for (const r of resources) {
    const key = groupVersionKey(r.group, r.version);
    const gv = gvs.get(key);
    if (gv) gv.resources.push(r);
    else gvs.set(key, { group: r.group, version: r.version, resources: [r] });
  }
  const out: DocumentSource[] = [
    { key: 'api', inputs: [], build: () => apiDocument(opts) },
    { key: 'apis', inputs: [], build: () => apisDocument(opts) },
  ];
  for (const g of new Set([...gvs.values()].map((gv) => gv.group).filter((g) => g !== '' && isBuiltinGroup(g)))) out.push({ key: `apis/${g}`, inputs: [], build: () => groupDocument(g, opts) });
  for (const [key, gv] of gvs) {
    gv.resources.sort((a, b) => (a.resource < b.resource ? -1 : a.resource > b.resource ? 1 : 0));
    out.push({ key, inputs: gv.resources, build: () => openapiV3GroupVersion(gv.group, gv.version, gv.resources, opts) });
  }
  out.push({ key: 'version', inputs: [], build: () => versionDocument(opts) });
  return out;
}

const isCustom = (inputs: readonly ServedResource[]): boolean => inputs.some((r) => r.revision !== undefined);

/**
 * The index and a document per key of openapiV3Documents. A document with a custom resource is built when
 * first read and named by its inputs' hash; one of `previous` with the same hash is taken over as it is,
 * built or not, so a CRD change rebuilds only its own group-version's document.
 */
export function publishOpenAPIV3(resources: readonly ServedResource[], opts?: OpenAPIOptions & { now?: Date }, previous?: PublishedOpenAPIV3): PublishedOpenAPIV3 {
  const documents = new Map<string, PublishedDocument>();
  for (const { key, inputs, build } of documentSources(resources, opts)) {
    const custom = isCustom(inputs);
    const hash = inputHash(custom ? renderingHash() : '', key, inputs, opts);
    if (!custom) {
      let doc = builtinDocuments.get(hash);
      if (!doc) builtinDocuments.set(hash, (doc = new BuiltDocument(build())));
      documents.set(key, doc);
      continue;
    }
    const old = previous?.documents.get(key);
    documents.set(key, old?.hash === hash ? old : new LazyDocument(hash, build));
  }
  const index: OpenAPIV3Index = { paths: {} };
  // Go marshals the map with sorted keys.
  for (const key of [...documents.keys()].sort()) index.paths[key] = { serverRelativeURL: serverRelativeURL(key, documents.get(key)!.hash) };
  return { index: new BuiltDocument(index), documents, lastModified: opts?.now ?? new Date() };
}

/**
 * Builds the documents of built-in resources ahead of the first /openapi/v3 (kubectl's validation of a create or
 * apply fetches it): they are named by the hash of their bytes, so the first index builds every one of them,
 * some 40 ms of a request. One document per turn of the event loop; each is built once per process. How many
 * were built now.
 */
export async function prebuildBuiltinOpenAPIV3(resources: readonly ServedResource[], opts?: OpenAPIOptions): Promise<number> {
  let built = 0;
  for (const { key, inputs, build } of documentSources(resources, opts)) {
    if (isCustom(inputs)) continue;
    const hash = inputHash('', key, inputs, opts);
    if (builtinDocuments.has(hash)) continue;
    builtinDocuments.set(hash, new BuiltDocument(build()));
    built++;
    await nextTurn();
  }
  return built;
}

/** GET /openapi/v3: the index, its entries pointing at each document with ?hash=<its hash>. */
export function openapiV3Index(resources: readonly ServedResource[], opts?: OpenAPIOptions): OpenAPIV3Index {
  return JSON.parse(publishOpenAPIV3(resources, opts).index.body) as OpenAPIV3Index;
}

interface OpenAPIResponse {
  status: 200 | 301 | 304 | 404 | 406;
  headers: Record<string, string>;
  body?: string;
}

/** If-None-Match as net/http's ServeContent checks it: any listed (weak-compared) tag or "*". */
function noneMatch(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((t) => {
    const tag = t.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}

const httpDate = (d: Date): string => d.toUTCString();

/**
 * Serves GET /openapi/v3 and /openapi/v3/<key> as kube-openapi handler3 does: JSON only (a
 * protobuf-only Accept gets 406), ETag of the sha512, 304 on If-None-Match, a 301 to the current
 * ?hash= when a stale hash is asked for, and immutable one-year caching when the hash matches.
 */
export function serveOpenAPIV3(
  published: PublishedOpenAPIV3,
  path: string,
  request: { hash?: string; accept?: string; ifNoneMatch?: string; now?: Date },
): OpenAPIResponse {
  const trimmed = path.replace(/\/+$/, '');
  if (trimmed === '/openapi/v3') {
    const etag = `"${published.index.hash}"`;
    const headers = { Etag: etag, 'Content-Type': 'application/json', 'Last-Modified': httpDate(published.lastModified) };
    if (noneMatch(request.ifNoneMatch, etag)) return { status: 304, headers: { Etag: etag } };
    return { status: 200, headers, body: published.index.body };
  }
  const key = path.startsWith('/openapi/v3/') ? path.slice('/openapi/v3/'.length) : '';
  const doc = published.documents.get(key);
  if (!doc) return { status: 404, headers: {} };
  // kube would answer a protobuf clause in protobuf; we have only JSON, so such clauses are passed over.
  const wantsJSON = parseAcceptClauses(request.accept || '*/*').some(
    (c) => (c.type === 'application' || c.type === '*') && (c.subType === 'json' || c.subType === '*'),
  );
  if (!wantsJSON) return { status: 406, headers: { Vary: 'Accept' } };
  const etag = `"${doc.hash}"`;
  const headers: Record<string, string> = { Vary: 'Accept', 'Content-Type': 'application/json', Etag: etag };
  if (request.hash) {
    if (request.hash !== doc.hash) return { status: 301, headers: { ...headers, Location: serverRelativeURL(key, doc.hash) } };
    const now = request.now ?? new Date();
    const expires = new Date(now);
    expires.setUTCFullYear(expires.getUTCFullYear() + 1);
    headers['Cache-Control'] = 'public, immutable';
    headers['Expires'] = httpDate(expires).replace(/GMT$/, 'UTC');
  }
  headers['Last-Modified'] = httpDate(published.lastModified);
  if (noneMatch(request.ifNoneMatch, etag)) {
    const { 'Content-Type': _ct, 'Last-Modified': _lm, ...rest } = headers;
    return { status: 304, headers: rest };
  }
  return { status: 200, headers, body: doc.body };
}


// The paths of the OpenAPI v2 document as kube-openapi's v2 builder writes them from the same routes
// the v3 documents use: Swagger 2.0 operations (consumes, produces, schemes, body parameters,
// responses with a schema), parameters shared by every operation of a path moved to the path item,
// then builder.deduplicateParameters: each parameter except name, dryRun, fieldValidation and kind
// bodies becomes a top-level `parameters` entry named <name>-<8 characters of its FNV-64 hash>.

import type { ServedResource } from '../api/resource.js';
import { BUILT_IN_PATCH_TYPES, CUSTOM_RESOURCE_PATCH_TYPES } from '../registry/patch.js';
import { isBuiltinGroup } from './discovery.js';
import { goJSON } from './discovery-json.js';
import { type Method, type Parameter, type Route, RESPONSE_CODES, byNameIn, operationIDAndTags, routesFor } from './openapi.js';
import type { Schema } from './openapi-schema.js';
import { V2_DEFINITIONS } from './openapi-v2-schema.js';

/** A Swagger 2.0 parameter, keys in the order Go's json.Marshal of spec.Parameter writes them. */
type V2Parameter = Schema;

function v2Parameter(p: Parameter): V2Parameter {
  const out: V2Parameter = { uniqueItems: true, type: p.schema.type, description: p.description, name: p.name, in: p.in };
  if (p.required) out['required'] = true;
  return out;
}

function bodyParameter(definition: string, required: boolean): V2Parameter {
  const out: V2Parameter = { name: 'body', in: 'body' };
  if (required) out['required'] = true;
  out['schema'] = { $ref: V2_DEFINITIONS + definition };
  return out;
}

const JSON_YAML = ['application/json', 'application/yaml'];
const BUILT_IN_PRODUCES = [...JSON_YAML, 'application/vnd.kubernetes.protobuf'];
const BUILT_IN_LIST_PRODUCES = [...BUILT_IN_PRODUCES, 'application/json;stream=watch', 'application/vnd.kubernetes.protobuf;stream=watch'];

function mediaTypes(route: Route, builtin: boolean): { consumes: string[]; produces: string[] } {
  if (!builtin) return { consumes: route.method === 'patch' ? [...CUSTOM_RESOURCE_PATCH_TYPES] : JSON_YAML, produces: JSON_YAML };
  return {
    consumes: route.method === 'patch' ? [...BUILT_IN_PATCH_TYPES] : ['*/*'],
    produces: route.action === 'list' ? BUILT_IN_LIST_PRODUCES : BUILT_IN_PRODUCES,
  };
}

/** A route's parameters in go-restful's order, v2 form: pretty, path parameters, options, then the body. */
function routeParameters(route: Route): { key: string; param: V2Parameter; body: boolean }[] {
  const out = route.params.map((p) => ({ key: `${p.in}\u0000${p.name}`, param: v2Parameter(p), body: false }));
  if (route.reads) out.push({ key: 'body\u0000body', param: bodyParameter(route.reads, route.action !== 'delete'), body: true });
  return out;
}

const sortParameters = (ps: V2Parameter[]): V2Parameter[] =>
  ps.sort((a, b) => byNameIn({ name: String(a['name']), in: String(a['in']) } as Parameter, { name: String(b['name']), in: String(b['in']) } as Parameter));

function operation(route: Route, r: ServedResource, params: V2Parameter[]): Schema {
  const { id, tags } = operationIDAndTags(route.operation, route.path);
  const { consumes, produces } = mediaTypes(route, isBuiltinGroup(r.group));
  const responses: Schema = {};
  for (const [code, description] of RESPONSE_CODES[route.action]) responses[code] = { description, schema: { $ref: V2_DEFINITIONS + route.returns } };
  responses['401'] = { description: 'Unauthorized' };
  const op: Schema = { description: route.description, consumes, produces, schemes: ['https'], tags, operationId: id };
  if (params.length > 0) op['parameters'] = sortParameters(params);
  op['responses'] = responses;
  op['x-kubernetes-action'] = route.action;
  const gvk = route.gvk ?? r;
  op['x-kubernetes-group-version-kind'] = { group: gvk.group, kind: gvk.kind, version: gvk.version };
  return op;
}

const PATH_METHODS: Method[] = ['get', 'put', 'post', 'delete', 'patch'];

/** buildPaths: one path item per path, with the parameters all its operations share. */
function pathItems(resources: readonly ServedResource[]): Map<string, Schema> {
  const byPath = new Map<string, { route: Route; resource: ServedResource }[]>();
  for (const r of resources) {
    for (const route of routesFor(r)) {
      const list = byPath.get(route.path) ?? [];
      list.push({ route, resource: r });
      byPath.set(route.path, list);
    }
  }
  const paths = new Map<string, Schema>();
  for (const [path, routes] of byPath) {
    const counts = new Map<string, number>();
    const byKey = new Map<string, V2Parameter>();
    for (const { route } of routes) {
      for (const p of routeParameters(route)) {
        if (p.body) continue;
        counts.set(p.key, (counts.get(p.key) ?? 0) + 1);
        byKey.set(p.key, p.param);
      }
    }
    const common = new Set([...counts].filter(([, n]) => n === routes.length).map(([k]) => k));
    const item: Schema = {};
    for (const method of PATH_METHODS) {
      const found = routes.find((x) => x.route.method === method);
      if (!found) continue;
      const own = routeParameters(found.route).filter((p) => !common.has(p.key)).map((p) => p.param);
      item[method] = operation(found.route, found.resource, own);
    }
    item['parameters'] = sortParameters([...common].map((k) => byKey.get(k)!));
    paths.set(path, item);
  }
  return paths;
}

/** FNV-64 (not 64a) of the text, as hash/fnv.New64 computes it. */
function fnv64(text: string): bigint {
  let h = 14695981039346656037n;
  for (const b of Buffer.from(text, 'utf8')) {
    h = (h * 1099511628211n) & 0xffffffffffffffffn;
    h ^= BigInt(b);
  }
  return h;
}

/** builder.base64Hash: the first six bytes of the FNV-64 sum, URL-safe base64 (8 characters). */
export function parameterHash(goJSONText: string): string {
  const sum = Buffer.alloc(8);
  sum.writeBigUInt64BE(fnv64(goJSONText));
  return sum.subarray(0, 6).toString('base64url');
}

/** Parameters kube never shares: name (it names the kind), fieldValidation and dryRun (kubectl looks for them), kind bodies. */
function shareable(p: V2Parameter): boolean {
  if ((p['in'] === 'query' || p['in'] === 'path') && p['name'] === 'name') return false;
  if (p['in'] === 'query' && (p['name'] === 'fieldValidation' || p['name'] === 'dryRun')) return false;
  if (p['in'] === 'body') {
    const ref = (p['schema'] as Schema | undefined)?.['$ref'];
    return typeof ref === 'string' && ref.startsWith(`${V2_DEFINITIONS}io.k8s.apimachinery`);
  }
  return true;
}

/** The v2 paths and the shared parameters they refer to (both keyed as Go sorts its maps). */
export function openapiV2Paths(resources: readonly ServedResource[]): { paths: Record<string, Schema>; parameters: Record<string, V2Parameter> } {
  const items = pathItems(resources);
  const names = new Map<string, string>();
  const parameters: Record<string, V2Parameter> = {};
  const share = (p: V2Parameter): V2Parameter => {
    if (!shareable(p)) return p;
    const text = goJSON(p);
    let name = names.get(text);
    if (!name) {
      name = `${p['name'] || 'param'}-${parameterHash(text)}`;
      for (let i = 1; parameters[name]; i++) name = `${p['name']}-${i}`;
      names.set(text, name);
      parameters[name] = p;
    }
    return { $ref: `#/parameters/${name}` };
  };
  const paths: Record<string, Schema> = {};
  for (const path of [...items.keys()].sort()) {
    const item = items.get(path)!;
    for (const method of PATH_METHODS) {
      const op = item[method] as Schema | undefined;
      if (op?.['parameters']) op['parameters'] = (op['parameters'] as V2Parameter[]).map(share);
    }
    const common = (item['parameters'] as V2Parameter[]).map(share);
    if (common.length > 0) item['parameters'] = common;
    else delete item['parameters'];
    paths[path] = item;
  }
  return { paths, parameters: Object.fromEntries(Object.entries(parameters).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) };
}

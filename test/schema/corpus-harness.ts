// Loads the shared CRD corpus for the schema engine tests: each project's CRDs by group/version/kind,
// its valid and invalid custom resources, and the expected outcomes.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { parse, parseAllDocuments } from 'yaml';
import { aggregate, fieldErrorString, invalid, type FieldError } from '../../src/api/field-error.js';
import { type CompiledSchema, compileSchema } from '../../src/schema/compile.js';
import { validateObjectMeta } from '../../src/schema/objectmeta.js';

import { CORPUS } from '../shared-paths.js';
export { CORPUS };

type JSONObject = Record<string, unknown>;

export interface ServedKind {
  group: string;
  version: string;
  kind: string;
  namespaced: boolean;
  schema: JSONObject;
  /** CEL rules and messages anywhere in the schema (to tell CEL expectations apart). */
  celTexts: string[];
  compiled?: CompiledSchema;
}

export const projects = (): string[] =>
  readdirSync(CORPUS, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(`${CORPUS}/${d.name}/crds`))
    .map((d) => d.name)
    .sort();

function collectCEL(s: unknown, out: string[]): void {
  if (Array.isArray(s)) {
    for (const x of s) collectCEL(x, out);
    return;
  }
  if (s === null || typeof s !== 'object') return;
  const o = s as JSONObject;
  const rules = o['x-kubernetes-validations'];
  if (Array.isArray(rules)) {
    for (const r of rules as JSONObject[]) {
      if (typeof r.message === 'string') out.push(r.message);
      if (typeof r.rule === 'string') out.push(r.rule);
      if (typeof r.messageExpression === 'string') out.push(r.messageExpression);
    }
  }
  for (const v of Object.values(o)) collectCEL(v, out);
}

export function projectKinds(project: string): Map<string, ServedKind> {
  const out = new Map<string, ServedKind>();
  for (const f of readdirSync(`${CORPUS}/${project}/crds`).filter((x) => x.endsWith('.yaml')).sort()) {
    const crd = parse(readFileSync(`${CORPUS}/${project}/crds/${f}`, 'utf8')) as JSONObject;
    const spec = crd.spec as JSONObject;
    const names = spec.names as JSONObject;
    for (const v of spec.versions as JSONObject[]) {
      const schema = ((v.schema as JSONObject | undefined)?.openAPIV3Schema ?? { type: 'object', 'x-kubernetes-preserve-unknown-fields': true }) as JSONObject;
      const celTexts: string[] = [];
      collectCEL(schema, celTexts);
      out.set(`${spec.group as string}/${v.name as string}/${names.kind as string}`, {
        group: spec.group as string,
        version: v.name as string,
        kind: names.kind as string,
        namespaced: spec.scope === 'Namespaced',
        schema,
        celTexts,
      });
    }
  }
  return out;
}

export function kindFor(kinds: Map<string, ServedKind>, obj: JSONObject): ServedKind | undefined {
  return kinds.get(`${obj.apiVersion as string}/${obj.kind as string}`);
}

export function compiledFor(k: ServedKind): CompiledSchema {
  return (k.compiled ??= compileSchema(k.schema));
}

export function readObjects(path: string): JSONObject[] {
  // The yaml package reads the plain scalar `001:db8::` in a flow sequence as a mapping; Go's
  // YAML (what kubectl uses before sending JSON) reads a string. Quote it (corpus NOTES.json).
  const text = readFileSync(path, 'utf8').replace('[1.2.3.4, 001:db8::]', '[1.2.3.4, "001:db8::"]');
  return parseAllDocuments(text)
    .map((d) => d.toJS() as unknown)
    .filter((o): o is JSONObject => typeof o === 'object' && o !== null && !Array.isArray(o));
}

export function readJSON(path: string): JSONObject | undefined {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as JSONObject) : undefined;
}

export interface WriteResult {
  pruned: string[];
  /** The schema engine's errors (validate). */
  schemaErrors: FieldError[];
  /** All errors of the create: TypeMeta, root ObjectMeta, then the schema engine's. */
  errors: FieldError[];
  /** The Status message kube would send, e.g. `CronTab.stable.example.com "x" is invalid: [...]`. */
  message: string;
}

/**
 * A create as the custom resource handler runs it, for the schema engine's part: prune (with
 * unknown field tracking), default, then validate: TypeMeta, root ObjectMeta, schema.
 */
export function create(k: ServedKind, input: JSONObject): WriteResult {
  const obj = structuredClone(input);
  const c = compiledFor(k);
  const pruned = c.prune(obj, { returnPruned: true });
  c.default(obj);
  const errors: FieldError[] = [];
  const meta = (obj.metadata ?? {}) as JSONObject;
  if (k.namespaced && !meta.namespace) meta.namespace = 'default';
  if (!k.namespaced) delete meta.namespace;
  // Name generation happens before validation.
  if (!meta.name && typeof meta.generateName === 'string') meta.name = `${meta.generateName}x7k2q`;
  if (obj.kind !== k.kind) errors.push(invalid('kind', obj.kind ?? '', `must be ${k.kind}`));
  errors.push(...validateObjectMeta(meta, { namespaced: k.namespaced, nameValidator: 'dns1123Subdomain' }));
  const schemaErrors = c.validate(obj);
  errors.push(...schemaErrors);
  const name = typeof meta.name === 'string' ? meta.name : '';
  const message = errors.length ? `${k.kind}.${k.group} ${JSON.stringify(name)} is invalid: ${aggregate(errors)}` : '';
  return { pruned, schemaErrors, errors, message: [message, ...errors.map(fieldErrorString)].join('\n') };
}

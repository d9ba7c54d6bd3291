// Duplicate keys in request bodies, as kube-apiserver's strict decoders report them (fieldValidation
// Warn and Strict). JSON bodies: sigs.k8s.io/json UnmarshalStrict, `duplicate field "spec.replicas"`, in
// document order, deduplicated, at most 100. YAML bodies: the serializer first converts YAML to JSON
// (last key wins, so the JSON has no duplicates) and runs go-yaml v2's UnmarshalStrict on the original,
// whose one error lists every duplicate: `yaml: unmarshal errors:\n  line 4: key "replicas" already set in map`.
import type { Document, LineCounter, Node as YamlNode } from 'yaml';
import type { GoStruct } from '../api/go-struct.js';
import { goQuote } from '../api/field-error.js';
import { KUBE_YAML_OPTIONS } from '../util/yaml.js';
import { yamlModule } from '../util/yaml.js';

/** A path into a decoded body: object keys and array indices. */
type BodyPath = readonly (string | number)[];

/**
 * Whether the value at a path is decoded by a custom unmarshaler (or skipped as unknown) in the typed Go
 * object, so strict decoding never looks inside it.
 */
export type OpaquePath = (path: BodyPath) => boolean;

const MAX_STRICT_ERRORS = 100;

// ------------------------------------------------------------------ JSON

/**
 * Members in valid JSON text. Outside strings a colon only separates a key from its value, and follows the
 * key's closing quote (after optional whitespace); inside a string, a colon after whitespace and a quote
 * follows an escaped quote (an odd run of backslashes). indexOf keeps this to a few native scans.
 */
export function countJsonMembers(text: string): number {
  let n = 0;
  for (let i = text.indexOf(':'); i >= 0; i = text.indexOf(':', i + 1)) {
    let q = i - 1;
    let c = text.charCodeAt(q);
    while (c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d) c = text.charCodeAt(--q);
    if (c !== 0x22) continue;
    let b = q - 1;
    while (text.charCodeAt(b) === 0x5c) b--;
    if ((q - 1 - b) % 2 === 0) n++;
  }
  return n;
}

/** Keys in a parsed JSON value, at every level; with an explicit stack, as bodies may nest 10,000 deep. */
function countKeys(v: unknown): number {
  let n = 0;
  const todo: unknown[] = [v];
  while (todo.length > 0) {
    const x = todo.pop();
    if (x === null || typeof x !== 'object') continue;
    if (Array.isArray(x)) {
      for (const e of x) if (e !== null && typeof e === 'object') todo.push(e);
      continue;
    }
    const o = x as Record<string, unknown>;
    for (const k in o) {
      n++;
      const e = o[k];
      if (e !== null && typeof e === 'object') todo.push(e);
    }
  }
  return n;
}

/**
 * The strict decoding errors for duplicate keys in valid JSON text whose parse is `parsed`. A parse keeps
 * one member per key, so the text has duplicates exactly when it holds more members than the parse has
 * keys: that count is the fast path every write pays; only a body with duplicates is scanned for paths.
 */
export function jsonDuplicateFields(text: string, parsed: unknown, opaque?: OpaquePath): string[] {
  if (countJsonMembers(text) === countKeys(parsed)) return [];
  return scanJsonDuplicates(text, opaque);
}

/** sigs.k8s.io/json's path: keys joined with '.', indices as [i] with no dot before them. */
function renderPath(path: BodyPath): string {
  let out = '';
  for (const seg of path) {
    if (typeof seg === 'number') out += `[${seg}]`;
    else out += out === '' ? seg : `.${seg}`;
  }
  return out;
}

/** Full scan of valid JSON text: every duplicate key's path, in document order. */
export function scanJsonDuplicates(text: string, opaque?: OpaquePath): string[] {
  const errs: string[] = [];
  const seen = new Set<string>();
  const path: (string | number)[] = [];
  let pos = 0;
  const ws = (): void => {
    for (let c = text.charCodeAt(pos); c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d; c = text.charCodeAt(++pos));
  };
  const stringEnd = (start: number): number => {
    let j = start + 1;
    for (;;) {
      const c = text.charCodeAt(j);
      if (c === 0x5c) j += 2;
      else if (c === 0x22) return j + 1;
      else j++;
    }
  };
  const readKey = (): string => {
    const end = stringEnd(pos);
    const raw = text.slice(pos, end);
    pos = end;
    return raw.includes('\\') ? (JSON.parse(raw) as string) : raw.slice(1, -1);
  };
  // Skips a value without looking at its keys (opaque subtrees).
  const skip = (): void => {
    let depth = 0;
    for (;;) {
      const c = text.charCodeAt(pos);
      if (Number.isNaN(c)) return;
      if (c === 0x22) {
        pos = stringEnd(pos);
        if (depth === 0) return;
        continue;
      }
      if (depth === 0 && (c === 0x2c || c === 0x7d || c === 0x5d)) return;
      pos++;
      if (c === 0x7b || c === 0x5b) depth++;
      else if ((c === 0x7d || c === 0x5d) && --depth === 0) return;
    }
  };
  const value = (): void => {
    ws();
    const c = text.charCodeAt(pos);
    if (opaque && path.length > 0 && (c === 0x7b || c === 0x5b) && opaque(path)) return skip();
    if (c === 0x7b) {
      pos++;
      const keys = new Set<string>();
      ws();
      if (text.charCodeAt(pos) === 0x7d) {
        pos++;
        return;
      }
      for (;;) {
        ws();
        const key = readKey();
        if (keys.has(key)) {
          const msg = `duplicate field ${goQuote(renderPath([...path, key]))}`;
          if (errs.length < MAX_STRICT_ERRORS && !seen.has(msg)) {
            seen.add(msg);
            errs.push(msg);
          }
        } else keys.add(key);
        ws();
        pos++; // :
        path.push(key);
        value();
        path.pop();
        ws();
        if (text.charCodeAt(pos++) === 0x7d) return;
      }
    }
    if (c === 0x5b) {
      pos++;
      ws();
      if (text.charCodeAt(pos) === 0x5d) {
        pos++;
        return;
      }
      for (let i = 0; ; i++) {
        path.push(i);
        value();
        path.pop();
        ws();
        if (text.charCodeAt(pos++) === 0x5d) return;
      }
    }
    skip();
  };
  value();
  return errs;
}

// ------------------------------------------------------------------ YAML

const yaml = yamlModule;

/** go-yaml v2's %#v of a map key: strings quoted, other scalars bare. */
function goKey(v: unknown): string {
  if (typeof v === 'string') return goQuote(v);
  if (v === null || v === undefined) return '<nil>';
  return String(v);
}

/**
 * go-yaml v2 UnmarshalStrict's error for a YAML body with duplicate mapping keys (undefined when there are
 * none). Each duplicate is reported at the line of its value node. Merge keys and aliases are not followed.
 */
export function yamlDuplicateKeysError(text: string): string | undefined {
  const Y = yaml();
  const lc: LineCounter = new Y.LineCounter();
  // Keys resolve as goyaml.v2 resolves them: `yes` and `true` are the same key.
  const doc: Document = Y.parseDocument(text, { ...KUBE_YAML_OPTIONS, lineCounter: lc });
  const lines: string[] = [];
  const visit = (node: unknown): void => {
    if (Y.isMap(node)) {
      const keys = new Set<string>();
      for (const pair of node.items) {
        const k = Y.isScalar(pair.key) ? pair.key.value : pair.key;
        if (k === '<<') continue;
        // Values first: go-yaml decodes a value before it checks its key.
        visit(pair.value);
        if (k !== null && typeof k === 'object') continue; // complex keys: not valid for JSON anyway
        const id = `${typeof k}:${String(k)}`;
        if (keys.has(id)) {
          const at = (pair.value as YamlNode | null)?.range?.[0] ?? (pair.key as YamlNode | null)?.range?.[0] ?? 0;
          lines.push(`line ${lc.linePos(at).line}: key ${goKey(k)} already set in map`);
        } else keys.add(id);
      }
    } else if (Y.isSeq(node)) {
      for (const item of node.items) visit(item);
    }
  };
  visit(doc.contents);
  return lines.length ? `yaml: unmarshal errors:\n  ${lines.join('\n  ')}` : undefined;
}

// ------------------------------------------------------------------ built-in types

// JSONSchemaProps members that strict decoding walks into: nested schemas by name or index, and the few
// plain structs and lists. items, additionalProperties, additionalItems, dependencies (custom unmarshalers
// over non-strict json.Unmarshal), default, example and enum (apiextensions JSON) are raw.
const SCHEMA_MAPS = new Set(['properties', 'patternProperties', 'definitions']);
const SCHEMA_LISTS = new Set(['allOf', 'anyOf', 'oneOf']);
const SCHEMA_PLAIN = new Set(['externalDocs', 'x-kubernetes-validations', 'required', 'x-kubernetes-list-map-keys']);

function schemaOpaque(p: BodyPath, i: number): boolean {
  while (i < p.length) {
    const k = p[i];
    if (typeof k !== 'string') return false;
    if (SCHEMA_MAPS.has(k) || SCHEMA_LISTS.has(k)) i += 2;
    else if (k === 'not') i += 1;
    else return !SCHEMA_PLAIN.has(k);
  }
  return false;
}

/** Where a path leads in a declared Go type: the field type it ends at, or where it leaves what is declared. */
function opaqueIn(s: GoStruct, p: BodyPath, i: number): boolean {
  const key = p[i];
  const f = typeof key === 'string' ? s.fields.find((x) => x.json === key) : undefined;
  if (!f) return false;
  let j = i + 1;
  // A list's index or a map's key, then the element.
  if (f.slice || f.map) {
    if (j === p.length) return false;
    j++;
  }
  if (f.type === 'fieldsV1') return j === p.length; // raw JSON: the decoder never looks inside
  if (f.type === 'jsonSchemaProps') return schemaOpaque(p, j);
  if (typeof f.type === 'object' && j < p.length) return opaqueIn(f.type, p, j);
  return false;
}

/**
 * For a built-in kind (decoded into a typed Go object), the subtrees its strict decoding does not see:
 * FieldsV1 values and what JSONSchemaProps' custom unmarshalers decode. Custom resources have none
 * (unstructured: every level is a map).
 */
export function typedOpaquePaths(goType: GoStruct): OpaquePath {
  return (p) => opaqueIn(goType, p, 0);
}

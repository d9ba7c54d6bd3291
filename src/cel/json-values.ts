// JSON (a custom resource or one of its parts) as CEL values, with the semantics of Kubernetes'
// UnstructuredToVal (k8s.io/apiserver pkg/cel/common/values.go at v0.33.0): objects and maps wrap
// their JSON lazily and convert a field when it is read (JSON null fields are absent), lists convert
// element-wise and carry their set/map list semantics, integers become int and other numbers
// double, and strings become bytes, timestamps or durations when the declared type says so.

import { parseDateTime, parseFullDate, parseK8sDuration } from './time.js';
import { DYN } from './types.js';
import type { CelType, FieldDecl, ObjectType } from './types.js';
import { markUnstructured, noSuchOverload } from './value-ops.js';
import type { JsonBacked } from './value-ops.js';
import { CelError, CelMap, CelObject, Duration, Uint } from './values.js';
import type { Val } from './values.js';

const hasOwn = Object.prototype.hasOwnProperty;

/** Convert JSON to a CEL value of the declared type. Data that does not fit the type becomes a
 * CelError with Kubernetes' wording (schema validation normally rules that out). */
export function jsonToVal(json: unknown, type: CelType): Val {
  if (json === null || json === undefined) return null;
  switch (type.kind) {
    case 'primitive':
      switch (type.name) {
        case 'int': return toInt(json);
        case 'uint':
          if (typeof json === 'bigint' && json >= 0n) return new Uint(json);
          if (typeof json === 'number' && Number.isInteger(json) && json >= 0) return new Uint(BigInt(json));
          return new CelError(`invalid data, expected uint, got ${goTypeOf(json)}`);
        case 'double':
          if (typeof json === 'number') return json;
          if (typeof json === 'bigint') return Number(json);
          return new CelError(`invalid data, expected float, got ${goTypeOf(json)}`);
        case 'bool':
          return typeof json === 'boolean' ? json : new CelError(`invalid data, expected bool, got ${goTypeOf(json)}`);
        case 'string':
          return typeof json === 'string' ? json : new CelError(`invalid data, expected string, got ${goTypeOf(json)}`);
        case 'bytes': {
          if (typeof json !== 'string') return new CelError(`invalid data, expected string, got ${goTypeOf(json)}`);
          const b = decodeBase64(json);
          return b ?? new CelError(`Invalid byte formatted string ${json}: illegal base64 data`);
        }
      }
      break;
    case 'timestamp': {
      if (typeof json !== 'string') return new CelError(`invalid data, expected string, got ${goTypeOf(json)}`);
      const t = parseDateTime(json) ?? parseFullDate(json);
      return t ?? new CelError(`Invalid date-time formatted string ${json}: cannot parse ${JSON.stringify(json)} as a date-time`);
    }
    case 'duration': {
      if (typeof json !== 'string') return new CelError(`invalid data, expected string, got ${goTypeOf(json)}`);
      const d = parseK8sDuration(json);
      return d === undefined ? new CelError(`Invalid duration ${json}: unable to parse ${json} as duration`) : new Duration(d);
    }
    case 'list': {
      if (!Array.isArray(json)) return new CelError('invalid data, expected an array for the provided schema with type=array');
      const elem = type.elem;
      const out: Val[] = new Array(json.length);
      for (let i = 0; i < json.length; i++) out[i] = jsonToVal(json[i], elem);
      return markUnstructured(out, type);
    }
    case 'map':
      if (!isJsonObject(json)) return new CelError('invalid data, expected a map for the provided schema with type=object');
      return new JsonMap(json, type.value);
    case 'object':
      if (!isJsonObject(json)) return new CelError('invalid data, expected a map for the provided schema with type=object');
      return new JsonObject(json, type);
    case 'null':
      return null;
  }
  return structural(json);
}

/** Values of undeclared shape (x-kubernetes-int-or-string, dyn): converted by their JSON kind. */
function structural(json: unknown): Val {
  switch (typeof json) {
    case 'string':
    case 'boolean':
    case 'bigint':
      return json;
    case 'number':
      return Number.isInteger(json) ? bigintOf(json) : json;
  }
  if (json === null || json === undefined) return null;
  if (Array.isArray(json)) return markUnstructured(json.map(structural));
  if (isJsonObject(json)) return new JsonMap(json, DYN);
  return new CelError(`invalid data, unsupported JSON value of type ${typeof json}`);
}

// BigInt() allocates; most integers in custom resources (replicas, ports, counts) are small.
const SMALL_INT_MIN = -256;
const SMALL_INTS: readonly bigint[] = Array.from({ length: 4096 - SMALL_INT_MIN }, (_, i) => BigInt(i + SMALL_INT_MIN));
const bigintOf = (n: number): bigint => (n >= SMALL_INT_MIN && n < 4096 ? SMALL_INTS[n - SMALL_INT_MIN]! : BigInt(n));

function toInt(json: unknown): Val {
  if (typeof json === 'bigint') return json;
  if (typeof json === 'number' && Number.isInteger(json)) return bigintOf(json);
  return new CelError(`invalid data, expected int, got ${goTypeOf(json)}`);
}

const isJsonObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Uint8Array);

/** The Go type name an unstructured value would have, for Kubernetes' error messages. */
function goTypeOf(v: unknown): string {
  if (typeof v === 'string') return 'string';
  if (typeof v === 'boolean') return 'bool';
  if (typeof v === 'bigint') return 'int64';
  if (typeof v === 'number') return Number.isInteger(v) ? 'int64' : 'float64';
  if (Array.isArray(v)) return '[]interface {}';
  if (isJsonObject(v)) return 'map[string]interface {}';
  return typeof v;
}

/** base64.StdEncoding.DecodeString: padded standard alphabet; newlines are ignored. */
function decodeBase64(s: string): Uint8Array | undefined {
  const clean = s.replace(/[\r\n]/g, '');
  if (clean.length % 4 !== 0 || !/^[A-Za-z0-9+/]*(?:={0,2})$/.test(clean)) return undefined;
  if (/=[^=]/.test(clean)) return undefined;
  return new Uint8Array(Buffer.from(clean, 'base64'));
}

// ---------------------------------------------------------------------------------------------

/** Fields of an object type by JSON name, built once per type. */
const byJsonName = new WeakMap<ObjectType, Map<string, [celName: string, decl: FieldDecl]>>();

function jsonIndex(type: ObjectType): Map<string, [string, FieldDecl]> {
  let idx = byJsonName.get(type);
  if (!idx) {
    idx = new Map();
    for (const [celName, decl] of type.fields) idx.set(decl.jsonName, [celName, decl]);
    byJsonName.set(type, idx);
  }
  return idx;
}

/** Fields by CEL name and by JSON name in one map, built once per type (the hot path of field reads). */
const byAnyName = new WeakMap<ObjectType, Map<string, FieldDecl>>();

function fieldsByAnyName(type: ObjectType): Map<string, FieldDecl> {
  let m = byAnyName.get(type);
  if (!m) {
    m = new Map();
    for (const [jsonName, [, decl]] of jsonIndex(type)) m.set(jsonName, decl);
    // CEL names win over JSON names, as `fields.get(name) ?? byJsonName(name)` would have it.
    for (const [celName, decl] of type.fields) m.set(celName, decl);
    byAnyName.set(type, m);
  }
  return m;
}

/** A schema object with properties (k8s unstructuredMap with a properties schema). Fields are
 * read by CEL name (`x__dash__y`) or JSON name (`x-y`); null fields are absent. */
export class JsonObject extends CelObject implements JsonBacked {
  private cache: Map<string, Val> | undefined;

  constructor(
    readonly raw: Record<string, unknown>,
    readonly type: ObjectType,
  ) {
    super();
  }

  private decl(name: string): FieldDecl | undefined {
    return fieldsByAnyName(this.type).get(name);
  }

  field(name: string): Val | undefined {
    const cached = this.cache?.get(name);
    if (cached !== undefined) return cached;
    const decl = this.decl(name);
    if (!decl || !hasOwn.call(this.raw, decl.jsonName)) return undefined;
    const raw = this.raw[decl.jsonName];
    if (raw === null || raw === undefined) return undefined;
    const v = jsonToVal(raw, decl.type);
    // Scalars are cheap to convert again; lists and nested values are worth keeping.
    if (typeof raw === 'object') (this.cache ??= new Map()).set(name, v);
    return v;
  }

  hasField(name: string): boolean {
    const decl = this.decl(name);
    if (!decl || !hasOwn.call(this.raw, decl.jsonName)) return false;
    const raw = this.raw[decl.jsonName];
    return raw !== null && raw !== undefined;
  }

  rawField(jsonName: string): Val | undefined {
    const entry = jsonIndex(this.type).get(jsonName);
    if (!entry || !hasOwn.call(this.raw, jsonName)) return undefined;
    const raw = this.raw[jsonName];
    return raw === null ? null : this.field(entry[0]);
  }

  sameShape(other: unknown): boolean {
    return other instanceof JsonObject && other.type === this.type;
  }

  /** Declared fields present in the JSON, by CEL name (Kubernetes iterates null fields too). */
  *keys(): Iterable<Val> {
    const idx = jsonIndex(this.type);
    for (const k of Object.keys(this.raw)) {
      const entry = idx.get(k);
      if (entry) yield entry[0];
    }
  }
}

/** A schema object with additionalProperties: a string-keyed map. */
export class JsonMap extends CelMap implements JsonBacked {
  private cache: Map<string, Val> | undefined;
  private count = -1;

  constructor(
    readonly raw: Record<string, unknown>,
    readonly valueType: CelType,
  ) {
    super();
  }

  get size(): number {
    if (this.count < 0) this.count = Object.keys(this.raw).length;
    return this.count;
  }

  get(key: Val): Val | undefined {
    if (typeof key !== 'string') return noSuchOverload();
    return this.rawField(key);
  }

  has(key: Val): boolean {
    return typeof key === 'string' && hasOwn.call(this.raw, key);
  }

  keys(): Iterable<Val> {
    return Object.keys(this.raw);
  }

  sameShape(other: unknown): boolean {
    return other instanceof JsonMap && other.valueType === this.valueType;
  }

  rawField(key: string): Val | undefined {
    if (!hasOwn.call(this.raw, key)) return undefined;
    const cached = this.cache?.get(key);
    if (cached !== undefined) return cached;
    const raw = this.raw[key];
    const v = jsonToVal(raw, this.valueType);
    if (typeof raw === 'object' && raw !== null) (this.cache ??= new Map()).set(key, v);
    return v;
  }
}

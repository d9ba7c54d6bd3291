// JSON (a custom resource or one of its parts) as CEL values, with the semantics of Kubernetes'
// UnstructuredToVal (k8s.io/apiserver pkg/cel/common/values.go at v0.33.0): objects and maps wrap
// their JSON lazily and convert a field when it is read (JSON null fields are absent), lists convert
// element-wise and carry their set/map list semantics, integers become int and other numbers
// double, and strings become bytes, timestamps or durations when the declared type says so.
//
// Conversion runs on every custom-resource write, so each declared type gets one converter
// function, built on first use and kept per type object; objects index their fields once per type.

import { parseDateTime, parseFullDate, parseK8sDuration } from './time.js';
import { DYN } from './types.js';
import type { CelType, ObjectType } from './types.js';
import { bigintOf, markUnstructured, noSuchOverload } from './value-ops.js';
import type { JsonBacked } from './value-ops.js';
import { CelError, CelMap, CelObject, Duration, Uint } from './values.js';
import type { Val } from './values.js';

const hasOwn = Object.prototype.hasOwnProperty;

/** Converts JSON that is neither null nor undefined to a CEL value of one declared type. */
type Converter = (json: unknown) => Val;

/** Convert JSON to a CEL value of the declared type. Data that does not fit the type becomes a
 * CelError with Kubernetes' wording (schema validation normally rules that out). */
export function jsonToVal(json: unknown, type: CelType): Val {
  if (json === null || json === undefined) return null;
  return converterFor(type)(json);
}

const converters = new WeakMap<CelType, Converter>();
// The last type asked for: a write converts its object for the same declared type rule after rule.
let lastType: CelType | undefined;
let lastConverter: Converter | undefined;

/** The converter of a declared type (types are not changed once values of them exist). */
function converterFor(type: CelType): Converter {
  if (type === lastType) return lastConverter!;
  let c = converters.get(type);
  if (c === undefined) {
    c = buildConverter(type);
    converters.set(type, c);
  }
  lastType = type;
  lastConverter = c;
  return c;
}

const toInt: Converter = (json) => {
  if (typeof json === 'number' && Number.isInteger(json)) return bigintOf(json);
  if (typeof json === 'bigint') return json;
  return new CelError(`invalid data, expected int, got ${goTypeOf(json)}`);
};

const toUint: Converter = (json) => {
  if (typeof json === 'bigint' && json >= 0n) return new Uint(json);
  if (typeof json === 'number' && Number.isInteger(json) && json >= 0) return new Uint(BigInt(json));
  return new CelError(`invalid data, expected uint, got ${goTypeOf(json)}`);
};

const toDouble: Converter = (json) => {
  if (typeof json === 'number') return json;
  if (typeof json === 'bigint') return Number(json);
  return new CelError(`invalid data, expected float, got ${goTypeOf(json)}`);
};

const toBool: Converter = (json) =>
  typeof json === 'boolean' ? json : new CelError(`invalid data, expected bool, got ${goTypeOf(json)}`);

const toString: Converter = (json) =>
  typeof json === 'string' ? json : new CelError(`invalid data, expected string, got ${goTypeOf(json)}`);

const toBytes: Converter = (json) => {
  if (typeof json !== 'string') return new CelError(`invalid data, expected string, got ${goTypeOf(json)}`);
  const b = decodeBase64(json);
  return b ?? new CelError(`Invalid byte formatted string ${json}: illegal base64 data`);
};

const toTimestamp: Converter = (json) => {
  if (typeof json !== 'string') return new CelError(`invalid data, expected string, got ${goTypeOf(json)}`);
  const t = parseDateTime(json) ?? parseFullDate(json);
  return t ?? new CelError(`Invalid date-time formatted string ${json}: cannot parse ${JSON.stringify(json)} as a date-time`);
};

const toDuration: Converter = (json) => {
  if (typeof json !== 'string') return new CelError(`invalid data, expected string, got ${goTypeOf(json)}`);
  const d = parseK8sDuration(json);
  return d === undefined ? new CelError(`Invalid duration ${json}: unable to parse ${json} as duration`) : new Duration(d);
};

const toNull: Converter = () => null;

function buildConverter(type: CelType): Converter {
  switch (type.kind) {
    case 'primitive':
      switch (type.name) {
        case 'int': return toInt;
        case 'uint': return toUint;
        case 'double': return toDouble;
        case 'bool': return toBool;
        case 'string': return toString;
        case 'bytes': return toBytes;
      }
      break;
    case 'timestamp': return toTimestamp;
    case 'duration': return toDuration;
    case 'list': {
      // The element converter is resolved on first use, so building never recurses.
      let elem: Converter | undefined;
      return (json) => {
        if (!Array.isArray(json)) return new CelError('invalid data, expected an array for the provided schema with type=array');
        const conv = (elem ??= converterFor(type.elem));
        const out: Val[] = [];
        for (let i = 0; i < json.length; i++) {
          const e: unknown = json[i];
          out.push(e === null || e === undefined ? null : conv(e));
        }
        return markUnstructured(out, type);
      };
    }
    case 'map':
      return (json) => {
        if (!isJsonObject(json)) return new CelError('invalid data, expected a map for the provided schema with type=object');
        return new JsonMap(json, type.value);
      };
    case 'object': {
      let info: ObjectInfo | undefined;
      return (json) => {
        if (!isJsonObject(json)) return new CelError('invalid data, expected a map for the provided schema with type=object');
        return new JsonObject(json, type, (info ??= objectInfo(type)));
      };
    }
    case 'null':
      return toNull;
  }
  return structural;
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

/** One declared field of an object type. */
export interface FieldInfo {
  readonly celName: string;
  readonly jsonName: string;
  readonly type: CelType;
  /** Position in an object's cache of converted values. */
  readonly index: number;
  /** The JSON name is also a member of Object.prototype, so a plain read could find that. */
  readonly inherited: boolean;
  conv: Converter | undefined;
}

/** The fields of an object type, by CEL name and JSON name together and by JSON name alone. */
export interface ObjectInfo {
  readonly byName: ReadonlyMap<string, FieldInfo>;
  readonly byJsonName: ReadonlyMap<string, FieldInfo>;
  readonly count: number;
}

const objectInfos = new WeakMap<ObjectType, ObjectInfo>();

function objectInfo(type: ObjectType): ObjectInfo {
  let info = objectInfos.get(type);
  if (!info) {
    const byName = new Map<string, FieldInfo>();
    const byJsonName = new Map<string, FieldInfo>();
    const all: FieldInfo[] = [];
    let index = 0;
    for (const [celName, decl] of type.fields) {
      const fi: FieldInfo = {
        celName,
        jsonName: decl.jsonName,
        type: decl.type,
        index: index++,
        inherited: decl.jsonName in Object.prototype,
        conv: undefined,
      };
      all.push(fi);
      byJsonName.set(decl.jsonName, fi);
    }
    for (const fi of byJsonName.values()) byName.set(fi.jsonName, fi);
    // CEL names win over JSON names, as `fields.get(name) ?? byJsonName(name)` would have it.
    for (const fi of all) byName.set(fi.celName, fi);
    info = { byName, byJsonName, count: index };
    objectInfos.set(type, info);
  }
  return info;
}

/** A schema object with properties (k8s unstructuredMap with a properties schema). Fields are
 * read by CEL name (`x__dash__y`) or JSON name (`x-y`); null fields are absent. */
export class JsonObject extends CelObject implements JsonBacked {
  /** Converted lists, maps and objects by field index: converting them again would cost more. */
  private cache: (Val | undefined)[] | undefined = undefined;
  private keyCount = -1;
  readonly info: ObjectInfo;

  constructor(
    readonly raw: Record<string, unknown>,
    readonly type: ObjectType,
    info?: ObjectInfo,
  ) {
    super();
    this.info = info ?? objectInfo(type);
  }

  field(name: string): Val | undefined {
    const fi = this.info.byName.get(name);
    return fi === undefined ? undefined : this.read(fi);
  }

  /** The value of one of this object's declared fields, or undefined when absent. */
  read(fi: FieldInfo): Val | undefined {
    const raw = this.raw[fi.jsonName];
    if (raw === null || raw === undefined) return undefined;
    if (fi.inherited && !hasOwn.call(this.raw, fi.jsonName)) return undefined;
    if (typeof raw !== 'object') return (fi.conv ??= converterFor(fi.type))(raw);
    const cache = (this.cache ??= new Array<Val | undefined>(this.info.count));
    let v = cache[fi.index];
    if (v === undefined) {
      v = (fi.conv ??= converterFor(fi.type))(raw);
      cache[fi.index] = v;
    }
    return v;
  }

  hasField(name: string): boolean {
    const fi = this.info.byName.get(name);
    if (!fi || !hasOwn.call(this.raw, fi.jsonName)) return false;
    const raw = this.raw[fi.jsonName];
    return raw !== null && raw !== undefined;
  }

  rawField(jsonName: string): Val | undefined {
    const fi = this.info.byJsonName.get(jsonName);
    if (!fi || !hasOwn.call(this.raw, jsonName)) return undefined;
    const raw = this.raw[jsonName];
    return raw === null ? null : this.read(fi);
  }

  sameShape(other: unknown): boolean {
    return other instanceof JsonObject && other.type === this.type;
  }

  /** The number of JSON keys (null-valued ones too), as Kubernetes sizes the object. */
  count(): number {
    if (this.keyCount < 0) this.keyCount = Object.keys(this.raw).length;
    return this.keyCount;
  }

  /** Declared fields present in the JSON, by CEL name (Kubernetes iterates null fields too). */
  *keys(): Iterable<Val> {
    const idx = this.info.byJsonName;
    for (const k of Object.keys(this.raw)) {
      const fi = idx.get(k);
      if (fi) yield fi.celName;
    }
  }
}

/** A schema object with additionalProperties: a string-keyed map. */
export class JsonMap extends CelMap implements JsonBacked {
  private cache: Map<string, Val> | undefined = undefined;
  private keyCount = -1;
  private conv: Converter | undefined = undefined;

  constructor(
    readonly raw: Record<string, unknown>,
    readonly valueType: CelType,
  ) {
    super();
  }

  get size(): number {
    if (this.keyCount < 0) this.keyCount = Object.keys(this.raw).length;
    return this.keyCount;
  }

  count(): number {
    return this.size;
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
    const raw = this.raw[key];
    if (raw === null || raw === undefined) return null;
    const conv = (this.conv ??= converterFor(this.valueType));
    if (typeof raw !== 'object') return conv(raw);
    const cached = this.cache?.get(key);
    if (cached !== undefined) return cached;
    const v = conv(raw);
    (this.cache ??= new Map()).set(key, v);
    return v;
  }
}

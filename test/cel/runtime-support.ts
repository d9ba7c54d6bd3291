// Test helpers for the runtime: decoding the cel-spec conformance suite's protobuf-JSON values and
// types, deciding which tests need protobuf messages (Kubernetes declares none), comparing results.

import { Env } from '../../src/cel/env.js';
import type { FunctionDecl, Library } from '../../src/cel/decls.js';
import {
  BOOL, BYTES, DOUBLE, DURATION, DYN, INT, NULL, STRING, TIMESTAMP, UINT, listOf, mapOf, opaque, typeOf, typeParam,
} from '../../src/cel/types.js';
import type { CelType } from '../../src/cel/types.js';
import { LiteralMap, typeName } from '../../src/cel/value-ops.js';
import { parseGoDuration, parseRfc3339 } from '../../src/cel/time.js';
import { CelMap, Duration, Timestamp, TypeValue, Uint } from '../../src/cel/values.js';
import type { Val } from '../../src/cel/values.js';

/* eslint-disable @typescript-eslint/no-explicit-any */
type Json = any;

export interface SimpleTest {
  name: string;
  expr: string;
  description?: string;
  value?: Json;
  evalError?: Json;
  typedResult?: { result?: Json; deducedType?: Json };
  typeEnv?: Json[];
  bindings?: Record<string, { value: Json }>;
  disableCheck?: boolean;
  checkOnly?: boolean;
  container?: string;
}

export interface Case {
  section: string;
  path: string;
  test: SimpleTest;
}

export function flatten(root: { suites: Json[] }): Case[] {
  const out: Case[] = [];
  const walk = (s: Json, path: string, section: string): void => {
    for (const t of s.tests ?? []) out.push({ section, path: `${path}/${t.original.name}`, test: t.original });
    for (const c of s.suites ?? []) walk(c, `${path}/${c.name}`, section);
  };
  for (const s of root.suites) walk(s, s.name, s.name);
  return out;
}

const PROTO_EXPR = /TestAllTypes|NestedMessage|NestedEnum|GlobalEnum|proto[23]\.|google\.protobuf\.(?!Timestamp\b|Duration\b)/;

/** Why a test cannot run without protobuf support, or undefined when it can. */
export function protoReason(t: SimpleTest): string | undefined {
  if (t.container) return 'container';
  if (PROTO_EXPR.test(t.expr)) return 'proto message in expression';
  const json = JSON.stringify([t.typeEnv ?? [], t.bindings ?? {}, t.value ?? null, t.typedResult ?? null]);
  if (/"enumValue"|"wrapper"/.test(json)) return 'proto enum or wrapper';
  for (const m of json.matchAll(/"(?:messageType|@type)":"([^"]+)"/g)) {
    if (!/google\.protobuf\.(Duration|Timestamp)$/.test(m[1]!)) return `proto message ${m[1]}`;
  }
  if (/"wellKnown":"ANY"/.test(json)) return 'google.protobuf.Any';
  return undefined;
}

const PRIMITIVES: Record<string, CelType> = {
  BOOL, INT64: INT, UINT64: UINT, DOUBLE, STRING, BYTES,
};

export function decodeType(t: Json): CelType {
  if (t.primitive) return PRIMITIVES[t.primitive]!;
  if (t.listType) return listOf(decodeType(t.listType.elemType));
  if (t.mapType) return mapOf(decodeType(t.mapType.keyType), decodeType(t.mapType.valueType));
  if ('null' in t) return NULL;
  if ('dyn' in t) return DYN;
  if (t.typeParam) return typeParam(t.typeParam);
  if (t.abstractType) return opaque(t.abstractType.name, ...(t.abstractType.parameterTypes ?? []).map(decodeType));
  if (t.type) return typeOf(decodeType(t.type));
  if (t.wellKnown === 'DURATION' || t.messageType === 'google.protobuf.Duration') return DURATION;
  if (t.wellKnown === 'TIMESTAMP' || t.messageType === 'google.protobuf.Timestamp') return TIMESTAMP;
  if ('error' in t) return { kind: 'error' };
  throw new Error(`unsupported type ${JSON.stringify(t)}`);
}

const TYPE_NAMES: Record<string, CelType> = {
  int: INT, uint: UINT, double: DOUBLE, bool: BOOL, string: STRING, bytes: BYTES, null_type: NULL,
  list: listOf(DYN), map: mapOf(DYN, DYN), type: { kind: 'type' },
  'google.protobuf.Timestamp': TIMESTAMP, 'google.protobuf.Duration': DURATION,
};

export function decodeValue(v: Json): Val {
  if ('int64Value' in v) return BigInt(v.int64Value);
  if ('uint64Value' in v) return new Uint(BigInt(v.uint64Value));
  if ('doubleValue' in v) return typeof v.doubleValue === 'number' ? v.doubleValue : Number(v.doubleValue);
  if ('stringValue' in v) return v.stringValue;
  if ('boolValue' in v) return v.boolValue;
  if ('bytesValue' in v) return new Uint8Array(Buffer.from(v.bytesValue, 'base64'));
  if ('nullValue' in v) return null;
  if ('listValue' in v) return (v.listValue.values ?? []).map(decodeValue);
  if ('mapValue' in v) {
    const m = new LiteralMap();
    for (const e of v.mapValue.entries ?? []) m.set(decodeValue(e.key), decodeValue(e.value));
    return m;
  }
  if ('typeValue' in v) return new TypeValue(TYPE_NAMES[v.typeValue] ?? opaque(v.typeValue));
  if ('objectValue' in v) {
    const o = v.objectValue;
    if (o['@type'].endsWith('google.protobuf.Duration')) return new Duration(parseGoDuration(o.value)!);
    if (o['@type'].endsWith('google.protobuf.Timestamp')) return new Timestamp(parseRfc3339(o.value)!.nanos);
  }
  throw new Error(`unsupported value ${JSON.stringify(v)}`);
}

/** Exact equality of results: kinds must agree (1 is not 1u), maps compare regardless of order. */
export function sameValue(a: Val, b: Val): boolean {
  if (typeof a !== typeof b) return false;
  switch (typeof a) {
    case 'number': return (Number.isNaN(a) && Number.isNaN(b as number)) || a === b;
    case 'bigint':
    case 'string':
    case 'boolean':
      return a === b;
  }
  if (a === null || b === null) return a === b;
  if (a instanceof Uint) return b instanceof Uint && a.value === b.value;
  if (a instanceof Uint8Array) return b instanceof Uint8Array && Buffer.from(a).equals(Buffer.from(b));
  if (Array.isArray(a)) {
    const bl = b as Val[];
    return Array.isArray(b) && a.length === bl.length && a.every((x, i) => sameValue(x, bl[i]!));
  }
  if (a instanceof CelMap) {
    if (!(b instanceof CelMap) || a.size !== b.size) return false;
    for (const k of a.keys()) {
      const bk = [...b.keys()].find((x) => sameValue(x, k));
      if (bk === undefined || !sameValue(a.get(k)!, b.get(bk)!)) return false;
    }
    return true;
  }
  if (a instanceof Timestamp) return b instanceof Timestamp && a.nanos === b.nanos;
  if (a instanceof Duration) return b instanceof Duration && a.nanos === b.nanos;
  if (a instanceof TypeValue) return b instanceof TypeValue && typeName(a.type) === typeName(b.type);
  return false;
}

/** Function declarations from a test's type environment (used by check-only tests). */
export function envFor(base: readonly Library[], t: SimpleTest): Env {
  const variables: { name: string; type: CelType }[] = [];
  const functions: FunctionDecl[] = [];
  for (const d of t.typeEnv ?? []) {
    if (d.ident) variables.push({ name: d.name, type: decodeType(d.ident.type) });
    if (d.function) {
      functions.push({
        name: d.name,
        overloads: d.function.overloads.map((o: Json) => ({
          id: o.overloadId,
          member: o.isInstanceFunction === true,
          params: (o.params ?? []).map(decodeType),
          result: decodeType(o.resultType),
          impl: () => null,
        })),
      });
    }
  }
  const libs = functions.length > 0 ? [...base, { name: 'test', functions }] : base;
  return new Env(libs, variables);
}

// Old and new values of an update matched up through the schema (k8s.io/apiserver pkg/cel/common
// CorrelatedObject, MapList): object fields and map entries by key, items of map lists by their
// key fields, nothing else. Validation ratcheting asks whether a correlated value is unchanged.
import type { Structural } from '../schema/structural-model.js';
import { deepEqual, isObject, type JSONObject } from '../util/json.js';

/** The old value of a map-list item with the same key fields (first occurrence wins); undefined when none. */
interface MapList {
  get(item: unknown): unknown;
}

const EMPTY: MapList = { get: () => undefined };

type ScalarKey = string | number | bigint | boolean;

function compositeKey(obj: JSONObject, keys: readonly string[]): string | ScalarKey | undefined {
  if (keys.length === 1) {
    const v = obj[keys[0]!];
    return typeof v === 'string' || typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean' ? v : undefined;
  }
  let out = '';
  for (const k of keys) {
    if (!Object.hasOwn(obj, k)) return undefined;
    const v = obj[k];
    if (typeof v === 'string') out += '\0' + JSON.stringify(v);
    else if (typeof v === 'number' || typeof v === 'bigint' || typeof v === 'boolean') out += '\0' + String(v);
    else return undefined;
  }
  return out;
}

/** MakeMapList: a lookup of old items by their key fields, built lazily as kube does. */
export function makeMapList(s: Structural | undefined, items: unknown): MapList {
  const keys = s?.extensions.listMapKeys;
  if (!s || s.generic.type !== 'array' || s.extensions.listType !== 'map' || !keys || keys.length === 0 || !Array.isArray(items) || items.length === 0) {
    return EMPTY;
  }
  const keyed = new Map<string | ScalarKey, JSONObject>();
  let next = 0;
  return {
    get(item) {
      if (!isObject(item)) return undefined;
      const key = compositeKey(item, keys);
      if (key === undefined) return undefined;
      const hit = keyed.get(key);
      if (hit) return hit;
      while (next < items.length) {
        const it = items[next++];
        if (!isObject(it)) continue;
        const k = compositeKey(it, keys);
        if (k === undefined) continue;
        if (!keyed.has(k)) keyed.set(k, it);
        if (k === key) return it;
      }
      return undefined;
    },
  };
}

/** A node of the update: the new value, its correlated old value, and its schema. */
export class Correlated {
  private equal: boolean | undefined;
  private mapList: MapList | undefined;
  private children: Map<string | number, Correlated | null> | undefined;

  constructor(
    readonly value: unknown,
    readonly oldValue: unknown,
    readonly schema: Structural | undefined,
  ) {}

  /** The child under an object field or map key, when both old and new have it and the schema knows it. */
  key(field: string): Correlated | undefined {
    if (!this.schema) return undefined;
    const cached = this.children?.get(field);
    if (cached !== undefined) return cached ?? undefined;
    const res = this.correlateKey(field);
    (this.children ??= new Map()).set(field, res ?? null);
    return res;
  }

  private correlateKey(field: string): Correlated | undefined {
    const nv = this.value;
    const ov = this.oldValue;
    if (!isObject(nv) || !isObject(ov) || !Object.hasOwn(nv, field) || !Object.hasOwn(ov, field)) return undefined;
    const s = this.schema!;
    const prop = s.properties?.get(field) ?? s.additionalProperties?.structural;
    if (!prop) return undefined;
    return new Correlated(nv[field], ov[field], prop);
  }

  /** The child at a list index: only map-list items correlate (by key), others have no old value. */
  index(i: number): Correlated | undefined {
    if (!this.schema) return undefined;
    const cached = this.children?.get(i);
    if (cached !== undefined) return cached ?? undefined;
    const res = this.correlateIndex(i);
    (this.children ??= new Map()).set(i, res ?? null);
    return res;
  }

  private correlateIndex(i: number): Correlated | undefined {
    const nv = this.value;
    if (!Array.isArray(nv) || i >= nv.length || !Array.isArray(this.oldValue)) return undefined;
    if (this.schema!.extensions.listType !== 'map') return undefined;
    this.mapList ??= makeMapList(this.schema, this.oldValue);
    const old = this.mapList.get(nv[i]);
    const items = this.schema!.items;
    if (old === undefined || !items) return undefined;
    return new Correlated(nv[i], old, items);
  }

  /** CachedDeepEqual: whether the new value is the old one, compared through the correlations. */
  deepEqual(): boolean {
    if (this.equal === undefined) this.equal = this.compare();
    return this.equal;
  }

  private compare(): boolean {
    const nv = this.value;
    const ov = this.oldValue;
    if (nv === null && ov === null) return true;
    if (nv === null || ov === null || nv === undefined || ov === undefined) return false;
    if (Array.isArray(nv) !== Array.isArray(ov) || isObject(nv) !== isObject(ov)) return false;
    if (Array.isArray(nv)) {
      const oa = ov as unknown[];
      if (oa.length !== nv.length) return false;
      for (let i = 0; i < nv.length; i++) {
        const c = this.index(i);
        if (!c) {
          // Lists that do not correlate by key compare as a whole.
          if (this.mapList === undefined) return deepEqual(oa, nv);
          return false;
        }
        if (!c.deepEqual()) return false;
      }
      return true;
    }
    if (isObject(nv)) {
      const om = ov as JSONObject;
      const keys = Object.keys(nv);
      if (keys.length !== Object.keys(om).length) return false;
      for (const k of keys) {
        const c = this.key(k);
        if (!c || !c.deepEqual()) return false;
      }
      return true;
    }
    return deepEqual(nv, ov);
  }
}

/**
 * kube's ratchetingOptions: the correlation of the node being validated (undefined where the
 * schema or the data stops correlating) and the nearest correlated ancestor.
 */
export interface Ratchet {
  current?: Correlated | undefined;
  parent?: Correlated | undefined;
}

export const NO_RATCHET: Ratchet = {};

/** Errors of an unchanged node (or of a node inside an unchanged, uncorrelatable parent) are dropped. */
export function shouldRatchet(r: Ratchet): boolean {
  if (r.current) return r.current.deepEqual();
  return r.parent?.deepEqual() ?? false;
}

export function ratchetKey(r: Ratchet, field: string): Ratchet {
  if (!r.current) return r;
  // apiVersion and kind are converted on read: their changes are invisible, so never ratcheted.
  if (!r.parent && (field === 'apiVersion' || field === 'kind')) return NO_RATCHET;
  return { current: r.current.key(field), parent: r.current };
}

export function ratchetIndex(r: Ratchet, i: number): Ratchet {
  if (!r.current) return r;
  return { current: r.current.index(i), parent: r.current };
}

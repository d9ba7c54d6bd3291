// Strategic merge patch metadata derived from a declared Go struct: what strategicpatch reads from the
// Go types' reflection and patch tags. Pointers are looked through (as LookupPatchMetadataForStruct does).
import type { GoField, GoFieldType, GoStruct } from '../api/go-struct.js';
import { TYPE_META_KEYS } from '../api/go-struct.js';
import { anyType, type PatchField, type PatchMetaType } from './strategic-merge-patch.js';

const STRING: PatchMetaType = { kind: 'scalar', name: 'string' };

function elemMeta(t: GoFieldType): PatchMetaType {
  if (typeof t === 'object') return patchMetaOf(t);
  switch (t) {
    case 'json':
    case 'jsonSchemaProps':
      return anyType;
    // metav1.Time and FieldsV1 are structs in Go but strings or raw JSON in JSON: they never recurse.
    case 'time':
      return { kind: 'struct', name: 'Time', fields: {} };
    case 'microTime':
      return { kind: 'struct', name: 'MicroTime', fields: {} };
    case 'fieldsV1':
      return { kind: 'struct', name: 'FieldsV1', fields: {} };
    case 'bytes':
      return { kind: 'slice', elem: { kind: 'scalar', name: 'uint8' } };
    default:
      return { kind: 'scalar', name: t };
  }
}

function fieldMeta(f: GoField): PatchField {
  const elem = elemMeta(f.type);
  const type: PatchMetaType = f.slice ? { kind: 'slice', elem } : f.map ? { kind: 'map', elem } : elem;
  const out: PatchField = { type };
  if (f.patchStrategy) out.patchStrategy = f.patchStrategy;
  if (f.patchMergeKey) out.patchMergeKey = f.patchMergeKey;
  return out;
}

// Declarations are module constants: their metadata is derived once.
const derived = new WeakMap<GoStruct, PatchMetaType>();

/** The patch metadata of a struct (a kind: with TypeMeta's kind and apiVersion). */
export function patchMetaOf(s: GoStruct): PatchMetaType {
  const known = derived.get(s);
  if (known) return known;
  const fields: Record<string, PatchField> = {};
  const out: PatchMetaType = { kind: 'struct', name: s.name, fields };
  derived.set(s, out);
  if (s.typeMeta) for (const k of TYPE_META_KEYS) fields[k] = { type: STRING };
  for (const f of s.fields) fields[f.json] = fieldMeta(f);
  return out;
}

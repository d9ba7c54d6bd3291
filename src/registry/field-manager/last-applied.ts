// Client-side apply's kubectl.kubernetes.io/last-applied-configuration, as server-side apply keeps faith with
// it (lastappliedmanager.go, lastappliedupdater.go): kubectl's server-side applies may take over fields its
// client-side applies set, and an object that carries the annotation has it rewritten on every such apply.
import type { JSONObject } from '../../util/json.js';
import { isObject, deepCopyJSON } from '../../util/json.js';
import { goJsonMarshal } from '../../util/go-json.js';
import { compare } from '../../smd/compare.js';
import type { FieldSet } from '../../smd/set.js';
import { toFieldSet } from '../../smd/to-field-set.js';
import { validate } from '../../smd/validate.js';
import type { VersionConverter } from '../../smd/updater.js';

export const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';
/** ValidateAnnotationsSize's limit: keys and values together. */
const TOTAL_ANNOTATION_SIZE_LIMIT = 256 * 1024;

function annotationsOf(obj: JSONObject): Record<string, unknown> | undefined {
  const meta = obj['metadata'];
  return isObject(meta) && isObject(meta['annotations']) ? meta['annotations'] : undefined;
}

export function hasLastApplied(obj: JSONObject): boolean {
  const v = annotationsOf(obj)?.[LAST_APPLIED];
  return typeof v === 'string' && v.length > 0;
}

/** The applied configuration without the annotation itself, as UnstructuredJSONScheme encodes it. */
export function buildLastApplied(patch: JSONObject): string {
  const copy = deepCopyJSON(patch);
  const annotations = annotationsOf(copy);
  if (annotations) delete annotations[LAST_APPLIED];
  return `${goJsonMarshal(copy)}\n`;
}

/** SetLastApplied: dropped instead when it would take the annotations over their size limit. */
export function setLastApplied(obj: JSONObject, value: string): void {
  const meta = isObject(obj['metadata']) ? obj['metadata'] : (obj['metadata'] = {});
  const annotations = isObject(meta['annotations']) ? meta['annotations'] : (meta['annotations'] = {});
  annotations[LAST_APPLIED] = value;
  let total = 0;
  for (const [k, v] of Object.entries(annotations)) total += Buffer.byteLength(k) + Buffer.byteLength(typeof v === 'string' ? v : '');
  if (total > TOTAL_ANNOTATION_SIZE_LIMIT) delete annotations[LAST_APPLIED];
}

/**
 * The fields kubectl's last client-side apply set that still hold the value it gave them: kubectl may take
 * them over without forcing. Undefined when there is no usable annotation (kube's errors, ignored).
 */
export function allowedConflictsFromLastApplied(live: JSONObject, types: VersionConverter, apiVersion: string): FieldSet | undefined {
  const text = annotationsOf(live)?.[LAST_APPLIED];
  if (typeof text !== 'string' || text === '') return undefined;
  const t = types.schemaFor(apiVersion);
  if (!t) return undefined;
  if (validate(t.schema, t.root, live).length) return undefined;
  let last: unknown;
  try {
    last = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isObject(last) || last['apiVersion'] !== apiVersion) return undefined;
  if (validate(t.schema, t.root, last).length) return undefined;
  const c = compare(t.schema, t.root, last, live);
  return toFieldSet(t.schema, t.root, last).difference(c.modified).difference(c.added).difference(c.removed);
}

// The field set a custom resource offers to field selectors, as the custom resource strategy's
// selectableFields builds it: metadata.name (and metadata.namespace when namespaced), plus each of the
// version's selectableFields, named by its JSON path without the leading dot.
import { compileJsonPath, type JsonPath } from '../util/jsonpath.js';
import { goSprint } from '../util/jsonpath-values.js';
import type { JSONObject } from '../util/json.js';
import type { SelectableField } from './types.js';

interface CompiledField {
  name: string;
  path: JsonPath;
}

/** The label a field selector names a selectable field by (crConverter.ConvertFieldLabel's set). */
export const selectableFieldLabel = (sf: SelectableField): string => sf.jsonPath.replace(/^\./, '');

/**
 * fmt.Sprint of the value found at the path: strings as they are, integers in decimal, booleans as
 * true/false; a missing field or null is the empty string.
 */
function fieldValue(path: JsonPath, obj: JSONObject): string {
  const results = path.findResults(obj);
  const value = results[0]?.[0];
  return value === undefined || value === null ? '' : goSprint(value);
}

/** Builds the object-to-field-set function of one served version. */
export function selectableFieldSet(namespaced: boolean, fields: readonly SelectableField[] = []): (obj: JSONObject) => Record<string, string> {
  const compiled: CompiledField[] = fields.map((sf) => ({
    name: selectableFieldLabel(sf),
    path: compileJsonPath(`{${sf.jsonPath}}`, { allowMissingKeys: true, name: 'selectableField' }),
  }));
  return (obj) => {
    const meta = (obj['metadata'] ?? {}) as JSONObject;
    const set: Record<string, string> = { 'metadata.name': String(meta['name'] ?? '') };
    if (namespaced) set['metadata.namespace'] = String(meta['namespace'] ?? '');
    for (const f of compiled) set[f.name] = fieldValue(f.path, obj);
    return set;
  };
}

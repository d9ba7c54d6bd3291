// Label and field selectors of a list or watch request, as matchers over an object's labels and fields.
import { badRequest } from '../api/status.js';
import { matchesLabels, matchFields, parseFieldSelector, parseLabelSelector, type LabelSelector } from '../registry/selectors.js';

/** A label selector parsed, and its matcher. */
export function labelFilter(selector: string): { labelSelector: LabelSelector; labelMatch: (labels: Record<string, string>) => boolean } {
  const parsed = parseLabelSelector(selector);
  return { labelSelector: parsed, labelMatch: (labels) => matchesLabels(parsed, labels) };
}

/**
 * A field selector over the resource's selectable fields; other fields are refused as kube refuses them: by
 * the kind's field label conversion function, or by runtime.DefaultMetaV1FieldSelectorConversion when it has none.
 */
export function fieldMatcher(selector: string, supported: readonly string[], defaultConversion = false): (fields: Record<string, string>) => boolean {
  const parsed = parseFieldSelector(selector);
  for (const r of parsed.requirements) {
    if (supported.includes(r.field)) continue;
    throw badRequest(defaultConversion ? `"${r.field}" is not a known field selector: only "metadata.name", "metadata.namespace"` : `field label not supported: ${r.field}`);
  }
  return (fields) => matchFields(parsed, fields);
}

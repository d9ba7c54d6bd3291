// Label and field selectors of a list or watch request, as matchers over an object's labels and fields.
import { badRequest } from '../api/status.js';
import { matchesLabels, matchFields, parseFieldSelector, parseLabelSelector } from '../registry/selectors.js';

export function labelMatcher(selector: string): (labels: Record<string, string>) => boolean {
  const parsed = parseLabelSelector(selector);
  return (labels) => matchesLabels(parsed, labels);
}

/** A field selector over the resource's selectable fields; other fields are refused as kube refuses them. */
export function fieldMatcher(selector: string, supported: readonly string[]): (fields: Record<string, string>) => boolean {
  const parsed = parseFieldSelector(selector);
  for (const r of parsed.requirements) {
    if (!supported.includes(r.field)) throw badRequest(`field label not supported: ${r.field}`);
  }
  return (fields) => matchFields(parsed, fields);
}

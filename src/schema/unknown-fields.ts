// How kube-apiserver reports what pruning dropped (fieldValidation Warn/Strict): each unknown
// field path becomes the strict decoding error `unknown field "<path>"`; under Warn every one is a
// warning, under Strict they fail the decode together. Duplicate fields (the body decoder's strict errors)
// are reported the same way.
import { badRequest } from '../api/status.js';

/** The strict decoding error for one pruned field path (fmt `unknown field "%s"`, not %q). */
export const unknownFieldError = (path: string): string => `unknown field "${path}"`;

/** runtime.strictDecodingError's message. */
const strictDecodingError = (errs: readonly string[]): string => `strict decoding error: ${errs.join(', ')}`;

/**
 * transformDecodeError's BadRequest message for a body of a known kind that failed to decode,
 * e.g. `CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.x"`.
 */
export const cannotBeHandledAs = (kind: string, version: string, intoKind: string, err: string): string =>
  `${kind} in version ${JSON.stringify(version)} cannot be handled as a ${intoKind}: ${err}`;

// ------------------------------------------------------------------ reporting

const YAML_PREFIXES = ['yaml: unmarshal errors:\n', 'error converting YAML to JSON: yaml: unmarshal errors:\n'];

/** handlers.addStrictDecodingWarnings: one warning per error, a YAML error split into its lines. */
export function strictDecodingWarnings(errs: readonly string[]): string[] {
  const out: string[] = [];
  for (const e of errs) {
    const prefix = YAML_PREFIXES.find((p) => e.startsWith(p));
    if (prefix === undefined) out.push(e);
    else out.push(...e.slice(prefix.length).split('\n').map((s) => s.trim()));
  }
  return out;
}

/**
 * What the create and update handlers do with a decoder's strict errors: warnings under Warn, the
 * transformDecodeError 400 under Strict, nothing under Ignore (the decoder was not strict).
 */
export function reportStrictDecoding(
  errs: readonly string[],
  fieldValidation: 'Ignore' | 'Warn' | 'Strict',
  warnings: string[],
  kind: string,
  version: string,
): void {
  if (errs.length === 0 || fieldValidation === 'Ignore') return;
  if (fieldValidation === 'Strict') throw badRequest(cannotBeHandledAs(kind, version, kind, strictDecodingError(errs)));
  warnings.push(...strictDecodingWarnings(errs));
}

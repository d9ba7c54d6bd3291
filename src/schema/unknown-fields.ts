// How kube-apiserver reports what pruning dropped (fieldValidation Warn/Strict): each unknown
// field path becomes the strict decoding error `unknown field "<path>"`; under Warn every one is a
// warning, under Strict they fail the decode together.

/** The strict decoding error for one pruned field path (fmt `unknown field "%s"`, not %q). */
export const unknownFieldError = (path: string): string => `unknown field "${path}"`;

/** runtime.strictDecodingError's message. */
export const strictDecodingError = (errs: readonly string[]): string => `strict decoding error: ${errs.join(', ')}`;

/**
 * transformDecodeError's BadRequest message for a body of a known kind that failed to decode,
 * e.g. `CronTab in version "v1" cannot be handled as a CronTab: strict decoding error: unknown field "spec.x"`.
 */
export const cannotBeHandledAs = (kind: string, version: string, intoKind: string, err: string): string =>
  `${kind} in version ${JSON.stringify(version)} cannot be handled as a ${intoKind}: ${err}`;

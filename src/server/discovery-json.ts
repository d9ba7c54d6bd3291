// JSON text the way Go's encoding/json writes it, and kube's hashes over such text. Discovery
// ETags are sha512 over the Go encoding, so the bytes must match Go, not just the value.

import { createHash } from 'node:crypto';
import { stringifyJSON } from '../util/json-int64.js';

/**
 * Compact JSON as Go's json.Marshal writes it for plain values: same as JSON.stringify except that
 * Go escapes <, >, & (HTML safety) and U+2028/U+2029 inside strings. Key order is the caller's.
 */
export function goJSON(value: unknown): string {
  return stringifyJSON(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** fmt.Sprintf("%X", sha512.Sum512(data)): what kube uses for discovery and OpenAPI v3 ETags. */
export function sha512HexUpper(data: string | Uint8Array): string {
  return createHash('sha512').update(data).digest('hex').toUpperCase();
}

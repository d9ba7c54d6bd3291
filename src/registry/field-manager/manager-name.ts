// Who made a write, when the request does not say (handlers' managerOrUserAgent): the User-Agent up to its
// first '/', printable characters only, at most 128 bytes; kubectl sends "kubectl-client-side-apply/v1.32.0 ...".
import { isPrintChar } from '../../util/unicode-print.js';

const FIELD_MANAGER_MAX_LENGTH = 128;

export function prefixFromUserAgent(userAgent: string): string {
  // Every write without a fieldManager asks, clients send one User-Agent over and over: the last one's answer.
  if (userAgent === lastAgent) return lastPrefix;
  const slash = userAgent.indexOf('/');
  const head = slash < 0 ? userAgent : userAgent.slice(0, slash);
  lastPrefix = isPrintableAscii(head) ? head.slice(0, FIELD_MANAGER_MAX_LENGTH) : printablePrefix(head);
  lastAgent = userAgent;
  return lastPrefix;
}

let lastAgent: string | undefined;
let lastPrefix = '';

/** Space to tilde only: each printable (Go's IsPrint) and one byte. */
function isPrintableAscii(s: string): boolean {
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

/** The printable characters of `head`, as many as fit in the limit's bytes of UTF-8. */
export function printablePrefix(head: string): string {
  let out = '';
  let bytes = 0;
  for (const ch of head) {
    if (!isPrintChar(ch)) continue;
    const n = Buffer.byteLength(ch);
    if (bytes + n > FIELD_MANAGER_MAX_LENGTH) break;
    out += ch;
    bytes += n;
  }
  return out;
}

export const managerOrUserAgent = (fieldManager: string | undefined, userAgent: string | undefined): string =>
  fieldManager ? fieldManager : prefixFromUserAgent(userAgent ?? '');

// Who made a write, when the request does not say (handlers' managerOrUserAgent): the User-Agent up to its
// first '/', printable characters only, at most 128 bytes; kubectl sends "kubectl-client-side-apply/v1.32.0 ...".
import { isPrintChar } from '../../util/unicode-print.js';

const FIELD_MANAGER_MAX_LENGTH = 128;

export function prefixFromUserAgent(userAgent: string): string {
  let out = '';
  let bytes = 0;
  for (const ch of userAgent.split('/')[0]!) {
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

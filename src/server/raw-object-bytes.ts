// A RawObject (an object's stored JSON, resourceVersion spliced in) written into a buffer: a cached value's bytes
// copied from its slab (never made a string), other text encoded. The list stream and watch streams write with it.
import type { RawObject } from '../registry/store.js';
import { copyAscii } from '../storage/value-slabs.js';

/** The most bytes writeRawObject writes: exact for bytes; for text, UTF-8's 3 bytes per UTF-16 code unit (no scan). */
export function rawObjectMaxBytes(o: RawObject): number {
  const rv = o.at < 0 ? 0 : o.resourceVersion.length;
  if (o.bytes !== undefined) return o.bytes.length + rv;
  return 3 * ((o.end ?? o.text.length) - (o.start ?? 0) + (o.before?.length ?? 0) + (o.after?.length ?? 0)) + rv;
}

/** The bytes writeRawObject writes, exactly. */
export function rawObjectByteLength(o: RawObject): number {
  const rv = o.at < 0 ? 0 : o.resourceVersion.length;
  if (o.bytes !== undefined) return o.bytes.length + rv;
  const start = o.start ?? 0;
  const end = o.end ?? o.text.length;
  const text = start === 0 && end === o.text.length ? o.text : o.text.slice(start, end);
  return Buffer.byteLength(text) + rv + (o.before ? Buffer.byteLength(o.before) : 0) + (o.after ? Buffer.byteLength(o.after) : 0);
}

/** Writes the object's JSON at `off` (room for rawObjectMaxBytes assumed); returns how many bytes. */
export function writeRawObject(o: RawObject, buf: Buffer, off: number): number {
  const from = off;
  const b = o.bytes;
  if (b !== undefined) {
    // Bytes come without start, end, before or after (RawObject).
    if (o.at < 0) return copyAscii(b, buf, off, 0, b.length);
    off += copyAscii(b, buf, off, 0, o.at);
    // The resourceVersion's digits byte by byte: a native write of so few cost more than the copies.
    const rv = o.resourceVersion;
    for (let k = 0; k < rv.length; k++) buf[off++] = rv.charCodeAt(k);
    off += copyAscii(b, buf, off, o.at, b.length);
    return off - from;
  }
  const start = o.start ?? 0;
  const end = o.end ?? o.text.length;
  if (o.before) off += buf.write(o.before, off);
  if (o.at < 0) off += buf.write(start === 0 && end === o.text.length ? o.text : o.text.slice(start, end), off);
  else {
    off += buf.write(o.text.slice(start, o.at), off);
    off += buf.write(o.resourceVersion, off, 'latin1');
    off += buf.write(o.text.slice(o.at, end), off);
  }
  if (o.after) off += buf.write(o.after, off);
  return off - from;
}

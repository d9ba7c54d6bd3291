// A JSON list response written from its items' JSON texts (the stored bytes, resourceVersion inserted)
// straight into the socket's buffers, in chunks, with backpressure: no parse, no stringify, the body never
// whole in memory, and a client that reads slowly holds the writer back instead of growing the heap.
import type { ServerResponse } from 'node:http';
import type { RawObjects } from '../registry/store.js';
import { copyAscii } from '../storage/value-slabs.js';

/** Bytes gathered per write: few writes for a large list, little memory held per response. */
const CHUNK_BYTES = 1024 * 1024;

/**
 * Writes `head`, the items separated by commas, then `tail`, as a 200 of `contentType`. A body that fits
 * in one chunk goes out with its Content-Length, as a whole-body answer would; a larger one chunked.
 * Resolves once the last byte is handed to the socket, or when the client goes away meanwhile.
 */
export async function writeJsonList(res: ServerResponse, contentType: string, head: string, items: RawObjects, tail: string): Promise<void> {
  // Chunk buffers come back once the socket has taken them: with backpressure, a few serve a whole list.
  const free: Buffer[] = [];
  const take = (need: number): Buffer => (need <= CHUNK_BYTES ? (free.pop() ?? Buffer.allocUnsafe(CHUNK_BYTES)) : Buffer.allocUnsafe(need));
  // A small list gets a buffer of the most it can take (pooled by Buffer below 4 KiB), not a whole chunk.
  const estimate = 3 * (head.length + tail.length + (items.size ?? CHUNK_BYTES)) + 12 * items.length;
  let buf = estimate < CHUNK_BYTES ? Buffer.allocUnsafe(estimate) : take(0);
  let off = 0;
  let started = false;
  /** Sends what is gathered and starts a buffer of at least `need` bytes; false when the client is gone. */
  const flush = async (need: number): Promise<boolean> => {
    if (!started) {
      res.writeHead(200, { 'Content-Type': contentType });
      started = true;
    }
    const sent = buf;
    const more = res.write(sent.subarray(0, off), () => sent.length === CHUNK_BYTES && free.push(sent));
    buf = take(need);
    off = 0;
    return more || drained(res);
  };
  off += buf.write(head, off);
  for (let i = 0; i < items.length; i++) {
    const o = items.item(i);
    const b = o.bytes;
    if (b !== undefined && o.at >= 0) {
      // ASCII bytes held in a buffer (the watch cache's): copied, never made a string.
      const most = b.length + o.resourceVersion.length + 1;
      if (buf.length - off < most && !(await flush(most))) return;
      if (i > 0) buf[off++] = 0x2c; // ,
      off += copyAscii(b, buf, off, 0, o.at);
      // The resourceVersion's digits byte by byte: a native write for a few bytes cost more than the copies.
      const rv = o.resourceVersion;
      for (let k = 0; k < rv.length; k++) buf[off++] = rv.charCodeAt(k);
      off += copyAscii(b, buf, off, o.at, b.length);
      continue;
    }
    const start = o.start ?? 0;
    const end = o.end ?? o.text.length;
    // UTF-8 takes at most 3 bytes per UTF-16 code unit; the resourceVersion is digits; one comma.
    const most = 3 * (end - start + (o.before?.length ?? 0) + (o.after?.length ?? 0)) + o.resourceVersion.length + 1;
    if (buf.length - off < most && !(await flush(most))) return;
    if (i > 0) buf[off++] = 0x2c; // ,
    if (o.before) off += buf.write(o.before, off);
    if (o.at < 0) off += buf.write(start === 0 && end === o.text.length ? o.text : o.text.slice(start, end), off);
    else {
      off += buf.write(o.text.slice(start, o.at), off);
      off += buf.write(o.resourceVersion, off, 'latin1');
      off += buf.write(o.text.slice(o.at, end), off);
    }
    if (o.after) off += buf.write(o.after, off);
  }
  const most = 3 * tail.length;
  if (buf.length - off < most && !(await flush(most))) return;
  off += buf.write(tail, off);
  if (!started) {
    res.writeHead(200, { 'Content-Type': contentType, 'Content-Length': off });
  }
  res.end(buf.subarray(0, off));
}

/** Resolves true when the response can take more, false when its connection closes first. */
function drained(res: ServerResponse): Promise<boolean> {
  if (res.destroyed) return Promise.resolve(false);
  return new Promise((resolve) => {
    const done = (ok: boolean): void => {
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = (): void => done(true);
    const onClose = (): void => done(false);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}

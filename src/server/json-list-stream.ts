// A JSON list response written from its items' JSON texts (the stored bytes, resourceVersion inserted)
// straight into the socket's buffers, in chunks, with backpressure: no parse, no stringify, the body never
// whole in memory, and a client that reads slowly holds the writer back instead of growing the heap.
import type { ServerResponse } from 'node:http';
import type { RawObjects } from '../registry/store.js';
import { rawObjectMaxBytes, writeRawObject } from './raw-object-bytes.js';

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
    // Its bytes and one comma.
    const most = rawObjectMaxBytes(o) + 1;
    if (buf.length - off < most && !(await flush(most))) return;
    if (i > 0) buf[off++] = 0x2c; // ,
    off += writeRawObject(o, buf, off);
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

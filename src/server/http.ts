// Small HTTP helpers: bodies in, objects and Status errors out.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { goYaml } from '../util/go-yaml-encode.js';
import { type Status, StatusError, internal, requestEntityTooLarge } from '../api/status.js';
import { negotiateErrorFormat, type Negotiated, type OutputFormat } from './negotiation.js';
import { encodeProtobufObject, PROTOBUF_CONTENT_TYPE } from './protobuf.js';
import { stringifyJSON } from '../util/json-int64.js';
import { noteRequestBody, noteResponseObject } from '../audit/record.js';

/** kube-apiserver's default maximum request body (3 MiB). */
export const MAX_BODY_BYTES = 3 * 1024 * 1024;

export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  // A body of a declared length within the limit (the parser never delivers more than it declares): read
  // with plain listeners, without an async iterator's promise per chunk.
  const declared = Number(req.headers['content-length']);
  if (req.headers['content-length'] !== undefined && declared <= limit && !req.readableDidRead) {
    const body = await readDeclared(req);
    noteRequestBody(req, body);
    return body;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    // apierrors.NewRequestEntityTooLargeError("limit is N") puts its prefix before the text.
    if (size > limit) throw requestEntityTooLarge(`Request entity too large: limit is ${limit}`);
    chunks.push(chunk);
  }
  const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
  noteRequestBody(req, body);
  return body;
}

function readDeclared(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const onData = (c: Buffer): void => void chunks.push(c);
    const done = (err?: Error): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', done);
      req.off('close', onClose);
      if (err) reject(err);
      else resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks));
    };
    const onEnd = (): void => done();
    // Closed before its end (the client went away): fail as the async iterator does.
    const onClose = (): void => done(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    req.on('data', onData);
    req.once('end', onEnd);
    req.once('error', done);
    req.once('close', onClose);
  });
}

/** JSON, or YAML as kube writes it (sigs.k8s.io/yaml over goyaml.v2). */
export function serialize(obj: unknown, format: 'json' | 'yaml'): string {
  return format === 'yaml' ? goYaml(obj) : stringifyJSON(obj) + '\n';
}

/** JSON, YAML, or kube's protobuf envelope (for the kinds that have a protobuf form; negotiation sees to that). */
export function encodeAs(obj: unknown, format: OutputFormat): string | Buffer {
  return format === 'protobuf' ? encodeProtobufObject(obj as Record<string, unknown>) : serialize(obj, format);
}

export function writeObject(res: ServerResponse, code: number, obj: unknown, neg: Pick<Negotiated, 'format' | 'contentType'>): void {
  noteResponseObject(res, obj);
  const body = encodeAs(obj, neg.format);
  res.writeHead(code, { 'Content-Type': neg.contentType, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

export function writeRaw(res: ServerResponse, code: number, contentType: string, body: string | Buffer, headers?: Record<string, string>): void {
  const length = Buffer.byteLength(body);
  res.writeHead(code, headers ? { ...headers, 'Content-Type': contentType, 'Content-Length': length } : { 'Content-Type': contentType, 'Content-Length': length });
  res.end(body);
}

function toStatus(err: unknown): Status {
  if (err instanceof StatusError) return err.status;
  const message = err instanceof Error ? err.message : String(err);
  return internal(message).status;
}

/**
 * Writes an error as a Status in the format the client accepts (responsewriters.ErrorNegotiated): JSON,
 * YAML or protobuf by the Accept header, and Go's indented JSON when nothing it accepts is served (the error's own code
 * is kept, not hidden behind a 406).
 */
export function writeError(res: ServerResponse, err: unknown, accept?: string): void {
  const status = toStatus(err);
  if (status.code >= 500 && !(err instanceof StatusError)) console.error('internal error:', err);
  if (res.headersSent) {
    res.end();
    return;
  }
  const headers: Record<string, string> = {};
  if (status.details?.retryAfterSeconds) headers['Retry-After'] = String(status.details.retryAfterSeconds);
  // A body refused as too large was not read to its end, so the connection cannot carry another request:
  // as Go's server does then, say so and close it after the answer.
  if (status.code === 413) headers['Connection'] = 'close';
  noteResponseObject(res, status);
  const format = negotiateErrorFormat(accept);
  if (format === undefined) writeRaw(res, status.code, 'application/json', JSON.stringify(status, null, 2), headers);
  else {
    const contentType = format === 'yaml' ? 'application/yaml' : format === 'protobuf' ? PROTOBUF_CONTENT_TYPE : 'application/json';
    writeRaw(res, status.code, contentType, encodeAs(status, format), headers);
  }
}

/** The plain 404 of Go's http.NotFound, which kube-apiserver answers for paths nothing serves. */
export function writeNotFoundPage(res: ServerResponse): void {
  writeRaw(res, 404, 'text/plain; charset=utf-8', '404 page not found\n', { 'X-Content-Type-Options': 'nosniff' });
}

/** A `Warning: 299 - "text"` header; repeated texts are sent once, as kube's warning recorder does. */
export function addWarning(res: ServerResponse, text: string): void {
  const v = `299 - ${JSON.stringify(text)}`;
  const prev = res.getHeader('Warning');
  const list = prev === undefined ? [] : Array.isArray(prev) ? prev : [String(prev)];
  if (!list.includes(v)) res.setHeader('Warning', [...list, v]);
}

// gRPC to etcd over node:http2: the store's unary calls (Range, Txn, Compact) and its Watch stream.
//
// Why not @grpc/grpc-js (with etcd3's stubs, which the store used before): a unary call there passes a retry
// policy, a circuit breaker, interceptors, resolving, load-balancing and filter layers before its HTTP/2
// stream: about 200 µs of CPU per call on this project's bench machine against about 80 µs for the HTTP/2
// stream alone (README, "etcd: our own gRPC client"). Every create, update and delete on etcd is one such
// call, so is the revision check of a consistent read from the watch cache, and every watch event came
// through grpc-js's stream and protobufjs's decoding. The messages are etcd-kv-codec.ts's.
//
// One HTTP/2 connection at a time, to one of the endpoints; calls and the watch stream share it. When it
// fails, the next call connects to the next endpoint. A call that never reached a connection (refused,
// closed before it was sent, or refused by an etcd going away) is tried on the other endpoints; so is a read
// whose connection broke, since reading again changes nothing. A write whose connection broke fails: it may
// have been applied.
import http2, { type ClientHttp2Session, type ClientHttp2Stream, type IncomingHttpHeaders } from 'node:http2';
import { connect as netConnect, isIP, type Socket } from 'node:net';
import { connect as tlsConnect } from 'node:tls';

export interface GrpcTls {
  ca?: Buffer;
  cert?: Buffer;
  key?: Buffer;
}

/** An etcd answer other than OK (its gRPC status code and message), or a broken connection. The store prefixes "etcd: ". */
export class GrpcError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/** gRPC's status codes the client produces itself. */
const DEADLINE_EXCEEDED = 4;
const UNAVAILABLE = 14;
const INTERNAL = 13;

/** Flow-control windows large enough that a page of large objects is not sent in 64 KiB steps. */
const WINDOW = 16 * 1024 * 1024;

export interface CallOptions {
  /** Whether sending it again after a broken connection is harmless (reads). */
  idempotent?: boolean;
  /** Absolute time (Date.now()) by which etcd must have answered. */
  deadline?: number;
}

export class EtcdGrpc {
  private session: ClientHttp2Session | undefined;
  private at: number;
  private closed = false;
  /** Calls in flight per session: the session holds the process open while there are any. */
  private readonly active = new WeakMap<ClientHttp2Session, number>();
  /** Sessions that reached etcd: a call on one that never did cannot have been sent. */
  private readonly connected = new WeakSet<ClientHttp2Session>();

  private readonly endpoints: string[];

  constructor(
    endpoints: string[],
    private readonly tls: GrpcTls | undefined,
  ) {
    if (endpoints.length === 0) throw new Error('no etcd endpoints');
    // As etcd3 took them: a bare HOST:PORT is plain HTTP.
    this.endpoints = endpoints.map((u) => (/^[a-z][a-z0-9+.-]*:\/\//i.test(u) ? u : `http://${u}`));
    // As etcd's clients, start anywhere: replicas spread over the members.
    this.at = Math.floor(Math.random() * endpoints.length);
  }

  /** Call path (`/etcdserverpb.KV/Range`) with a framed request; resolves the response message's bytes. */
  async call(path: string, frame: Buffer, opts: CallOptions = {}): Promise<Buffer> {
    let lastError: GrpcError | undefined;
    for (let attempt = 0; attempt < this.endpoints.length; attempt++) {
      if (this.closed) throw new GrpcError(UNAVAILABLE, 'the client is closed');
      const session = this.connection();
      try {
        return await this.unary(session, path, frame, opts.deadline);
      } catch (err) {
        if (!(err instanceof BrokenCall)) throw err;
        // A stream reset alone leaves the connection to the calls still on it, and one closing after etcd's
        // GOAWAY finishes the calls etcd still answers (that handler moved on already); a broken one is let go of.
        if (session.destroyed) this.drop(session);
        lastError = err;
        if (!err.unsent && !opts.idempotent) throw err;
      }
    }
    throw lastError!;
  }

  /**
   * Open a bidirectional stream (etcd's Watch) on the current connection. `onEnd` is called once, when
   * the stream ends for any reason other than `close()`: with the error, or undefined for an OK status.
   */
  stream(path: string, onMessage: (msg: Buffer) => void, onEnd: (err: GrpcError | undefined) => void): GrpcStream {
    if (this.closed) throw new GrpcError(UNAVAILABLE, 'the client is closed');
    const session = this.connection();
    let closing = false;
    const stream = this.open(session, path, undefined, onMessage, (err) => {
      if (!closing) onEnd(err);
    });
    return {
      write: (frame) => {
        if (stream !== undefined && !stream.destroyed && !stream.writableEnded) stream.write(frame);
      },
      close: () => {
        closing = true;
        if (stream !== undefined && !stream.destroyed) stream.close(http2.constants.NGHTTP2_CANCEL);
      },
    };
  }

  close(): void {
    this.closed = true;
    this.session?.close();
    this.session = undefined;
  }

  private connection(): ClientHttp2Session {
    const current = this.session;
    if (current !== undefined && !current.closed && !current.destroyed) return current;
    const url = this.endpoints[this.at]!;
    const session = http2.connect(url, {
      createConnection: () => this.socketTo(url),
      settings: { initialWindowSize: WINDOW },
      // Room for a large list page in flight on the connection (node's default is 10 MiB).
      maxSessionMemory: 256,
    });
    session.on('connect', () => {
      this.connected.add(session);
      session.setLocalWindowSize(WINDOW);
    });
    // An error ends the session; the calls on it see their streams fail.
    session.on('error', () => this.drop(session));
    session.on('close', () => this.drop(session));
    // etcd going away: no new calls there, while the ones it still answers finish.
    session.on('goaway', () => {
      if (this.session !== session) return;
      this.session = undefined;
      this.at = (this.at + 1) % this.endpoints.length;
      session.close();
    });
    // An idle connection must not keep the process alive; calls in flight do (see `open`).
    session.unref();
    this.session = session;
    return session;
  }

  /**
   * The connection's socket, opened here rather than by http2.connect so that it sends small writes at once:
   * with Nagle's algorithm a request waits while an earlier one is unacknowledged, as grpc-go and grpc-js avoid too.
   */
  private socketTo(url: string): Socket {
    const u = new URL(url);
    const host = u.hostname.startsWith('[') ? u.hostname.slice(1, -1) : u.hostname;
    const secure = u.protocol === 'https:';
    const port = Number(u.port || (secure ? 443 : 80));
    const socket = secure
      ? tlsConnect({ host, port, ALPNProtocols: ['h2'], ...(isIP(host) === 0 && { servername: host }), ...this.tls })
      : netConnect({ host, port });
    socket.setNoDelay(true);
    return socket;
  }

  /** Forget a failed session and move on to the next endpoint. */
  private drop(session: ClientHttp2Session): void {
    if (!session.destroyed) session.destroy();
    if (this.session !== session) return;
    this.session = undefined;
    this.at = (this.at + 1) % this.endpoints.length;
  }

  private unary(session: ClientHttp2Session, path: string, frame: Buffer, deadline: number | undefined): Promise<Buffer> {
    return new Promise<Buffer>((resolve, reject) => {
      let answer: Buffer | undefined;
      let timer: NodeJS.Timeout | undefined;
      let timedOut = false;
      const stream = this.open(
        session,
        path,
        deadline,
        (msg) => (answer ??= msg),
        (err) => {
          clearTimeout(timer);
          if (timedOut) reject(new GrpcError(DEADLINE_EXCEEDED, 'deadline exceeded'));
          else if (err) reject(err);
          else if (answer === undefined) reject(new GrpcError(INTERNAL, 'an OK answer without a message'));
          else resolve(answer);
        },
      );
      if (stream === undefined) return;
      if (deadline !== undefined) {
        timer = setTimeout(() => {
          timedOut = true;
          stream.close(http2.constants.NGHTTP2_CANCEL);
        }, Math.max(1, deadline - Date.now()));
      }
      stream.end(frame);
    });
  }

  /**
   * One gRPC call's HTTP/2 stream: its messages as they arrive (gRPC's 5-byte framing taken apart), then its
   * status, once. A stream cut without a status (the connection went) ends with a BrokenCall. While it is
   * open, the connection holds the process open.
   */
  private open(
    session: ClientHttp2Session,
    path: string,
    deadline: number | undefined,
    onMessage: (msg: Buffer) => void,
    onEnd: (err: GrpcError | undefined) => void,
  ): ClientHttp2Stream | undefined {
    const headers: http2.OutgoingHttpHeaders = {
      ':method': 'POST',
      ':path': path,
      'content-type': 'application/grpc',
      te: 'trailers',
    };
    if (deadline !== undefined) headers['grpc-timeout'] = `${Math.max(1, deadline - Date.now())}m`;
    const calls = this.active.get(session) ?? 0;
    if (calls === 0) session.ref();
    this.active.set(session, calls + 1);
    let done = false;
    let stream: ClientHttp2Stream | undefined;
    const finish = (err: GrpcError | undefined): void => {
      if (done) return;
      done = true;
      const left = (this.active.get(session) ?? 1) - 1;
      this.active.set(session, left);
      if (left === 0 && !session.destroyed) session.unref();
      // A stream etcd ended while this side was still open (a watch): close ours, or the stream and the
      // connection's graceful close would wait for it forever.
      if (stream !== undefined && !stream.closed && !stream.writableEnded) stream.close();
      onEnd(err);
    };
    // REFUSED_STREAM: etcd (going away) did not take the stream, so it was never processed.
    const unsent = (): boolean => !this.connected.has(session) || stream?.rstCode === http2.constants.NGHTTP2_REFUSED_STREAM;
    try {
      stream = session.request(headers);
    } catch (err) {
      // The session is already closing or destroyed: nothing was sent. Reported asynchronously, as any end.
      const broken = new BrokenCall(`connection: ${message(err)}`, true);
      queueMicrotask(() => finish(broken));
      return undefined;
    }
    let status: string | undefined;
    let statusMessage = '';
    const noteStatus = (h: IncomingHttpHeaders): void => {
      const s = h['grpc-status'];
      if (typeof s === 'string') {
        status = s;
        statusMessage = decodeMessage(h['grpc-message']);
      }
    };
    let pending: Buffer | undefined;
    stream.on('response', (h) => {
      const httpStatus = h[':status'];
      if (httpStatus !== 200) {
        finish(new GrpcError(UNAVAILABLE, `answered HTTP ${String(httpStatus)}`));
        stream!.close(http2.constants.NGHTTP2_CANCEL);
        return;
      }
      noteStatus(h); // a trailers-only answer carries its status here
    });
    stream.on('trailers', noteStatus);
    stream.on('data', (chunk: Buffer) => {
      let buf = pending === undefined ? chunk : Buffer.concat([pending, chunk]);
      while (buf.length >= 5) {
        if (buf[0] !== 0) {
          finish(new GrpcError(INTERNAL, 'a compressed or malformed message'));
          stream!.close(http2.constants.NGHTTP2_CANCEL);
          return;
        }
        const len = buf.readUInt32BE(1);
        if (buf.length < 5 + len) break;
        const msg = buf.subarray(5, 5 + len);
        buf = buf.subarray(5 + len);
        if (!done) onMessage(msg);
      }
      pending = buf.length > 0 ? buf : undefined;
    });
    stream.on('end', () => {
      // No status: the stream was cut (the connection went), not answered.
      if (status === undefined) finish(new BrokenCall('connection: the answer ended without a gRPC status', unsent()));
      else if (status !== '0') finish(new GrpcError(Number(status), statusMessage || `gRPC status ${status}`));
      else if (pending !== undefined) finish(new GrpcError(INTERNAL, 'the answer ended inside a message'));
      else finish(undefined);
    });
    stream.on('error', (err) => finish(new BrokenCall(`connection: ${message(err)}`, unsent())));
    // After an answer too (done by then: no error built, which would cost a stack trace per call).
    stream.on('close', () => {
      if (!done) finish(new BrokenCall(`connection: the call was closed (HTTP/2 code ${stream!.rstCode ?? 0})`, unsent()));
    });
    return stream;
  }
}

/** A bidirectional call's open stream. */
export interface GrpcStream {
  write(frame: Buffer): void;
  /** End the call from this side (its onEnd is not called). */
  close(): void;
}

/** A call whose connection failed; `unsent` when the request cannot have reached etcd. */
class BrokenCall extends GrpcError {
  constructor(
    message: string,
    readonly unsent: boolean,
  ) {
    super(UNAVAILABLE, message);
  }
}

/** grpc-message is percent-encoded. */
function decodeMessage(v: string | string[] | undefined): string {
  const s = Array.isArray(v) ? v.join(',') : (v ?? '');
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

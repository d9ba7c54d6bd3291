// etcd's KV and Watch messages (etcdserverpb, rpc.proto and mvccpb kv.proto) for the calls the store makes:
// Range, Txn of put, range and delete, Compaction, and the Watch stream's requests and responses. Written by hand over the wire format because these few
// messages are the store's every read and write: revisions decode straight to numbers (etcd's int64
// revisions stay far below 2^53) and keys and values stay Buffers over the received bytes. Each request
// is encoded behind gRPC's 5-byte message prefix, so it goes out as one write.

/** A key-value as etcd returns it (mvccpb.KeyValue); the fields the store reads. */
export interface EtcdKv {
  key: Buffer;
  value: Buffer;
  create_revision: number;
  mod_revision: number;
  /** Writes since the key's creation (the compactor's compare). */
  version: number;
}

export interface RangeRequest {
  key: Buffer;
  range_end?: Buffer;
  limit?: number;
  revision?: number;
  count_only?: boolean;
}

export interface RangeResponse {
  revision: number;
  kvs: EtcdKv[];
  more: boolean;
  count: number;
}

/** A Txn comparison of a key's create revision, mod revision or version. */
export interface Compare {
  key: Buffer;
  target: 'version' | 'create' | 'mod';
  result: 'equal' | 'greater';
  revision: number;
}

export type RequestOp =
  | { range: RangeRequest }
  | { put: { key: Buffer; value: Buffer; prev_kv?: boolean } }
  | { delete: { key: Buffer; prev_kv?: boolean } };

export interface TxnRequest {
  compare: Compare[];
  success: RequestOp[];
  failure: RequestOp[];
}

export interface ResponseOp {
  range?: RangeResponse;
  put?: { prev_kv?: EtcdKv };
  delete?: { deleted: number; prev_kvs: EtcdKv[] };
}

export interface TxnResponse {
  revision: number;
  succeeded: boolean;
  responses: ResponseOp[];
}

// Compare.CompareResult and Compare.CompareTarget (rpc.proto).
const RESULT = { equal: 0, greater: 1 } as const;
const TARGET = { version: 0, create: 1, mod: 2 } as const;
/** Each target's field in Compare's target_union. */
const TARGET_FIELD = { version: 4, create: 5, mod: 6 } as const;

const VARINT = 0;
const BYTES = 2;

/** Appends protobuf fields to a growing buffer that starts with room for gRPC's message prefix. */
class Writer {
  buf = Buffer.allocUnsafe(256);
  pos = 5;

  private room(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.pos + n + 64));
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
  }

  varint(n: number): void {
    this.room(10);
    while (n > 0x7f) {
      this.buf[this.pos++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.buf[this.pos++] = n;
  }

  tag(field: number, wire: number): void {
    this.varint(field * 8 + wire);
  }

  /** A varint field, left out at its default (proto3). */
  uint(field: number, n: number | undefined): void {
    if (n === undefined || n === 0) return;
    this.tag(field, VARINT);
    this.varint(n);
  }

  /** A varint field of a oneof: present even at 0, as Go's clients send it. */
  present(field: number, n: number): void {
    this.tag(field, VARINT);
    this.varint(n);
  }

  bool(field: number, b: boolean | undefined): void {
    if (b) this.uint(field, 1);
  }

  bytes(field: number, b: Buffer | undefined): void {
    if (b === undefined || b.length === 0) return;
    this.tag(field, BYTES);
    this.varint(b.length);
    this.room(b.length);
    b.copy(this.buf, this.pos);
    this.pos += b.length;
  }

  /** A nested message: written in place, its length prefix moved in front once known. */
  message(field: number, write: (w: Writer) => void): void {
    this.tag(field, BYTES);
    // Reserve the longest length prefix a message here can need (4 bytes: < 256 MiB), then close the gap.
    this.room(4);
    const at = this.pos;
    this.pos += 4;
    write(this);
    const len = this.pos - at - 4;
    if (len >= 2 ** 28) throw new RangeError(`etcd request: a field of ${len} bytes is larger than etcd accepts`);
    const prefix = varintBytes(len);
    if (prefix.length < 4) {
      this.buf.copy(this.buf, at + prefix.length, at + 4, this.pos);
      this.pos -= 4 - prefix.length;
    }
    prefix.copy(this.buf, at);
  }

  /** The gRPC frame: uncompressed flag, big-endian length, then the message. */
  frame(): Buffer {
    this.buf[0] = 0;
    this.buf.writeUInt32BE(this.pos - 5, 1);
    return this.buf.subarray(0, this.pos);
  }
}

function varintBytes(n: number): Buffer {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return Buffer.from(out);
}

function writeRange(w: Writer, r: RangeRequest): void {
  w.bytes(1, r.key);
  w.bytes(2, r.range_end);
  w.uint(3, r.limit);
  w.uint(4, r.revision);
  w.bool(9, r.count_only);
}

/** A RangeRequest in its gRPC frame. */
export function encodeRange(r: RangeRequest): Buffer {
  const w = new Writer();
  writeRange(w, r);
  return w.frame();
}

function writeOp(w: Writer, op: RequestOp): void {
  if ('range' in op) w.message(1, (m) => writeRange(m, op.range));
  else if ('put' in op) {
    w.message(2, (m) => {
      m.bytes(1, op.put.key);
      m.bytes(2, op.put.value);
      m.bool(4, op.put.prev_kv);
    });
  } else {
    w.message(3, (m) => {
      m.bytes(1, op.delete.key);
      m.bool(3, op.delete.prev_kv);
    });
  }
}

/** A TxnRequest in its gRPC frame. */
export function encodeTxn(t: TxnRequest): Buffer {
  const w = new Writer();
  for (const c of t.compare) {
    w.message(1, (m) => {
      m.uint(1, RESULT[c.result]);
      m.uint(2, TARGET[c.target]);
      m.bytes(3, c.key);
      m.present(TARGET_FIELD[c.target], c.revision);
    });
  }
  for (const op of t.success) w.message(2, (m) => writeOp(m, op));
  for (const op of t.failure) w.message(3, (m) => writeOp(m, op));
  return w.frame();
}

/** A PutRequest in its gRPC frame (the bench's raw puts; the store writes in transactions). */
export function encodePut(key: Buffer, value: Buffer): Buffer {
  const w = new Writer();
  w.bytes(1, key);
  w.bytes(2, value);
  return w.frame();
}

/** A CompactionRequest in its gRPC frame. */
export function encodeCompaction(revision: number): Buffer {
  const w = new Writer();
  w.uint(1, revision);
  return w.frame();
}

/** A read position in a received message, [pos, end). */
class Reader {
  constructor(
    readonly buf: Buffer,
    public pos: number,
    readonly end: number,
  ) {}

  varint(): number {
    let n = 0;
    let scale = 1;
    for (;;) {
      if (this.pos >= this.end) throw new Error('etcd response: truncated varint');
      const b = this.buf[this.pos++]!;
      n += (b & 0x7f) * scale;
      if (b < 0x80) return n;
      scale *= 0x80;
      if (scale > 2 ** 63) throw new Error('etcd response: varint too long');
    }
  }

  /** The next length-delimited field's span as a reader, moving past it. */
  sub(): Reader {
    const len = this.varint();
    const start = this.pos;
    if (start + len > this.end) throw new Error('etcd response: truncated field');
    this.pos = start + len;
    return new Reader(this.buf, start, start + len);
  }

  bytes(): Buffer {
    const r = this.sub();
    return this.buf.subarray(r.pos, r.end);
  }

  /** Each field of the message in turn: `read` takes the ones it knows (returns true); the others are passed over. */
  fields(read: (tag: number) => boolean): void {
    while (this.pos < this.end) {
      const tag = this.varint();
      if (!read(tag)) this.passOver(tag & 7);
    }
  }

  private passOver(wire: number): void {
    if (wire === VARINT) this.varint();
    else if (wire === BYTES) this.sub();
    else if (wire === 1) this.pos += 8;
    else if (wire === 5) this.pos += 4;
    else throw new Error(`etcd response: unexpected wire type ${wire}`);
  }
}

/** A field's tag: its number and wire type, as the wire has them. */
const tagOf = (field: number, wire: number): number => (field << 3) + wire;

/** ResponseHeader.revision (field 3). */
function readHeaderRevision(r: Reader): number {
  let revision = 0;
  r.fields((tag) => tag === tagOf(3, VARINT) && ((revision = r.varint()), true));
  return revision;
}

const EMPTY = Buffer.alloc(0);

const emptyKv = (): EtcdKv => ({ key: EMPTY, value: EMPTY, create_revision: 0, mod_revision: 0, version: 0 });

function readKv(r: Reader): EtcdKv {
  const kv = emptyKv();
  r.fields((tag) => {
    switch (tag) {
      case tagOf(1, BYTES):
        kv.key = r.bytes();
        return true;
      case tagOf(2, VARINT):
        kv.create_revision = r.varint();
        return true;
      case tagOf(3, VARINT):
        kv.mod_revision = r.varint();
        return true;
      case tagOf(4, VARINT):
        kv.version = r.varint();
        return true;
      case tagOf(5, BYTES):
        kv.value = r.bytes();
        return true;
    }
    return false;
  });
  return kv;
}

function readRange(r: Reader): RangeResponse {
  const res: RangeResponse = { revision: 0, kvs: [], more: false, count: 0 };
  r.fields((tag) => {
    switch (tag) {
      case tagOf(1, BYTES):
        res.revision = readHeaderRevision(r.sub());
        return true;
      case tagOf(2, BYTES):
        res.kvs.push(readKv(r.sub()));
        return true;
      case tagOf(3, VARINT):
        res.more = r.varint() !== 0;
        return true;
      case tagOf(4, VARINT):
        res.count = r.varint();
        return true;
    }
    return false;
  });
  return res;
}

const readerOf = (msg: Buffer): Reader => new Reader(msg, 0, msg.length);

/** A RangeResponse message (without gRPC's prefix). */
export function decodeRange(msg: Buffer): RangeResponse {
  return readRange(readerOf(msg));
}

function readPut(r: Reader): { prev_kv?: EtcdKv } {
  const res: { prev_kv?: EtcdKv } = {};
  r.fields((tag) => tag === tagOf(2, BYTES) && ((res.prev_kv = readKv(r.sub())), true));
  return res;
}

function readDelete(r: Reader): { deleted: number; prev_kvs: EtcdKv[] } {
  const res = { deleted: 0, prev_kvs: [] as EtcdKv[] };
  r.fields((tag) => {
    if (tag === tagOf(2, VARINT)) res.deleted = r.varint();
    else if (tag === tagOf(3, BYTES)) res.prev_kvs.push(readKv(r.sub()));
    else return false;
    return true;
  });
  return res;
}

function readResponseOp(r: Reader): ResponseOp {
  const op: ResponseOp = {};
  r.fields((tag) => {
    if (tag === tagOf(1, BYTES)) op.range = readRange(r.sub());
    else if (tag === tagOf(2, BYTES)) op.put = readPut(r.sub());
    else if (tag === tagOf(3, BYTES)) op.delete = readDelete(r.sub());
    else return false;
    return true;
  });
  return op;
}

/** A TxnResponse message (without gRPC's prefix). */
export function decodeTxn(msg: Buffer): TxnResponse {
  const r = readerOf(msg);
  const res: TxnResponse = { revision: 0, succeeded: false, responses: [] };
  r.fields((tag) => {
    if (tag === tagOf(1, BYTES)) res.revision = readHeaderRevision(r.sub());
    else if (tag === tagOf(2, VARINT)) res.succeeded = r.varint() !== 0;
    else if (tag === tagOf(3, BYTES)) res.responses.push(readResponseOp(r.sub()));
    else return false;
    return true;
  });
  return res;
}

/** A CompactionResponse's header revision. */
export function decodeCompaction(msg: Buffer): number {
  const r = readerOf(msg);
  let revision = 0;
  r.fields((tag) => tag === tagOf(1, BYTES) && ((revision = readHeaderRevision(r.sub())), true));
  return revision;
}

/** A WatchCreateRequest (with previous values, from a revision, under a client-chosen id) in its frame. */
export function encodeWatchCreate(req: { key: Buffer; range_end: Buffer; start_revision: number; watch_id: number }): Buffer {
  const w = new Writer();
  w.message(1, (m) => {
    m.bytes(1, req.key);
    m.bytes(2, req.range_end);
    m.uint(3, req.start_revision);
    m.bool(6, true); // prev_kv
    m.uint(7, req.watch_id);
  });
  return w.frame();
}

/** A WatchCancelRequest in its frame. */
export function encodeWatchCancel(watchId: number): Buffer {
  const w = new Writer();
  w.message(2, (m) => m.uint(1, watchId));
  return w.frame();
}

export interface WatchEvent {
  type: 'put' | 'delete';
  kv: EtcdKv;
  prev_kv?: EtcdKv;
}

export interface WatchResponse {
  /** The watch's id; a refused create's is -1, which reads here as a number no watch has. */
  watch_id: number;
  created: boolean;
  canceled: boolean;
  compact_revision: number;
  cancel_reason: string;
  events: WatchEvent[];
}

function readEvent(r: Reader): WatchEvent {
  const e: WatchEvent = { type: 'put', kv: emptyKv() };
  r.fields((tag) => {
    if (tag === tagOf(1, VARINT)) e.type = r.varint() === 1 ? 'delete' : 'put';
    else if (tag === tagOf(2, BYTES)) e.kv = readKv(r.sub());
    else if (tag === tagOf(3, BYTES)) e.prev_kv = readKv(r.sub());
    else return false;
    return true;
  });
  return e;
}

/** A WatchResponse message (without gRPC's prefix). */
export function decodeWatchResponse(msg: Buffer): WatchResponse {
  const r = readerOf(msg);
  const res: WatchResponse = { watch_id: 0, created: false, canceled: false, compact_revision: 0, cancel_reason: '', events: [] };
  r.fields((tag) => {
    switch (tag) {
      case tagOf(2, VARINT):
        res.watch_id = r.varint();
        return true;
      case tagOf(3, VARINT):
        res.created = r.varint() !== 0;
        return true;
      case tagOf(4, VARINT):
        res.canceled = r.varint() !== 0;
        return true;
      case tagOf(5, VARINT):
        res.compact_revision = r.varint();
        return true;
      case tagOf(6, BYTES):
        res.cancel_reason = r.bytes().toString('utf8');
        return true;
      case tagOf(11, BYTES):
        res.events.push(readEvent(r.sub()));
        return true;
    }
    return false;
  });
  return res;
}

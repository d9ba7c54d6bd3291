// A watch stream's output gathered into buffers and handed to the response once per turn of the event loop
// (or per full chunk) rather than once per event: a replay of history delivers a thousand events in a turn,
// and each write of its own was a chunk of the HTTP body, with its header, its callback and its share of a
// writev. Stored bytes (RawObject) are encoded straight into the buffer, which also gives each event's size.
import type { RawObject } from '../registry/store.js';
import { rawObjectByteLength, writeRawObject } from './raw-object-bytes.js';

/** The line's start, before the object (types are ASCII). */
const lineHead = (type: string): string => `{"type":"${type}","object":`;

/** Bytes of `{"type":TYPE,"object":OBJECT}\n` for the object's stored bytes. */
const lineLength = (type: string, o: RawObject): number => lineHead(type).length + rawObjectByteLength(o) + 2;

/** Writes the line of lineLength(type, o) bytes at `off`. */
function writeLine(type: string, o: RawObject, buf: Buffer, off: number): void {
  off += buf.write(lineHead(type), off, 'latin1');
  off += writeRawObject(o, buf, off);
  buf[off++] = 0x7d; // }
  buf[off] = 0x0a; // \n
}

/** Large events' lines by their RawObject (one per event, shared by its watchers) and type. */
const sharedLines = new WeakMap<RawObject, { type: string; line: Buffer }>();

/**
 * A large event's line, made once for all its watchers: each watcher's response is handed the same buffer,
 * where a string per watcher was made whole and then encoded by each one's write (for a CRD of 100 KB, twice
 * its size per watcher and event). The buffer lives until the last watcher's socket has taken it.
 */
function sharedLine(type: string, o: RawObject): Buffer {
  const known = sharedLines.get(o);
  if (known !== undefined && known.type === type) return known.line;
  const line = Buffer.allocUnsafe(lineLength(type, o));
  writeLine(type, o, line, 0);
  sharedLines.set(o, { type, line });
  return line;
}

/** The most gathered before a write: a few writes per thousand events of a KB. */
const CHUNK_BYTES = 256 * 1024;
const EMPTY = Buffer.alloc(0);
/**
 * Events of more UTF-16 code units go out on their own (direct). Below it, each watcher's copy of an event is a
 * few KB: 10,000 watchers of one event hold tens of MB until the next tick writes them.
 */
const INLINE_MAX = 8 * 1024;

export class WatchLines {
  private buf = EMPTY;
  private start = 0;
  private off = 0;
  /** Bytes of the last buffer taken in this turn: the next is twice as large, up to CHUNK_BYTES. */
  private last = 0;
  /** Live events among what is gathered (the stream tracks what a client has not taken of those). */
  private liveEvents = 0;
  private scheduled = false;

  /** `ship` writes a chunk out; liveEvents is how many live events it holds. */
  constructor(private readonly ship: (chunk: Buffer | string, liveEvents: number) => void) {}

  /** Adds one event line; returns its size in bytes. */
  text(line: string, live: boolean): number {
    if (line.length > INLINE_MAX) return this.direct(line, live);
    const n = Buffer.byteLength(line);
    this.reserve(n);
    this.buf.write(line, this.off);
    return this.added(n, live);
  }

  /**
   * Adds `{"type":TYPE,"object":OBJECT}\n` with the object's JSON from its stored bytes (the whole of o.text,
   * as watch events have it); returns its size.
   */
  raw(type: string, o: RawObject, live: boolean): number {
    if ((o.bytes?.length ?? o.text.length) > INLINE_MAX) {
      // One line for every watcher of the event (the store hands them all the same RawObject), sent as it is.
      const line = sharedLine(type, o);
      this.flush();
      this.ship(line, live ? 1 : 0);
      return line.length;
    }
    const n = lineLength(type, o);
    this.reserve(n);
    writeLine(type, o, this.buf, this.off);
    return this.added(n, live);
  }

  /**
   * A large event goes out as its own string, after what is gathered: the stream's writer encodes it when it
   * writes, one watcher after another, where a copy in each watcher's buffer would hold one per watcher at once
   * (an event of a MB to thousands of watchers), and the per-write cost is small beside its size.
   */
  private direct(line: string, live: boolean): number {
    this.flush();
    this.ship(line, live ? 1 : 0);
    return Buffer.byteLength(line);
  }

  /** Adds an encoded frame (protobuf); returns its size. */
  bytes(frame: Buffer, live: boolean): number {
    if (frame.length > INLINE_MAX) {
      this.flush();
      this.ship(frame, live ? 1 : 0);
      return frame.length;
    }
    this.reserve(frame.length);
    frame.copy(this.buf, this.off);
    return this.added(frame.length, live);
  }

  /** Writes out what is gathered. */
  flush(): void {
    if (this.off === this.start) return;
    const chunk = this.buf.subarray(this.start, this.off);
    const live = this.liveEvents;
    this.start = this.off;
    this.liveEvents = 0;
    this.ship(chunk, live);
  }

  private added(n: number, live: boolean): number {
    this.off += n;
    if (live) this.liveEvents++;
    if (!this.scheduled) {
      this.scheduled = true;
      // A tick, not a microtask: a write's event goes out before the write's own response (its promise's
      // continuations are microtasks, which run after the ticks queued meanwhile), as when written at once.
      process.nextTick(this.endOfTurn);
    }
    return n;
  }

  /** Room for `most` more bytes: what is gathered goes out first when they would not fit. */
  private reserve(most: number): void {
    if (this.buf.length - this.off >= most) return;
    this.flush();
    const size = Math.max(most, Math.min(CHUNK_BYTES, 2 * this.last));
    this.buf = Buffer.allocUnsafe(size);
    this.last = size;
    this.start = this.off = 0;
  }

  private readonly endOfTurn = (): void => {
    this.scheduled = false;
    this.flush();
    // An idle watcher holds no buffer, and the next turn's first one is sized to its first event.
    this.buf = EMPTY;
    this.start = this.off = this.last = 0;
  };
}

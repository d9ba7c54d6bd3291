// Durability without blocking the event loop: SQLite commits with synchronous=NORMAL (frames written to the
// WAL, no sync), and the store acknowledges those writes only after an fdatasync(2) of the WAL file, run on
// libuv's thread pool. Commits made meanwhile are covered by the next sync, and a new sync starts without
// waiting for the one in flight (up to a few at once; the filesystem's journal commits concurrent syncs
// together), so a burst of writes costs about one disk round trip while requests keep being served.
// A sync covers every frame written before it started, and SQLite's WAL frames are checksummed in
// sequence, so after a crash the database holds exactly a prefix of the commits: every acknowledged one.
// fdatasync, as SQLite itself syncs on Linux: the file's data and size, not its timestamps.
import { close, fdatasync, openSync } from 'node:fs';

type Done = (err: Error | undefined) => void;
type SyncFn = (fd: number, cb: (err: NodeJS.ErrnoException | null) => void) => void;

/** One sync in flight and the commits waiting on it, in commit order. */
interface Sync {
  callbacks: Done[];
  done: boolean;
}

const MAX_IN_FLIGHT = 4;

export class WalFsync {
  private fd: number | undefined;
  private waiting: Done[] = [];
  /** Started syncs not yet answered for, oldest first. */
  private syncs: Sync[] = [];
  private idle: (() => void)[] = [];

  constructor(
    private readonly walPath: string,
    /** fs.fdatasync; tests hold or fail it. */
    private readonly syncFile: SyncFn = fdatasync,
    private readonly maxInFlight = MAX_IN_FLIGHT,
  ) {}

  /** Calls done once a sync started after this call has finished (with its error, if it failed); in call order. */
  request(done: Done): void {
    this.waiting.push(done);
    if (this.inFlight < this.maxInFlight) this.start();
  }

  /** Resolves when no sync is in flight or waiting; then closes the file. */
  async close(): Promise<void> {
    if (this.syncs.length > 0 || this.waiting.length > 0) await new Promise<void>((r) => this.idle.push(r));
    if (this.fd !== undefined) close(this.fd, () => {});
    this.fd = undefined;
  }

  private get inFlight(): number {
    return this.syncs.filter((s) => !s.done).length;
  }

  private start(): void {
    const sync: Sync = { callbacks: this.waiting, done: false };
    this.waiting = [];
    try {
      // Opened at the first commit: SQLite creates the WAL with it, and keeps the same file (truncating it
      // after checkpoints) for as long as the database is open.
      this.fd ??= openSync(this.walPath, 'r+');
    } catch (err) {
      for (const done of sync.callbacks) done(err as Error);
      return;
    }
    this.syncs.push(sync);
    this.syncFile(this.fd, (err) => this.finished(sync, err ?? undefined));
  }

  /**
   * A sync that finishes vouches for every commit before it started, including those whose own, earlier
   * sync is still running: they are answered now, in order.
   */
  private finished(sync: Sync, err: Error | undefined): void {
    sync.done = true;
    const i = this.syncs.indexOf(sync);
    for (const s of this.syncs.splice(0, i + 1)) for (const done of s.callbacks) done(err);
    if (this.waiting.length > 0 && this.inFlight < this.maxInFlight) this.start();
    if (this.syncs.length === 0 && this.waiting.length === 0) for (const r of this.idle.splice(0)) r();
  }
}

// Durability without blocking the event loop: SQLite commits with synchronous=NORMAL (frames written to the
// WAL, no fsync), and the store acknowledges those writes only after an fsync(2) of the WAL file, run on
// libuv's thread pool. Commits made while one fsync is in flight share the next one, so a burst of writes
// costs about one fsync per disk round trip while requests keep being served. An fsync covers every frame
// written before it started, and SQLite's WAL frames are checksummed in sequence, so after a crash the
// database holds exactly a prefix of the commits: every acknowledged one.
import { close, fsync, openSync } from 'node:fs';

type Done = (err: Error | undefined) => void;
type FsyncFn = (fd: number, cb: (err: NodeJS.ErrnoException | null) => void) => void;

export class WalFsync {
  private fd: number | undefined;
  private inFlight = false;
  private waiting: Done[] = [];
  private idle: (() => void)[] = [];

  constructor(
    private readonly walPath: string,
    /** fs.fsync; tests hold or fail it. */
    private readonly fsyncFile: FsyncFn = fsync,
  ) {}

  /** Calls done once an fsync started after this call has finished (with its error, if it failed). */
  request(done: Done): void {
    this.waiting.push(done);
    if (!this.inFlight) this.start();
  }

  /** Resolves when no fsync is in flight or waiting; then closes the file. */
  async close(): Promise<void> {
    if (this.inFlight) await new Promise<void>((r) => this.idle.push(r));
    if (this.fd !== undefined) close(this.fd, () => {});
    this.fd = undefined;
  }

  private start(): void {
    const batch = this.waiting;
    this.waiting = [];
    try {
      // Opened at the first commit: SQLite creates the WAL with it, and keeps the same file (truncating it
      // after checkpoints) for as long as the database is open.
      this.fd ??= openSync(this.walPath, 'r+');
    } catch (err) {
      for (const done of batch) done(err as Error);
      return;
    }
    this.inFlight = true;
    this.fsyncFile(this.fd, (err) => {
      this.inFlight = false;
      for (const done of batch) done(err ?? undefined);
      if (this.waiting.length > 0) this.start();
      else for (const r of this.idle.splice(0)) r();
    });
  }
}

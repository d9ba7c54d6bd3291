// Decides how far automatic compaction may go. Like kube-apiserver's compactor it samples the
// revision on every tick and compacts to the revision seen `retainMs` ago, so history always
// covers at least the retention window.

interface CompactionPolicyOptions {
  /** Keep at least this much history by time. */
  retainMs: number;
  /** Also keep at most this many revisions of history; 0 means no limit. */
  maxRevisions: number;
}

interface Sample {
  at: number;
  revision: number;
}

export class CompactionPolicy {
  private samples: Sample[] = [];

  constructor(private readonly opts: CompactionPolicyOptions) {}

  /** Record the current revision at time `now` and return the revision to compact to (0 for none). */
  tick(now: number, current: number, compacted: number): number {
    this.samples.push({ at: now, revision: current });
    let target = 0;
    // The newest sample at least retainMs old tells the revision the window starts after; older
    // samples are no longer needed.
    let keepFrom = 0;
    for (let i = 0; i < this.samples.length; i++) {
      if (now - this.samples[i]!.at >= this.opts.retainMs) {
        target = this.samples[i]!.revision;
        keepFrom = i;
      }
    }
    this.samples = this.samples.slice(keepFrom);
    if (this.opts.maxRevisions > 0) target = Math.max(target, current - this.opts.maxRevisions);
    // Never compact the newest revision: a client that just listed must be able to watch from it
    // even when nothing has been written for a while.
    target = Math.min(target, current - 1);
    return target > compacted ? target : 0;
  }
}

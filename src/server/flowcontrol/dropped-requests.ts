// The Retry-After a rejected request is told (kube's droppedRequestsTracker): 1 s, doubled (up to 32 s)
// while a priority level keeps rejecting at least 3 requests per second of the current value over that
// window, and brought down by one each second in which fewer than that value were dropped.
const MAX_RETRY_AFTER = 32;

interface Stats {
  history: { unix: number; count: number }[];
  currentUnix: number;
  currentCount: number;
  retryAfter: number;
  retryAfterUpdateUnix: number;
}

export class DroppedRequests {
  private readonly byLevel = new Map<string, Stats>();

  constructor(private readonly nowUnix: () => number = () => Math.floor(Date.now() / 1000)) {}

  record(level: string): void {
    const now = this.nowUnix();
    let s = this.byLevel.get(level);
    if (!s) this.byLevel.set(level, (s = { history: [], currentUnix: 0, currentCount: 0, retryAfter: 1, retryAfterUpdateUnix: 0 }));
    if (s.currentUnix === now) {
      s.currentCount++;
      return;
    }
    s.history.push({ unix: s.currentUnix, count: s.currentCount });
    const keep = Math.min(2 * s.retryAfter, MAX_RETRY_AFTER);
    while (s.history.length && s.currentUnix - s.history[0]!.unix > keep) s.history.shift();
    s.currentUnix = now;
    s.currentCount = 1;
    updateRetryAfter(s, now);
  }

  retryAfter(level: string): number {
    return this.byLevel.get(level)?.retryAfter ?? 1;
  }
}

function updateRetryAfter(s: Stats, now: number): void {
  let dropped = 0;
  for (let i = s.history.length - 1; i >= 0; i--) {
    const h = s.history[i]!;
    if (now - h.unix > s.retryAfter) break;
    if (h.unix < now) dropped += h.count;
  }
  if (now - s.retryAfterUpdateUnix >= s.retryAfter && dropped >= 3 * s.retryAfter) {
    s.retryAfter = Math.min(s.retryAfter * 2, MAX_RETRY_AFTER);
    s.retryAfterUpdateUnix = now;
  } else if (dropped < s.retryAfter && s.retryAfter > 1) {
    s.retryAfter--;
  }
}

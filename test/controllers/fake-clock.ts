// A manual clock for the controller tests: timers fire only when the test advances time.
import type { Clock, TimerHandle } from '../../src/controllers/clock.js';

interface Timer {
  at: number;
  seq: number;
  fn: () => void;
}

export class FakeClock implements Clock {
  private seq = 0;
  private timers = new Map<number, Timer>();

  /** Starts at `time` (ms since the epoch), so condition times written from it are fixed. */
  constructor(private time = 0) {}

  now(): number {
    return this.time;
  }

  setTimeout(fn: () => void, ms: number): TimerHandle {
    const id = ++this.seq;
    this.timers.set(id, { at: this.time + Math.max(0, ms), seq: id, fn });
    return { id };
  }

  clearTimeout(handle: TimerHandle): void {
    this.timers.delete(handle.id as number);
  }

  /** Delays of the timers not yet fired, from now, in firing order. */
  pending(): number[] {
    return this.ordered().map((t) => t.at - this.time);
  }

  /** Moves time forward by ms, firing due timers in order (and timers they set that fall due too). */
  advance(ms: number): void {
    const end = this.time + ms;
    for (;;) {
      const next = this.ordered()[0];
      if (!next || next.at > end) break;
      this.timers.delete(next.seq);
      this.time = next.at;
      next.fn();
    }
    this.time = end;
  }

  private ordered(): Timer[] {
    return [...this.timers.values()].sort((a, b) => a.at - b.at || a.seq - b.seq);
  }
}

/** Lets pending promise callbacks (and I/O already done) run. */
export const flush = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

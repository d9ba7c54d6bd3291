// How far V8 lets its old generation grow past what the last full collection left live. By default V8 picks the
// factor from the collector's speed against the program's allocation, up to 4× on a machine with memory to spare: a
// server holding a million cached objects (~250 MB live) then peaked some 150 MB above what it needed (issue 19's
// 2 GiB). kube-apiserver runs on Go's collector at GOGC=100, whose heap grows to twice what is live;
// `limitHeapGrowth` sets V8's factor the same through its --heap-growing-percent flag, which V8 reads each time it
// sets the next collection's limit.
//
// The flag is the process's, so only who runs the process sets it (`crd-apiserver serve`, not the test kit in a
// user's test process), and only once the command line's code cache is made: V8's flags are part of a code cache's
// check, and the next start, which takes that cache, has V8's default flags. (Node 20's V8 hashes its flags once
// per process, so a cache made after the change would still pass; the order keeps it so on any V8.)
import { setFlagsFromString } from 'node:v8';

/** The growth kube-apiserver's collector allows (GOGC=100): to twice the live heap. */
export const HEAP_GROWING_PERCENT = 100;

/** V8's flag, as given on the command line (`--heap-growing-percent=N`, or with underscores). */
const FLAG = /^--heap[-_]growing[-_]percent(=|$)/;

/** Refuses a percent V8's flag cannot take: a positive integer. */
export function checkHeapGrowingPercent(percent: number): void {
  if (!Number.isInteger(percent) || percent <= 0 || percent > 2 ** 31 - 1) throw new RangeError(`heap growing percent ${percent}: a positive integer`);
}

/**
 * Sets V8's heap growing factor to 1 + percent/100 from the next full collection on, unless the process was
 * started with a factor of its own (`node --heap-growing-percent=N`, 0 for V8's own choice). Whether it set it.
 */
export function limitHeapGrowth(percent: number = HEAP_GROWING_PERCENT, execArgv: readonly string[] = process.execArgv): boolean {
  checkHeapGrowingPercent(percent);
  if (execArgv.some((a) => FLAG.test(a))) return false;
  setFlagsFromString(`--heap-growing-percent=${percent}`);
  return true;
}

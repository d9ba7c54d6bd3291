// How many connections each listener keeps open at once. kube-apiserver has no such flag: Go's server
// accepts until the process runs out of file descriptors, and leaves the bound to the OS. Node behaves
// the same by default, but here one process also holds the storage, so a flood of idle or hostile
// connections that used up the descriptors would also fail SQLite's and the webhooks' opens. With
// net.Server#maxConnections, a connection past the cap is closed as soon as it is accepted, before any
// TLS handshake or HTTP parsing, and the ones already open are untouched.
import { readFileSync } from 'node:fs';

/** The default cap when the descriptor limit allows it: well above what clients open in practice. */
export const DEFAULT_MAX_CONNECTIONS = 10_000;

/** Descriptors kept out of the listeners' share: the database and its journal, webhook and conversion clients, logs. */
const RESERVED_FDS = 256;

/**
 * The default per-listener cap: DEFAULT_MAX_CONNECTIONS, or less when the process's open-file limit
 * shared among the listeners (after the reserve) is smaller, so that the cap is reached before the limit.
 */
export function defaultMaxConnections(openFileLimit: number | undefined, listeners: number): number {
  if (openFileLimit === undefined || !Number.isFinite(openFileLimit)) return DEFAULT_MAX_CONNECTIONS;
  const share = Math.floor((openFileLimit - RESERVED_FDS) / Math.max(1, listeners));
  return Math.max(1, Math.min(DEFAULT_MAX_CONNECTIONS, share));
}

/** The soft RLIMIT_NOFILE from /proc/self/limits (Linux; Node raises it to the hard limit at start-up), else undefined. */
export function openFileLimit(read: () => string = () => readFileSync('/proc/self/limits', 'utf8')): number | undefined {
  try {
    const line = read()
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
    if (soft === undefined || soft === 'unlimited') return undefined;
    const n = Number(soft);
    return Number.isSafeInteger(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

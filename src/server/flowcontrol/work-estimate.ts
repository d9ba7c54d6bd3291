// kube's WorkEstimator (k8s.io/apiserver pkg/util/flowcontrol/request): how many seats a request takes while
// it executes, and for writes how many more it holds, and for how long after it finishes, for the watchers it
// will send events to. Lists are charged for the objects they read; everything else takes one seat.
import type { RequestInfo } from '../request-info.js';

export interface WorkEstimate {
  /** Seats held while the request executes. */
  initialSeats: number;
  /** Seats held for additionalLatencyMs once it has finished (the watch events it caused). */
  finalSeats: number;
  additionalLatencyMs: number;
}

/** kube's DefaultWorkEstimatorConfig. */
export const MINIMUM_SEATS = 1;
export const MAXIMUM_LIST_SEATS = 10;
export const MAXIMUM_MUTATING_SEATS = 10;
export const OBJECTS_PER_SEAT = 100;
export const WATCHES_PER_SEAT = 10;
/** eventAdditionalDuration: what one watcher's event costs, as a seat for this long per WATCHES_PER_SEAT. */
export const EVENT_ADDITIONAL_DURATION_MS = 5;

const MUTATING_VERBS = new Set(['create', 'update', 'patch', 'delete']);

export const minimalEstimate = (): WorkEstimate => ({ initialSeats: MINIMUM_SEATS, finalSeats: 0, additionalLatencyMs: 0 });

/** Seat-seconds as kube keeps them: integers of 1e-8 seat-seconds (SeatsTimesDuration's rounding). */
const seatSeconds = (seats: number, ms: number): number => Math.round((seats * ms * 1e6) / 10);

/**
 * The mutating work estimator: a write whose resource has at least WATCHES_PER_SEAT watchers interested is
 * charged ceil(watchers / 10) final seats for 5 ms; past the level's (and kube's) seat cap the same seat-time is
 * reshaped narrower and longer.
 */
export function mutatingEstimate(info: Pick<RequestInfo, 'resource' | 'subresource'>, watchCount: number, levelMaxSeats: number): WorkEstimate {
  let maxSeats = levelMaxSeats;
  if (maxSeats === 0 || maxSeats > MAXIMUM_MUTATING_SEATS) maxSeats = MAXIMUM_MUTATING_SEATS;
  // Issuing a ServiceAccount token writes nothing that is watched.
  if (info.resource === 'serviceaccounts' && info.subresource === 'token') return minimalEstimate();
  if (watchCount < WATCHES_PER_SEAT) return { initialSeats: 1, finalSeats: 0, additionalLatencyMs: 0 };
  let finalSeats = Math.ceil(watchCount / WATCHES_PER_SEAT);
  const finalWork = seatSeconds(finalSeats, EVENT_ADDITIONAL_DURATION_MS);
  if (finalSeats > maxSeats) finalSeats = maxSeats;
  // DurationPerSeat, truncated to whole nanoseconds as a time.Duration is.
  const latencyNs = Math.trunc((finalWork / finalSeats) * 10);
  return { initialSeats: 1, finalSeats, additionalLatencyMs: latencyNs / 1e6 };
}

/** The list estimator's seats for `count` objects (unknown: the minimum), within the level's and kube's cap. */
export function listEstimate(count: number | undefined, levelMaxSeats: number): WorkEstimate {
  if (count === undefined) return minimalEstimate();
  const max = Math.min(levelMaxSeats, MAXIMUM_LIST_SEATS);
  return { initialSeats: Math.max(MINIMUM_SEATS, Math.min(max, Math.ceil(count / OBJECTS_PER_SEAT))), finalSeats: 0, additionalLatencyMs: 0 };
}

export const isMutating = (verb: string): boolean => MUTATING_VERBS.has(verb);

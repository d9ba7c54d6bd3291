// Calendar and duration accessors: getFullYear(), getMonth(), ... on timestamps (in UTC, or in
// the zone named by the optional argument) and getHours() ... on durations (whole units).

import { civilTime, timezoneOffset } from './time.js';
import type { CivilTime } from './time.js';
import { maybeNoSuchOverload } from './value-ops.js';
import { CelError, Duration, Timestamp } from './values.js';
import type { Val } from './values.js';

type Field = (c: CivilTime) => number;

/** The cel-go accessors, 0-based where the spec says so (month, day of year, day of month). */
export const TIMESTAMP_FIELDS = {
  getFullYear: (c: CivilTime) => c.year,
  getMonth: (c: CivilTime) => c.month - 1,
  getDayOfYear: (c: CivilTime) => c.yearDay - 1,
  getDayOfMonth: (c: CivilTime) => c.day - 1,
  getDate: (c: CivilTime) => c.day,
  getDayOfWeek: (c: CivilTime) => c.weekday,
  getHours: (c: CivilTime) => c.hour,
  getMinutes: (c: CivilTime) => c.minute,
  getSeconds: (c: CivilTime) => c.second,
  getMilliseconds: (c: CivilTime) => Math.floor(c.nanos / 1_000_000),
} satisfies Record<string, Field>;

/** `ts.getX()`: Kubernetes sets DefaultUTCTimeZone, so the zone is always UTC. */
export function timestampField(field: Field): (args: Val[]) => Val {
  return (args) => {
    const ts = args[0]!;
    if (!(ts instanceof Timestamp)) return maybeNoSuchOverload(ts);
    return BigInt(field(civilTime(ts.nanos, 0)));
  };
}

/** `ts.getX(tz)`: tz is an IANA zone name or a fixed `±hh:mm` offset. */
export function timestampFieldInZone(field: Field): (args: Val[]) => Val {
  return (args) => {
    const ts = args[0]!;
    const tz = args[1]!;
    if (!(ts instanceof Timestamp)) return maybeNoSuchOverload(ts);
    if (typeof tz !== 'string') return maybeNoSuchOverload(tz);
    const off = timezoneOffset(tz, ts.nanos);
    if (off instanceof CelError) return off;
    return BigInt(field(civilTime(ts.nanos, off)));
  };
}

const HOUR = 3_600_000_000_000n;
const MINUTE = 60_000_000_000n;
const SECOND = 1_000_000_000n;
const MILLISECOND = 1_000_000n;

/** Duration accessors truncate toward zero (int64(d.Hours()) and friends). */
export function durationField(unit: bigint): (args: Val[]) => Val {
  return (args) => {
    const d = args[0]!;
    return d instanceof Duration ? d.nanos / unit : maybeNoSuchOverload(d);
  };
}

export const DURATION_UNITS = { getHours: HOUR, getMinutes: MINUTE, getSeconds: SECOND, getMilliseconds: MILLISECOND };

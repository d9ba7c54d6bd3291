// kube's /debug/api_priority_and_fairness/ dumps (apf_controller_debug.go): one row per priority level, per
// queue, or per request, cells joined by ",\t" and aligned by Go's tabwriter.
import { goDurationString } from '../../util/go-duration.js';
import { tabwriter } from '../../util/go-tabwriter.js';
import type { PriorityLevelState } from './dispatcher.js';
import type { RequestDump } from './queue-set.js';

export const DEBUG_PREFIX = '/debug/api_priority_and_fairness/';

const row = (cells: readonly (string | number | boolean)[]): string => cells.map(String).join(',\t');

const byName = (levels: ReadonlyMap<string, PriorityLevelState>): PriorityLevelState[] =>
  [...levels.values()].sort((a, b) => (a.config.metadata.name < b.config.metadata.name ? -1 : a.config.metadata.name > b.config.metadata.name ? 1 : 0));

/** SeatSeconds.String: whole seat-seconds, then eight decimals, then "ss". */
export function seatSecondsString(ss: number): string {
  const units = BigInt(Math.round(ss * 1e8));
  const quo = units / 100_000_000n;
  const rem = units - quo * 100_000_000n;
  const neg = rem < 0n;
  return `${quo}.${neg ? '-' : ''}${(neg ? -rem : rem).toString().padStart(neg ? 7 : 8, '0')}ss`;
}

/** time.Time's RFC3339Nano in UTC (trailing zeros of the fraction dropped); the zero time when unset. */
export function rfc3339Nano(d: Date | undefined): string {
  if (!d) return '0001-01-01T00:00:00Z';
  return d.toISOString().replace(/\.(\d*?)0*Z$/, (_m, f: string) => (f ? `.${f}Z` : 'Z'));
}

export function dumpPriorityLevels(levels: ReadonlyMap<string, PriorityLevelState>): string {
  let text = row(['PriorityLevelName', 'ActiveQueues', 'IsIdle', 'IsQuiescing', 'WaitingRequests', 'ExecutingRequests', 'DispatchedRequests', 'RejectedRequests', 'TimedoutRequests', 'CancelledRequests']) + '\n';
  for (const pl of byName(levels)) {
    const d = pl.queues.dump();
    const active = d.queues.filter((q) => q.waiting.length > 0).length;
    text += row([pl.config.metadata.name, active, d.idle, pl.quiescing, d.waiting, d.executing, d.dispatched, d.rejected, d.timedout, d.cancelled]) + '\n';
  }
  return tabwriter(text);
}

export function dumpQueues(levels: ReadonlyMap<string, PriorityLevelState>): string {
  let text = row(['PriorityLevelName', 'Index', 'PendingRequests', 'ExecutingRequests', 'SeatsInUse', 'NextDispatchR', 'InitialSeatsSum', 'MaxSeatsSum', 'TotalWorkSum']) + '\n';
  for (const pl of byName(levels)) {
    for (const [i, q] of pl.queues.dump().queues.entries()) {
      text += row([pl.config.metadata.name, i, q.waiting.length, q.executingCount, q.seatsInUse, seatSecondsString(q.nextDispatchR), q.initialSeatsSum, q.maxSeatsSum, seatSecondsString(q.totalWorkSum)]) + '\n';
    }
  }
  return tabwriter(text);
}

export function dumpRequests(levels: ReadonlyMap<string, PriorityLevelState>, includeRequestDetails: boolean): string {
  let text = row(['PriorityLevelName', 'FlowSchemaName', 'QueueIndex', 'RequestIndexInQueue', 'FlowDistingsher', 'ArriveTime', 'InitialSeats', 'FinalSeats', 'AdditionalLatency', 'StartTime']);
  if (includeRequestDetails) text += ',\t' + row(['UserName', 'Verb', 'APIPath', 'Namespace', 'Name', 'APIVersion', 'Resource', 'SubResource']);
  text += '\n';
  for (const pl of byName(levels)) {
    const d = pl.queues.dump();
    const line = (iq: number, ir: number, r: RequestDump): void => {
      const e = r.estimate;
      text += row([
        pl.config.metadata.name,
        r.descr?.flowSchema ?? '',
        iq,
        ir,
        r.descr?.flowDistinguisher ?? '',
        rfc3339Nano(r.arrival),
        e.initialSeats,
        e.finalSeats,
        goDurationString(BigInt(Math.round(e.additionalLatencyMs * 1e6))),
        rfc3339Nano(r.start),
      ]);
      if (includeRequestDetails) {
        const i = r.descr?.info;
        const gv = i ? (i.apiGroup ? `${i.apiGroup}/${i.apiVersion}` : i.apiVersion) : '';
        text += ',\t' + row([r.descr?.userName ?? '', i?.verb ?? '', i?.path ?? '', i?.namespace ?? '', i?.name ?? '', gv, i?.resource ?? '', i?.subresource ?? '']);
      }
      text += '\n';
    };
    for (const [iq, q] of d.queues.entries()) {
      q.waiting.forEach((r, ir) => line(iq, ir, r));
      for (const r of q.executing) line(iq, -1, r);
    }
    for (const r of d.queuelessExecuting) line(-1, -1, r);
  }
  return tabwriter(text);
}

/** The dump a debug path asks for, or undefined when the path is not one of them. */
export function flowControlDebugPage(levels: ReadonlyMap<string, PriorityLevelState>, path: string, query: URLSearchParams): string | undefined {
  switch (path) {
    case `${DEBUG_PREFIX}dump_priority_levels`:
      return dumpPriorityLevels(levels);
    case `${DEBUG_PREFIX}dump_queues`:
      return dumpQueues(levels);
    case `${DEBUG_PREFIX}dump_requests`:
      return dumpRequests(levels, (query.get('includeRequestDetails') ?? '').length > 0);
    default:
      return undefined;
  }
}

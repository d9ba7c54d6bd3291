// plugin/pkg/audit/truncate (--audit-*-truncate-enabled): an event over maxEventSize bytes loses its request and
// response objects (marked with the audit.k8s.io/truncated annotation), and is dropped with a log line if it is
// still too large; batches over maxBatchSize bytes are split before they reach the delegate.
import { consoleErrorLog, pluginErrorMessage, type AuditBackend, type AuditEvent, type ErrorLog } from './backend.js';

export interface TruncateConfig {
  /** --audit-*-truncate-max-event-size (bytes; kube's default 100 KiB). */
  maxEventSize: number;
  /** --audit-*-truncate-max-batch-size (bytes; kube's default 10 MiB). */
  maxBatchSize: number;
}

export const TRUNCATE_DEFAULTS: TruncateConfig = { maxEventSize: 100 * 1024, maxBatchSize: 10 * 1024 * 1024 };

// Sized as serialized, as kube's sizer encodes each event; its encoder adds a newline.
const sizeOf = (ev: AuditEvent): number => Buffer.byteLength(JSON.stringify(ev)) + 1;

const carriesObjects = (ev: AuditEvent): boolean => ev.level === 'Request' || ev.level === 'RequestResponse';

export function truncateBackend(delegate: AuditBackend, config: TruncateConfig, log: ErrorLog = consoleErrorLog): AuditBackend {
  return {
    name: `truncate<${delegate.name}>`,
    processEvents(events) {
      const results: (boolean | Promise<boolean>)[] = [];
      const impacted: AuditEvent[] = [];
      let batch: AuditEvent[] = [];
      let batchSize = 0;
      for (let ev of events) {
        let size = sizeOf(ev);
        if (size > config.maxEventSize && carriesObjects(ev)) {
          const { requestObject: _req, responseObject: _res, ...rest } = ev;
          ev = { ...rest, annotations: { ...(ev.annotations as Record<string, string> | undefined), 'audit.k8s.io/truncated': 'true' } };
          size = sizeOf(ev);
        }
        if (size > config.maxEventSize) {
          impacted.push(ev);
          continue;
        }
        if (batch.length && batchSize + size > config.maxBatchSize) {
          results.push(delegate.processEvents(batch));
          batch = [];
          batchSize = 0;
        }
        batchSize += size;
        batch.push(ev);
      }
      if (batch.length) results.push(delegate.processEvents(batch));
      if (impacted.length) log(pluginErrorMessage('truncate', aggregate(impacted.map(() => 'event is too large even after truncating')), impacted));
      if (results.every((r) => typeof r === 'boolean')) return results.every(Boolean);
      return Promise.all(results).then((rs) => rs.every(Boolean));
    },
    shutdown: () => delegate.shutdown(),
  };
}

/** utilerrors.NewAggregate's message: one error as itself, several in brackets. */
const aggregate = (errs: string[]): string => (errs.length === 1 ? errs[0]! : `[${errs.join(', ')}]`);

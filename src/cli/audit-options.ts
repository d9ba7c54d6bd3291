// kube's AuditOptions (k8s.io/apiserver/pkg/server/options/audit.go): the policy file, and the backends the
// flags turn on, each wrapped as kube wraps it: truncate (if enabled) → buffered (batch) / ignore-errors
// (blocking) / nothing (blocking-strict) → the log file or the webhook.
import { readFileSync } from 'node:fs';
import { ignoreErrorsBackend, unionBackend, type AuditBackend } from '../audit/backend.js';
import { bufferedBackend, LOG_BATCH_DEFAULTS, WEBHOOK_BATCH_DEFAULTS, type BatchConfig } from '../audit/buffered.js';
import { logBackend, openLogWriter, type LogWriter } from '../audit/log-writer.js';
import { parsePolicy, type Policy } from '../audit/policy.js';
import { truncateBackend, TRUNCATE_DEFAULTS } from '../audit/truncate.js';
import { webhookBackend, DEFAULT_INITIAL_BACKOFF_MS } from '../audit/webhook.js';
import { connectionFromKubeconfig } from './kube-client.js';

export const AUDIT_MODES = ['batch', 'blocking', 'blocking-strict'] as const;

/** --audit-<plugin>-mode, -batch-*, -truncate-*, -version: the same set for the log and the webhook. */
export interface AuditBackendFlags {
  mode?: string;
  batch?: Partial<BatchConfig>;
  truncateEnabled?: boolean;
  truncateMaxEventSize?: number;
  truncateMaxBatchSize?: number;
  version?: string;
}

export interface AuditFlags {
  policyFile?: string;
  logPath?: string;
  maxSizeMB?: number;
  maxBackups?: number;
  maxAgeDays?: number;
  log?: AuditBackendFlags;
  /** --audit-webhook-config-file: a kubeconfig naming the webhook. */
  webhookConfigFile?: string;
  /** --audit-webhook-initial-backoff in ms. */
  webhookInitialBackoffMs?: number;
  webhook?: AuditBackendFlags;
}

/** kube's Validate for one backend's flags; the messages are kube's. */
function validate(plugin: string, f: AuditBackendFlags, mode: string, batch: BatchConfig): string[] {
  const errs: string[] = [];
  if (!(AUDIT_MODES as readonly string[]).includes(mode)) {
    errs.push(`invalid audit ${plugin} mode ${mode}, allowed modes are ${JSON.stringify(AUDIT_MODES.join(','))}`);
  } else if (mode === 'batch') {
    if (batch.bufferSize <= 0) errs.push(`invalid audit batch ${plugin} buffer size ${batch.bufferSize}, must be a positive number`);
    else if (batch.maxBatchSize <= 0) errs.push(`invalid audit batch ${plugin} max batch size ${batch.maxBatchSize}, must be a positive number`);
    else if (batch.throttleEnable && batch.throttleQPS <= 0) errs.push(`invalid audit batch ${plugin} throttle QPS ${batch.throttleQPS}, must be a positive number`);
    else if (batch.throttleEnable && batch.throttleBurst <= 0) errs.push(`invalid audit batch ${plugin} throttle burst ${batch.throttleBurst}, must be a positive number`);
  }
  const maxEvent = f.truncateMaxEventSize ?? TRUNCATE_DEFAULTS.maxEventSize;
  const maxBatch = f.truncateMaxBatchSize ?? TRUNCATE_DEFAULTS.maxBatchSize;
  if (maxEvent <= 0) errs.push(`invalid audit truncate ${plugin} max event size ${maxEvent}, must be a positive number`);
  else if (maxBatch < maxEvent) errs.push(`invalid audit truncate ${plugin} max batch size ${maxBatch}, must be greater than max event size (${maxEvent})`);
  if ((f.version ?? 'audit.k8s.io/v1') !== 'audit.k8s.io/v1') errs.push('invalid group version, allowed versions are ["audit.k8s.io/v1"]');
  return errs;
}

/** Mode and batching around a backend, then truncation around that (kube's wrapBackend order). */
function wrap(delegate: AuditBackend, f: AuditBackendFlags, defaultMode: string, defaults: BatchConfig): AuditBackend {
  const mode = f.mode ?? defaultMode;
  const batch = { ...defaults, ...f.batch };
  let b = mode === 'blocking-strict' ? delegate : mode === 'blocking' ? ignoreErrorsBackend(delegate) : bufferedBackend(delegate, batch);
  if (f.truncateEnabled) {
    b = truncateBackend(b, { maxEventSize: f.truncateMaxEventSize ?? TRUNCATE_DEFAULTS.maxEventSize, maxBatchSize: f.truncateMaxBatchSize ?? TRUNCATE_DEFAULTS.maxBatchSize });
  }
  return b;
}

/** The policy and the backends; none when there is no policy or no backend (kube audits nothing then). */
export function auditFromFlags(f: AuditFlags | undefined): { policy: Policy; backend: AuditBackend } | undefined {
  if (!f?.policyFile || (!f.logPath && !f.webhookConfigFile)) return undefined;
  const policy = parsePolicy(readFileSync(f.policyFile, 'utf8'));
  if ('error' in policy) throw new Error(`loading audit policy file: ${policy.error}`);
  // Every flag is checked before anything is opened, as kube validates its options first.
  const errs = [
    ...(f.logPath ? validate('log', f.log ?? {}, f.log?.mode ?? 'blocking', { ...LOG_BATCH_DEFAULTS, ...f.log?.batch }) : []),
    ...(f.webhookConfigFile ? validate('webhook', f.webhook ?? {}, f.webhook?.mode ?? 'batch', { ...WEBHOOK_BATCH_DEFAULTS, ...f.webhook?.batch }) : []),
  ];
  if (errs.length) throw new Error(errs.join(', '));
  const backends: AuditBackend[] = [];
  if (f.logPath) {
    const writer: LogWriter =
      f.logPath === '-'
        ? { write: (l) => void process.stdout.write(l + '\n'), flush: async () => {}, close: async () => {} }
        : openLogWriter({ path: f.logPath, maxSizeBytes: (f.maxSizeMB ?? 0) * 1024 * 1024, maxBackups: f.maxBackups, maxAgeDays: f.maxAgeDays });
    backends.push(wrap(logBackend(writer), f.log ?? {}, 'blocking', LOG_BATCH_DEFAULTS));
  }
  if (f.webhookConfigFile) {
    let target;
    try {
      target = connectionFromKubeconfig(f.webhookConfigFile);
    } catch (e) {
      throw new Error(`initializing audit webhook: ${(e as Error).message}`);
    }
    const hook = webhookBackend(target, { initialBackoffMs: f.webhookInitialBackoffMs ?? DEFAULT_INITIAL_BACKOFF_MS, groupVersion: f.webhook?.version });
    backends.push(wrap(hook, f.webhook ?? {}, 'batch', WEBHOOK_BATCH_DEFAULTS));
  }
  return { policy, backend: unionBackend(backends) };
}

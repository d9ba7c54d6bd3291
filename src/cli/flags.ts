// Every command's flags and what kind of value each takes, checked before anything starts, as kube-apiserver's
// flag parsing (spf13/pflag) checks them: an unknown flag, a flag without its value or a value of the wrong
// kind is a usage error (exit code 2) naming the flag, in pflag's words. What a value means (a port's range,
// a storage kind) is checked later, by each command.
import { parseGoDuration } from '../cel/time.js';

export type FlagKind = 'bool' | 'string' | 'int' | 'float' | 'duration';

type FlagTable = Readonly<Record<string, FlagKind>>;

/** Flags every command takes. */
const GLOBAL: FlagTable = { help: 'bool', version: 'bool' };

const ETCD_CONNECTION = ['etcd-prefix', 'etcd-cafile', 'etcd-certfile', 'etcd-keyfile'] as const;

/** The audit backends' shared flags (k8s.io/apiserver's AuditBatchOptions and AuditTruncateOptions), per plugin. */
function auditBackendFlags(plugin: 'log' | 'webhook'): FlagTable {
  const p = `audit-${plugin}`;
  return {
    [`${p}-mode`]: 'string',
    [`${p}-version`]: 'string',
    [`${p}-batch-buffer-size`]: 'int',
    [`${p}-batch-max-size`]: 'int',
    [`${p}-batch-max-wait`]: 'duration',
    [`${p}-batch-throttle-enable`]: 'bool',
    [`${p}-batch-throttle-qps`]: 'float',
    [`${p}-batch-throttle-burst`]: 'int',
    [`${p}-truncate-enabled`]: 'bool',
    [`${p}-truncate-max-event-size`]: 'int',
    [`${p}-truncate-max-batch-size`]: 'int',
  };
}

const strings = (...names: string[]): FlagTable => Object.fromEntries(names.map((n) => [n, 'string' as const]));

export const COMMAND_FLAGS: Readonly<Record<string, FlagTable>> = {
  serve: {
    ...strings(
      'data-dir', 'bind-address', 'tls-san', 'service-resolver', 'client-ca-file', 'encryption-provider-config', 'token-auth-file',
      'authentication-config', 'oidc-issuer-url', 'oidc-client-id', 'oidc-ca-file', 'oidc-username-claim', 'oidc-username-prefix',
      'oidc-groups-claim', 'oidc-groups-prefix', 'oidc-signing-algs', 'oidc-required-claim', 'authorization-mode',
      'service-account-issuer', 'api-audiences', 'service-account-signing-key-file', 'service-account-key-file',
      'service-account-jwks-uri', 'tls-min-version', 'tls-cipher-suites', 'audit-policy-file', 'audit-log-path',
      'audit-webhook-config-file', 'storage-sync', 'storage', 'storage-media-type', 'etcd-servers', ...ETCD_CONNECTION,
    ),
    'logging-format': 'string',
    v: 'int',
    'secure-port': 'int',
    'insecure-port': 'int',
    'anonymous-auth': 'bool',
    'enable-priority-and-fairness': 'bool',
    'logical-clusters': 'bool',
    'leader-elect': 'bool',
    'max-requests-inflight': 'int',
    'max-mutating-requests-inflight': 'int',
    'max-connections': 'int',
    'audit-log-maxsize': 'int',
    'audit-log-maxbackup': 'int',
    'audit-log-maxage': 'int',
    'service-account-max-token-expiration': 'duration',
    'event-ttl': 'duration',
    'logical-cluster-idle-timeout': 'duration',
    'request-timeout': 'duration',
    'leader-elect-lease-duration': 'duration',
    'leader-elect-renew-deadline': 'duration',
    'leader-elect-retry-period': 'duration',
    'audit-webhook-initial-backoff': 'duration',
    'etcd-compaction-interval': 'duration',
    ...auditBackendFlags('log'),
    ...auditBackendFlags('webhook'),
  },
  'migrate-backend': {
    ...strings(
      'from', 'to', 'encryption-provider-config', 'from-encryption-provider-config', 'to-encryption-provider-config',
      ...ETCD_CONNECTION.flatMap((f) => [f, `from-${f}`, `to-${f}`]),
    ),
    force: 'bool',
    'chunk-size': 'int',
  },
  snapshot: { 'data-dir': 'string', force: 'bool' },
  envtest: { crds: 'string', 'webhook-config': 'string', port: 'int', 'webhook-host': 'string', 'webhook-port': 'int', 'crd-install-timeout': 'duration' },
  validate: { f: 'string', filename: 'string', crds: 'string', 'field-validation': 'string', o: 'string', output: 'string' },
  kubeconfig: { user: 'string', group: 'string', out: 'string', 'data-dir': 'string', server: 'string' },
  cluster: { kubeconfig: 'string', 'data-dir': 'string', out: 'string', timeout: 'duration' },
  'migrate-storage': { kubeconfig: 'string', 'chunk-size': 'int' },
};

/** A mistake in how the command was called: exit code 2, with a pointer to --help. */
export class UsageError extends Error {}

export interface ParsedArgs {
  command: string;
  flags: Map<string, string>;
  /** Every value of each flag, in order, for the flags that may be repeated (--oidc-required-claim). */
  repeated: Map<string, string[]>;
  positional: string[];
}

const GO_BOOLS = new Set(['1', 't', 'T', 'TRUE', 'true', 'True', '0', 'f', 'F', 'FALSE', 'false', 'False']);

/** pflag's complaint about a value of the wrong kind, or undefined when it parses. */
function badValue(kind: FlagKind, value: string): string | undefined {
  switch (kind) {
    case 'bool':
      return GO_BOOLS.has(value) ? undefined : `strconv.ParseBool: parsing ${JSON.stringify(value)}: invalid syntax`;
    case 'int':
      if (!/^[+-]?\d+$/.test(value)) return `strconv.ParseInt: parsing ${JSON.stringify(value)}: invalid syntax`;
      return Number.isSafeInteger(Number(value)) ? undefined : `strconv.ParseInt: parsing ${JSON.stringify(value)}: value out of range`;
    case 'float':
      return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(value) ? undefined : `strconv.ParseFloat: parsing ${JSON.stringify(value)}: invalid syntax`;
    case 'duration':
      return parseGoDuration(value) === undefined ? `time: invalid duration ${JSON.stringify(value)}` : undefined;
    case 'string':
      return undefined;
  }
}

/**
 * `crd-apiserver <command> [flags] [args]`, flags as pflag reads them: --name=value or --name value, a bool bare
 * (--name) or --name=false. Throws UsageError for an unknown command or flag, a missing value, or a value
 * of the wrong kind.
 */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const command = argv[0] !== undefined && !argv[0].startsWith('-') ? argv[0] : '';
  const table: FlagTable = { ...GLOBAL, ...(COMMAND_FLAGS[command] ?? {}) };
  if (command && command !== 'help' && !COMMAND_FLAGS[command]) throw new UsageError(`unknown command ${JSON.stringify(command)}`);
  const flags = new Map<string, string>();
  const repeated = new Map<string, string[]>();
  const positional: string[] = [];
  for (let i = command ? 1 : 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--') {
      positional.push(...argv.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      positional.push(a);
      continue;
    }
    const body = a.replace(/^--?/, '');
    const eq = body.indexOf('=');
    const name = eq >= 0 ? body.slice(0, eq) : body;
    const kind = table[name];
    if (!kind) throw new UsageError(`unknown flag: --${name}`);
    let value: string;
    if (eq >= 0) value = body.slice(eq + 1);
    else if (kind === 'bool') value = 'true';
    else {
      if (i + 1 >= argv.length) throw new UsageError(`flag needs an argument: --${name}`);
      value = argv[++i]!;
    }
    const bad = badValue(kind, value);
    if (bad) throw new UsageError(`invalid argument ${JSON.stringify(value)} for "--${name}" flag: ${bad}`);
    flags.set(name, value);
    repeated.set(name, [...(repeated.get(name) ?? []), value]);
  }
  return { command, flags, repeated, positional };
}

/** A bool flag's value as Go's strconv.ParseBool reads it (parseArgs has checked it). */
export function goBool(value: string): boolean {
  return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(value);
}

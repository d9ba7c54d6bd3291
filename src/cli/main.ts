#!/usr/bin/env node
// The crd-apiserver command line.
import { RESPONDED_EVENT, STARTED_EVENT } from '../util/code-cache.js';
import { HEAP_GROWING_PERCENT } from '../util/heap-growth.js';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { issueClientCertificate } from '../auth/certs.js';
import { kubeconfigYaml } from '../auth/kubeconfig.js';
import { goBool, parseArgs, UsageError, type ParsedArgs } from './flags.js';
import { usage } from './usage.js';
import { serve, STORAGE_MEDIA_TYPES, type StorageMediaType } from './serve.js';
import type { AuditBackendFlags } from './audit-options.js';
import type { BatchConfig } from '../audit/buffered.js';
import { connectionFromKubeconfig } from './kube-client.js';
import { migrateStorage } from './migrate-storage.js';
import { migrateBackend, parseBackend } from './migrate-backend.js';
import { restoreSnapshot, saveSnapshot } from './snapshot.js';
import { runCluster } from './cluster.js';
import type { StorageSync } from '../storage/sqlite-schema.js';
import type { EtcdStoreOptions } from '../storage/etcd-store.js';
import { DEFAULT_LEADER_ELECTION, validateLeaderElection, type LeaderElectionConfig } from '../controllers/leader-election.js';
import { tlsPolicy } from '../auth/tls-policy.js';
import { parseGoDuration } from '../cel/time.js';
import { loadTokenFile } from '../auth/authenticate.js';
import { AUTHORIZATION_MODES, type AuthorizationMode } from '../server/server.js';
import { VERSION_INFO } from '../server/router.js';
import { mappedServiceResolver, parseServiceMappings } from '../conversion/service-map.js';
import { OIDC_FLAG_NAMES, type OidcFlags } from '../auth/authentication-config.js';
import { LOGGING_FORMATS, newLogger, type Logger, type LoggingFormat } from '../util/klog.js';
import { PACKAGE_ROOT } from '../util/package-root.js';


/** --authorization-mode: kube's mode names, each once. */
function authorizationModesFlag(v: string | undefined): AuthorizationMode[] | undefined {
  if (v === undefined) return undefined;
  const modes = v.split(',').map((m) => m.trim()).filter(Boolean);
  if (modes.length === 0) throw new Error('at least one authorization-mode must be passed');
  const seen = new Set<string>();
  for (const m of modes) {
    if (!(AUTHORIZATION_MODES as readonly string[]).includes(m)) throw new Error(`authorization-mode ${JSON.stringify(m)} is not a valid mode`);
    if (seen.has(m)) throw new Error(`authorization-mode ${JSON.stringify(m)} has mode specified more than once`);
    seen.add(m);
  }
  return modes as AuthorizationMode[];
}

/** -v and --logging-format, refused as component-base's validation refuses them. */
function loggerFlags(flags: Map<string, string>): Logger {
  const format = flags.get('logging-format') ?? 'text';
  if (!(LOGGING_FORMATS as readonly string[]).includes(format)) {
    throw new Error(`logging.format: Unsupported value: ${JSON.stringify(format)}: supported values: ${LOGGING_FORMATS.map((f) => JSON.stringify(f)).join(', ')}`);
  }
  const v = Number(flags.get('v') ?? '0');
  if (v < 0) throw new Error(`logging.verbosity: Invalid value: ${v}: must be greater than or equal to 0`);
  return newLogger(v, format as LoggingFormat);
}

/** `crd-apiserver 0.1.0 (Kubernetes v1.33.0)`: ours, and the Kubernetes version served (kube-apiserver prints the latter). */
function versionLine(): string {
  const pkg = JSON.parse(readFileSync(new URL('package.json', PACKAGE_ROOT), 'utf8')) as { version: string };
  return `crd-apiserver ${pkg.version} (Kubernetes ${VERSION_INFO.gitVersion})\n`;
}

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(argv);
  if (args.command === 'serve' && args.positional.length > 0) {
    throw new UsageError(`"crd-apiserver serve" does not take any arguments, got ${JSON.stringify(args.positional)}`);
  }
  if (args.flags.has('version') && goBool(args.flags.get('version')!)) {
    process.stdout.write(versionLine());
    return 0;
  }
  if (args.command === 'help') {
    process.stdout.write(usage(args.positional[0]));
    return 0;
  }
  if (args.flags.has('help') || args.command === '') {
    process.stdout.write(usage(args.command));
    return args.command === '' && !args.flags.has('help') ? 2 : 0;
  }
  if (args.command === 'migrate-storage') return runMigrateStorage(args.positional, args.flags);
  if (args.command === 'migrate-backend') return runMigrateBackend(args.positional, args.flags);
  if (args.command === 'snapshot') return runSnapshot(args.positional, args.flags);
  if (args.command === 'validate') return runValidate(args);
  if (args.command === 'envtest') return runEnvtest(args);
  if (args.command === 'kubeconfig') return runKubeconfig(args);
  if (args.command === 'cluster') return runCluster(args, durationFlag(args.flags, 'timeout'));
  const port = (name: string, def?: number): number | undefined => {
    const v = args.flags.get(name);
    if (v === undefined) return def;
    const n = Number(v);
    if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`invalid --${name}: ${v}`);
    return n;
  };
  const tlsMinVersion = args.flags.get('tls-min-version');
  const tlsCipherSuites = (args.flags.get('tls-cipher-suites') ?? '').split(',').map((x) => x.trim()).filter(Boolean);
  // Refuse bad names before anything starts; warn as kube-apiserver does.
  for (const name of tlsPolicy({ minVersion: tlsMinVersion, cipherSuites: tlsCipherSuites }).insecure) {
    process.stderr.write(`Use of insecure cipher '${name}' detected.\n`);
  }
  const started = process.hrtime.bigint();
  // Stopped by SIGINT or SIGTERM once the listeners are open: a client may have seen /readyz answer before serve()
  // has returned (it still writes the kubeconfig), and a signal then waits for it, then closes as later ones do.
  // Before the listeners open, a signal ends the process as Node's default does.
  let served: Awaited<ReturnType<typeof serve>> | undefined;
  let stopRequested = false;
  let stopping = false;
  const stop = (): void => {
    stopRequested = true;
    if (stopping || !served) return;
    stopping = true;
    void served.close().then(() => process.exit(0));
  };
  const s = await serve({
    dataDir: args.flags.get('data-dir') ?? './.crd-apiserver',
    onListening: () => {
      process.on('SIGINT', stop);
      process.on('SIGTERM', stop);
      // Listening: the bundle's loader may keep the code compiled so far (util/code-cache.ts).
      (process as NodeJS.EventEmitter).emit(STARTED_EVENT);
    },
    // And again with the request path compiled too.
    onFirstResponse: () => (process as NodeJS.EventEmitter).emit(RESPONDED_EVENT),
    // After that event: the code cache is made with V8's default flags, which the next start has.
    heapGrowingPercent: HEAP_GROWING_PERCENT,
    securePort: port('secure-port', 6443)!,
    insecurePort: port('insecure-port'),
    bindAddress: args.flags.get('bind-address') ?? '127.0.0.1',
    hosts: (args.flags.get('tls-san') ?? '').split(',').filter(Boolean),
    serviceResolver: mappedServiceResolver(parseServiceMappings(args.flags.get('service-resolver') ?? '')),
    tokens: args.flags.has('token-auth-file') ? loadTokenFile(args.flags.get('token-auth-file')!) : undefined,
    clientCaFile: args.flags.get('client-ca-file'),
    encryptionProviderConfig: args.flags.get('encryption-provider-config'),
    anonymousAuth: boolFlag(args.flags, 'anonymous-auth', true),
    anonymousAuthFlagSet: args.flags.has('anonymous-auth'),
    authenticationConfig: args.flags.get('authentication-config'),
    oidc: oidcFlags(args.flags, args.repeated),
    oidcFlagsSet: OIDC_FLAG_NAMES.some((f) => args.flags.has(f)),
    authorizationModes: authorizationModesFlag(args.flags.get('authorization-mode')),
    eventTtlMs: durationFlag(args.flags, 'event-ttl'),
    logicalClusters: boolFlag(args.flags, 'logical-clusters', true),
    // 0 turns the idle stop off.
    logicalClusterIdleTimeoutMs: /^0+(s|m|h|ms)?$/.test(args.flags.get('logical-cluster-idle-timeout') ?? '') ? 0 : durationFlag(args.flags, 'logical-cluster-idle-timeout'),
    requestTimeoutMs: durationFlag(args.flags, 'request-timeout'),
    maxRequestsInFlight: countFlag(args.flags, 'max-requests-inflight'),
    maxMutatingRequestsInFlight: countFlag(args.flags, 'max-mutating-requests-inflight'),
    enablePriorityAndFairness: boolFlag(args.flags, 'enable-priority-and-fairness', true),
    maxConnections: countFlag(args.flags, 'max-connections'),
    storageSync: storageSyncFlag(args.flags.get('storage-sync')),
    etcd: etcdFlags(args.flags),
    storageMediaType: storageMediaTypeFlag(args.flags.get('storage-media-type')),
    leaderElection: leaderElectionFlags(args.flags),
    tlsMinVersion,
    tlsCipherSuites,
    serviceAccountTokens: {
      issuers: listFlag(args.flags, 'service-account-issuer'),
      apiAudiences: listFlag(args.flags, 'api-audiences'),
      maxExpirationSeconds: maxTokenExpirationFlag(args.flags),
      jwksUri: args.flags.get('service-account-jwks-uri'),
    },
    serviceAccountSigningKeyFile: args.flags.get('service-account-signing-key-file'),
    serviceAccountKeyFiles: listFlag(args.flags, 'service-account-key-file'),
    logger: loggerFlags(args.flags),
    audit: {
      policyFile: args.flags.get('audit-policy-file'),
      logPath: args.flags.get('audit-log-path'),
      maxSizeMB: countFlag(args.flags, 'audit-log-maxsize'),
      maxBackups: countFlag(args.flags, 'audit-log-maxbackup'),
      maxAgeDays: countFlag(args.flags, 'audit-log-maxage'),
      log: auditBackendFlags(args.flags, 'log'),
      webhookConfigFile: args.flags.get('audit-webhook-config-file'),
      webhookInitialBackoffMs: durationFlag(args.flags, 'audit-webhook-initial-backoff'),
      webhook: auditBackendFlags(args.flags, 'webhook'),
    },
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  served = s;
  if (stopRequested) {
    stop();
    return -1;
  }
  process.stdout.write(`crd-apiserver serving on ${s.server.secureUrl}${s.server.insecureUrl ? ` and ${s.server.insecureUrl}` : ''} (ready in ${ms.toFixed(0)} ms)\n`);
  process.stdout.write(`export KUBECONFIG=${s.kubeconfigPath}\n`);
  return -1; // keep running
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err: unknown) => {
    process.stderr.write(`crd-apiserver: ${err instanceof Error ? err.message : String(err)}\n`);
    if (!(err instanceof UsageError)) process.exit(1);
    // As pflag: the mistake, then where help is; exit code 2.
    const argv = process.argv.slice(2);
    const command = argv[0] !== undefined && !argv[0].startsWith('-') && argv[0] !== 'help' && !err.message.startsWith('unknown command') ? ` ${argv[0]}` : '';
    process.stderr.write(`Run 'crd-apiserver${command} --help' for usage.\n`);
    process.exit(2);
  },
);

/** A time.Duration flag (--event-ttl=30m) in milliseconds; undefined when not given. */
function durationFlag(flags: ReadonlyMap<string, string>, name: string): number | undefined {
  const v = flags.get(name);
  if (v === undefined) return undefined;
  const ns = parseGoDuration(v);
  if (ns === undefined || ns <= 0n) throw new Error(`invalid --${name}: ${v}`);
  return Number(ns / 1_000_000n);
}

/** The --oidc-* flags as kube's OIDCAuthenticationOptions hold them. */
function oidcFlags(flags: ReadonlyMap<string, string>, repeated: ReadonlyMap<string, readonly string[]>): OidcFlags {
  const requiredClaims: Record<string, string> = {};
  // cliflag.MapStringStringNoSplit: each occurrence is one key=value; the value may contain commas.
  for (const kv of repeated.get('oidc-required-claim') ?? []) {
    const eq = kv.indexOf('=');
    if (eq < 0) throw new Error(`invalid argument "${kv}" for "--oidc-required-claim" flag: malformed pair, expect string=string`);
    requiredClaims[kv.slice(0, eq).trim()] = kv.slice(eq + 1).trim();
  }
  return {
    issuerURL: flags.get('oidc-issuer-url'),
    clientID: flags.get('oidc-client-id'),
    caFile: flags.get('oidc-ca-file'),
    usernameClaim: flags.get('oidc-username-claim'),
    usernamePrefix: flags.get('oidc-username-prefix'),
    groupsClaim: flags.get('oidc-groups-claim'),
    groupsPrefix: flags.get('oidc-groups-prefix'),
    signingAlgs: listFlag(flags, 'oidc-signing-algs'),
    requiredClaims,
  };
}

/** A comma-separated list flag; undefined when not given. */
function listFlag(flags: ReadonlyMap<string, string>, name: string): string[] | undefined {
  const v = flags.get(name);
  return v === undefined ? undefined : v.split(',').map((x) => x.trim()).filter(Boolean);
}

/** --service-account-max-token-expiration: a duration kube requires to be from one hour to 2^32 seconds. */
function maxTokenExpirationFlag(flags: ReadonlyMap<string, string>): number | undefined {
  const ms = durationFlag(flags, 'service-account-max-token-expiration');
  if (ms === undefined) return undefined;
  const s = Math.floor(ms / 1000);
  if (s < 3600 || s > 2 ** 32) throw new Error('service-account-max-token-expiration is set, but is less than 1 hour or more than 2^32 seconds');
  return s;
}

/** A non-negative integer flag; undefined when not given. */
function countFlag(flags: ReadonlyMap<string, string>, name: string): number | undefined {
  const v = flags.get(name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(n)) throw new Error(`invalid --${name}: ${v}`);
  return n;
}

/**
 * --leader-elect and its timings, as kube-controller-manager names them: on by default with etcd, where other
 * replicas may share the state; off by default on SQLite, which one process owns.
 */
function leaderElectionFlags(flags: ReadonlyMap<string, string>): LeaderElectionConfig | undefined {
  const onEtcd = (flags.get('storage') ?? 'sqlite') === 'etcd';
  if (!boolFlag(flags, 'leader-elect', onEtcd)) return undefined;
  const timing = {
    leaseDurationMs: durationFlag(flags, 'leader-elect-lease-duration') ?? DEFAULT_LEADER_ELECTION.leaseDurationMs,
    renewDeadlineMs: durationFlag(flags, 'leader-elect-renew-deadline') ?? DEFAULT_LEADER_ELECTION.renewDeadlineMs,
    retryPeriodMs: durationFlag(flags, 'leader-elect-retry-period') ?? DEFAULT_LEADER_ELECTION.retryPeriodMs,
  };
  const bad = validateLeaderElection(timing);
  if (bad) throw new Error(`invalid leader election flags: ${bad}`);
  return timing;
}

/** --audit-<plugin>-mode, -batch-*, -truncate-*, -version. */
function auditBackendFlags(flags: ReadonlyMap<string, string>, plugin: 'log' | 'webhook'): AuditBackendFlags {
  const f = (name: string): string => `audit-${plugin}-${name}`;
  const qps = flags.get(f('batch-throttle-qps'));
  if (qps !== undefined && !Number.isFinite(Number(qps))) throw new Error(`invalid --${f('batch-throttle-qps')}: ${qps}`);
  const maxWait = flags.get(f('batch-max-wait'));
  const maxWaitNs = maxWait === undefined ? undefined : parseGoDuration(maxWait);
  if (maxWait !== undefined && (maxWaitNs === undefined || maxWaitNs < 0n)) throw new Error(`invalid --${f('batch-max-wait')}: ${maxWait}`);
  const batch: Partial<BatchConfig> = {};
  const set = <K extends keyof BatchConfig>(k: K, v: BatchConfig[K] | undefined): void => {
    if (v !== undefined) batch[k] = v;
  };
  set('bufferSize', countFlag(flags, f('batch-buffer-size')));
  set('maxBatchSize', countFlag(flags, f('batch-max-size')));
  set('maxBatchWaitMs', maxWaitNs === undefined ? undefined : Number(maxWaitNs / 1_000_000n));
  set('throttleEnable', flags.has(f('batch-throttle-enable')) ? boolFlag(flags, f('batch-throttle-enable'), false) : undefined);
  set('throttleQPS', qps === undefined ? undefined : Number(qps));
  set('throttleBurst', countFlag(flags, f('batch-throttle-burst')));
  return {
    mode: flags.get(f('mode')),
    batch,
    truncateEnabled: boolFlag(flags, f('truncate-enabled'), false),
    truncateMaxEventSize: countFlag(flags, f('truncate-max-event-size')),
    truncateMaxBatchSize: countFlag(flags, f('truncate-max-batch-size')),
    version: flags.get(f('version')),
  };
}

/** --storage and the --etcd-* flags: the etcd connection, or undefined for SQLite. */
function etcdFlags(flags: ReadonlyMap<string, string>): EtcdStoreOptions | undefined {
  const kind = flags.get('storage') ?? 'sqlite';
  if (kind !== 'sqlite' && kind !== 'etcd') throw new Error(`invalid --storage: ${kind} (want sqlite or etcd)`);
  if (kind === 'sqlite') {
    // (A function-local list: main() runs before module-level constants below it are initialized.)
    const stray = ['etcd-servers', 'etcd-prefix', 'etcd-cafile', 'etcd-certfile', 'etcd-keyfile', 'etcd-compaction-interval'].find((f) => flags.has(f));
    if (stray) throw new Error(`--${stray} is only used with --storage etcd`);
    return undefined;
  }
  const servers = listFlag(flags, 'etcd-servers') ?? [];
  if (servers.length === 0) throw new Error('--etcd-servers must be specified');
  for (const url of servers) {
    if (!/^https?:\/\/[^/]+\/?$/.test(url)) throw new Error(`invalid --etcd-servers URL ${url} (want http://HOST:PORT or https://HOST:PORT)`);
  }
  if (flags.has('etcd-certfile') !== flags.has('etcd-keyfile')) throw new Error('--etcd-certfile and --etcd-keyfile must be given together');
  const interval = flags.get('etcd-compaction-interval') ?? '5m0s';
  const ns = parseGoDuration(interval);
  if (ns === undefined || ns < 0n) throw new Error(`invalid --etcd-compaction-interval: ${interval}`);
  return {
    compactionIntervalMs: Number(ns / 1_000_000n),
    servers,
    prefix: flags.get('etcd-prefix') ?? '/registry',
    caFile: flags.get('etcd-cafile'),
    certFile: flags.get('etcd-certfile'),
    keyFile: flags.get('etcd-keyfile'),
  };
}

function storageMediaTypeFlag(v: string | undefined): StorageMediaType | undefined {
  if (v === undefined) return undefined;
  const known = STORAGE_MEDIA_TYPES.find((t) => t === v);
  if (known) return known;
  throw new Error(`invalid --storage-media-type: ${v} (want ${STORAGE_MEDIA_TYPES.join(' or ')})`);
}

function storageSyncFlag(v: string | undefined): StorageSync | undefined {
  if (v === undefined) return undefined;
  if (v === 'full' || v === 'normal') return v;
  throw new Error(`invalid --storage-sync: ${v} (want full or normal)`);
}

/** A boolean flag as Go's flag package parses one: bare means true; 1, t, true, 0, f, false in any case. */
function boolFlag(flags: ReadonlyMap<string, string>, name: string, def: boolean): boolean {
  const v = flags.get(name);
  return v === undefined ? def : goBool(v);
}

async function runMigrateStorage(positional: readonly string[], flags: ReadonlyMap<string, string>): Promise<number> {
  const crdName = positional[0];
  if (!crdName || positional.length > 1) {
    process.stderr.write(`migrate-storage needs exactly one CRD name\n${usage('migrate-storage')}`);
    return 2;
  }
  const kubeconfig = flags.get('kubeconfig') ?? process.env['KUBECONFIG']?.split(':')[0] ?? `${process.env['HOME'] ?? ''}/.kube/config`;
  const chunkSize = flags.has('chunk-size') ? Number(flags.get('chunk-size')) : undefined;
  if (chunkSize !== undefined && (!Number.isInteger(chunkSize) || chunkSize < 1)) throw new Error(`invalid --chunk-size: ${flags.get('chunk-size')}`);
  await migrateStorage({ conn: connectionFromKubeconfig(kubeconfig), crdName, chunkSize, log: (l) => process.stdout.write(`${l}\n`) });
  return 0;
}


async function runMigrateBackend(positional: readonly string[], flags: ReadonlyMap<string, string>): Promise<number> {
  if (positional.length > 0 || !flags.has('from') || !flags.has('to')) {
    process.stderr.write(`migrate-backend needs --from and --to\n${usage('migrate-backend')}`);
    return 2;
  }
  const chunkSize = flags.has('chunk-size') ? Number(flags.get('chunk-size')) : undefined;
  if (chunkSize !== undefined && (!Number.isInteger(chunkSize) || chunkSize < 1)) throw new Error(`invalid --chunk-size: ${flags.get('chunk-size')}`);
  const shared = flags.get('encryption-provider-config');
  await migrateBackend({
    from: parseBackend(flags.get('from')!, 'from', flags),
    to: parseBackend(flags.get('to')!, 'to', flags),
    fromEncryption: flags.get('from-encryption-provider-config') ?? shared,
    toEncryption: flags.get('to-encryption-provider-config') ?? shared,
    force: boolFlag(flags, 'force', false),
    chunkSize,
    log: (l) => process.stderr.write(`${l}\n`),
  });
  return 0;
}

async function runSnapshot(positional: readonly string[], flags: ReadonlyMap<string, string>): Promise<number> {
  const [verb, file] = positional;
  if ((verb !== 'save' && verb !== 'restore') || !file || positional.length > 2) {
    process.stderr.write(`snapshot needs save FILE or restore FILE\n${usage('snapshot')}`);
    return 2;
  }
  const dataDir = flags.get('data-dir') ?? './.crd-apiserver';
  const log = (l: string): void => void process.stderr.write(`${l}\n`);
  if (verb === 'save') await saveSnapshot({ file, dataDir, log });
  else await restoreSnapshot({ file, dataDir, force: boolFlag(flags, 'force', false), log });
  return 0;
}

/** The values of a flag that may be given several times, each a comma-separated list. */
function allValues(args: ParsedArgs, name: string): string[] {
  return (args.repeated.get(name) ?? []).flatMap((v) => v.split(',').map((x) => x.trim()).filter(Boolean));
}

/**
 * `envtest`: envtest's control plane for test suites in other languages (controller-runtime's
 * UseExistingCluster, Python, Java): a server with state in memory, the CRDs installed and Established, then
 * `export KUBECONFIG=...` on standard output; it serves until SIGINT or SIGTERM. A CRD that cannot be
 * installed in time ends it with exit code 1, as envtest's Start fails.
 */
async function runEnvtest(args: ParsedArgs): Promise<number> {
  if (args.positional.length > 0) throw new UsageError(`"crd-apiserver envtest" does not take any arguments, got ${JSON.stringify(args.positional)}`);
  const { startTestEnv } = await import('../testing/test-env.js');
  const webhookPaths = allValues(args, 'webhook-config');
  const env = await startTestEnv({
    crds: allValues(args, 'crds'),
    crdInstallTimeoutMs: durationFlag(args.flags, 'crd-install-timeout'),
    port: countFlag(args.flags, 'port'),
    webhooks: webhookPaths.length > 0 ? { paths: webhookPaths, host: args.flags.get('webhook-host'), port: countFlag(args.flags, 'webhook-port') } : undefined,
  });
  if (env.webhook) {
    process.stdout.write(`# webhook server: https://${env.webhook.host}:${env.webhook.port} with ${env.webhook.certDir}/tls.crt and tls.key\n`);
  }
  process.stdout.write(`export KUBECONFIG=${env.kubeconfigPath}\n`);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    void env.stop().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return -1; // keep running
}

/** `kubeconfig --user NAME [--group G]...`: a client certificate from the data directory's CA, in a kubeconfig. */
async function runKubeconfig(args: ParsedArgs): Promise<number> {
  const user = args.flags.get('user');
  if (!user) throw new UsageError('--user is required');
  if (args.positional.length > 0) throw new UsageError(`"crd-apiserver kubeconfig" does not take any arguments, got ${JSON.stringify(args.positional)}`);
  const dataDir = args.flags.get('data-dir') ?? './.crd-apiserver';
  const pki = join(dataDir, 'pki');
  let ca: { certPem: string; keyPem: string };
  try {
    ca = { certPem: readFileSync(join(pki, 'ca.crt'), 'utf8'), keyPem: readFileSync(join(pki, 'ca.key'), 'utf8') };
  } catch {
    throw new Error(`no CA in ${pki}: start the server on that data directory once (crd-apiserver serve --data-dir ${dataDir})`);
  }
  const server = args.flags.get('server') ?? serverOf(join(dataDir, 'kubeconfig'));
  const pair = issueClientCertificate(ca, user, args.repeated.get('group') ?? []);
  const yaml = kubeconfigYaml({ server, caPem: ca.certPem, clientCertPem: pair.certPem, clientKeyPem: pair.keyPem, contextName: user });
  const out = args.flags.get('out');
  if (out) writeFileSync(out, yaml, { mode: 0o600 });
  else process.stdout.write(yaml);
  return 0;
}

/** The server URL the data directory's own kubeconfig names. */
function serverOf(kubeconfigPath: string): string {
  let text: string;
  try {
    text = readFileSync(kubeconfigPath, 'utf8');
  } catch {
    throw new Error(`no kubeconfig at ${kubeconfigPath}: give --server`);
  }
  const m = /^\s*server:\s*(\S+)\s*$/m.exec(text);
  if (!m) throw new Error(`${kubeconfigPath} names no server: give --server`);
  return m[1]!;
}

/** `validate`: exit code 0 when every object is valid, 1 when one is not, 2 for a usage error (UsageError). */
async function runValidate(args: ParsedArgs): Promise<number> {
  const files = [...allValues(args, 'f'), ...allValues(args, 'filename'), ...args.positional];
  if (files.length === 0) throw new UsageError('must specify one of -f and -k');
  const fieldValidation = args.flags.get('field-validation') ?? 'Strict';
  if (!['Strict', 'Warn', 'Ignore'].includes(fieldValidation)) {
    throw new UsageError(`invalid argument "${fieldValidation}" for "--field-validation" flag: must be one of Strict, Warn, Ignore`);
  }
  const output = args.flags.get('output') ?? args.flags.get('o') ?? 'text';
  if (output !== 'text' && output !== 'json') throw new UsageError(`unable to match a printer suitable for the output format "${output}", allowed formats are: json,text`);
  for (const p of [...files, ...allValues(args, 'crds')]) {
    if (p !== '-' && !existsSync(p)) throw new UsageError(`the path "${p}" does not exist`);
  }
  const { validateManifests, formatVerdicts } = await import('./validate.js');
  const verdicts = await validateManifests({ crds: allValues(args, 'crds'), files, fieldValidation: fieldValidation as 'Strict' | 'Warn' | 'Ignore' });
  process.stdout.write(output === 'json' ? JSON.stringify(verdicts, null, 2) + '\n' : formatVerdicts(verdicts));
  return verdicts.every((v) => v.valid) ? 0 : 1;
}

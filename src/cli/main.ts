#!/usr/bin/env node
// The crd-apiserver command line.
import { parseArgs } from './args.js';
import { serve, STORAGE_MEDIA_TYPES, type StorageMediaType } from './serve.js';
import type { AuditBackendFlags } from './audit-options.js';
import type { BatchConfig } from '../audit/buffered.js';
import { connectionFromKubeconfig } from './kube-client.js';
import { migrateStorage } from './migrate-storage.js';
import type { StorageSync } from '../storage/sqlite-schema.js';
import type { EtcdStoreOptions } from '../storage/etcd-store.js';
import { DEFAULT_LEADER_ELECTION, validateLeaderElection, type LeaderElectionConfig } from '../controllers/leader-election.js';
import { tlsPolicy } from '../auth/tls-policy.js';
import { parseGoDuration } from '../cel/time.js';
import { loadTokenFile } from '../auth/authenticate.js';
import { AUTHORIZATION_MODES, type AuthorizationMode } from '../server/server.js';
import { mappedServiceResolver, parseServiceMappings } from '../conversion/service-map.js';
import { OIDC_FLAG_NAMES, type OidcFlags } from '../auth/authentication-config.js';

const USAGE = `Usage: crd-apiserver <command> [flags]

Commands:
  serve                  Serve the Kubernetes API for CustomResourceDefinitions.
  migrate-storage CRD    Rewrite every object of a CRD at its storage version, then set
                         status.storedVersions to that version alone (works against any API server).

Flags for serve:
  --data-dir DIR         where state, certificates and the kubeconfig live (default ./.crd-apiserver)
  --secure-port N        HTTPS port (default 6443; 0 picks a free one)
  --insecure-port N      also serve plain HTTP on 127.0.0.1:N (off unless given; for tests and local tools)
  --bind-address ADDR    address of the HTTPS port (default 127.0.0.1)
  --tls-san NAME[,NAME]  extra DNS names or IPs for the serving certificate
  --service-resolver NS/NAME[:PORT]=HOST:PORT[,...]
                         where webhook service references are reached (default <name>.<namespace>.svc)
  --client-ca-file PATH  PEM CA certificates: client certificates they signed authenticate too (CN the user, O the
                         groups), besides those of the server's own CA
  --encryption-provider-config PATH
                         an EncryptionConfiguration (apiserver.config.k8s.io/v1): the resources it names are
                         stored encrypted (aescbc, aesgcm; identity); the first provider writes, all read
  --token-auth-file PATH a CSV of bearer tokens (token,user,uid,"group1,group2"), as kube-apiserver reads it
  --authentication-config PATH
                         an AuthenticationConfiguration (apiserver.config.k8s.io/v1beta1 or v1alpha1): JWT
                         authenticators for external OIDC issuers (issuer, audiences, claim mappings and validation
                         rules in CEL) and anonymous access; reloaded when the file changes
  --oidc-issuer-url URL  an OIDC issuer whose ID tokens authenticate (with --oidc-client-id; not with
                         --authentication-config)
  --oidc-client-id ID    the audience those tokens must name
  --oidc-ca-file PATH    PEM CAs that verify the issuer's certificate (default: the system's)
  --oidc-username-claim C
                         the claim that names the user (default sub)
  --oidc-username-prefix P
                         prepended to user names (default: '<issuer URL>#' unless the claim is email; '-': none)
  --oidc-groups-claim C  the claim that lists the user's groups (a string or a list of strings)
  --oidc-groups-prefix P prepended to groups
  --oidc-signing-algs A[,A]
                         the JOSE algorithms accepted (default RS256; RS/PS/ES 256, 384, 512)
  --oidc-required-claim KEY=VALUE
                         a claim the token must carry with this value (repeatable)
  --anonymous-auth BOOL  requests without credentials are system:anonymous (true, default) or get 401 (false)
  --authorization-mode M[,M]
                         authorizers after system:masters, in order: RBAC (default), AlwaysAllow, AlwaysDeny
  --service-account-issuer URL[,URL]
                         issuer of ServiceAccount tokens (the first issues; all are accepted)
                         (default https://kubernetes.default.svc.cluster.local)
  --api-audiences A[,A]  audiences tokens must name, and TokenRequests' default (default: the issuers)
  --service-account-signing-key-file PATH
                         PEM private key (RSA or ECDSA) tokens are signed with (default: <data-dir>/pki/sa.key,
                         an RSA key generated on first start)
  --service-account-key-file PATH[,PATH]
                         PEM files of further keys that verify tokens
  --service-account-max-token-expiration DURATION
                         the longest validity a TokenRequest gets (from 1h; default: what is asked)
  --service-account-jwks-uri URL
                         the key set's URL in /.well-known/openid-configuration (default: this server's)
  --event-ttl DURATION   how long events are kept after their last write, as a Go duration (default 1h)
  --request-timeout DURATION
                         how long a request other than a watch may take before a 504 (default 1m0s)
  --max-requests-inflight N
                         read-only requests served at once before 429s (default 400; 0: no limit)
  --max-mutating-requests-inflight N
                         mutating requests served at once before 429s (default 200; 0: no limit)
  --enable-priority-and-fairness BOOL
                         API Priority and Fairness (true, default): requests are classified by FlowSchemas and
                         queued fairly per priority level within max-requests-inflight + max-mutating-requests-inflight
                         seats; false: the two in-flight limits alone
  --max-connections N    open connections per port; more are closed on accept (default 10000, less
                         when the open-file limit is low; 0: no limit)
  --tls-min-version V    VersionTLS12 (default) or VersionTLS13 (VersionTLS10, VersionTLS11 also accepted)
  --tls-cipher-suites S[,S]
                         TLS 1.2 cipher suites by Go's names (default: Go's defaults, ECDHE with AES-GCM,
                         ChaCha20-Poly1305 or AES-CBC-SHA); TLS 1.3 suites are not configurable
  --audit-policy-file PATH
                         an audit.k8s.io/v1 Policy: which requests are audited and at what level
  --audit-log-path PATH  where audit events go, as JSON lines ('-': standard output); with the policy, turns audit on
  --audit-log-maxsize MB rotate the log when it would grow past this (default 0: never)
  --audit-log-maxbackup N
                         rotated logs kept (default 0: all)
  --audit-log-maxage DAYS
                         rotated logs older than this are removed (default 0: never)
  --leader-elect BOOL    run the controllers that write (CRD conditions, namespace and CRD finalization,
                         garbage collection, ...) only while holding the kube-system/crd-apiserver-controllers
                         Lease, for several replicas on one etcd (default true with --storage etcd, else false)
  --leader-elect-lease-duration DURATION
                         how long a silent leader keeps the Lease before another replica takes it (default 15s)
  --leader-elect-renew-deadline DURATION
                         how long the leader tries to renew before it stops its controllers (default 10s)
  --leader-elect-retry-period DURATION
                         time between attempts to take or renew the Lease (default 2s)
  --audit-log-mode M     blocking (default), blocking-strict or batch (the --audit-log-batch-* flags below apply)
  --audit-webhook-config-file PATH
                         a kubeconfig naming the audit webhook: batches of events are POSTed to it as an EventList
  --audit-webhook-mode M batch (default; never holds a request), blocking, or blocking-strict (a request whose
                         RequestReceived event cannot be sent fails with 500)
  --audit-webhook-initial-backoff DURATION
                         wait before the first retry of a failed POST (default 10s; ×1.5 each retry, 5 attempts)
  --audit-webhook-version V
                         audit.k8s.io/v1 (the only version)
  --audit-{log,webhook}-batch-buffer-size N
                         events buffered before new ones are dropped (default 10000)
  --audit-{log,webhook}-batch-max-size N
                         events per batch (default 400 for the webhook, 1 for the log)
  --audit-{log,webhook}-batch-max-wait DURATION
                         a partial batch is sent after this long (default 30s)
  --audit-{log,webhook}-batch-throttle-enable BOOL, -qps Q, -burst N
                         limit batches per second (webhook default true, 10, 15; log default false)
  --audit-{log,webhook}-truncate-enabled BOOL, -max-event-size BYTES, -max-batch-size BYTES
                         drop request/response objects from events over the size (default false, 102400, 10485760)
  --storage-sync MODE    full (default): fsync every commit, so acknowledged writes survive power loss;
                         normal: fsync only at checkpoints, acknowledged writes survive the process dying
  --storage KIND         sqlite (default): state in <data-dir>/state.db; etcd: state in etcd v3 (--etcd-servers)
  --etcd-servers URL[,URL]
                         etcd client URLs (http:// or https://), with --storage etcd
  --etcd-prefix PREFIX   the prefix of every key in etcd, in place of /registry (default /registry)
  --etcd-cafile PATH     CA bundle that verifies the etcd servers' certificates
  --etcd-certfile PATH   client certificate for etcd (with --etcd-keyfile)
  --etcd-keyfile PATH    the client certificate's private key
  --etcd-compaction-interval DURATION
                         how often etcd's history is compacted, coordinated with other servers (default 5m0s; 0: never)
  --storage-media-type TYPE
                         how built-in kinds are stored in etcd: application/vnd.kubernetes.protobuf (default, as
                         kube-apiserver) or application/json (custom resources and CRDs are JSON either way)

Flags for migrate-storage:
  --kubeconfig PATH      the API server to talk to (default $KUBECONFIG, then ~/.kube/config)
  --chunk-size N         objects per list request (default 500)
`;

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

async function main(argv: string[]): Promise<number> {
  const args = parseArgs(
    argv,
    new Set(['help', 'anonymous-auth', 'enable-priority-and-fairness', 'leader-elect', ...['log', 'webhook'].flatMap((p) => [`audit-${p}-batch-throttle-enable`, `audit-${p}-truncate-enabled`])]),
  );
  if (args.flags.has('help') || args.command === 'help' || args.command === '') {
    process.stdout.write(USAGE);
    return args.command === '' && !args.flags.has('help') ? 2 : 0;
  }
  if (args.command === 'migrate-storage') return runMigrateStorage(args.positional, args.flags);
  if (args.command !== 'serve') {
    process.stderr.write(`unknown command "${args.command}"\n${USAGE}`);
    return 2;
  }
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
  const s = await serve({
    dataDir: args.flags.get('data-dir') ?? './.crd-apiserver',
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
  process.stdout.write(`crd-apiserver serving on ${s.server.secureUrl}${s.server.insecureUrl ? ` and ${s.server.insecureUrl}` : ''} (ready in ${ms.toFixed(0)} ms)\n`);
  process.stdout.write(`export KUBECONFIG=${s.kubeconfigPath}\n`);
  let stopping = false;
  const stop = (): void => {
    if (stopping) return;
    stopping = true;
    void s.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return -1; // keep running
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (err: unknown) => {
    process.stderr.write(`crd-apiserver: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
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
  if (v === undefined) return def;
  if (/^(1|t|true)$/i.test(v)) return true;
  if (/^(0|f|false)$/i.test(v)) return false;
  throw new Error(`invalid boolean value "${v}" for --${name}`);
}

async function runMigrateStorage(positional: readonly string[], flags: ReadonlyMap<string, string>): Promise<number> {
  const crdName = positional[0];
  if (!crdName || positional.length > 1) {
    process.stderr.write(`migrate-storage needs exactly one CRD name\n${USAGE}`);
    return 2;
  }
  const kubeconfig = flags.get('kubeconfig') ?? process.env['KUBECONFIG']?.split(':')[0] ?? `${process.env['HOME'] ?? ''}/.kube/config`;
  const chunkSize = flags.has('chunk-size') ? Number(flags.get('chunk-size')) : undefined;
  if (chunkSize !== undefined && (!Number.isInteger(chunkSize) || chunkSize < 1)) throw new Error(`invalid --chunk-size: ${flags.get('chunk-size')}`);
  await migrateStorage({ conn: connectionFromKubeconfig(kubeconfig), crdName, chunkSize, log: (l) => process.stdout.write(`${l}\n`) });
  return 0;
}


// `crd-apiserver serve`: embedded storage in a data directory, TLS with generated certificates,
// and a kubeconfig for kubectl.
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { openSqliteStore, type SqliteStore } from '../storage/sqlite-store.js';
import type { StorageSync } from '../storage/sqlite-schema.js';
import { CachedKVStore } from '../storage/cache.js';
import { openEtcdStore, type EtcdStoreOptions } from '../storage/etcd-store.js';
import { ensureCertificates } from '../auth/certs.js';
import { writeKubeconfig } from '../auth/kubeconfig.js';
import { serviceAccountKeysOrDeferred, type ServiceAccountKeys } from '../auth/service-account-keys.js';
import { startServer, type AuthorizationMode, type RunningServer, type ServiceAccountTokenOptions } from '../server/server.js';
import type { ServiceResolver } from '../conversion/types.js';
import type { TokenTable } from '../auth/authenticate.js';
import type { AuthorizerHooks } from '../auth/authorize.js';
import type { KVStore } from '../storage/types.js';
import { clusterLocalKey } from '../storage/prefixed-store.js';
import { loadEncryptionConfig, type GroupResource } from '../storage/encryption/config.js';
import { EncryptingKVStore } from '../storage/encryption/encrypting-store.js';
import { keyTransformerLookup } from '../storage/encryption/resource-keys.js';
import { etcdValueCodec, type EtcdValueCodec } from '../storage/etcd-value-codec.js';
import type { KeyTransformerLookup } from '../storage/encryption/encrypting-store.js';
import { protobufStorageCodecs } from '../server/protobuf-storage.js';
import { CRD_KEY_PREFIX, storedCRDCodec } from '../server/stored-crds.js';
import { BUILTIN_KINDS } from '../apis/index.js';
import type { LeaderElectionConfig } from '../controllers/leader-election.js';
import { auditFromFlags, type AuditFlags } from './audit-options.js';
import { setUpJwtAuthentication, type JwtAuthenticationOptions } from '../auth/jwt-authentication.js';
import type { OidcFlags } from '../auth/authentication-config.js';
import { DEFAULT_ISSUER } from '../auth/service-account-token.js';

import { listenForSnapshots, SNAPSHOT_SOCKET, type SnapshotListener } from './snapshot-socket.js';
import type { Logger } from '../util/klog.js';
import { checkHeapGrowingPercent, limitHeapGrowth } from '../util/heap-growth.js';

export type { AuditFlags };

export const STORAGE_MEDIA_TYPES = ['application/vnd.kubernetes.protobuf', 'application/json'] as const;
export type StorageMediaType = (typeof STORAGE_MEDIA_TYPES)[number];

export interface ServeOptions {
  /** Certificates and the kubeconfig, and the SQLite state unless etcd is given. */
  dataDir: string;
  /**
   * Called as soon as the listeners are open, before any request is taken (the command line's code cache is made
   * then, so that a server stopped right after its first /readyz still leaves one).
   */
  onListening?: () => void;
  /** Called once, a turn after the first response has been written (the command line's code cache is made again then). */
  onFirstResponse?: () => void;
  /**
   * V8's heap growth from the first response on (after onFirstResponse): the old generation grows to at most
   * 1 + percent/100 times what the last full collection left live (src/util/heap-growth.ts). Process-wide: the
   * command line gives HEAP_GROWING_PERCENT (twice the live heap, as kube-apiserver's Go collector); unset, V8's own.
   */
  heapGrowingPercent?: number;
  /** --storage etcd: state in etcd instead of SQLite in the data directory (--etcd-servers and friends). */
  etcd?: EtcdStoreOptions;
  securePort: number;
  insecurePort?: number;
  bindAddress: string;
  /** Extra names and addresses for the serving certificate. */
  hosts: string[];
  /** Where webhook service references are reached (default: `<name>.<namespace>.svc`). */
  serviceResolver?: ServiceResolver;
  /** Bearer tokens accepted on the secure port (--token-auth-file). */
  tokens?: TokenTable;
  /** --client-ca-file: PEM CA certificates whose client certificates authenticate, besides the server's own CA. */
  clientCaFile?: string;
  /** The authorizer instead of the one --authorization-mode makes; tests give their own. */
  authorizer?: AuthorizerHooks;
  /** Whether requests without credentials are system:anonymous (default) or refused (--anonymous-auth=false). */
  anonymousAuth?: boolean;
  /** Whether --anonymous-auth was given on the command line (it excludes the configuration file's anonymous). */
  anonymousAuthFlagSet?: boolean;
  /** --authentication-config: an AuthenticationConfiguration file (JWT authenticators, anonymous), reloaded when it changes. */
  authenticationConfig?: string;
  /** The --oidc-* flags, and whether any was given (they exclude --authentication-config). */
  oidc?: OidcFlags;
  oidcFlagsSet?: boolean;
  /** Tunables of the JWT authenticators and of the configuration's reloading (tests shorten them). */
  jwtAuthentication?: Pick<JwtAuthenticationOptions, 'reloadIntervalMs' | 'reloadTimeoutMs' | 'authenticator' | 'log'>;
  /** --authorization-mode (default RBAC). */
  authorizationModes?: readonly AuthorizationMode[];
  /** Watches last between this and twice this (kube's --min-request-timeout; tests shorten it). */
  minRequestTimeoutSeconds?: number;
  /** How often watches that asked for bookmarks get one (tests shorten it). */
  bookmarkIntervalMs?: number;
  /** How long events are kept after their last write (--event-ttl). */
  eventTtlMs?: number;
  /** --logical-clusters (default true) and --logical-cluster-idle-timeout. */
  logicalClusters?: boolean;
  logicalClusterIdleTimeoutMs?: number;
  /** How long a request other than a watch may take (--request-timeout). */
  requestTimeoutMs?: number;
  /** --max-requests-inflight, --max-mutating-requests-inflight. */
  maxRequestsInFlight?: number;
  maxMutatingRequestsInFlight?: number;
  /** --enable-priority-and-fairness (default true). */
  enablePriorityAndFairness?: boolean;
  /** --max-connections: open connections per listener (0: no limit). */
  maxConnections?: number;
  /** fsync per commit ('full', default) or only at checkpoints ('normal', --storage-sync); see StorageSync. */
  storageSync?: StorageSync;
  /**
   * --storage-media-type: how built-in kinds are stored in etcd (kube's default, protobuf, or JSON). Custom
   * resources and CRDs are JSON either way, and SQLite stores JSON.
   */
  storageMediaType?: StorageMediaType;
  /** kube's --tls-min-version and --tls-cipher-suites (Go's names). */
  tlsMinVersion?: string;
  tlsCipherSuites?: string[];
  /** --service-account-issuer, --api-audiences, --service-account-max-token-expiration (seconds). */
  serviceAccountTokens?: Omit<ServiceAccountTokenOptions, 'keys'>;
  /** --service-account-signing-key-file; default: <dataDir>/pki/sa.key, generated on first start. */
  serviceAccountSigningKeyFile?: string;
  /** --service-account-key-file: further PEM files of keys that verify tokens. */
  serviceAccountKeyFiles?: string[];
  /** --encryption-provider-config: an EncryptionConfiguration file; values of the resources it names are stored encrypted. */
  encryptionProviderConfig?: string;
  /** Time between passes of the APF bootstrap configuration ensurer (one minute; tests shorten it). */
  apfEnsureIntervalMs?: number;
  /** --leader-elect and its timings: the writing controllers run while this replica holds their Lease. */
  leaderElection?: LeaderElectionConfig;
  /** --audit-policy-file, --audit-log-* (path, rotation, mode, batching) and --audit-webhook-*. */
  audit?: AuditFlags;
  /** kube's -v and --logging-format: at -v=3 a line per request, as text (default) or JSON, on stderr. */
  logger?: Logger;
}

export interface Served {
  server: RunningServer;
  /** The JWT authenticators and the configuration file's reloading, when configured. */
  jwt?: ReturnType<typeof setUpJwtAuthentication>;
  /** The storage the server runs on (the watch cache over SQLite or etcd); tests compact it and read it directly. */
  kv: KVStore;
  kubeconfigPath: string;
  close(): Promise<void>;
}

/** Built-in kinds' storage key prefixes and the group-resource encryption rules name them by (their storage group). */
export function builtinKeyPrefixes(): Map<string, GroupResource> {
  const out = new Map<string, GroupResource>();
  for (const k of BUILTIN_KINDS) {
    if (k.createOnly || out.has(k.keyPrefix)) continue;
    out.set(k.keyPrefix, { group: k.storageGroup ?? k.served.group, resource: k.served.resource });
  }
  return out;
}

/** The bytes of values in etcd, as kube-apiserver writes them (see storage/etcd-value-codec.ts). */
export function etcdCodec(mediaType: StorageMediaType = STORAGE_MEDIA_TYPES[0], transformers?: KeyTransformerLookup): EtcdValueCodec {
  const protobuf = protobufStorageCodecs({ write: mediaType !== 'application/json' });
  // CRDs are JSON either way, at v1beta1 as kube-apiserver stores them. A logical cluster's keys are root's layout
  // under `/clusters/<name>`, and encoded alike.
  const objects = (key: string) => {
    const local = clusterLocalKey(key);
    return local.startsWith(CRD_KEY_PREFIX) ? storedCRDCodec : protobuf(local);
  };
  return etcdValueCodec({ objects, transformers });
}

/** What the first response sets off: the caller's (the code cache made again), then the heap growth limit. */
function firstResponse(opts: ServeOptions): (() => void) | undefined {
  const { onFirstResponse, heapGrowingPercent } = opts;
  if (heapGrowingPercent === undefined) return onFirstResponse;
  return () => {
    onFirstResponse?.();
    limitHeapGrowth(heapGrowingPercent);
  };
}

export async function serve(opts: ServeOptions): Promise<Served> {
  // Refused before anything starts, as kube-apiserver refuses an invalid configuration.
  if (opts.heapGrowingPercent !== undefined) checkHeapGrowingPercent(opts.heapGrowingPercent);
  const jwt = setUpJwtAuthentication({
    configFile: opts.authenticationConfig,
    oidc: opts.oidc,
    oidcFlagsSet: opts.oidcFlagsSet,
    anonymousFlagSet: opts.anonymousAuthFlagSet,
    serviceAccountIssuers: opts.serviceAccountTokens?.issuers?.length ? opts.serviceAccountTokens.issuers : [DEFAULT_ISSUER],
    ...opts.jwtAuthentication,
  });
  try {
    return await serveWith(opts, jwt);
  } catch (e) {
    jwt?.close();
    throw e;
  }
}

async function serveWith(opts: ServeOptions, jwt: Served['jwt']): Promise<Served> {
  const audit = auditFromFlags(opts.audit);
  const dataDir = resolve(opts.dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // Current reads are served from memory; writes, watches and older revisions go to SQLite or etcd. The cache
  // loads in the background (below), as kube-apiserver's watch caches initialize without holding readiness: until
  // it has loaded and caught up, reads go to the store.
  // Encryption at rest sits under the cache: the cache and everything above it hold plaintext.
  // On etcd, values are stored as kube-apiserver stores them: built-in kinds as protobuf, then encrypted
  // (raw ciphertext), both in the etcd store's value codec. SQLite stores JSON, encrypted above it as text.
  const transformers = opts.encryptionProviderConfig
    ? keyTransformerLookup(loadEncryptionConfig(opts.encryptionProviderConfig, opts.etcd !== undefined), builtinKeyPrefixes())
    : undefined;
  let kv: CachedKVStore;
  let sqlite: SqliteStore | undefined;
  if (opts.etcd) {
    const codec = etcdCodec(opts.storageMediaType, transformers);
    // etcd may have other writers (replicas): its current reads check the cache against etcd's revision, and
    // watches are served from the cache.
    kv = new CachedKVStore(await openEtcdStore({ ...opts.etcd, codec }), { sharedStore: true, serveWatches: true });
  } else {
    // No ring of its own: the watch cache in front keeps the recent events (see eventRingSize).
    sqlite = openSqliteStore(join(dataDir, 'state.db'), { sync: opts.storageSync ?? 'full', eventRingSize: 0 });
    kv = new CachedKVStore(transformers ? new EncryptingKVStore(sqlite, transformers) : sqlite);
  }
  // Start-up's own writes (a first start's bootstrap objects) are synced once, before the listeners open.
  const syncStartupWrites = sqlite?.deferSyncs();
  // A first start's service-account key is made by the first request that needs it (a token, the key set); keys
  // read from files are there before the server starts, so that a file that cannot be read fails the start.
  const saKeysOrDeferred = serviceAccountKeysOrDeferred(dataDir, { signingKeyFile: opts.serviceAccountSigningKeyFile, keyFiles: opts.serviceAccountKeyFiles });
  // Handled where it is awaited (below); this only keeps a failure meanwhile from being unhandled.
  if (saKeysOrDeferred instanceof Promise) saKeysOrDeferred.catch(() => {});
  const certs = await ensureCertificates(dataDir, { hosts: [opts.bindAddress, ...opts.hosts] });
  // The latest making of a deferred key (the server asks again after a failed one): close lets it finish, as it
  // writes into the data dir.
  let made: Promise<ServiceAccountKeys> | undefined;
  const saKeys = saKeysOrDeferred instanceof Promise ? await saKeysOrDeferred : { verifying: saKeysOrDeferred.verifying, make: () => (made = saKeysOrDeferred.make()) };
  const server = await startServer({
    kv,
    // Client certificates from the server's CA (the kubeconfig's admin) and from --client-ca-file's CAs.
    tls: { cert: certs.serverCert, key: certs.serverKey, ca: opts.clientCaFile ? [certs.caCert, readFileSync(opts.clientCaFile, 'utf8')] : certs.caCert, minVersion: opts.tlsMinVersion, cipherSuites: opts.tlsCipherSuites },
    securePort: opts.securePort,
    insecurePort: opts.insecurePort,
    bindAddress: opts.bindAddress,
    serviceResolver: opts.serviceResolver,
    tokens: opts.tokens,
    // The configuration file's anonymous section, when it has one, stands for --anonymous-auth.
    anonymousAuth: jwt?.anonymous ? jwt.anonymous.enabled : opts.anonymousAuth,
    anonymousPaths: jwt?.anonymous?.conditions?.length ? jwt.anonymous.conditions.map((c) => c.path) : undefined,
    jwt: jwt?.authenticators,
    authorizationModes: opts.authorizationModes,
    authorizer: opts.authorizer,
    minRequestTimeoutSeconds: opts.minRequestTimeoutSeconds,
    bookmarkIntervalMs: opts.bookmarkIntervalMs,
    eventTtlMs: opts.eventTtlMs,
    logicalClusters: opts.logicalClusters,
    logicalClusterIdleTimeoutMs: opts.logicalClusterIdleTimeoutMs,
    requestTimeoutMs: opts.requestTimeoutMs,
    maxRequestsInFlight: opts.maxRequestsInFlight,
    maxMutatingRequestsInFlight: opts.maxMutatingRequestsInFlight,
    enablePriorityAndFairness: opts.enablePriorityAndFairness,
    serviceAccountTokens: { ...opts.serviceAccountTokens, keys: saKeys },
    apfEnsureIntervalMs: opts.apfEnsureIntervalMs,
    maxConnections: opts.maxConnections,
    leaderElection: opts.leaderElection,
    audit,
    logger: opts.logger,
    beforeListening: syncStartupWrites,
    onFirstResponse: firstResponse(opts),
  });
  // Synchronously: startServer's listeners opened within this turn, so no request has been taken yet.
  opts.onListening?.();
  // Loaded once the listeners are up: start-up's own reads are few and small, and each step of it that waits
  // for I/O would otherwise wait behind a page of the load too.
  kv.startLoading();
  // `snapshot save` asks the server for a copy: no other process can read the locked database (see snapshot-socket.ts).
  const snapshots = sqlite ? await snapshotListener(join(dataDir, SNAPSHOT_SOCKET), sqlite) : undefined;
  const kubeconfigPath = join(dataDir, 'kubeconfig');
  const serverUrl = server.secureUrl!.replace('//0.0.0.0:', '//127.0.0.1:').replace('//[::]:', '//127.0.0.1:');
  await writeKubeconfig(kubeconfigPath, {
    server: serverUrl,
    caPem: certs.caCert,
    clientCertPem: certs.adminCert,
    clientKeyPem: certs.adminKey,
  });
  return {
    server,
    kv,
    kubeconfigPath,
    jwt,
    close: async () => {
      jwt?.close();
      await made?.catch(() => {});
      await snapshots?.close();
      await server.close();
      await kv.close();
    },
  };
}

/** The snapshot socket; serving goes on without it (with a warning) when it cannot listen, e.g. on a path too long for a socket. */
async function snapshotListener(path: string, store: SqliteStore): Promise<SnapshotListener | undefined> {
  try {
    return await listenForSnapshots(path, (dest) => store.backup(dest));
  } catch (err) {
    process.stderr.write(`warning: snapshot save will not reach this server: cannot listen on ${path}: ${err instanceof Error ? err.message : String(err)}\n`);
    return undefined;
  }
}

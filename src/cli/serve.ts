// `crd-apiserver serve`: embedded storage in a data directory, TLS with generated certificates,
// and a kubeconfig for kubectl.
import { mkdirSync, readFileSync } from 'node:fs';
import { resolve, join } from 'node:path';
import { openSqliteStore, type SqliteStore } from '../storage/sqlite-store.js';
import type { StorageSync } from '../storage/sqlite-schema.js';
import { createCachedStore } from '../storage/cache.js';
import { openEtcdStore, type EtcdStoreOptions } from '../storage/etcd-store.js';
import { ensureCertificates } from '../auth/certs.js';
import { writeKubeconfig } from '../auth/kubeconfig.js';
import { loadServiceAccountKeys } from '../auth/service-account-keys.js';
import { startServer, type AuthorizationMode, type RunningServer, type ServiceAccountTokenOptions } from '../server/server.js';
import type { ServiceResolver } from '../conversion/types.js';
import type { TokenTable } from '../auth/authenticate.js';
import type { AuthorizerHooks } from '../auth/authorize.js';
import type { KVStore } from '../storage/types.js';
import { loadEncryptionConfig, type GroupResource } from '../storage/encryption/config.js';
import { EncryptingKVStore } from '../storage/encryption/encrypting-store.js';
import { keyTransformerLookup } from '../storage/encryption/resource-keys.js';
import { BUILTIN_KINDS } from '../apis/index.js';
import { parsePolicy, type Policy } from '../audit/policy.js';
import { openLogWriter, type LogWriter } from '../audit/log-writer.js';
import { listenForSnapshots, SNAPSHOT_SOCKET, type SnapshotListener } from './snapshot-socket.js';

export interface ServeOptions {
  /** Certificates and the kubeconfig, and the SQLite state unless etcd is given. */
  dataDir: string;
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
  /** --authorization-mode (default RBAC). */
  authorizationModes?: readonly AuthorizationMode[];
  /** Watches last between this and twice this (kube's --min-request-timeout; tests shorten it). */
  minRequestTimeoutSeconds?: number;
  /** How often watches that asked for bookmarks get one (tests shorten it). */
  bookmarkIntervalMs?: number;
  /** How long events are kept after their last write (--event-ttl). */
  eventTtlMs?: number;
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
  /** --audit-policy-file, --audit-log-path ('-': stdout), --audit-log-maxsize (MB), --audit-log-maxbackup, --audit-log-maxage (days). */
  audit?: AuditFlags;
}

export interface AuditFlags {
  policyFile?: string;
  logPath?: string;
  maxSizeMB?: number;
  maxBackups?: number;
  maxAgeDays?: number;
}

/** kube's audit options: a policy and a log path together make the log backend; either alone audits nothing. */
function auditBackend(f: AuditFlags | undefined): { policy: Policy; writer: LogWriter } | undefined {
  if (!f?.policyFile || !f.logPath) return undefined;
  const policy = parsePolicy(readFileSync(f.policyFile, 'utf8'));
  if ('error' in policy) throw new Error(`loading audit policy file: ${policy.error}`);
  const writer: LogWriter =
    f.logPath === '-'
      ? { write: (l) => void process.stdout.write(l + '\n'), flush: async () => {}, close: async () => {} }
      : openLogWriter({ path: f.logPath, maxSizeBytes: (f.maxSizeMB ?? 0) * 1024 * 1024, maxBackups: f.maxBackups, maxAgeDays: f.maxAgeDays });
  return { policy, writer };
}

export interface Served {
  server: RunningServer;
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

export async function serve(opts: ServeOptions): Promise<Served> {
  const audit = auditBackend(opts.audit);
  const dataDir = resolve(opts.dataDir);
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  // Current reads are served from memory; writes, watches and older revisions go to SQLite or etcd.
  // Encryption at rest sits under the cache: the cache and everything above it hold plaintext.
  const transformers = opts.encryptionProviderConfig ? keyTransformerLookup(loadEncryptionConfig(opts.encryptionProviderConfig), builtinKeyPrefixes()) : undefined;
  const sqlite = opts.etcd ? undefined : openSqliteStore(join(dataDir, 'state.db'), { sync: opts.storageSync ?? 'full' });
  const inner = sqlite ?? (await openEtcdStore(opts.etcd!));
  const kv = await createCachedStore(transformers ? new EncryptingKVStore(inner, transformers) : inner);
  const [certs, saKeys] = await Promise.all([
    ensureCertificates(dataDir, { hosts: [opts.bindAddress, ...opts.hosts] }),
    loadServiceAccountKeys(dataDir, { signingKeyFile: opts.serviceAccountSigningKeyFile, keyFiles: opts.serviceAccountKeyFiles }),
  ]);
  const server = await startServer({
    kv,
    // Client certificates from the server's CA (the kubeconfig's admin) and from --client-ca-file's CAs.
    tls: { cert: certs.serverCert, key: certs.serverKey, ca: opts.clientCaFile ? [certs.caCert, readFileSync(opts.clientCaFile, 'utf8')] : certs.caCert, minVersion: opts.tlsMinVersion, cipherSuites: opts.tlsCipherSuites },
    securePort: opts.securePort,
    insecurePort: opts.insecurePort,
    bindAddress: opts.bindAddress,
    serviceResolver: opts.serviceResolver,
    tokens: opts.tokens,
    anonymousAuth: opts.anonymousAuth,
    authorizationModes: opts.authorizationModes,
    authorizer: opts.authorizer,
    minRequestTimeoutSeconds: opts.minRequestTimeoutSeconds,
    bookmarkIntervalMs: opts.bookmarkIntervalMs,
    eventTtlMs: opts.eventTtlMs,
    requestTimeoutMs: opts.requestTimeoutMs,
    maxRequestsInFlight: opts.maxRequestsInFlight,
    maxMutatingRequestsInFlight: opts.maxMutatingRequestsInFlight,
    enablePriorityAndFairness: opts.enablePriorityAndFairness,
    serviceAccountTokens: { ...opts.serviceAccountTokens, keys: saKeys },
    apfEnsureIntervalMs: opts.apfEnsureIntervalMs,
    maxConnections: opts.maxConnections,
    audit,
  });
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
    close: async () => {
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

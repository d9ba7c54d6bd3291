// The command line's help text: what each command does, and each command's flags (flags.ts holds their kinds;
// test/cli/flags.test.ts checks that the two name the same flags).

const COMMANDS = `Usage: crd-apiserver <command> [flags]

Commands:
  serve                  Serve the Kubernetes API for CustomResourceDefinitions.
  migrate-storage CRD    Rewrite every object of a CRD at its storage version, then set
                         status.storedVersions to that version alone (works against any API server).
  migrate-backend --from SRC --to DST
                         Copy the whole state between storage backends: SRC and DST are each a data directory
                         (SQLite; the server on it must be stopped) or etcd client URLs (http[s]://HOST:PORT[,...]).
  snapshot save FILE     A consistent copy of a data directory's SQLite state, also while the server serves it.
  snapshot restore FILE  Make FILE (from snapshot save) the state of a data directory.
  validate -f PATH       Judge manifests offline exactly as the server would judge their creation (with --crds
                         and any CRDs among them installed first); exit code 1 when one is invalid.
  envtest --crds PATH    A server for a test suite in any language (envtest's control plane): state in memory,
                         CRDs installed and Established, prints export KUBECONFIG=..., runs until stopped.
  kubeconfig --user NAME A kubeconfig for another identity: a client certificate from the data directory's CA.
  cluster create NAME    A logical cluster: an isolated API served under /clusters/NAME/ (waits until Ready).
  cluster delete NAME    Delete a logical cluster and everything in it (waits until it is gone).
  cluster kubeconfig NAME
                         A copy of the kubeconfig whose server URL ends in /clusters/NAME.
`;

/** Each command's flags, as --help shows them. */
export const FLAGS_HELP: Readonly<Record<string, string>> = {
  serve: `  --data-dir DIR         where state, certificates and the kubeconfig live (default ./.crd-apiserver)
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
  --logical-clusters     serve logical clusters under /clusters/<name>/ (LogicalClusters in root; default true)
  --logical-cluster-idle-timeout DURATION
                         stop a logical cluster's server after this long without requests, until the next one
                         (default 10m; 0: never)
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
  --audit-log-mode M     blocking (default), blocking-strict or batch (the batch flags below apply)
  --audit-webhook-config-file PATH
                         a kubeconfig naming the audit webhook: batches of events are POSTed to it as an EventList
  --audit-webhook-mode M batch (default; never holds a request), blocking, or blocking-strict (a request whose
                         RequestReceived event cannot be sent fails with 500)
  --audit-webhook-initial-backoff DURATION
                         wait before the first retry of a failed POST (default 10s; ×1.5 each retry, 5 attempts)
  --audit-{log,webhook}-version V
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
  -v, --v N              log verbosity, as kube's levels: at 3 and above one line per request on stderr, in the
                         shape of kube-apiserver's httplog (default 0)
  --logging-format F     text (default: klog's lines) or json (component-base's JSON lines)
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
`,
  'migrate-backend': `  --force                delete whatever the target holds first (default: refuse a target holding any key)
  --chunk-size N         keys per page read from the source (default 500)
  --encryption-provider-config PATH
                         decrypt values with this EncryptionConfiguration on reading and encrypt them with its
                         first provider on writing (default: values are copied as stored, encrypted or not)
  --from-encryption-provider-config PATH, --to-encryption-provider-config PATH
                         the same for one side only (e.g. decrypt the source, write the target as plaintext)
  --etcd-prefix, --etcd-cafile, --etcd-certfile, --etcd-keyfile
                         as for serve, for whichever side is etcd
  --from-etcd-prefix, --from-etcd-cafile, --from-etcd-certfile, --from-etcd-keyfile,
  --to-etcd-prefix, --to-etcd-cafile, --to-etcd-certfile, --to-etcd-keyfile
                         the same for one side only
`,
  snapshot: `  --data-dir DIR         the data directory (default ./.crd-apiserver)
  --force                restore: replace the state the data directory holds (default: refuse a non-empty one)
`,
  validate: `  -f, --filename PATH    manifests to judge: a file, a directory (recursive: .yaml, .yml, .json) or - for
                         standard input (repeatable; multi-document YAML and Lists)
  --crds PATH            CRD manifests to install before judging (repeatable); CRDs among the -f files are
                         installed too, for the objects after them
  --field-validation V   Strict (default, as kubectl), Warn or Ignore: unknown and duplicate fields
  -o, --output F         text (default: file:line:column: kind name: field: message) or json
`,
  envtest: `  --crds PATH[,PATH]     CRD manifests: files or directories (recursive), YAML or JSON (repeatable)
  --crd-install-timeout DURATION
                         how long the CRDs may take to be Established (default 10s; exit code 1 after it)
  --port N               the HTTPS port (default: a free one)
  --webhook-config PATH[,PATH]
                         webhook configuration manifests to install, pointed at a local webhook server with a
                         CA and serving certificate made for it (written to a directory the output names)
  --webhook-host HOST    where that webhook server listens (default 127.0.0.1)
  --webhook-port N       its port (default: a free one, printed)
`,
  kubeconfig: `  --user NAME            the user (the certificate's CN; required)
  --group G              a group (an O of the certificate; repeatable)
  --out FILE             where to write it (default: standard output)
  --data-dir DIR         whose CA signs it and whose server it names (default ./.crd-apiserver)
  --server URL           the server's URL (default: the one in the data directory's kubeconfig)
`,
  cluster: `  --data-dir DIR         whose kubeconfig to use (default ./.crd-apiserver)
  --kubeconfig PATH      the root server's kubeconfig (default: the data directory's)
  --out FILE             cluster kubeconfig: where to write it (default: standard output)
  --timeout DURATION     how long create and delete wait (default 1m)
`,
  'migrate-storage': `  --kubeconfig PATH      the API server to talk to (default $KUBECONFIG, then ~/.kube/config)
  --chunk-size N         objects per list request (default 500)
`,
};

const GLOBAL_FLAGS = `Flags for every command:
  --help                 show this help (crd-apiserver <command> --help: that command's)
  --version              print the version and exit
`;

/** The whole help, or one command's. */
export function usage(command?: string): string {
  if (command && FLAGS_HELP[command] !== undefined) {
    return `Usage: crd-apiserver ${command} [flags]\n\nFlags for ${command}:\n${FLAGS_HELP[command]}\n${GLOBAL_FLAGS}`;
  }
  const sections = Object.entries(FLAGS_HELP).map(([c, text]) => `Flags for ${c}:\n${text}`);
  return `${COMMANDS}\n${sections.join('\n')}\n${GLOBAL_FLAGS}`;
}

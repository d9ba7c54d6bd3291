// Our server in its own process, assembled as `crd-apiserver serve` does (SQLite in the data dir,
// TLS port with generated certificates), plus the plain HTTP port the benchmark talks to.
// Receives { dataDir, tokens?, apf?, etcd?, maxConnections? } over IPC (etcd: client URLs, for `--storage etcd`), replies { url, secureUrl }; on 'close' shuts down cleanly (so a --cpu-prof
// profile is written) and exits.
import { serve } from '../dist/index.js';
import { parseTokenFile } from '../dist/auth/authenticate.js';
import { HEAP_GROWING_PERCENT } from '../dist/util/heap-growth.js';

// Never outlive the benchmark (it may have failed or been interrupted).
process.on('disconnect', () => process.exit(1));

// `tokens` authenticate bearer tokens on the secure port, whose URL is replied too: the text of a
// --token-auth-file, or [token, { name, groups }] pairs as one would give them.
// `apf: false` (or BENCH_APF=0 for every server) serves without API Priority and Fairness (max-in-flight limits instead).
process.once('message', async ({ dataDir, tokens, apf, etcd, maxConnections }) => {
  // BENCH_STORAGE_SYNC=normal measures the faster, less durable mode (the default is full).
  const storageSync = process.env.BENCH_STORAGE_SYNC || undefined;
  const enablePriorityAndFairness = apf ?? process.env.BENCH_APF !== '0';
  const tokenTable = typeof tokens === 'string' ? parseTokenFile(tokens) : tokens ? new Map(tokens) : undefined;
  const etcdOptions = etcd ? { servers: etcd, prefix: '/registry', compactionIntervalMs: 5 * 60_000 } : undefined;
  // The heap growth limit the command line sets (BENCH_HEAP_GROWING_PERCENT=0: V8's own growth).
  const heapPercent = Number(process.env.BENCH_HEAP_GROWING_PERCENT ?? HEAP_GROWING_PERCENT);
  const heapGrowingPercent = heapPercent > 0 ? heapPercent : undefined;
  const s = await serve({ dataDir, securePort: 0, insecurePort: 0, bindAddress: '127.0.0.1', hosts: [], storageSync, enablePriorityAndFairness, tokens: tokenTable, etcd: etcdOptions, maxConnections, heapGrowingPercent });
  process.send({ url: s.server.insecureUrl, secureUrl: s.server.secureUrl });
  process.on('message', async (m) => {
    if (m !== 'close') return;
    await s.close();
    process.exit(0);
  });
});

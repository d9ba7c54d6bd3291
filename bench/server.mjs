// Our server in its own process, assembled as `crd-apiserver serve` does (SQLite in the data dir,
// TLS port with generated certificates), plus the plain HTTP port the benchmark talks to.
// Receives { dataDir, tokens? } over IPC, replies { url, secureUrl }; on 'close' shuts down cleanly (so a --cpu-prof
// profile is written) and exits.
import { serve } from '../dist/index.js';

// Never outlive the benchmark (it may have failed or been interrupted).
process.on('disconnect', () => process.exit(1));

process.once('message', async ({ dataDir, tokens }) => {
  // BENCH_STORAGE_SYNC=normal measures the faster, less durable mode (the default is full).
  const storageSync = process.env.BENCH_STORAGE_SYNC || undefined;
  // tokens: [token, { name, groups }] pairs, as --token-auth-file would give them, for clients of the TLS port.
  const s = await serve({ dataDir, securePort: 0, insecurePort: 0, bindAddress: '127.0.0.1', hosts: [], storageSync, tokens: tokens && new Map(tokens) });
  process.send({ url: s.server.insecureUrl, secureUrl: s.server.secureUrl });
  process.on('message', async (m) => {
    if (m !== 'close') return;
    await s.close();
    process.exit(0);
  });
});

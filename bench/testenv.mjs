// The test kit's figures (issue 20): startTestEnv with 20 corpus CRDs installed and Established, and reset()
// with 1,000 objects to remove, medians of runs, in a process of its own. Goals: start plus install ≤ 1 s,
// reset ≤ 50 ms.
import { mkdtempSync, readdirSync, rmSync, copyFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestEnv } from '../dist/testing/entry.js';

const CORPUS = new URL('../../shared/corpus/', import.meta.url);

/** The first 20 corpus CRDs (by project, then file name), copied into one directory. */
function twentyCrds() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-testenv-crds-'));
  const files = readdirSync(CORPUS, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .flatMap((p) => {
      try {
        return readdirSync(new URL(`${p}/crds/`, CORPUS)).filter((f) => /\.ya?ml$/.test(f)).sort().map((f) => new URL(`${p}/crds/${f}`, CORPUS));
      } catch {
        return [];
      }
    })
    .slice(0, 20);
  files.forEach((f, i) => copyFileSync(f, join(dir, `${String(i).padStart(2, '0')}.yaml`)));
  return { dir, count: files.length };
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

process.once('message', async ({ runs = 3 }) => {
  const crds = twentyCrds();
  try {
    const starts = [];
    const resets = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const env = await startTestEnv({ crds: [crds.dir] });
      starts.push(performance.now() - t0);
      try {
        const kc = await env.kubeConfig();
        const { CoreV1Api } = await import('@kubernetes/client-node');
        const core = kc.makeApiClient(CoreV1Api);
        await core.createNamespace({ body: { metadata: { name: 'bench' } } });
        for (let j = 0; j < 1000; j += 50) {
          await Promise.all(Array.from({ length: 50 }, (_, k) => core.createNamespacedConfigMap({ namespace: 'bench', body: { metadata: { name: `cm-${j + k}` }, data: { a: 'b' } } })));
        }
        const t1 = performance.now();
        await env.reset();
        resets.push(performance.now() - t1);
      } finally {
        await env.stop();
      }
    }
    // isolation: 'cluster': a new logical cluster in a shared server per environment. The first starts the
    // server (kept running by an environment held open throughout); the figure is the later ones'.
    const holder = await startTestEnv({ isolation: 'cluster' });
    const clusterStarts = [];
    try {
      for (let i = 0; i < runs; i++) {
        const t0 = performance.now();
        const env = await startTestEnv({ crds: [crds.dir], isolation: 'cluster' });
        clusterStarts.push(performance.now() - t0);
        await env.stop();
      }
    } finally {
      await holder.stop();
    }
    process.send({ crds: crds.count, starts, resets, start: median(starts), reset: median(resets), clusterStarts, clusterStart: median(clusterStarts) });
  } catch (err) {
    process.send({ error: String(err?.stack ?? err) });
  } finally {
    rmSync(crds.dir, { recursive: true, force: true });
  }
});
process.on('message', (m) => {
  if (m === 'close') process.exit(0);
});

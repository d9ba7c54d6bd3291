// Many-CRDs install figures (issue 19): corpus CRDs with renamed groups created through the API, sequentially
// and concurrently, with the time from each create to its Established condition as a watch sees it.
// Run: npm run build && node bench/crd-install.mjs [count] [concurrency]   (in-process; add --cpu-prof to profile)
import { request, Agent } from 'node:https';
import { startTestEnv } from '../dist/testing/index.js';
import { corpusCrds } from './corpus-crds.mjs';
import { startProfile } from './util.mjs';

export { corpusCrds };

/**
 * n CRDs: the corpus over and over, each copy in a group of its own. With `distinct`, every copy's schemas also
 * differ (a description of their root), as the CRDs of many different providers do: no schema is checked twice.
 */
export function renamed(corpus, n, tag = 'r', distinct = false) {
  return Array.from({ length: n }, (_, i) => {
    const crd = structuredClone(corpus[i % corpus.length]);
    const group = `${tag}${i}.${crd.spec.group}`;
    crd.spec.group = group;
    if (distinct) {
      for (const v of crd.spec.versions ?? []) {
        const root = v.schema?.openAPIV3Schema;
        if (root) root.description = `${root.description ?? ''} (copy ${i})`;
      }
    }
    // Annotations kept: groups under k8s.io need their api-approved.kubernetes.io.
    crd.metadata = { name: `${crd.spec.names.plural}.${group}`, ...(crd.metadata?.annotations ? { annotations: crd.metadata.annotations } : {}) };
    delete crd.status;
    return crd;
  });
}

function client(env) {
  const field = (k) => Buffer.from(new RegExp(`${k}: (\\S+)`).exec(env.kubeconfig)[1], 'base64').toString();
  const tls = { ca: field('certificate-authority-data'), cert: field('client-certificate-data'), key: field('client-key-data'), agent: new Agent({ keepAlive: true, maxSockets: 64 }) };
  const call = (method, path, body, onData) =>
    new Promise((resolve, reject) => {
      const req = request(new URL(path, env.url), { method, ...tls, headers: body ? { 'content-type': 'application/json' } : {} }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => (onData ? onData(d) : (text += d)));
        res.on('end', () => resolve({ status: res.statusCode, text }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body ? JSON.stringify(body) : undefined);
    });
  return { call };
}

/** Times of Established, by CRD name, from a watch on CRDs. */
function watchEstablished(c) {
  const established = new Map();
  // A line's chunks until its newline (events are whole CRDs, hundreds of KB: looking for the newline in what
  // came before each chunk again made the client's share of an in-process run grow with the square of the size).
  let chunks = [];
  const waiters = [];
  void c.call('GET', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions?watch=1', undefined, (d) => {
    let i;
    while ((i = d.indexOf('\n')) >= 0) {
      chunks.push(d.slice(0, i));
      const line = chunks.join('');
      chunks = [];
      d = d.slice(i + 1);
      const ev = JSON.parse(line);
      const name = ev.object?.metadata?.name;
      if (!established.has(name) && ev.object?.status?.conditions?.some((x) => x.type === 'Established' && x.status === 'True')) {
        established.set(name, performance.now());
        for (const w of [...waiters]) w();
      }
    }
    if (d.length > 0) chunks.push(d);
  }).catch(() => {});
  return {
    established,
    until: (names) =>
      new Promise((resolve) => {
        const check = () => {
          if (names.every((n) => established.has(n))) {
            waiters.splice(waiters.indexOf(check), 1);
            resolve();
          }
        };
        waiters.push(check);
        check();
      }),
  };
}

/** Creates the CRDs (concurrency at a time) and waits for all to be Established. */
export async function install(env, crds, concurrency) {
  const c = client(env);
  const w = watchEstablished(c);
  await new Promise((r) => setTimeout(r, 100));
  const created = new Map();
  const t0 = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < crds.length) {
      const crd = crds[next++];
      const t = performance.now();
      const r = await c.call('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
      if (r.status !== 201) throw new Error(`${crd.metadata.name}: ${r.status} ${r.text.slice(0, 300)}`);
      created.set(crd.metadata.name, t);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const createdAll = performance.now() - t0;
  const names = crds.map((x) => x.metadata.name);
  await w.until(names);
  const total = performance.now() - t0;
  const lags = names.map((n) => w.established.get(n) - created.get(n)).sort((a, b) => a - b);
  if (process.env.BENCH_LAGS) console.error(names.map((n) => `${(w.established.get(n) - created.get(n)).toFixed(0)} ${n}`).join("\n"));
  return { count: crds.length, concurrency, createMs: createdAll, totalMs: total, perSecond: (crds.length / total) * 1000, maxEstablishedLagMs: lags.at(-1), p50EstablishedLagMs: lags[Math.floor(lags.length / 2)] };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const n = Number(process.argv[2] ?? 40);
  const conc = Number(process.argv[3] ?? 1);
  const corpus = corpusCrds();
  const env = await startTestEnv();
  try {
    // BENCH_CPU_PROF=file: a CPU profile of the install alone (not of loading the corpus).
    const prof = process.env.BENCH_CPU_PROF ? await startProfile() : undefined;
    const r = await install(env, renamed(corpus, n), conc);
    if (prof) await prof(process.env.BENCH_CPU_PROF);
    console.log(JSON.stringify(r));
  } finally {
    await env.stop();
  }
  process.exit(0);
}

// `npm run bench`: the performance figures of GOALS, each beside its baseline measured in the same
// run, printed as one table. Servers and load generators run in separate processes; see README.md.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { crontabBody, crontabs, createNamespace, setupCrd } from './fixtures.mjs';
import { measureWatch } from './watch.mjs';
import { timeStart, timeStartBare } from './startup.mjs';
import { closeAgent, cpuBusy, cpuMsOf, expectOk, load, markdownTable, median, percentile, request, sleep, startChild, stopChild } from './util.mjs';
import { openSqliteStore } from '../dist/storage/sqlite-store.js';
import { ETCD_FIGURES, etcdFigures } from './etcd.mjs';
import { CLUSTER_FIGURES, clusterFigures } from './clusters.mjs';

const env = (name, def) => (process.env[name] !== undefined && process.env[name] !== '' ? Number(process.env[name]) : def);
const cfg = {
  seconds: env('BENCH_SECONDS', 5),
  warmup: env('BENCH_WARMUP_SECONDS', 1),
  runs: env('BENCH_RUNS', 3),
  connections: env('BENCH_CONNECTIONS', 50),
  objects: env('BENCH_OBJECTS', 10_000),
  listRepeats: env('BENCH_LIST_REPEATS', 5),
  watchWrites: env('BENCH_WATCH_WRITES', 500),
  watchers: env('BENCH_WATCHERS', 1000),
  watchRounds: env('BENCH_WATCH_ROUNDS', 10),
  starts: env('BENCH_STARTS', 3),
  memoryObjects: env('BENCH_MEMORY_OBJECTS', 100_000),
  schemaSeconds: env('BENCH_SCHEMA_SECONDS', 1),
  applyObjects: env('BENCH_APPLY_OBJECTS', 10_000),
  applyMemoryObjects: env('BENCH_APPLY_MEMORY_OBJECTS', 100_000),
  gcDependents: env('BENCH_GC_DEPENDENTS', 1000),
  clusters: env('BENCH_CLUSTERS', 10_000),
};
const only = new Set((process.env.BENCH_ONLY ?? 'get,create,list,table,watch,startup,memory,apply,events,gc,schema,cel,protobuf,vap,rbac,testenv,etcd-create,etcd-get,etcd-list,clusters').split(',').map((s) => s.trim()));
// Profile our server processes: BENCH_CPU_PROF=<dir> writes one .cpuprofile per server.
const serverExecArgv = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', process.env.BENCH_CPU_PROF] : [];

const busyAtStart = await cpuBusy(1000);
const tmp = mkdtempSync(join(os.tmpdir(), 'crd-apiserver-bench-'));
const rows = [];
const notes = [];
const log = (s) => process.stderr.write(`${s}\n`);

const fmt = {
  rate: (x) => `${Math.round(x).toLocaleString('en-US')}/s`,
  ms: (x) => (x < 10 ? `${x.toFixed(2)} ms` : `${x.toFixed(0)} ms`),
  ratio: (x) => `${x.toFixed(2)}×`,
};

/** A row whose goal is a ratio to its baseline (by default ours / base; throughput passes paired ratios). */
function ratioRow(figure, ours, base, show, goal, ratio = ours / base) {
  rows.push({ figure, ours: show(ours), base: show(base), ratio: fmt.ratio(ratio), goal: goal ? goal.text : 'info', met: goal ? (goal.ok(ratio) ? 'yes' : 'NO') : '' });
}
/** A row whose goal is an absolute figure. */
function absRow(figure, ours, show, goal) {
  rows.push({ figure, ours: show(ours), base: '—', ratio: '—', goal: goal ? goal.text : 'info', met: goal ? (goal.ok(ours) ? 'yes' : 'NO') : '' });
}

/** A row with an absolute goal on our figure, and a baseline shown for scale. */
function startRow(figure, ours, base, goal) {
  rows.push({ figure, ours: fmt.ms(ours), base: fmt.ms(base), ratio: fmt.ratio(ours / base), goal: goal ? goal.text : 'info', met: goal ? (goal.ok(ours) ? 'yes' : 'NO') : '' });
}

/**
 * Throughput: cfg.runs runs each of baseline and ours, back to back; the medians, and the median of
 * the per-run ratios (each pairs two runs made moments apart, which rides out the machine's drift).
 */
async function throughput(label, baseJob, oursJob, serverPid = undefined) {
  const base = [];
  const ours = [];
  const ratios = [];
  // Where both sides are served by one process (serverPid): its CPU time per request, which moves less than
  // requests/s with what else the machine runs (a slower round is slower for both, in time, not in CPU).
  const cpu = { base: [], ours: [] };
  const measured = async (job, side) => {
    const c0 = serverPid ? cpuMsOf(serverPid) : 0;
    const r = await load(job);
    if (serverPid && r.requests > 0) cpu[side].push(((cpuMsOf(serverPid) - c0) * 1000) / r.requests);
    return r;
  };
  for (let i = 0; i < cfg.runs; i++) {
    // Each pair alternates which side runs first: where both share a server (logical clusters) or the machine
    // drifts (a growing collection, a heap to collect), neither side always runs in the other's wake.
    const oursFirst = i % 2 === 1;
    const first = await measured(oursFirst ? oursJob(i) : baseJob(i), oursFirst ? 'ours' : 'base');
    const second = await measured(oursFirst ? baseJob(i) : oursJob(i), oursFirst ? 'base' : 'ours');
    const [b, o] = oursFirst ? [second, first] : [first, second];
    for (const [who, r] of [['baseline', b], ['ours', o]]) {
      if (r.errors > 0) throw new Error(`${label} (${who}): ${r.errors} non-2xx responses ${JSON.stringify(r.statuses)}`);
    }
    base.push(b.rps);
    ours.push(o.rps);
    ratios.push(o.rps / b.rps);
    log(`  ${label} run ${i + 1}: baseline ${Math.round(b.rps)}/s (p99 ${b.p99ms.toFixed(1)} ms), ours ${Math.round(o.rps)}/s (p99 ${o.p99ms.toFixed(1)} ms)`);
  }
  notes.push(
    `${label}: baseline runs ${base.map((x) => Math.round(x)).join(', ')}; ours ${ours.map((x) => Math.round(x)).join(', ')} per second; ` +
      `ratios ${ratios.map((x) => x.toFixed(2)).join(', ')} (the table shows their median)` +
      (serverPid
        ? `; server CPU per request: baseline ${cpu.base.map((x) => x.toFixed(1)).join(', ')} µs, ours ${cpu.ours.map((x) => x.toFixed(1)).join(', ')} µs (medians ${median(cpu.base).toFixed(1)} and ${median(cpu.ours).toFixed(1)} µs)`
        : ''),
  );
  return { base: median(base), ours: median(ours), ratio: median(ratios) };
}

const timing = { connections: cfg.connections, warmupMs: cfg.warmup * 1000, durationMs: cfg.seconds * 1000 };

async function startOurs(dataDir, tokens = undefined, apf = undefined) {
  const { proc, reply } = await startChild('./server.mjs', { dataDir, tokens, apf }, serverExecArgv);
  return { proc, url: reply.url, port: Number(new URL(reply.url).port), securePort: Number(new URL(reply.secureUrl).port) };
}

/**
 * GET as a user RBAC allows through one RoleBinding among 1,000 (bindings of other users and groups in the
 * same namespace and cluster-wide), against the same GET as a member of system:masters, whom the
 * privileged-group authorizer allows before RBAC is asked. Both authenticate by bearer token over TLS.
 * Without API Priority and Fairness, which exempts system:masters and queues everyone else (measured
 * apart, as info, with it on).
 */
async function rbacFigure(apf) {
  const tokens = 'admin-token,bench-admin,u-admin,"system:masters"\nbob-token,bob,u-bob,"team"\n';
  const s = await startOurs(join(tmp, apf ? 'rbac-apf' : 'rbac'), tokens, apf);
  const ns = 'bench-rbac';
  await createNamespace(s.url, ns);
  const post = (path, body) => expectOk(request(`${s.url}${path}`, 'POST', JSON.stringify(body), { 'Content-Type': 'application/json' }), `create ${path}`);
  await post(`/api/v1/namespaces/${ns}/configmaps`, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bench-cm' }, data: { a: 'b' } });
  const rbac = '/apis/rbac.authorization.k8s.io/v1';
  await post(`${rbac}/namespaces/${ns}/roles`, { metadata: { name: 'cm-reader' }, rules: [{ apiGroups: [''], resources: ['configmaps'], verbs: ['get'] }] });
  const roleRef = (kind, name) => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name });
  const subject = (kind, name) => ({ apiGroup: 'rbac.authorization.k8s.io', kind, name });
  for (let i = 0; i < 1000; i++) {
    // Half in the namespace, half cluster-wide; users and groups other than bob's.
    const subjects = [subject(i % 3 ? 'User' : 'Group', `other-${i}`)];
    if (i % 2) await post(`${rbac}/namespaces/${ns}/rolebindings`, { metadata: { name: `rb-${i}` }, roleRef: roleRef('Role', 'cm-reader'), subjects });
    else await post(`${rbac}/clusterrolebindings`, { metadata: { name: `crb-${i}` }, roleRef: roleRef('ClusterRole', 'view'), subjects });
  }
  await post(`${rbac}/namespaces/${ns}/rolebindings`, { metadata: { name: 'bob' }, roleRef: roleRef('Role', 'cm-reader'), subjects: [subject('User', 'bob')] });
  const path = `/api/v1/namespaces/${ns}/configmaps/bench-cm`;
  const job = (token) => () => ({ ...timing, port: s.securePort, tls: true, method: 'GET', path, headers: { Accept: 'application/json', Authorization: `Bearer ${token}` } });
  const r = await throughput('GET as an RBAC user', job(process.env.BENCH_RBAC_BASE ?? 'admin-token'), job(process.env.BENCH_RBAC_OURS ?? 'bob-token'), s.proc.pid);
  if (apf) ratioRow(`the same with API Priority and Fairness (system:masters exempt, the user queued at global-default)`, r.ours, r.base, fmt.rate, undefined, r.ratio);
  else ratioRow(`GET one ConfigMap as a user RBAC allows among 1,000 bindings, req/s at ${cfg.connections} TLS conns vs the same as system:masters`, r.ours, r.base, fmt.rate, { text: '≥ 0.9×', ok: (x) => x >= 0.9 }, r.ratio);
  await stopChild(s.proc);
}

async function main() {
  log(`crd-apiserver bench: ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; ${JSON.stringify(cfg)}`);
  const listDir = join(tmp, 'list');
  let getTarget;
  let listServedBytes = 0;

  // ---- server A: 10,000 objects; LIST and GET ----
  if (only.has('list') || only.has('table') || only.has('get') || only.has('startup') || only.has('protobuf')) {
    const a = await startOurs(listDir);
    await setupCrd(a.url);
    await createNamespace(a.url, 'bench-list');
    log(`populating ${cfg.objects} CronTabs...`);
    const pop = await load({
      ...timing,
      total: cfg.objects,
      port: a.port,
      method: 'POST',
      path: crontabs('bench-list'),
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: crontabBody('bench-list'),
      nameTemplate: 'item-',
    });
    if (pop.errors > 0) throw new Error(`populating: ${pop.errors} failed creates ${JSON.stringify(pop.statuses)}`);
    log(`  ${Math.round(pop.rps)} creates/s while populating`);
    const got = await expectOk(request(`${a.url}${crontabs('bench-list')}/item-0`), 'get item-0');
    getTarget = got.json();
    notes.push(`objects: request body ${crontabBody('bench-list').length} B, stored object as served ${Buffer.byteLength(got.text)} B`);

    if (only.has('list') || only.has('table')) {
      const listUrl = `${a.url}${crontabs('bench-list')}`;
      const text = (await expectOk(request(listUrl), 'list')).text;
      const list = JSON.parse(text);
      if (list.items.length !== cfg.objects) throw new Error(`list returned ${list.items.length} items, expected ${cfg.objects}`);
      listServedBytes = Buffer.byteLength(text);
      // One list, then JSON.stringify of the same objects, in turn: both see the same moments of a busy machine.
      // Timed lists only count the bytes they receive, so client-side decoding is not measured.
      const timeLists = async (headers) => {
        const lat = [];
        const str = [];
        for (let i = 0; i <= cfg.listRepeats; i++) {
          let t0 = performance.now();
          await expectOk(request(listUrl, 'GET', undefined, headers, { discard: true }), 'list');
          if (i > 0) lat.push(performance.now() - t0); // the first is a warm-up
          t0 = performance.now();
          JSON.stringify(list);
          if (i > 0) str.push(performance.now() - t0);
        }
        return { lat, str };
      };
      const n = cfg.objects.toLocaleString('en-US');
      // The ratio shown: the median of each list's time over the stringify timed right after it.
      const pairedRatio = (lat, str) => median(lat.map((l, i) => l / str[i]));
      if (only.has('list')) {
        log('LIST...');
        const { lat, str } = await timeLists({});
        ratioRow(`LIST ${n} CRs, one full list (median of ${cfg.listRepeats}) vs JSON.stringify`, median(lat), median(str), fmt.ms, { text: '≤ 1.0×', ok: (r) => r <= 1.0 }, pairedRatio(lat, str));
        notes.push(`LIST: ${(listServedBytes / 1e6).toFixed(1)} MB; list latencies ${lat.map((x) => x.toFixed(0)).join(', ')} ms; stringify ${str.map((x) => x.toFixed(0)).join(', ')} ms`);
      }
      if (only.has('table')) {
        log('LIST as Table...');
        // What kubectl get asks for: a Table of rows with each object's metadata (includeObject=Metadata).
        const tableHeaders = { Accept: 'application/json;as=Table;v=v1;g=meta.k8s.io,application/json' };
        const table = (await expectOk(request(listUrl, 'GET', undefined, tableHeaders), 'table')).text;
        const rows = JSON.parse(table).rows?.length;
        if (rows !== cfg.objects) throw new Error(`table returned ${rows} rows, expected ${cfg.objects}`);
        const { lat, str } = await timeLists(tableHeaders);
        ratioRow(`LIST ${n} CRs as Table (median of ${cfg.listRepeats}) vs JSON.stringify of the objects`, median(lat), median(str), fmt.ms, { text: '≤ 1.5×', ok: (r) => r <= 1.5 }, pairedRatio(lat, str));
        notes.push(`Table: ${(Buffer.byteLength(table) / 1e6).toFixed(1)} MB; latencies ${lat.map((x) => x.toFixed(0)).join(', ')} ms; stringify ${str.map((x) => x.toFixed(0)).join(', ')} ms`);
      }
    }

    if (only.has('get')) {
      log('GET...');
      const { proc: baseProc, reply } = await startChild('./baseline-server.mjs', { object: getTarget });
      const headers = { Accept: 'application/json' };
      const r = await throughput(
        'GET',
        () => ({ ...timing, port: reply.port, method: 'GET', path: '/item-0', headers }),
        () => ({ ...timing, port: a.port, method: 'GET', path: `${crontabs('bench-list')}/item-0`, headers }),
      );
      await stopChild(baseProc);
      ratioRow(`GET one CR, req/s at ${cfg.connections} conns vs bare node:http 1 KB JSON`, r.ours, r.base, fmt.rate, { text: '≥ 0.6×', ok: (x) => x >= 0.6 }, r.ratio);
    }

    if (only.has('protobuf')) {
      // The same ConfigMap read as protobuf (parsed and encoded per request) against JSON (stored bytes as they are).
      log('GET protobuf...');
      const data = Object.fromEntries(Array.from({ length: 16 }, (_, i) => [`key-${i}`, 'v'.repeat(48)]));
      const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'bench-cm', labels: { app: 'bench' } }, data };
      await expectOk(request(`${a.url}/api/v1/namespaces/bench-list/configmaps`, 'POST', JSON.stringify(cm), { 'Content-Type': 'application/json' }), 'create configmap');
      const path = '/api/v1/namespaces/bench-list/configmaps/bench-cm';
      const r = await throughput(
        'GET ConfigMap protobuf',
        () => ({ ...timing, port: a.port, method: 'GET', path, headers: { Accept: 'application/json' } }),
        () => ({ ...timing, port: a.port, method: 'GET', path, headers: { Accept: 'application/vnd.kubernetes.protobuf, application/json' } }),
      );
      ratioRow(`GET one ConfigMap as protobuf, req/s at ${cfg.connections} conns vs the same GET as JSON`, r.ours, r.base, fmt.rate, undefined, r.ratio);
    }
    await stopChild(a.proc);
  }

  // ---- server B: creates and watch ----
  if (only.has('create') || only.has('watch') || only.has('vap')) {
    const b = await startOurs(join(tmp, 'writes'));
    await setupCrd(b.url);
    if (only.has('create')) {
      log('create...');
      await createNamespace(b.url, 'bench-create');
      const { proc: baseProc, reply } = await startChild('./baseline-server.mjs', { object: {} });
      const body = crontabBody('bench-create');
      const headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
      const r = await throughput(
        'create',
        (i) => ({ ...timing, port: reply.port, method: 'POST', path: '/', headers, body, nameTemplate: `c${i}-` }),
        (i) => ({ ...timing, port: b.port, method: 'POST', path: crontabs('bench-create'), headers, body, nameTemplate: `c${i}-` }),
      );
      await stopChild(baseProc);
      ratioRow(`create CRs, creates/s at ${cfg.connections} conns vs bare node:http POST (parse+stringify)`, r.ours, r.base, fmt.rate, { text: '≥ 0.4×', ok: (x) => x >= 0.4 }, r.ratio);

      log('raw better-sqlite3...');
      const single = [];
      const batched = [];
      const singleFull = [];
      for (let i = 0; i < cfg.runs; i++) {
        const { reply: s } = await startChild('./sqlite-baseline.mjs', { path: join(tmp, `sqlite-${i}.db`), durationMs: cfg.seconds * 1000 });
        single.push(s.single);
        batched.push(s.batched100);
        singleFull.push(s.singleFull);
      }
      ratioRow('create CRs vs raw better-sqlite3 single-row commits/s (WAL, NORMAL)', r.ours, median(single), fmt.rate, undefined);
      notes.push(`better-sqlite3: single-row commits ${single.map((x) => Math.round(x)).join(', ')}/s; rows in transactions of 100 ${batched.map((x) => Math.round(x)).join(', ')}/s; single-row commits with synchronous=FULL ${singleFull.map((x) => Math.round(x)).join(', ')}/s; our server runs ${process.env.BENCH_STORAGE_SYNC || 'full'}`);
    }
    if (only.has('vap')) {
      // One ValidatingAdmissionPolicy of three expressions bound to the namespace labelled vap=on, against
      // creates in a namespace it does not select, on the same server, runs paired.
      log('create with a ValidatingAdmissionPolicy...');
      const ns = (name, labels) => expectOk(request(`${b.url}/api/v1/namespaces`, 'POST', { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels } }), `create namespace ${name}`);
      await ns('bench-vap', { vap: 'on' });
      await ns('bench-novap', { vap: 'off' });
      const arPath = `${b.url}/apis/admissionregistration.k8s.io/v1`;
      await expectOk(request(`${arPath}/validatingadmissionpolicies`, 'POST', {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicy',
        metadata: { name: 'bench' },
        spec: {
          matchConstraints: { resourceRules: [{ apiGroups: ['stable.example.com'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['crontabs'] }] },
          validations: [
            { expression: 'object.spec.replicas <= 10' },
            { expression: "object.metadata.labels['app'] == 'bench'" },
            { expression: "object.spec.image.startsWith('registry.example.com/')" },
          ],
        },
      }), 'create policy');
      await expectOk(request(`${arPath}/validatingadmissionpolicybindings`, 'POST', {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingAdmissionPolicyBinding',
        metadata: { name: 'bench' },
        spec: { policyName: 'bench', validationActions: ['Deny'], matchResources: { namespaceSelector: { matchLabels: { vap: 'on' } } } },
      }), 'create binding');
      // A denied create proves the policy is enforced before anything is measured.
      const denied = JSON.parse(crontabBody('bench-vap').replace('__NAME__', 'denied-probe'));
      denied.spec.replicas = 11;
      for (let i = 0; ; i++) {
        const r = await request(`${b.url}${crontabs('bench-vap')}`, 'POST', denied);
        if (r.status === 422) break;
        if (r.status === 201) await request(`${b.url}${crontabs('bench-vap')}/denied-probe`, 'DELETE');
        if (i > 200) throw new Error(`the policy is not enforced: ${r.status}`);
        await sleep(10);
      }
      const headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
      const r = await throughput(
        'create with policy',
        (i) => ({ ...timing, port: b.port, method: 'POST', path: crontabs('bench-novap'), headers, body: crontabBody('bench-novap'), nameTemplate: `v${i}-` }),
        (i) => ({ ...timing, port: b.port, method: 'POST', path: crontabs('bench-vap'), headers, body: crontabBody('bench-vap'), nameTemplate: `v${i}-` }),
      );
      ratioRow(`create CRs with one matching ValidatingAdmissionPolicy (3 expressions), creates/s vs the same creates unmatched`, r.ours, r.base, fmt.rate, { text: '≥ 0.8×', ok: (x) => x >= 0.8 }, r.ratio);

      // One validating webhook (HTTPS, in its own process, allowing everything) for the namespace labelled
      // webhook=on, against the unmatched creates again.
      log('create with a validating webhook...');
      const { proc: whProc, reply: wh } = await startChild('./webhook-server.mjs', { dir: join(tmp, 'webhook') });
      await ns('bench-webhook', { webhook: 'on' });
      await expectOk(request(`${arPath}/validatingwebhookconfigurations`, 'POST', {
        apiVersion: 'admissionregistration.k8s.io/v1',
        kind: 'ValidatingWebhookConfiguration',
        metadata: { name: 'bench' },
        webhooks: [{
          name: 'bench.example.com',
          clientConfig: { url: `https://127.0.0.1:${wh.port}/validate`, caBundle: wh.caBundle },
          rules: [{ apiGroups: ['stable.example.com'], apiVersions: ['v1'], operations: ['CREATE'], resources: ['crontabs'] }],
          namespaceSelector: { matchLabels: { webhook: 'on' } },
          sideEffects: 'None',
          admissionReviewVersions: ['v1'],
        }],
      }), 'create webhook configuration');
      // Wait until the configuration is in force: a create the webhook refuses (no spec).
      for (let i = 0; ; i++) {
        const r = await request(`${b.url}${crontabs('bench-webhook')}`, 'POST', { apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name: 'probe' } });
        if (r.status === 400) break;
        if (r.status === 201) await request(`${b.url}${crontabs('bench-webhook')}/probe`, 'DELETE');
        if (i > 200) throw new Error(`the webhook is not called: ${r.status}`);
        await sleep(10);
      }
      const w = await throughput(
        'create with webhook',
        (i) => ({ ...timing, port: b.port, method: 'POST', path: crontabs('bench-novap'), headers, body: crontabBody('bench-novap'), nameTemplate: `w${i}-` }),
        (i) => ({ ...timing, port: b.port, method: 'POST', path: crontabs('bench-webhook'), headers, body: crontabBody('bench-webhook'), nameTemplate: `w${i}-` }),
      );
      await stopChild(whProc);
      ratioRow(`create CRs with one matching validating webhook (HTTPS, allows), creates/s vs the same creates unmatched`, w.ours, w.base, fmt.rate, undefined, w.ratio);
    }
    if (only.has('watch')) {
      log('watch...');
      await createNamespace(b.url, 'bench-watch');
      const w = await measureWatch(b.url, 'bench-watch', { writes: cfg.watchWrites, watchers: cfg.watchers, rounds: cfg.watchRounds });
      const ack1 = w.single.map((x) => x.fromAck);
      const send1 = w.single.map((x) => x.fromSend);
      absRow('watch, 1 watcher: ack → event, p50', percentile(ack1, 0.5), fmt.ms, undefined);
      absRow(`watch, 1 watcher: ack → event, p99 (${cfg.watchWrites} writes)`, percentile(ack1, 0.99), fmt.ms, { text: '≤ 5 ms', ok: (x) => x <= 5 });
      const ackN = w.many.map((x) => x.fromAck);
      const sendN = w.many.map((x) => x.fromSend);
      absRow('watch, 1 watcher: write sent → event, p99 (includes the write itself)', percentile(send1, 0.99), fmt.ms, undefined);
      absRow(`watch, last of ${cfg.watchers} watchers: ack → event (median of ${cfg.watchRounds})`, median(ackN), fmt.ms, { text: '≤ 50 ms', ok: (x) => x <= 50 });
      absRow(`watch, last of ${cfg.watchers} watchers: write sent → event (median)`, median(sendN), fmt.ms, undefined);
      const early1 = w.single.filter((x) => x.beforeAck).length;
      const earlyN = w.many.filter((x) => x.beforeAck).length;
      notes.push(
        `watch, 1 watcher: write sent → event p50 ${fmt.ms(percentile(send1, 0.5))}, p99 ${fmt.ms(percentile(send1, 0.99))}; ` +
          `the event arrived before the response in ${early1} of ${w.single.length} writes (counted as 0)`,
      );
      notes.push(
        `watch, ${cfg.watchers} watchers: ack → last event ${ackN.map((x) => x.toFixed(1)).join(', ')} ms; write sent → last event ` +
          `${sendN.map((x) => x.toFixed(1)).join(', ')} ms; last event before the response in ${earlyN} of ${w.many.length}`,
      );
    }
    await stopChild(b.proc);
  }

  // ---- start-up ----
  if (only.has('startup')) {
    log('start-up...');
    const empty = [];
    const restart = [];
    const full = [];
    const bare = [];
    for (let i = 0; i < cfg.starts; i++) {
      bare.push(await timeStartBare());
      const dir = join(tmp, `empty-${i}`);
      empty.push(await timeStart(dir)); // first start: generates the CA and certificates
      restart.push(await timeStart(dir)); // certificates present, store empty
      full.push(await timeStart(listDir));
    }
    // The goals are absolute; a bare node:http process start is shown beside them for scale.
    const b = median(bare);
    startRow(`start-up to /readyz 200, empty data dir (median of ${cfg.starts}) vs bare node:http start`, median(empty), b, { text: '≤ 300 ms', ok: (x) => x <= 300 });
    startRow('start-up, restart on an empty store (certificates already made)', median(restart), b, undefined);
    startRow(`start-up, ${cfg.objects.toLocaleString('en-US')} objects stored`, median(full), b, { text: '≤ 2000 ms', ok: (x) => x <= 2000 });
    notes.push(
      `start-up runs: empty ${empty.map((x) => x.toFixed(0)).join(', ')} ms; restart ${restart.map((x) => x.toFixed(0)).join(', ')} ms; ` +
        `${cfg.objects} objects ${full.map((x) => x.toFixed(0)).join(', ')} ms; bare node:http ${bare.map((x) => x.toFixed(0)).join(', ')} ms`,
    );
  }

  // ---- memory: the cached store's heap per object, in a process of its own ----
  if (only.has('memory')) {
    log(`memory (${cfg.memoryObjects} objects)...`);
    const { proc, reply: m } = await startChild('./memory.mjs', { path: join(tmp, 'memory.db'), count: cfg.memoryObjects }, ['--expose-gc']);
    await stopChild(proc);
    const kib = (x) => `${(x / 1024).toFixed(2)} KiB`;
    absRow(`memory: heap per cached CR (${cfg.memoryObjects.toLocaleString('en-US')} objects)`, m.perObject, kib, { text: '≤ 2.5 KiB', ok: (x) => x <= 2.5 * 1024 });
    notes.push(
      `memory: ${cfg.memoryObjects} CronTabs of ${Math.round(m.valueBytes)} B stored JSON written through the cache; heapUsed after GC ` +
        `${(m.heapBefore / 1e6).toFixed(1)} MB before, ${(m.heapAfter / 1e6).toFixed(1)} MB after (${Math.round(m.perObject)} B per object); writes took ${(m.ms / 1000).toFixed(1)} s`,
    );
  }
  // ---- server-side apply: applies/s against merge patches/s of the same change; what managedFields cost ----
  if (only.has('apply')) {
    log('apply...');
    const dir = join(tmp, 'apply');
    const s = await startOurs(dir);
    const NS = 'bench-apply';
    await setupCrd(s.url);
    await createNamespace(s.url, NS);
    const APPLY = 'application/apply-patch+yaml';
    const MERGE = 'application/merge-patch+json';
    // The same ~1 KB CronTab for both (JSON is YAML), as an apply configuration it is the manager's whole
    // intent; each connection writes its own object, alternating spec.replicas so every write changes it.
    const body = crontabBody(NS);
    if (!body.includes('"replicas":3')) throw new Error('the CronTab body has no "replicas":3 to alternate');
    const withReplicas = (b, r) => b.replace('"replicas":3', `"replicas":${r}`);
    const objectPath = (name) => `${crontabs(NS)}/${name}?fieldManager=bench`;
    for (let i = 0; i < cfg.connections; i++) {
      const applied = body.replace('__NAME__', `apply-${i}`);
      await expectOk(request(`${s.url}${objectPath(`apply-${i}`)}`, 'PATCH', applied, { 'Content-Type': APPLY }), 'create by apply');
      await expectOk(request(`${s.url}${crontabs(NS)}?fieldManager=bench`, 'POST', body.replace('__NAME__', `merge-${i}`)), 'create');
    }
    // Objects start at replicas 3: the cycles start at 4.
    const job = (kind, contentType) => ({
      ...timing,
      port: s.port,
      method: 'PATCH',
      path: objectPath(`${kind}-__CONN__`),
      headers: { 'Content-Type': contentType, Accept: 'application/json' },
      bodies: [4, 3].map((r) => withReplicas(body, r).replace('__NAME__', `${kind}-__CONN__`)),
    });
    // A fresh server's first seconds are slow (JIT): warm both paths up before the paired runs.
    for (const [kind, type] of [['merge', MERGE], ['apply', APPLY]]) {
      const w = await load({ ...job(kind, type), warmupMs: 0, durationMs: Math.max(1000, timing.warmupMs * 2) });
      if (w.errors > 0) throw new Error(`${kind} warm-up: ${w.errors} non-2xx responses ${JSON.stringify(w.statuses)}`);
    }
    const t = await throughput('apply vs merge patch', () => job('merge', MERGE), () => job('apply', APPLY));
    ratioRow(
      `apply: server-side applies/s of a CronTab change (1 field manager) vs merge patches/s of the same change`,
      t.ours,
      t.base,
      fmt.rate,
      { text: '≥ 0.5×', ok: (x) => x >= 0.5 },
      t.ratio,
    );
    // Every write changed its object (a no-op would not bump the generation), and one entry each.
    const a0 = (await expectOk(request(`${s.url}${crontabs(NS)}/apply-0`), 'get apply-0')).json();
    const m0 = (await expectOk(request(`${s.url}${crontabs(NS)}/merge-0`), 'get merge-0')).json();
    const entries = (o) => o.metadata.managedFields.map((e) => `${e.manager}/${e.operation}`).join(', ');
    notes.push(
      `apply: after the runs apply-0 is at generation ${a0.metadata.generation} with managedFields [${entries(a0)}], ` +
        `merge-0 at generation ${m0.metadata.generation} with [${entries(m0)}]; ${cfg.connections} objects each, one per connection`,
    );

    // N objects created by apply: their stored size with and without the managedFields entry.
    log(`  creating ${cfg.applyObjects} CronTabs by apply...`);
    const made = await load({
      ...timing,
      total: cfg.applyObjects,
      port: s.port,
      method: 'PATCH',
      path: objectPath('__NAME__'),
      headers: { 'Content-Type': APPLY, Accept: 'application/json' },
      body,
      nameTemplate: 'obj-',
    });
    if (made.errors > 0) throw new Error(`creating by apply: ${made.errors} failed ${JSON.stringify(made.statuses)}`);
    await stopChild(s.proc);
    const store = openSqliteStore(join(dir, 'state.db'), { compactionIntervalMs: 0 });
    const prefix = `/registry/stable.example.com/crontabs/${NS}/obj-`;
    const stored = (await store.list(prefix)).items;
    await store.close();
    if (stored.length !== cfg.applyObjects) throw new Error(`${stored.length} objects stored by apply, expected ${cfg.applyObjects}`);
    let withMf = 0;
    let withoutMf = 0;
    for (const kv of stored) {
      withMf += Buffer.byteLength(kv.value);
      const o = JSON.parse(kv.value);
      delete o.metadata.managedFields;
      withoutMf += Buffer.byteLength(JSON.stringify(o));
    }
    withMf /= stored.length;
    withoutMf /= stored.length;
    const bytes = (x) => `${Math.round(x).toLocaleString('en-US')} B`;
    ratioRow(`apply: stored JSON per CronTab created by apply, with vs without its managedFields entry`, withMf, withoutMf, bytes, undefined);
    const template = stored[0].value;
    notes.push(
      `apply: ${cfg.applyObjects} CronTabs created by apply at ${Math.round(made.rps)}/s (${cfg.connections} connections); stored ` +
        `${Math.round(withMf)} B each, ${Math.round(withoutMf)} B without managedFields (+${Math.round(withMf - withoutMf)} B: ` +
        `${JSON.stringify(JSON.parse(template).metadata.managedFields)})`,
    );

    // The cached store's heap per object (as the memory figure measures it), for copies of a stored
    // object created by apply, with and without its managedFields; each in a fresh process.
    log(`  heap per cached object, with and without managedFields (${cfg.applyMemoryObjects} objects each)...`);
    const heap = {};
    for (const strip of [false, true]) {
      const { proc, reply } = await startChild(
        './memory.mjs',
        { path: join(tmp, `apply-memory-${strip}.db`), count: cfg.applyMemoryObjects, template, stripManagedFields: strip },
        ['--expose-gc'],
      );
      await stopChild(proc);
      heap[strip ? 'without' : 'with'] = reply;
    }
    const kib = (x) => `${(x / 1024).toFixed(2)} KiB`;
    absRow(
      `apply: heap per cached CR created by apply, with its managedFields (${cfg.applyMemoryObjects.toLocaleString('en-US')} objects)`,
      heap.with.perObject,
      kib,
      { text: '≤ 2.5 KiB', ok: (x) => x <= 2.5 * 1024 },
    );
    ratioRow(`apply: heap per cached CR, with vs without its managedFields`, heap.with.perObject, heap.without.perObject, kib, undefined);
    notes.push(
      `apply, heap: with managedFields ${Math.round(heap.with.perObject)} B per object (${Math.round(heap.with.valueBytes)} B stored JSON), ` +
        `without ${Math.round(heap.without.perObject)} B (${Math.round(heap.without.valueBytes)} B): +${Math.round(heap.with.perObject - heap.without.perObject)} B per object`,
    );
  }
  // ---- schema engine vs ajv, in a process of its own (CPU-bound, no server) ----
  // ---- server E: Events and the garbage collector ----
  if (only.has('rbac')) {
    log('GET under RBAC...');
    await rbacFigure(false);
    await rbacFigure(true);
  }

  if (only.has('events') || only.has('gc')) {
    const e = await startOurs(join(tmp, 'events'));
    await setupCrd(e.url);
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json' };
    if (only.has('events')) {
      log('events...');
      await createNamespace(e.url, 'bench-ev');
      // An event recorder's body (client-go's record package), about the CronTab create body's size.
      const event = JSON.stringify({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: '__NAME__', namespace: 'bench-ev' },
        involvedObject: { apiVersion: 'stable.example.com/v1', kind: 'CronTab', name: 'cron-1', namespace: 'bench-ev', uid: '3f0e9d2c-6a51-4c1b-9a7e-2d4c8b1f0a55', resourceVersion: '123' },
        reason: 'Reconciled',
        message: `reconciled: ${'x'.repeat(560)}`,
        source: { component: 'crontab-controller' },
        firstTimestamp: '2026-01-01T00:00:00Z',
        lastTimestamp: '2026-01-01T00:00:00Z',
        count: 1,
        type: 'Normal',
        reportingComponent: 'crontab-controller',
        reportingInstance: 'crontab-controller-0',
      });
      const body = crontabBody('bench-ev');
      const r = await throughput(
        'events',
        (i) => ({ ...timing, port: e.port, method: 'POST', path: crontabs('bench-ev'), headers, body, nameTemplate: `c${i}-` }),
        (i) => ({ ...timing, port: e.port, method: 'POST', path: '/api/v1/namespaces/bench-ev/events', headers, body: event, nameTemplate: `e${i}-` }),
      );
      ratioRow(`Event creates/s (core/v1, ~1 KB) vs custom-resource creates/s, same server, ${cfg.connections} conns`, r.ours, r.base, fmt.rate, undefined, r.ratio);
    }
    if (only.has('gc')) {
      log('garbage collector...');
      await createNamespace(e.url, 'bench-gc');
      const times = [];
      for (let run = 0; run < cfg.runs; run++) {
        const owner = (await expectOk(request(`${e.url}${crontabs('bench-gc')}`, 'POST', JSON.parse(crontabBody('bench-gc').replace('__NAME__', `owner-${run}`))), 'create owner')).json();
        const ref = { apiVersion: 'stable.example.com/v1', kind: 'CronTab', name: owner.metadata.name, uid: owner.metadata.uid };
        const dep = JSON.parse(crontabBody('bench-gc'));
        dep.metadata.ownerReferences = [ref];
        await load({ ...timing, warmupMs: 0, durationMs: 600_000, total: cfg.gcDependents, port: e.port, method: 'POST', path: crontabs('bench-gc'), headers, body: JSON.stringify(dep), nameTemplate: `d${run}-` });
        const start = performance.now();
        await expectOk(request(`${e.url}${crontabs('bench-gc')}/owner-${run}`, 'DELETE'), 'delete owner');
        for (;;) {
          const l = (await expectOk(request(`${e.url}${crontabs('bench-gc')}?limit=1`), 'list')).json();
          if ((l.items?.length ?? 0) === 0) break;
          await new Promise((res) => setTimeout(res, 5));
        }
        times.push(performance.now() - start);
      }
      absRow(`garbage collection: delete an owner of ${cfg.gcDependents.toLocaleString('en-US')} CRs (background), until the last is gone`, median(times), fmt.ms, undefined);
      notes.push(`gc: ${times.map((t) => `${Math.round(t)} ms`).join(', ')} (${Math.round((cfg.gcDependents / median(times)) * 1000).toLocaleString('en-US')} dependents/s)`);
    }
    await stopChild(e.proc);
  }

  // ---- on etcd: creates vs raw etcd puts; GET and LIST vs the same on SQLite (etcd.mjs) ----
  if (ETCD_FIGURES.some((f) => only.has(f))) {
    await etcdFigures({ cfg, timing, tmp, only, log, notes, ratioRow, fmt, serverExecArgv });
  }
  if (CLUSTER_FIGURES.some((f) => only.has(f))) {
    await clusterFigures({ cfg, timing, tmp, log, notes, ratioRow, absRow, fmt, serverExecArgv, throughput });
  }

  if (only.has('schema')) {
    log('schema (ours vs ajv)...');
    const { proc, reply: sc } = await startChild('./schema.mjs', { seconds: cfg.schemaSeconds, runs: cfg.runs });
    await stopChild(proc);
    const runs = (r, f) => `ours ${r.ours.map(f).join(', ')}; ajv ${r.ajv.map(f).join(', ')}; ratios ${r.ratios.map((x) => x.toFixed(2)).join(', ')}`;
    const k = (x) => `${Math.round(x / 1000)}k/s`;
    ratioRow(`schema default+prune+validate, CronTab (${sc.crontab.bytes} B) vs ajv, objects/s`, sc.crontab.oursMedian, sc.crontab.ajvMedian, fmt.rate, { text: '≥ 1.0×', ok: (x) => x >= 1 }, sc.crontab.ratio);
    ratioRow(`schema default+prune+validate, Prometheus (${sc.prometheus.bytes} B) vs ajv, objects/s`, sc.prometheus.oursMedian, sc.prometheus.ajvMedian, fmt.rate, { text: '≥ 2.0×', ok: (x) => x >= 2 }, sc.prometheus.ratio);
    ratioRow(`schema compile, Prometheus CRD (${Math.round(sc.schemaBytes / 1000)} KB JSON) vs ajv compile`, sc.compile.oursMedian, sc.compile.ajvMedian, fmt.ms, { text: '≤ 0.2×', ok: (x) => x <= 0.2 }, sc.compile.ratio);
    notes.push(`schema, CronTab: ${runs(sc.crontab, k)} (~${cfg.schemaSeconds} s of timed work each; copies made outside the timer)`);
    notes.push(`schema, Prometheus: ${runs(sc.prometheus, k)}; ${sc.prometheus.defaultedBytes} B after defaulting`);
    notes.push(`schema compile: ${runs(sc.compile, (x) => `${x.toFixed(1)} ms`)} (warm); first compile in the process: ours ${sc.compile.oursCold.toFixed(0)} ms, ajv ${sc.compile.ajvCold.toFixed(0)} ms`);
  }
  // ---- the test kit: start with 20 CRDs, reset with 1,000 objects, in a process of its own ----
  if (only.has('testenv')) {
    log('testenv (startTestEnv with 20 corpus CRDs, reset of 1,000 objects)...');
    const { proc, reply: t } = await startChild('./testenv.mjs', { runs: cfg.runs });
    await stopChild(proc);
    absRow(`test kit: startTestEnv with ${t.crds} corpus CRDs installed and Established`, t.start, fmt.ms, { text: '≤ 1 s', ok: (x) => x <= 1000 });
    absRow('test kit: reset() with 1,000 ConfigMaps and a namespace to remove', t.reset, fmt.ms, { text: '≤ 50 ms', ok: (x) => x <= 50 });
    ratioRow(`test kit: startTestEnv({ isolation: 'cluster' }) with the same ${t.crds} CRDs, in a shared server, vs a server of its own`, t.clusterStart, t.start, fmt.ms, undefined);
    notes.push(`testenv: starts ${t.starts.map((x) => x.toFixed(0)).join(', ')} ms; resets ${t.resets.map((x) => x.toFixed(1)).join(', ')} ms; cluster starts ${t.clusterStarts.map((x) => x.toFixed(0)).join(', ')} ms`);
  }
  // ---- CEL rule evaluation vs @marcbachmann/cel-js and plain JavaScript, in a process of its own ----
  if (only.has('cel')) {
    log('cel (ours vs cel-js vs plain JavaScript)...');
    const { proc, reply: c } = await startChild('./cel.mjs', { seconds: cfg.schemaSeconds, runs: cfg.runs });
    await stopChild(proc);
    const k = (x) => `${Math.round(x / 1000)}k/s`;
    ratioRow(`CEL, the seed's ${c.rules} example rules vs @marcbachmann/cel-js, evaluations/s`, c.oursMedian, c.celjsMedian, fmt.rate, { text: '≥ 1.0×', ok: (x) => x >= 1 }, c.ratioCelJs);
    ratioRow(`CEL, the same rules vs plain JavaScript functions, evaluations/s`, c.oursMedian, c.plainMedian, fmt.rate, undefined, c.ratioPlain);
    notes.push(`cel: ours ${c.ours.map(k).join(', ')}; cel-js ${c.celjs.map(k).join(', ')}; plain ${c.plain.map(k).join(', ')} (per-rule: node bench/cel-rules.mjs)`);
  }
  printTable();
}

function printTable() {
  const cols = [
    ['figure', 'figure'],
    ['ours', 'ours'],
    ['base', 'baseline'],
    ['ratio', 'ratio'],
    ['goal', 'goal'],
    ['met', 'met'],
  ];
  const out = [
    '',
    `crd-apiserver bench — ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${cfg.connections} connections, ` +
      `${cfg.seconds} s per run after ${cfg.warmup} s warm-up, medians of ${cfg.runs} runs; ` +
      `CPU ${busyAtStart.toFixed(0)}% busy in the second before the run, load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} at the end`,
    ...(busyAtStart > 20 ? ['WARNING: other processes were using the CPU when the run started; the figures are unreliable'] : []),
    '',
    ...markdownTable(cols, rows),
    '',
    ...notes.map((n) => `- ${n}`),
    '',
  ];
  process.stdout.write(`${out.join('\n')}\n`);
}

try {
  await main();
} finally {
  closeAgent();
  rmSync(tmp, { recursive: true, force: true });
}

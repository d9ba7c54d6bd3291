// The etcd figures (`BENCH_ONLY=etcd-create,etcd-get,etcd-list`): our server on etcd (`serve --storage etcd`)
// against etcd itself and against our server on SQLite, each measured in the same run.
//  - etcd-create: creates/s of ~1 KB CronTabs through one server on etcd, against raw etcd puts/s of the
//    same stored bytes with the client the store writes with (etcd-grpc.ts) at the same concurrency (puts in flight = connections),
//    paired runs as the other throughput figures.
//  - etcd-get, etcd-list: GET of one CronTab (req/s) and a full LIST of BENCH_OBJECTS CronTabs (served from
//    the watch cache) on etcd, against the same requests to a server on SQLite populated alike.
import { join } from 'node:path';
import { crontabBody, crontabs, createNamespace, setupCrd } from './fixtures.mjs';
import { expectOk, load, median, request, startChild, stopChild } from './util.mjs';
import { haveEtcd, startEtcd } from './etcd-process.mjs';

export const ETCD_FIGURES = ['etcd-create', 'etcd-get', 'etcd-list'];

/** ctx: { cfg, timing, tmp, only, log, notes, ratioRow, fmt, serverExecArgv }. */
export async function etcdFigures(ctx) {
  const { cfg, timing, tmp, only, log, notes, ratioRow, fmt, serverExecArgv } = ctx;
  if (!haveEtcd()) {
    notes.push('etcd figures skipped: no etcd on PATH (apt-get install etcd-server)');
    return;
  }
  const etcd = await startEtcd(join(tmp, 'etcd'));
  const start = async (dataDir, servers) => {
    const { proc, reply } = await startChild('./server.mjs', { dataDir, etcd: servers }, serverExecArgv);
    return { proc, url: reply.url, port: Number(new URL(reply.url).port) };
  };
  const servers = [];
  try {
    const e = await start(join(tmp, 'on-etcd'), [etcd.url]);
    servers.push(e);
    await setupCrd(e.url);
    const headers = { 'Content-Type': 'application/json', Accept: 'application/json' };

    if (only.has('etcd-create')) {
      log('etcd: creates through the server vs raw etcd puts...');
      await createNamespace(e.url, 'bench-etcd');
      const body = crontabBody('bench-etcd');
      // What the server stores for such a create, for the raw puts: the object as it is read back.
      await expectOk(request(`${e.url}${crontabs('bench-etcd')}`, 'POST', body.replace('__NAME__', 'probe'), headers), 'probe create');
      const stored = (await expectOk(request(`${e.url}${crontabs('bench-etcd')}/probe`), 'probe get')).text;
      const base = [];
      const ours = [];
      const ratios = [];
      for (let i = 0; i < cfg.runs; i++) {
        const { proc, reply: b } = await startChild('./etcd-baseline.mjs', {
          servers: [etcd.url],
          prefix: `/bench-raw/${i}/`,
          value: stored,
          connections: cfg.connections,
          warmupMs: timing.warmupMs,
          durationMs: timing.durationMs,
        });
        await stopChild(proc);
        const o = await load({ ...timing, port: e.port, method: 'POST', path: crontabs('bench-etcd'), headers, body, nameTemplate: `e${i}-` });
        if (o.errors > 0) throw new Error(`etcd creates: ${o.errors} non-2xx responses ${JSON.stringify(o.statuses)}`);
        base.push(b.rps);
        ours.push(o.rps);
        ratios.push(o.rps / b.rps);
        log(`  etcd create run ${i + 1}: raw etcd puts ${Math.round(b.rps)}/s, ours ${Math.round(o.rps)}/s (p99 ${o.p99ms.toFixed(1)} ms)`);
      }
      ratioRow(
        `create CRs on etcd, creates/s at ${cfg.connections} conns vs raw etcd puts/s (the store's gRPC client, ${cfg.connections} in flight, ${Buffer.byteLength(stored)} B values)`,
        median(ours),
        median(base),
        fmt.rate,
        { text: '≥ 0.8×', ok: (x) => x >= 0.8 },
        median(ratios),
      );
      notes.push(`etcd create: raw puts ${base.map(Math.round).join(', ')}/s; ours ${ours.map(Math.round).join(', ')}/s; ratios ${ratios.map((x) => x.toFixed(2)).join(', ')}`);
    }

    if (only.has('etcd-get') || only.has('etcd-list')) {
      const s = await start(join(tmp, 'on-sqlite'), undefined);
      servers.push(s);
      await setupCrd(s.url);
      for (const [who, srv] of [['etcd', e], ['sqlite', s]]) {
        await createNamespace(srv.url, 'bench-list');
        log(`etcd: populating ${cfg.objects} CronTabs on ${who}...`);
        const pop = await load({ ...timing, total: cfg.objects, port: srv.port, method: 'POST', path: crontabs('bench-list'), headers, body: crontabBody('bench-list'), nameTemplate: 'item-' });
        if (pop.errors > 0) throw new Error(`populating ${who}: ${pop.errors} failed creates ${JSON.stringify(pop.statuses)}`);
      }
      if (only.has('etcd-get')) {
        log('etcd: GET on etcd vs on SQLite...');
        const get = { Accept: 'application/json' };
        const base = [];
        const ours = [];
        const ratios = [];
        for (let i = 0; i < cfg.runs; i++) {
          const b = await load({ ...timing, port: s.port, method: 'GET', path: `${crontabs('bench-list')}/item-0`, headers: get });
          const o = await load({ ...timing, port: e.port, method: 'GET', path: `${crontabs('bench-list')}/item-0`, headers: get });
          if (b.errors + o.errors > 0) throw new Error(`etcd GET: non-2xx responses ${JSON.stringify([b.statuses, o.statuses])}`);
          base.push(b.rps);
          ours.push(o.rps);
          ratios.push(o.rps / b.rps);
          log(`  GET run ${i + 1}: sqlite ${Math.round(b.rps)}/s, etcd ${Math.round(o.rps)}/s`);
        }
        ratioRow(`GET one CR on etcd, req/s at ${cfg.connections} conns vs the same on SQLite`, median(ours), median(base), fmt.rate, { text: '≥ 0.9×', ok: (x) => x >= 0.9 }, median(ratios));
        notes.push(`etcd GET: sqlite ${base.map(Math.round).join(', ')}/s; etcd ${ours.map(Math.round).join(', ')}/s; ratios ${ratios.map((x) => x.toFixed(2)).join(', ')}`);
      }
      if (only.has('etcd-list')) {
        log('etcd: LIST on etcd vs on SQLite...');
        const time = async (srv) => {
          const url = `${srv.url}${crontabs('bench-list')}`;
          const t0 = performance.now();
          const r = await expectOk(request(url, 'GET', undefined, {}, { discard: true }), 'list');
          return { ms: performance.now() - t0, bytes: r.bytes };
        };
        await time(e);
        await time(s); // warm-ups
        const onEtcd = [];
        const onSqlite = [];
        for (let i = 0; i < cfg.listRepeats; i++) {
          // Alternating, so drift in the machine's load hits both alike.
          onSqlite.push((await time(s)).ms);
          onEtcd.push((await time(e)).ms);
        }
        // As a speed ratio (lists/s on etcd over lists/s on SQLite), so that ≥ 0.9× reads as the GET goal does.
        ratioRow(
          `LIST ${cfg.objects.toLocaleString('en-US')} CRs on etcd (watch cache), one full list (median of ${cfg.listRepeats}) vs the same on SQLite; ratio = SQLite time / etcd time`,
          median(onEtcd),
          median(onSqlite),
          fmt.ms,
          { text: '≥ 0.9×', ok: (x) => x >= 0.9 },
          median(onSqlite) / median(onEtcd),
        );
        notes.push(`etcd LIST: on etcd ${onEtcd.map((x) => x.toFixed(0)).join(', ')} ms; on SQLite ${onSqlite.map((x) => x.toFixed(0)).join(', ')} ms`);
      }
    }
  } finally {
    for (const srv of servers) await stopChild(srv.proc);
    await etcd.stop();
  }
}

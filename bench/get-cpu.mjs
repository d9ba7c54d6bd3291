// `node bench/get-cpu.mjs [OTHER_CHECKOUT...]`: the server's CPU time per GET of one CronTab (its /proc utime +
// stime around each load run, 50 connections), this build's and each other built checkout's beside bare
// node:http serving the same object, runs alternating (ROUNDS, default 6, of 3 s). The server is CPU-bound
// there, so its requests/s follow its CPU per request; the CPU figure is steadier than requests/s on a busy
// machine. Needs `npm run build` (here and in the others).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startChild, stopChild, load, request, expectOk, median } from './util.mjs';
import { setupCrd, createNamespace, crontabs, crontabBody } from './fixtures.mjs';

const here = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');
const trees = [here, ...process.argv.slice(2)];
const rounds = Number(process.env.ROUNDS ?? 6);
/** A process's CPU time in ms (user + system; clock ticks of 10 ms). */
const cpu = (pid) => {
  const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
};
const tmp = mkdtempSync(join(tmpdir(), 'get-cpu-'));
const servers = [];
try {
  for (const [i, t] of trees.entries()) {
    const { proc, reply } = await startChild(`${t}/bench/server.mjs`, { dataDir: join(tmp, `d${i}`) });
    const url = reply.url;
    await setupCrd(url);
    await createNamespace(url, 'b');
    await expectOk(request(`${url}${crontabs('b')}`, 'POST', crontabBody('b').replace('__NAME__', 'item-0'), { 'Content-Type': 'application/json' }), 'create');
    servers.push({ name: t === here ? 'this build' : t, proc, port: Number(new URL(url).port), path: `${crontabs('b')}/item-0`, url });
  }
  const object = (await request(`${servers[0].url}${crontabs('b')}/item-0`)).json();
  const bare = await startChild('./baseline-server.mjs', { object });
  servers.unshift({ name: 'bare node:http', proc: bare.proc, port: bare.reply.port, path: '/item-0' });
  const run = async (s, ms) => {
    const c0 = cpu(s.proc.pid);
    const r = await load({ port: s.port, method: 'GET', path: s.path, headers: { Accept: 'application/json' }, connections: 50, warmupMs: 0, durationMs: ms });
    return { rps: r.rps, us: ((cpu(s.proc.pid) - c0) * 1000) / r.requests };
  };
  for (const s of servers) await run(s, 2000); // warm-up
  const results = new Map(servers.map((s) => [s.name, []]));
  for (let i = 0; i < rounds; i++) for (const s of i % 2 ? [...servers].reverse() : servers) results.get(s.name).push(await run(s, 3000));
  const bareRuns = results.get('bare node:http');
  for (const [name, xs] of results) {
    const ratios = xs.map((x, i) => x.rps / bareRuns[i].rps);
    console.log(`${name}: CPU µs/GET ${xs.map((x) => x.us.toFixed(1)).join(', ')} (median ${median(xs.map((x) => x.us)).toFixed(1)}); req/s ${xs.map((x) => Math.round(x.rps)).join(', ')}; vs bare (same round) median ${median(ratios).toFixed(2)}`);
  }
} finally {
  for (const s of servers) await stopChild(s.proc);
  rmSync(tmp, { recursive: true, force: true });
}

// bench/server.mjs, answering 'stats' with its process's CPU time and garbage collections so far (for
// bench/clusters-in-use.mjs: the server's CPU per request, which the machine's other load disturbs less than
// requests per second).
import './server.mjs';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { Session } from 'node:inspector/promises';

const gc = { scavenges: 0, scavengeMs: 0, majorMs: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) {
      gc.scavenges++;
      gc.scavengeMs += e.duration;
    } else gc.majorMs += e.duration;
  }
}).observe({ entryTypes: ['gc'] });

// 'profile:start' / 'profile:stop': a CPU profile of what happens in between (clusters-in-use's BENCH_PROFILE).
let session;
process.on('message', async (m) => {
  if (m === 'stats') process.send({ stats: { ...gc, cpu: process.cpuUsage(), heapUsed: process.memoryUsage().heapUsed } });
  if (m === 'profile:start') {
    session ??= new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    process.send({ profiling: true });
  }
  if (m === 'profile:stop') {
    const { profile } = await session.post('Profiler.stop');
    await session.post('Profiler.disable');
    session.disconnect();
    process.send({ profile });
  }
});

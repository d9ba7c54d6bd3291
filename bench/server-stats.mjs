// bench/server.mjs, answering 'stats' with its process's CPU time and garbage collections so far (for
// bench/clusters-in-use.mjs: the server's CPU per request, which the machine's other load disturbs less than
// requests per second).
import './server.mjs';
import { PerformanceObserver, constants } from 'node:perf_hooks';

const gc = { scavenges: 0, scavengeMs: 0, majorMs: 0 };
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (e.detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR) {
      gc.scavenges++;
      gc.scavengeMs += e.duration;
    } else gc.majorMs += e.duration;
  }
}).observe({ entryTypes: ['gc'] });

process.on('message', (m) => {
  if (m === 'stats') process.send({ stats: { ...gc, cpu: process.cpuUsage(), heapUsed: process.memoryUsage().heapUsed } });
});

// The etcd baseline: raw puts through the etcd3 client our etcd store uses, in its own process, with
// `connections` puts in flight at once (as many as the load generator's connections to our server), each
// of `value` at a new key under `prefix`. Receives { servers, prefix, value, connections, warmupMs,
// durationMs }, replies { rps, requests }.
import { Etcd3 } from 'etcd3';

process.once('message', async ({ servers, prefix, value, connections, warmupMs, durationMs }) => {
  const client = new Etcd3({ hosts: servers });
  const bytes = Buffer.from(value);
  let n = 0;
  let counted = 0;
  let counting = false;
  let stop = false;
  const worker = async () => {
    while (!stop) {
      await client.put(`${prefix}${n++}`).value(bytes).exec();
      if (counting) counted++;
    }
  };
  try {
    const workers = Array.from({ length: connections }, worker);
    await new Promise((r) => setTimeout(r, warmupMs));
    counting = true;
    const start = performance.now();
    await new Promise((r) => setTimeout(r, durationMs));
    const seconds = (performance.now() - start) / 1000;
    const requests = counted;
    stop = true;
    await Promise.all(workers);
    process.send({ rps: requests / seconds, requests });
  } catch (err) {
    process.send({ error: err instanceof Error ? err.message : String(err) });
  } finally {
    client.close();
  }
  process.exit(0);
});

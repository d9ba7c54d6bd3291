// The etcd baseline: raw puts through the client our etcd store makes its writes with (dist/storage/etcd-grpc.js,
// unary gRPC over node:http2), in its own process, with `connections` puts in flight at once (as many as the
// load generator's connections to our server), each of `value` at a new key under `prefix`. Receives
// { servers, prefix, value, connections, warmupMs, durationMs }, replies { rps, requests }.
import { EtcdGrpc } from '../dist/storage/etcd-grpc.js';
import { encodePut } from '../dist/storage/etcd-kv-codec.js';

process.once('message', async ({ servers, prefix, value, connections, warmupMs, durationMs }) => {
  const client = new EtcdGrpc(servers, undefined);
  const bytes = Buffer.from(value);
  let n = 0;
  let counted = 0;
  let counting = false;
  let stop = false;
  const worker = async () => {
    while (!stop) {
      await client.call('/etcdserverpb.KV/Put', encodePut(Buffer.from(`${prefix}${n++}`), bytes));
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

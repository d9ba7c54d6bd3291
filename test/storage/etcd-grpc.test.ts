// The store's unary gRPC transport (src/storage/etcd-grpc.ts) against small HTTP/2 servers that answer as
// etcd does, or fail as a member can: gRPC statuses and their messages, a closed endpoint skipped, a read
// sent again after its connection broke and a write not, deadlines.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http2, { type Http2Server, type ServerHttp2Stream } from 'node:http2';
import { once } from 'node:events';
import { EtcdGrpc, GrpcError } from '../../src/storage/etcd-grpc.js';

const servers: Http2Server[] = [];
after(() => {
  for (const s of servers) s.close();
});

/** An HTTP/2 server on a free port; onCall sees each call's request message. */
async function fakeEtcd(onCall: (stream: ServerHttp2Stream, message: Buffer) => void): Promise<string> {
  const server = http2.createServer();
  server.on('stream', (stream) => {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => onCall(stream, Buffer.concat(chunks).subarray(5)));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
}

/** A port nothing listens on. */
async function closedEndpoint(): Promise<string> {
  const s = http2.createServer().listen(0, '127.0.0.1');
  await once(s, 'listening');
  const port = (s.address() as { port: number }).port;
  await new Promise((r) => s.close(r));
  return `http://127.0.0.1:${port}`;
}

function frame(msg: Buffer): Buffer {
  const f = Buffer.alloc(5 + msg.length);
  f.writeUInt32BE(msg.length, 1);
  msg.copy(f, 5);
  return f;
}

function answer(stream: ServerHttp2Stream, msg: Buffer): void {
  stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
  stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
  stream.end(frame(msg));
}

test('an answer comes back as its message; an error status as a GrpcError with its decoded message', async () => {
  const url = await fakeEtcd((stream, msg) => {
    if (msg.toString() === 'ok') return answer(stream, Buffer.from('echo:ok'));
    // etcd refuses in a trailers-only answer: the status in the headers, percent-encoded.
    stream.respond({ ':status': 200, 'content-type': 'application/grpc', 'grpc-status': '11', 'grpc-message': 'etcdserver:%20mvcc:%20required%20revision%20has%20been%20compacted' }, { endStream: true });
  });
  const client = new EtcdGrpc([url], undefined);
  try {
    assert.equal((await client.call('/etcdserverpb.KV/Range', frame(Buffer.from('ok')))).toString(), 'echo:ok');
    await assert.rejects(client.call('/etcdserverpb.KV/Range', frame(Buffer.from('old'))), (err: unknown) => {
      assert.ok(err instanceof GrpcError);
      assert.equal(err.code, 11);
      assert.equal(err.message, 'etcdserver: mvcc: required revision has been compacted');
      return true;
    });
  } finally {
    client.close();
  }
});

test('a call goes on to the next endpoint when one refuses connections, and later calls stay there', async () => {
  let calls = 0;
  const live = await fakeEtcd((stream) => {
    calls++;
    answer(stream, Buffer.from('here'));
  });
  const dead = await closedEndpoint();
  // Whichever endpoint it starts on, every call (writes too: a refused connection sent nothing) is answered.
  for (let i = 0; i < 4; i++) {
    const client = new EtcdGrpc([dead, live], undefined);
    try {
      assert.equal((await client.call('/etcdserverpb.KV/Txn', frame(Buffer.from('w')))).toString(), 'here');
      assert.equal((await client.call('/etcdserverpb.KV/Txn', frame(Buffer.from('w')))).toString(), 'here');
    } finally {
      client.close();
    }
  }
  assert.equal(calls, 8);
});

test('a read whose connection breaks is sent again elsewhere; a write is not, and fails as unavailable', async () => {
  const seen: string[] = [];
  const breaks = async (): Promise<string> =>
    fakeEtcd((stream, msg) => {
      seen.push(msg.toString());
      // The request arrived, then the connection died without an answer.
      stream.session?.destroy();
    });
  const answers = await fakeEtcd((stream, msg) => {
    seen.push(`answered ${msg.toString()}`);
    answer(stream, Buffer.from('fine'));
  });
  const broken = await breaks();
  // Start on the breaking endpoint: with two endpoints the client starts at a random one, so try until it did.
  for (let i = 0; i < 50 && !seen.includes('read'); i++) {
    const client = new EtcdGrpc([broken, answers], undefined);
    seen.length = 0;
    try {
      assert.equal((await client.call('/etcdserverpb.KV/Range', frame(Buffer.from('read')), { idempotent: true })).toString(), 'fine');
    } finally {
      client.close();
    }
  }
  assert.deepEqual(seen, ['read', 'answered read']);

  const writer = new EtcdGrpc([broken], undefined);
  try {
    seen.length = 0;
    await assert.rejects(writer.call('/etcdserverpb.KV/Txn', frame(Buffer.from('write'))), (err: unknown) => {
      assert.ok(err instanceof GrpcError);
      assert.equal(err.code, 14);
      return true;
    });
    assert.deepEqual(seen, ['write'], 'sent once, not again');
    // The next call connects afresh.
    await assert.rejects(writer.call('/etcdserverpb.KV/Txn', frame(Buffer.from('again'))));
    assert.deepEqual(seen, ['write', 'again']);
  } finally {
    writer.close();
  }
});

test('a call past its deadline fails with DEADLINE_EXCEEDED, and the client is not stuck', async () => {
  let hold: ServerHttp2Stream | undefined;
  const url = await fakeEtcd((stream, msg) => {
    if (msg.toString() === 'slow') hold = stream; // never answered
    else answer(stream, Buffer.from('quick'));
  });
  const client = new EtcdGrpc([url], undefined);
  try {
    const t0 = Date.now();
    await assert.rejects(client.call('/etcdserverpb.KV/Range', frame(Buffer.from('slow')), { deadline: Date.now() + 150 }), (err: unknown) => {
      assert.ok(err instanceof GrpcError);
      assert.equal(err.code, 4);
      return true;
    });
    assert.ok(Date.now() - t0 >= 140);
    assert.ok(hold !== undefined);
    assert.equal((await client.call('/etcdserverpb.KV/Range', frame(Buffer.from('fast')))).toString(), 'quick');
  } finally {
    client.close();
  }
});

test('a stream delivers each message whole however the bytes are cut, and closing it leaves the other calls be', async () => {
  let unaryHeld: ServerHttp2Stream | undefined;
  const server = http2.createServer();
  server.on('stream', (stream, headers) => {
    if (headers[':path'] === '/etcdserverpb.Watch/Watch') {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.on('data', (c: Buffer) => {
        if (c.subarray(5).toString() !== 'go') return;
        // Three messages: the first cut in two writes mid-prefix, the other two in one write.
        const all = Buffer.concat([frame(Buffer.from('one')), frame(Buffer.from('two')), frame(Buffer.alloc(70_000, 0x7a))]);
        stream.write(all.subarray(0, 3));
        setTimeout(() => stream.write(all.subarray(3, 9)), 10);
        setTimeout(() => stream.end(all.subarray(9)), 20);
      });
      return;
    }
    // A unary call held open until the test lets it answer.
    stream.on('data', () => {});
    stream.on('end', () => (unaryHeld = stream));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  servers.push(server);
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const client = new EtcdGrpc([url], undefined);
  try {
    const got: string[] = [];
    const ended = new Promise<unknown>((resolve) => {
      const s = client.stream('/etcdserverpb.Watch/Watch', (m) => got.push(m.length > 100 ? `z×${m.length}` : m.toString()), resolve);
      s.write(frame(Buffer.from('go')));
    });
    assert.equal(await ended, undefined, 'an OK status');
    assert.deepEqual(got, ['one', 'two', 'z×70000']);

    // A unary call in flight on the same connection survives a stream closed from this side.
    const pending = client.call('/etcdserverpb.KV/Range', frame(Buffer.from('r')), { idempotent: true });
    let endedAfterClose = false;
    const s = client.stream('/etcdserverpb.Watch/Watch', () => {}, () => (endedAfterClose = true));
    while (unaryHeld === undefined) await new Promise((r) => setTimeout(r, 5));
    s.close();
    await new Promise((r) => setTimeout(r, 50));
    answer(unaryHeld, Buffer.from('still here'));
    assert.equal((await pending).toString(), 'still here');
    assert.equal(endedAfterClose, false, 'closing a stream does not report its end');
  } finally {
    client.close();
  }
});

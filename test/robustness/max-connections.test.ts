// The connection cap (--max-connections): past it a listener closes new connections as soon as it
// accepts them, the ones it holds keep working, and once they close new ones are accepted again.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type net from 'node:net';
import { startApi, type Api } from '../server/helpers.js';
import { connect, parseHead, readUntilClosed } from './raw-http.js';
import { DEFAULT_MAX_CONNECTIONS, defaultMaxConnections, openFileLimit } from '../../src/server/connection-limit.js';

const CAP = 3;
let api: Api;
const opened: net.Socket[] = [];
before(async () => {
  api = await startApi({ maxConnections: CAP });
});
after(async () => {
  for (const s of opened) s.destroy();
  await api.close();
});

const open = async (): Promise<net.Socket> => {
  const s = await connect(api.url);
  opened.push(s);
  return s;
};

/** One keep-alive request on s; resolves with the response's status once it has fully arrived. */
function get(s: net.Socket, path: string): Promise<number> {
  return new Promise((resolve, reject) => {
    let raw = '';
    const onData = (c: Buffer): void => {
      raw += c.toString('latin1');
      const head = raw.indexOf('\r\n\r\n');
      if (head < 0) return;
      const { status, headers, body } = parseHead(raw);
      if (body.length < Number(headers.get('content-length') ?? 0)) return;
      s.off('data', onData);
      s.off('close', onClose);
      resolve(status);
    };
    const onClose = (): void => reject(new Error(`connection closed during GET ${path}: ${JSON.stringify(raw)}`));
    s.on('data', onData);
    s.once('close', onClose);
    s.write(`GET ${path} HTTP/1.1\r\nHost: x\r\n\r\n`);
  });
}

/** Whether the server closes s within ms without sending anything. */
async function closedUnanswered(s: net.Socket, ms: number): Promise<boolean> {
  const { closed, data } = await readUntilClosed(s, ms);
  assert.equal(data, '', 'nothing is sent on a dropped connection');
  return closed;
}

test('connections past the cap are closed on accept; the ones held work; closing them makes room', { timeout: 15_000 }, async () => {
  const held = [];
  for (let i = 0; i < CAP; i++) held.push(await open());
  // The held connections are accepted (each answers), so the server counts all of them.
  for (const s of held) assert.equal(await get(s, '/healthz'), 200);

  const extra = [await open(), await open()];
  for (const s of extra) assert.ok(await closedUnanswered(s, 3000), 'a connection past the cap is closed');

  // The held ones still serve requests, including ones that reach storage.
  for (const s of held) assert.equal(await get(s, '/api/v1/namespaces/default'), 200);

  // Close them; the server notices each close and accepts new connections again.
  for (const s of held) s.destroy();
  const deadline = Date.now() + 5000;
  let again: net.Socket | undefined;
  while (!again) {
    const s = await open();
    const status = await get(s, '/healthz').catch(() => undefined);
    if (status === 200) again = s;
    else if (Date.now() > deadline) assert.fail('no new connection was accepted within 5 s of closing the held ones');
    else await new Promise((r) => setTimeout(r, 50));
  }
  // And up to the cap again.
  const more = [await open(), await open()];
  for (const s of more) assert.equal(await get(s, '/healthz'), 200);
  assert.ok(await closedUnanswered(await open(), 3000), 'the cap applies again');
});

test('the default cap: 10,000, or less when the open-file limit would be reached first', () => {
  assert.equal(defaultMaxConnections(undefined, 2), DEFAULT_MAX_CONNECTIONS);
  assert.equal(defaultMaxConnections(1_048_576, 2), 10_000);
  assert.equal(defaultMaxConnections(20_000, 2), 9_872);
  assert.equal(defaultMaxConnections(1024, 2), 384);
  assert.equal(defaultMaxConnections(1024, 1), 768);
  assert.equal(defaultMaxConnections(100, 1), 1);
  const limits = (soft: string): string =>
    `Limit                     Soft Limit           Hard Limit           Units     \nMax open files            ${soft}                 524288               files     \n`;
  assert.equal(openFileLimit(() => limits('1024')), 1024);
  assert.equal(openFileLimit(() => limits('unlimited')), undefined);
  assert.equal(openFileLimit(() => { throw new Error('no /proc'); }), undefined);
});

// One `kubectl create -f` of every corpus CRD over TLS: kubectl sends them one after the other on one
// keep-alive connection, each answered with the whole (large) CRD. Node's HTTP server used to pause the
// connection's parser while a large answer was still buffered and then drop the connection (HPE_PAUSED),
// so some creates failed with EOF.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestServer, requireKubectl, type TestServer } from './harness.js';
import { CORPUS } from '../shared-paths.js';

requireKubectl();
let server: TestServer;
before(async () => {
  server = await startTestServer();
});
after(() => server.close());

test('every corpus CRD created in one kubectl create over TLS', async () => {
  const docs: string[] = [];
  for (const project of readdirSync(CORPUS).sort()) {
    // The two Gateway API channels define the same CRDs.
    if (project === 'gateway-api-experimental') continue;
    const dir = join(CORPUS, project, 'crds');
    let files: string[];
    try {
      files = readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort();
    } catch {
      continue;
    }
    for (const f of files) docs.push(readFileSync(join(dir, f), 'utf8').replace(/^---\n/, ''));
  }
  assert.ok(docs.length > 100, `${docs.length} CRDs`);
  const file = server.file('all-crds.yaml', docs.join('\n---\n'));
  const r = await server.kubectl(['create', '-f', file], { timeoutMs: 120_000 });
  assert.equal(r.stderr, '');
  assert.equal(r.code, 0);
  assert.equal(r.stdout.trim().split('\n').filter((l) => l.endsWith(' created')).length, docs.length);
});

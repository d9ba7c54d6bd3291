// The command line's loader (src/util/code-cache.ts): runs a CommonJS bundle as the main program, makes V8's code
// cache once the program says it has started, uses it on the next run, and never uses a cache made for another
// bundle, even one of the same length.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { readCodeCache, RESPONDED_EVENT, STARTED_EVENT } from '../../src/util/code-cache.js';

const run = promisify(execFile);
const loader = new URL('../../src/util/code-cache.ts', import.meta.url).href;

/** A bundle that prints its word, its arguments and what require, __dirname and the loader's import give it, then says it has started. */
const program = (word: string): string => `#!/usr/bin/env node
const os = require('node:os');
__bundleImport('node:path').then((p) => {
  console.log(JSON.stringify({ word: ${JSON.stringify(word)}, args: process.argv.slice(2), dir: __dirname, eol: os.EOL, sep: p.sep, main: typeof module.exports }));
  process.emit(${JSON.stringify(STARTED_EVENT)});
});
`;

/** Runs the bundle through runBundle in a fresh node, as dist/cli/crd-apiserver.cjs does; its printed line. */
async function runThrough(bundle: string, cache: string, ...args: string[]): Promise<Record<string, unknown>> {
  const entry = join(bundle, '..', 'entry.mjs');
  writeFileSync(entry, `import { runBundle } from ${JSON.stringify(loader)};\nrunBundle(${JSON.stringify(bundle)}, ${JSON.stringify(cache)});\n`);
  const out = await run(process.execPath, ['--import', 'tsx', entry, ...args]);
  return JSON.parse(out.stdout.trim()) as Record<string, unknown>;
}

test('a bundle runs as the main program; its code cache is made once it has started, then used', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'code-cache-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const bundle = join(dir, 'b.bundle.cjs');
  const cache = join(dir, 'b.bundle.v8cache');
  writeFileSync(bundle, program('first'));
  const size = statSync(bundle).size;

  // require, __dirname, dynamic import() and arguments work as for a CommonJS main module.
  assert.deepEqual(await runThrough(bundle, cache, 'serve', '--x'), { word: 'first', args: ['serve', '--x'], dir, eol: '\n', sep: '/', main: 'object' });
  // The cache: a header naming the bundle and this Node, then V8's data.
  const made = readFileSync(cache);
  const header = made.subarray(0, made.indexOf(10) + 1).toString();
  assert.match(header, new RegExp(`^crd-apiserver code cache ${statSync(bundle).size} \\S+ ${process.version} \\S+ ${process.arch}\\n$`));
  assert.ok(made.length > header.length);
  assert.ok(readCodeCache(cache, header));
  assert.equal(readCodeCache(cache, header.replace(process.version, 'v0.0.0')), undefined);

  // A valid cache is used, not made again.
  const mtime = statSync(cache).mtimeMs;
  await new Promise((r) => setTimeout(r, 20));
  assert.equal((await runThrough(bundle, cache)).word, 'first');
  assert.equal(statSync(cache).mtimeMs, mtime);

  // Rebuilt with the same length: the old cache is not used (the new code runs) and a new one is made.
  writeFileSync(bundle, program('other'));
  assert.equal(statSync(bundle).size, size);
  utimesSync(bundle, new Date(), new Date(Date.now() + 5_000));
  assert.equal((await runThrough(bundle, cache)).word, 'other');
  assert.notEqual(statSync(cache).mtimeMs, mtime);
  assert.ok(readCodeCache(cache, readFileSync(cache).subarray(0, readFileSync(cache).indexOf(10) + 1).toString()));

  // A cache that cannot be written (its directory does not exist) is done without.
  assert.equal((await runThrough(bundle, join(dir, 'missing', 'cache'))).word, 'other');
});

test('the cache is made again when the program has responded, holding what it compiled since it started', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'code-cache-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const bundle = join(dir, 'b.bundle.cjs');
  // Started, then a function compiled and run (a request's path), then responded (when RESPOND is set).
  writeFileSync(
    bundle,
    `process.emit(${JSON.stringify(STARTED_EVENT)});
function handle(n) { let s = 0; for (let i = 0; i < n; i++) s += i % 7 === 0 ? i : -1; return { s, text: String(s).padStart(12, '0') }; }
const r = handle(1000);
if (process.env.RESPOND) process.emit(${JSON.stringify(RESPONDED_EVENT)});
console.log(JSON.stringify(r));
`,
  );
  const cacheSize = async (respond: boolean): Promise<number> => {
    const cache = join(dir, `${respond}.v8cache`);
    const entry = join(dir, 'entry.mjs');
    writeFileSync(entry, `import { loadBundle, STARTED_EVENT, RESPONDED_EVENT } from ${JSON.stringify(loader)};\nloadBundle(${JSON.stringify(bundle)}, ${JSON.stringify(cache)}, [STARTED_EVENT, RESPONDED_EVENT]);\n`);
    await run(process.execPath, ['--import', 'tsx', entry], { env: { ...process.env, ...(respond ? { RESPOND: '1' } : {}) } });
    return statSync(cache).size;
  };
  assert.ok((await cacheSize(true)) > (await cacheSize(false)), 'the function compiled after the start is in the cache made at the response');
});

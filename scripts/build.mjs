// Builds dist/ with tsc, bundles the web console (console/, with esbuild) into dist/console/, the command line
// into dist/cli/crd-apiserver.bundle.cjs (see command-bundle.mjs; dist/cli/crd-apiserver.cjs runs it) and the test kit
// into dist/testing/testing.bundle.cjs (dist/testing/entry.js, crd-apiserver/testing, loads it), and records when, so
// that `npm start` can skip the build when no source changed since.
// `node scripts/build.mjs` always builds (npm run build, and prepare on npm install); with --if-stale only when
// a source is newer than the last build. Exports the staleness check for scripts/start.mjs and the tests.
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, realpathSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleConsole } from './console-bundle.mjs';
import { bundleCommand } from './command-bundle.mjs';

/** What the build reads besides node_modules: tsc's configuration, the console's bundling, everything under src and console. */
const INPUTS = ['tsconfig.json', 'tsconfig.build.json', join('scripts', 'console-bundle.mjs'), join('scripts', 'command-bundle.mjs')];
const SOURCE_DIRS = ['src', 'console'];
/** Written after a successful build, with the mtime of the build's start. */
export const STAMP = join('dist', '.build-stamp');

/** The latest mtime (ms) among the build's inputs under root; directories count, so a deleted or renamed file does too. */
export function newestInput(root) {
  let newest = 0;
  const seen = (path) => {
    newest = Math.max(newest, statSync(path).mtimeMs);
  };
  for (const f of INPUTS) seen(join(root, f));
  const walk = (dir) => {
    seen(dir);
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(dir, e.name));
      else seen(join(dir, e.name));
    }
  };
  for (const d of SOURCE_DIRS) walk(join(root, d));
  return newest;
}

/** Why dist/ under root must be rebuilt, or undefined when it is up to date. */
export function staleReason(root) {
  let stamp;
  try {
    stamp = statSync(join(root, STAMP)).mtimeMs;
    statSync(join(root, 'dist', 'cli', 'main.js'));
    statSync(join(root, COMMAND));
    statSync(join(root, COMMAND_BUNDLE));
    statSync(join(root, TESTING_BUNDLE));
    statSync(join(root, 'dist', 'console', 'console.js'));
  } catch {
    return 'no build yet';
  }
  // A source saved in the same instant as the stamp counts as newer: one build too many rather than one too few.
  return newestInput(root) >= stamp ? 'sources changed since the last build' : undefined;
}

/**
 * Runs tsc -p tsconfig.build.json in root, then bundles the console into dist/console/; on success stamps dist/
 * with the build's start time. Resolves to the exit code (tsc's, or 1 when bundling failed). toStderr: tsc's
 * diagnostics (which it prints on stdout) go to stderr.
 */
export async function build(root, { toStderr = false } = {}) {
  const started = new Date();
  let tsc;
  try {
    tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
  } catch {
    process.stderr.write('crd-apiserver: typescript is not installed (npm install without --omit=dev builds dist/)\n');
    return 1;
  }
  const r = spawnSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json')], { cwd: root, stdio: toStderr ? [0, 2, 2] : 'inherit' });
  let code = r.status ?? 1;
  if (code === 0) code = await writeConsole(root);
  if (code === 0) code = await writeCommand(root);
  if (code === 0) {
    const stamp = join(root, STAMP);
    writeFileSync(stamp, `${started.toISOString()}\n`);
    // The start time, not the end: a source saved while tsc ran is then newer than the stamp.
    utimesSync(stamp, started, started);
  }
  return code;
}

/** dist/console/console.js and console.css; the server serves them at /console/. */
async function writeConsole(root) {
  try {
    const { js, css } = await bundleConsole(root);
    const dir = join(root, 'dist', 'console');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'console.js'), js);
    writeFileSync(join(dir, 'console.css'), css);
    return 0;
  } catch (e) {
    process.stderr.write(`crd-apiserver: bundling the web console failed: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

/**
 * What bin/crd-apiserver.cjs and npm start run: the entry (src/cli/crd-apiserver.ts, as tsc wrote it) that runs the
 * bundle, itself bundled as CommonJS: an ES module main program costs Node's ES module loader (about 5 ms of a start).
 */
export const COMMAND = join('dist', 'cli', 'crd-apiserver.cjs');
/** The command line as one file. */
export const COMMAND_BUNDLE = join('dist', 'cli', 'crd-apiserver.bundle.cjs');
/** The test kit as one file, which crd-apiserver/testing (dist/testing/entry.js) loads. */
export const TESTING_BUNDLE = join('dist', 'testing', 'testing.bundle.cjs');

async function writeCommand(root) {
  try {
    await bundleCommand(join(root, 'dist', 'cli', 'main.js'), join(root, COMMAND_BUNDLE));
    await bundleCommand(join(root, 'dist', 'cli', 'crd-apiserver.js'), join(root, COMMAND));
    await bundleCommand(join(root, 'dist', 'testing', 'bundle-entry.js'), join(root, TESTING_BUNDLE));
    return 0;
  } catch (e) {
    process.stderr.write(`crd-apiserver: bundling the command line failed: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

const root = fileURLToPath(new URL('..', import.meta.url));
// Run as a script (not imported): argv[1] as given may pass through a symlink, import.meta.url does not.
if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const ifStale = process.argv.includes('--if-stale');
  if (!ifStale || staleReason(root) !== undefined) process.exitCode = await build(root);
}

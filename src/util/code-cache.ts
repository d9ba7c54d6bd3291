// Runs a bundle (one CommonJS file: scripts/command-bundle.mjs; the command line's, and the test kit's for
// crd-apiserver/testing) with V8's code cache: compiling the command line's 2.4 MB bundle and, as it starts, the
// functions it runs was about 90 ms of a 340 ms restart. The cache is the compiled code V8 hands back (vm.Script's
// createCachedData) once the program has started (a server listening, a test environment ready), kept beside the
// bundle; a later start that finds it valid skips that compiling. Node 22 caches modules itself (module.enableCompileCache);
// Node 20 does not.
//
// A cache belongs to one bundle, as built: its first line names the bundle's size and modification time, and the
// Node and V8 it was made by (V8 checks its own version and flags too, but only the source's length: a rebuilt
// bundle of the same length would otherwise run stale code). An invalid or missing cache is made again by the next
// server that starts; one that cannot be written (a read-only install) is done without.
import { readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { Module, createRequire } from 'node:module';
import { dirname } from 'node:path';
import vm from 'node:vm';

/**
 * Emitted on process by a command that has started its long-running work (serve: as its listeners open, before it
 * takes a request, so that even a server stopped right after its first /readyz leaves a cache): the moment to make it.
 */
export const STARTED_EVENT = 'crd-apiserver:started';

/**
 * Emitted on process by serve once it has answered its first request (typically a readiness probe): the cache made
 * at STARTED_EVENT is made again, now holding the request path too, which every later start's first request would
 * otherwise compile (about 5 ms of a restart to its first /readyz).
 */
export const RESPONDED_EVENT = 'crd-apiserver:responded';

/**
 * The module wrapper (Module.wrap's, on the source's first line so that line numbers hold) with one more parameter:
 * import() for the bundle (src/util/import-package.ts). A script compiled from cached code cannot run import()
 * itself on Node 20: the callback vm.Script's importModuleDynamically registers is not found for it.
 */
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname, __bundleImport) { ';
const WRAPPER_TAIL = '\n});';
const bundleImport = (specifier: string): Promise<unknown> => import(specifier);

/** The first line of a cache of this bundle: whose it is (also the bundle's identity for what it remembers elsewhere). */
export function cacheHeader(bundlePath: string): string {
  const st = statSync(bundlePath);
  return `crd-apiserver code cache ${st.size} ${st.mtimeMs} ${process.version} ${process.versions.v8} ${process.arch}\n`;
}

/** The cache's code, when it was made for this bundle by this Node. */
export function readCodeCache(cachePath: string, header: string): Buffer | undefined {
  let data: Buffer;
  try {
    data = readFileSync(cachePath);
  } catch {
    return undefined;
  }
  const head = Buffer.from(header);
  return data.length > head.length && data.subarray(0, head.length).equals(head) ? data.subarray(head.length) : undefined;
}

/** Writes the cache (header, then V8's data) whole or not at all. */
export function writeCodeCache(cachePath: string, header: string, data: Buffer): void {
  const tmp = `${cachePath}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, Buffer.concat([Buffer.from(header), data]));
    renameSync(tmp, cachePath);
  } catch {
    // Not writable (an installed package): start without a cache.
  }
}

/**
 * Emitted on process by the test kit once an environment is ready (startTestEnv): for the test kit's bundle, the
 * moment to make its cache, holding what a start and a CRD install compiled.
 */
export const TEST_ENV_READY_EVENT = 'crd-apiserver:test-env-ready';

/**
 * Loads the CommonJS bundle at bundlePath and answers its exports, compiled with the code cache at cachePath when
 * it is valid; when it is not, the cache is made when each of the `cacheWhen` events is emitted on process (each
 * later one writes it again, with what was compiled since).
 */
export function loadBundle(bundlePath: string, cachePath: string, cacheWhen: string | readonly string[]): unknown {
  const header = cacheHeader(bundlePath);
  const cached = readCodeCache(cachePath, header);
  // The bundle is ASCII (command-bundle.mjs): latin1 reads it fastest, as a one-byte string. A shebang line is not
  // JavaScript inside the module wrapper.
  const source = readFileSync(bundlePath, 'latin1').replace(/^#!.*/, '');
  const script = new vm.Script(WRAPPER_HEAD + source + WRAPPER_TAIL, { filename: bundlePath, ...(cached ? { cachedData: cached } : {}) });
  if (!cached || script.cachedDataRejected === true) {
    // Made after start-up, so that it holds the functions start-up compiled, not only the top level.
    for (const event of typeof cacheWhen === 'string' ? [cacheWhen] : cacheWhen) process.once(event, () => writeCodeCache(cachePath, header, script.createCachedData()));
  }
  const mod = new Module(bundlePath);
  mod.filename = bundlePath;
  const run = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string, bundleImport: (specifier: string) => Promise<unknown>) => void;
  run.call(mod.exports, mod.exports, createRequire(bundlePath), mod, bundlePath, dirname(bundlePath), bundleImport);
  return mod.exports;
}

/**
 * Runs the CommonJS bundle at bundlePath as the main program, compiled with the code cache at cachePath when it is
 * valid; when it is not, the cache is made once the program emits STARTED_EVENT on process, and again at RESPONDED_EVENT.
 */
export function runBundle(bundlePath: string, cachePath: string): void {
  loadBundle(bundlePath, cachePath, [STARTED_EVENT, RESPONDED_EVENT]);
}

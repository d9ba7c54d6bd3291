// Bundles the command line (dist/cli/main.js and every module of ours it imports; packages stay imports) into one
// CommonJS file with esbuild: Node then loads one module instead of about 470, which was most of `serve`'s start-up,
// and the entry (src/cli/crd-apiserver.ts) can compile it with V8's code cache (src/util/code-cache.ts), which
// Node 20 offers for scripts, not for ES modules.
// The bundle must sit two directories below the package root, as dist/cli/ is (see src/util/package-root.ts).

import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

/** Writes outfile from entry (JavaScript or TypeScript); resolves when written, rejects when esbuild fails. */
export async function bundleCommand(entry, outfile) {
  const esbuild = await import('esbuild');
  const out = await esbuild.build({
    write: false,
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Pure JavaScript packages start-up loads go in too (compiled with the rest, from the cache), better-sqlite3's
    // JavaScript included (its addon is loaded by path: src/storage/sqlite-database.ts); these stay as they are:
    // `bindings` (better-sqlite3's addon search, not reached), the others are loaded only when used (/metrics, the
    // console).
    external: ['bindings', 'prom-client', '@kubernetes/client-node', 'esbuild', 'tsx', 'tsx/*'],
    // import.meta.url is the bundle's own URL, as it was in the ES module bundle (PACKAGE_ROOT is found from it).
    define: { 'import.meta.url': '__bundleUrl' },
    banner: { js: "const __bundleUrl = require('node:url').pathToFileURL(__filename).href;" },
    // import.meta.resolve is reached only when running from TypeScript sources (manifest-stream.ts), never bundled.
    logOverride: { 'empty-import-meta': 'silent' },
    logLevel: 'error',
  });
  // ASCII only (esbuild leaves non-ASCII in comments and regular expressions): read as latin1 the bundle is a
  // one-byte string, decoded and compiled several times faster than UTF-8 with a few characters beyond it. A
  // \uXXXX escape means the same character in a string, template, regular expression or identifier, and nothing
  // in a comment; after a backslash it would not, so such a character fails the build rather than change meaning.
  const bundled = out.outputFiles[0].text;
  if (/\\[^\x00-\x7f]/.test(bundled)) throw new Error('the bundle has a non-ASCII character after a backslash: escape it in the source');
  const text = bundled.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  mkdirSync(dirname(outfile), { recursive: true });
  writeFileSync(outfile, text, { mode: 0o755 });
}

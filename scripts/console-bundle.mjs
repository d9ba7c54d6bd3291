// Bundles the web console (console/main.tsx: preact, the yaml package, the CSS it imports) with esbuild, for
// scripts/build.mjs (into dist/console/) and for a server run from src under tsx (in memory, once per process).
// One set of options for both, so the console the tests load is the one `npm run build` ships.
import { join } from 'node:path';

/** Bundles the console under root; returns the JavaScript and the CSS as text. */
export async function bundleConsole(root) {
  const esbuild = await import('esbuild');
  const out = await esbuild.build({
    absWorkingDir: root,
    entryPoints: { console: join(root, 'console', 'main.tsx') },
    bundle: true,
    format: 'esm',
    target: 'es2022',
    platform: 'browser',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: true,
    legalComments: 'none',
    write: false,
    outdir: join(root, 'dist', 'console'),
    logLevel: 'silent',
  });
  const text = (ext) => out.outputFiles.find((f) => f.path.endsWith(ext))?.text ?? '';
  return { js: text('.js'), css: text('.css') };
}

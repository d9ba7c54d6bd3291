// Bundles the command line (dist/cli/main.js and every module of ours it imports; packages stay imports) into one
// file with esbuild: Node then loads one module instead of about 470, which was most of `serve`'s start-up.
// The bundle must sit two directories below the package root, as dist/cli/ is (see src/util/package-root.ts).

/** Writes outfile from entry (JavaScript or TypeScript); resolves when written, rejects when esbuild fails. */
export async function bundleCommand(entry, outfile) {
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // node_modules stay as they are (better-sqlite3 is native; etcd3 is loaded only for --storage etcd).
    packages: 'external',
    logLevel: 'error',
  });
}

// `npm start [-- flags]`: `crd-apiserver serve` with the flags, after rebuilding dist/ only if a source changed
// since the last build (npm install builds it), so that an installed checkout is serving in well under a second.
import { fileURLToPath } from 'node:url';
import { build, staleReason } from './build.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const reason = staleReason(root);
if (reason !== undefined) {
  process.stderr.write(`crd-apiserver: building dist/ (${reason})\n`);
  // tsc's output on stderr: stdout is the server's (the kubeconfig line).
  const code = await build(root, { toStderr: true });
  if (code !== 0) process.exit(code);
}
// In this process rather than a child: one process for signals, and no second Node start-up.
// The bundled command line (one file to load rather than about 470 modules).
const main = fileURLToPath(new URL('../dist/cli/crd-apiserver.cjs', import.meta.url));
process.argv = [process.argv[0], main, 'serve', ...process.argv.slice(2)];
await import(main);

// Where crd-apiserver keeps what it derives from a user's files, across processes (the test kit's parsed manifests
// and passing CRD schemas), and how each of those directories is kept from growing without end.
import { readdirSync, statSync, unlinkSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * The directory: CRD_APISERVER_CACHE_DIR (`off` for none), else the user's cache directory (XDG_CACHE_HOME or
 * ~/.cache) under crd-apiserver/.
 */
export function crdApiserverCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const configured = env['CRD_APISERVER_CACHE_DIR'];
  if (configured === 'off') return undefined;
  if (configured) return configured;
  const base = env['XDG_CACHE_HOME'] || (homedir() ? join(homedir(), '.cache') : '');
  return base ? join(base, 'crd-apiserver') : undefined;
}

/**
 * Removes all but the `keep` most recently modified files of dir (files being written, named with a leading dot,
 * are left alone). Another process pruning at once is no error: what is gone is gone.
 */
export function keepNewestFiles(dir: string, keep: number): void {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => !n.startsWith('.'));
  } catch {
    return;
  }
  if (names.length <= keep) return;
  const aged = names.map((n) => ({ n, t: statSync(join(dir, n), { throwIfNoEntry: false })?.mtimeMs ?? 0 })).sort((a, b) => a.t - b.t);
  for (const { n } of aged.slice(0, names.length - keep)) {
    try {
      unlinkSync(join(dir, n));
    } catch {
      // gone already
    }
  }
}

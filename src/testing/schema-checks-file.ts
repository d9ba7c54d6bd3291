// The test kit's CRD schema checks remembered across processes: a test suite installs the same CRDs in every test
// file's process, and checking their schemas (structural rules, defaults, CEL compiles) was a quarter of each
// environment's start with 20 corpus CRDs. A schema that passed the checks of one build passes them again in that
// build, so the keys of passing schemas (src/crd/schema-check-memo.ts) go to a file named for the bundle that
// checked them: another build, or the sources under tsx, never reads it. Appends are single short lines, which
// O_APPEND writes whole even when processes write at once; a line cut short (a full disk) is a key nothing matches.
import { appendFileSync, mkdirSync, readFileSync, unlinkSync } from 'node:fs';
import { join } from 'node:path';
import type { PassedSchemas } from '../crd/schema-check-memo.js';
import { keepNewestFiles } from '../util/cache-dir.js';

/** Past this size the file starts again (about 20,000 schemas). */
const MAX_BYTES = 1 << 20;
/** Files of other builds kept besides (the most recently written). */
const KEEP_BUILDS = 4;

/** Passing schemas' keys in dir/<build>; undefined when the directory cannot be made. */
export function schemaChecksFile(dir: string, build: string): PassedSchemas | undefined {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch {
    return undefined;
  }
  const file = join(dir, build);
  let keys = new Set<string>();
  try {
    const text = readFileSync(file, 'latin1');
    if (text.length > MAX_BYTES) unlinkSync(file);
    else keys = new Set(text.split('\n').filter((k) => k.length > 0));
  } catch {
    // A build's first use: the files of older builds go, but for the last few.
    keepNewestFiles(dir, KEEP_BUILDS);
  }
  return {
    has: (key) => keys.has(key),
    add: (key) => {
      if (keys.has(key)) return;
      keys.add(key);
      try {
        appendFileSync(file, `${key}\n`, { mode: 0o600 });
      } catch {
        // not writable: remembered in this process only
      }
    },
  };
}

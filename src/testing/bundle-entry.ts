// What the test kit's bundle (dist/testing/testing.bundle.cjs) exports: the kit, and what its loader (entry.ts)
// sets up for the bundle alone.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { rememberPassedSchemas } from '../crd/schema-check-memo.js';
import { crdApiserverCacheDir } from '../util/cache-dir.js';
import { schemaChecksFile } from './schema-checks-file.js';

export * from './index.js';

/**
 * CRD schemas that passed their checks are remembered in schema-checks/ of the cache directory, in a file of this
 * bundle's own (`identity`: its size, modification time and the Node that runs it, as its code cache is keyed).
 */
export function rememberSchemaChecks(identity: string, env: NodeJS.ProcessEnv = process.env): void {
  const dir = crdApiserverCacheDir(env);
  if (dir === undefined) return;
  const build = createHash('sha256').update(identity).digest('hex').slice(0, 32);
  rememberPassedSchemas(schemaChecksFile(join(dir, 'schema-checks'), build));
}

// A Node built-in module loaded when first used rather than when its importer loads: modules start-up never uses
// (zlib for gzipped OpenAPI, worker_threads for the manifest worker) each cost about 1 ms of every start.
import { createRequire } from 'node:module';

const load = createRequire(import.meta.url);

/** The built-in `name` (e.g. 'node:zlib'), loaded on the first call. */
export function lazyBuiltin<T>(name: string): () => T {
  let mod: T | undefined;
  return () => (mod ??= load(name) as T);
}

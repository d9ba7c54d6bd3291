// Opening a better-sqlite3 database with its compiled addon named: the command line's bundle (scripts/command-bundle.mjs)
// carries better-sqlite3's JavaScript, compiled from the code cache with the rest, and its `bindings` lookup would
// search for the addon beside the bundle; naming the addon also skips that search (a dozen paths tried) on every start.
import { createRequire } from 'node:module';
import Database from 'better-sqlite3';

/** better-sqlite3's own build of its addon, wherever the package is installed; found once. */
let addonPath: string | undefined;
const nativeBinding = (): string => (addonPath ??= createRequire(import.meta.url).resolve('better-sqlite3/build/Release/better_sqlite3.node'));

/** new Database(path, options), with the addon named. */
export function openDatabase(path: string, options: Database.Options = {}): Database.Database {
  return new Database(path, { ...options, nativeBinding: nativeBinding() });
}

// import() of a package (or file) loaded on demand. The command line's bundle runs as a script compiled from V8's
// code cache (src/util/code-cache.ts), and on Node 20 such a script cannot run import() itself (the callback Node
// needs for it does not survive the cache), so the bundle's loader hands it one: the bundle's wrapper parameter
// __bundleImport. Everywhere else (the library's modules, tests) this is import().
declare const __bundleImport: ((specifier: string) => Promise<unknown>) | undefined;

export function importPackage<T>(specifier: string): Promise<T> {
  return (typeof __bundleImport === 'function' ? __bundleImport(specifier) : import(specifier)) as Promise<T>;
}

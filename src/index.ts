// Embedding API: start a server in-process (tests, tools) on any KV store.
export { startServer, type ServerOptions, type RunningServer, VERSION_INFO } from './server/server.js';
export { serve, type ServeOptions, type Served } from './cli/serve.js';
export { openSqliteStore } from './storage/sqlite-store.js';
export { createCachedStore } from './storage/cache.js';
export type { KVStore } from './storage/types.js';

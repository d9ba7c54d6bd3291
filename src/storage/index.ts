export * from './types.js';
export { openSqliteStore, SqliteStore, type SqliteStoreOptions } from './sqlite-store.js';
export type { StorageSync } from './sqlite-schema.js';
export { prefixEnd, compareKeys } from './key-range.js';
export { createCachedStore, startCachedStore, CachedKVStore, type CachedStoreOptions } from './cache.js';
export { openEtcdStore, EtcdStore, type EtcdStoreOptions } from './etcd-store.js';

// `crd-apiserver migrate-backend --from A --to B`: moves the whole state between storage backends (a SQLite
// data directory, or etcd), store to store rather than through the API, so that every object keeps its
// uid, creationTimestamp and generation (they are in the stored values) while resourceVersions become the
// target's revisions, as after an etcd restore. Not to be confused with migrate-storage, which rewrites
// one CRD's objects at its storage version through the API.
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openSqliteStore } from '../storage/sqlite-store.js';
import { openEtcdStore, type EtcdStoreOptions } from '../storage/etcd-store.js';
import { StorageError, type KVStore, type KeyValue } from '../storage/types.js';
import { clearKeys, copyKeys, countKeys } from '../storage/copy-store.js';
import { EncryptingKVStore, type KeyTransformerLookup } from '../storage/encryption/encrypting-store.js';
import { loadEncryptionConfig } from '../storage/encryption/config.js';
import { keyTransformerLookup } from '../storage/encryption/resource-keys.js';
import { builtinKeyPrefixes, etcdCodec } from './serve.js';

/** One end of a migration: a SQLite data directory (or, as a source, a state.db file such as a snapshot) or etcd. */
export type Backend = { kind: 'sqlite'; path: string; file: string } | { kind: 'etcd'; etcd: EtcdStoreOptions };

export interface MigrateBackendOptions {
  from: Backend;
  to: Backend;
  /** --encryption-provider-config per side: values are decrypted on reading / encrypted on writing; absent: bytes as stored. */
  fromEncryption?: string;
  toEncryption?: string;
  /** Delete what the target holds first, instead of refusing a non-empty target. */
  force?: boolean;
  /** Keys per page (--chunk-size, default 500). */
  chunkSize?: number;
  log?: (line: string) => void;
}

export interface MigrateBackendResult {
  copied: number;
  sourceRevision: number;
  /** Keys deleted from the target first (--force). */
  deleted: number;
}

const ETCD_URL = /^https?:\/\/[^/]+\/?$/;

/**
 * --from/--to as given: etcd client URLs (comma-separated) or a path. The etcd flags are --etcd-prefix,
 * --etcd-cafile, --etcd-certfile, --etcd-keyfile as serve names them, for whichever side is etcd; a
 * --from-etcd-X or --to-etcd-X flag overrides one for that side (etcd to etcd, e.g. between prefixes).
 */
export function parseBackend(value: string, side: 'from' | 'to', flags: ReadonlyMap<string, string>): Backend {
  if (value === '') throw new Error(`--${side} must be specified`);
  const flag = (name: string): string | undefined => flags.get(`${side}-etcd-${name}`) ?? flags.get(`etcd-${name}`);
  if (/^https?:\/\//.test(value)) {
    const servers = value.split(',').map((s) => s.trim()).filter(Boolean);
    for (const url of servers) {
      if (!ETCD_URL.test(url)) throw new Error(`invalid --${side} etcd URL ${url} (want http://HOST:PORT or https://HOST:PORT)`);
    }
    const [certFile, keyFile] = [flag('certfile'), flag('keyfile')];
    if ((certFile === undefined) !== (keyFile === undefined)) throw new Error('--etcd-certfile and --etcd-keyfile must be given together');
    return { kind: 'etcd', etcd: { servers, prefix: flag('prefix') ?? '/registry', caFile: flag('cafile'), certFile, keyFile, compactionIntervalMs: 0 } };
  }
  const path = resolve(value);
  // A source may be a state.db file itself (a snapshot); otherwise the path is a data directory.
  const isFile = existsSync(path) && statSync(path).isFile();
  if (isFile && side === 'to') throw new Error(`--to ${value} is a file: give a data directory (its state.db is written)`);
  return { kind: 'sqlite', path, file: isFile ? path : join(path, 'state.db') };
}

export function describeBackend(b: Backend): string {
  if (b.kind === 'sqlite') return `sqlite ${b.file}`;
  return `etcd ${b.etcd.servers.join(',')} (prefix ${b.etcd.prefix})`;
}

function sameBackend(a: Backend, b: Backend): boolean {
  if (a.kind === 'sqlite' && b.kind === 'sqlite') return a.file === b.file;
  if (a.kind === 'etcd' && b.kind === 'etcd') {
    const norm = (p = '/registry'): string => (p.length > 1 ? p.replace(/\/+$/, '') : p);
    return norm(a.etcd.prefix) === norm(b.etcd.prefix) && a.etcd.servers.some((s) => b.etcd.servers.includes(s));
  }
  return false;
}

/**
 * A side's storage. etcd is opened with the codec `serve` uses (built-in kinds as kube's protobuf), with that
 * side's encryption at rest inside it (raw ciphertext, kube's layout) when a configuration is given for it.
 */
async function open(b: Backend, side: 'from' | 'to', encryption?: string): Promise<KVStore> {
  if (b.kind === 'etcd') return openEtcdStore({ ...b.etcd, codec: etcdCodec(undefined, encryption ? etcdTransformerLookup(encryption) : undefined) });
  if (side === 'from' && !existsSync(b.file)) throw new Error(`${b.path} holds no state.db: not a crd-apiserver data directory`);
  if (side === 'to') mkdirSync(b.path, { recursive: true, mode: 0o700 });
  try {
    // No automatic compaction; 'normal' sync: closing checkpoints (and fsyncs) the whole copy once.
    return openSqliteStore(b.file, { compactionIntervalMs: 0, sync: 'normal' });
  } catch (err) {
    if (err instanceof StorageError && err.code === 'unavailable') {
      throw new Error(
        `${b.file} is in use by another process: stop the server on it first` +
          (side === 'from' ? ' (or copy it while serving with `crd-apiserver snapshot save FILE`, and migrate from FILE)' : ''),
      );
    }
    throw err;
  }
}

function transformerLookup(configPath: string): KeyTransformerLookup {
  return keyTransformerLookup(loadEncryptionConfig(configPath), builtinKeyPrefixes());
}

/** The same in etcd's binary form (strings are bytes, ciphertext raw). */
function etcdTransformerLookup(configPath: string): KeyTransformerLookup {
  return keyTransformerLookup(loadEncryptionConfig(configPath, true), builtinKeyPrefixes());
}

export async function migrateBackend(opts: MigrateBackendOptions): Promise<MigrateBackendResult> {
  const log = opts.log ?? (() => {});
  if (sameBackend(opts.from, opts.to)) throw new Error('--from and --to name the same storage');
  const stores: KVStore[] = [];
  let scratch: string | undefined;
  try {
    let source = opts.from;
    if (source.kind === 'sqlite' && source.file === source.path) {
      // A snapshot file: opening it for serving would change it (WAL mode), so a scratch copy is read instead.
      scratch = mkdtempSync(join(tmpdir(), 'crd-apiserver-migrate-'));
      copyFileSync(source.file, join(scratch, 'state.db'));
      source = { kind: 'sqlite', path: scratch, file: join(scratch, 'state.db') };
    }
    // The source is decrypted key by key (so that a value the configuration cannot read is named), the target
    // encrypted by the store that writes it.
    // On etcd both happen in the store's codec (see open).
    const decrypt = opts.fromEncryption && source.kind === 'sqlite' ? transformerLookup(opts.fromEncryption) : undefined;
    const encrypt = opts.toEncryption && opts.to.kind === 'sqlite' ? transformerLookup(opts.toEncryption) : undefined;
    const from = await open(source, 'from', source.kind === 'etcd' ? opts.fromEncryption : undefined);
    stores.push(from);
    const target = await open(opts.to, 'to', opts.to.kind === 'etcd' ? opts.toEncryption : undefined);
    stores.push(target);
    const to = encrypt ? new EncryptingKVStore(target, encrypt) : target;
    const existing = await countKeys(target);
    let deleted = 0;
    if (existing > 0) {
      if (!opts.force) {
        throw new Error(`the target ${describeBackend(opts.to)} already holds ${existing} keys: migrate into empty storage, or pass --force to delete them first`);
      }
      log(`deleting the ${existing} keys the target holds (--force)`);
      deleted = await clearKeys(target, { pageSize: opts.chunkSize });
    }
    const started = Date.now();
    log(`copying from ${describeBackend(opts.from)} to ${describeBackend(opts.to)}`);
    const res = await copyKeys(from, to, {
      pageSize: opts.chunkSize,
      onProgress: (p) => log(`copied ${p.copied}/${p.total} keys (source revision ${p.revision})`),
      ...(decrypt && { mapValue: (kv: KeyValue) => decrypt(kv.key)?.fromStorage(kv.value, kv.key).value ?? kv.value }),
    });
    // Something else writing to the target meanwhile (a server started on it) would show here.
    const held = await countKeys(target);
    if (held !== res.copied) throw new Error(`copied ${res.copied} keys but the target now holds ${held}: is a server running on it?`);
    const targetRevision = await to.currentRevision();
    log(`done: ${res.copied} keys copied in ${((Date.now() - started) / 1000).toFixed(1)} s and counted in the target; its revision is ${targetRevision}`);
    return { ...res, deleted };
  } finally {
    // The target's close commits and checkpoints what was written.
    await Promise.allSettled(stores.reverse().map((s) => s.close()));
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  }
}

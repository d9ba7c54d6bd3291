// Where our keys live in etcd. kube-apiserver writes `<--etcd-prefix>/<group>/<resource>/...`
// (path.Join of the prefix and the resource's path); our keys are `/registry/<group>/...`, so the
// etcd key is our key with its `/registry` root replaced by the prefix. With the default prefix the
// two are the same, and kube-apiserver and this server see the same keys.

export interface KeyMapping {
  /** The leading part of every one of our keys that the etcd prefix replaces (default '/registry'). */
  root: string;
  /** What it is replaced with in etcd: --etcd-prefix without trailing slashes. */
  prefix: string;
}

/** --etcd-prefix as kube's path.Join sees it: trailing slashes do not count. */
export function keyMapping(etcdPrefix = '/registry', root = '/registry'): KeyMapping {
  const prefix = etcdPrefix.length > 1 ? etcdPrefix.replace(/\/+$/, '') : etcdPrefix;
  return { root, prefix };
}

/** The etcd key of one of our keys. */
export function toEtcdKey(m: KeyMapping, key: string): Buffer {
  if (!key.startsWith(m.root)) throw new RangeError(`key ${JSON.stringify(key)} is outside ${JSON.stringify(m.root)}`);
  return Buffer.from(m.prefix + key.slice(m.root.length), 'utf8');
}

/** Our key for an etcd key in the mapped range. */
export function fromEtcdKey(m: KeyMapping, key: Buffer): string {
  const p = Buffer.byteLength(m.prefix, 'utf8');
  return m.root + key.subarray(p).toString('utf8');
}

/** The etcd range [key, rangeEnd) of our keys starting with prefix, optionally only those after `after`. */
export function etcdRange(m: KeyMapping, prefix: string, after?: string): { key: Buffer; rangeEnd: Buffer } {
  // Every key of ours starts with root, so a prefix of root selects them all: the whole mapped range.
  const start = m.root.startsWith(prefix) ? Buffer.from(m.prefix, 'utf8') : toEtcdKey(m, prefix);
  const rangeEnd = prefixRangeEnd(start);
  if (after === undefined) return { key: start, rangeEnd };
  const afterKey = toEtcdKey(m, after);
  // Strictly after: the smallest key greater than `after` is `after` followed by a zero byte.
  if (Buffer.compare(afterKey, start) >= 0) return { key: Buffer.concat([afterKey, ZERO]), rangeEnd };
  return { key: start, rangeEnd };
}

const ZERO = Buffer.from([0]);

/**
 * etcd's range end for a prefix (clientv3.GetPrefixRangeEnd): the prefix with its last byte below 0xff
 * incremented and what follows dropped; "\0" (no upper bound) when there is none, e.g. the empty prefix.
 */
export function prefixRangeEnd(prefix: Buffer): Buffer {
  for (let i = prefix.length - 1; i >= 0; i--) {
    if (prefix[i]! < 0xff) {
      const end = Buffer.from(prefix.subarray(0, i + 1));
      end[i] = end[i]! + 1;
      return end;
    }
  }
  return ZERO;
}

/** For an empty start key etcd needs "\0" as the key too (with range end "\0": every key). */
export function rangeStart(key: Buffer): Buffer {
  return key.length === 0 ? ZERO : key;
}

// Which resource a storage key belongs to, for choosing its encryption. Built-in kinds are stored
// under prefixes kube chose (`/registry/secrets/`, `/registry/deployments/`, `/registry/<group>/<resource>/`
// for some), so they come from a table; a custom resource's key is `/registry/<group>/<plural>/...`.
import type { GroupResource, TransformerLookup } from './config.js';
import type { KeyTransformerLookup } from './encrypting-store.js';
import type { ValueTransformer } from './transformers.js';
import { clusterLocalKey } from '../prefixed-store.js';

/** The group-resource of a key, given the built-in kinds' key prefixes (`/registry/...` with a trailing slash). */
export function resourceOfKey(key: string, builtin: ReadonlyMap<string, GroupResource>): GroupResource | undefined {
  // A logical cluster's keys are root's layout under /clusters/<name>: its Secrets are encrypted as root's are.
  const parts = clusterLocalKey(key).split('/');
  if (parts[0] !== '' || parts[1] !== 'registry' || parts.length < 4) return undefined;
  const [a, b] = [parts[2]!, parts[3]!];
  // Namespaces are DNS labels (no dots), so a dotted first segment is always a group.
  const known = builtin.get(`/registry/${a}/${b}/`) ?? builtin.get(`/registry/${a}/`);
  if (known) return known;
  return a.includes('.') ? { group: a, resource: b } : { group: '', resource: a };
}

/** The per-key lookup the encrypting store uses, memoized per resource prefix. */
export function keyTransformerLookup(lookup: TransformerLookup, builtin: ReadonlyMap<string, GroupResource>): KeyTransformerLookup {
  const memo = new Map<string, ValueTransformer | undefined>();
  return (key) => {
    const gr = resourceOfKey(key, builtin);
    if (!gr) return undefined;
    const id = `${gr.resource}.${gr.group}`;
    if (!memo.has(id)) memo.set(id, lookup(gr));
    return memo.get(id);
  };
}

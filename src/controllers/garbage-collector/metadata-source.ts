// What the garbage collector's informers list: each stored object's apiVersion, kind and metadata, read out of
// its stored JSON without decoding the rest. The collector keeps only those (gcView); decoding whole objects
// to drop all but their metadata made its first lists, right after the listeners open, hold up readiness and
// the first requests (a restart with a thousand corpus CRDs decoded their quarter of a gigabyte once more).
import type { InformerSource } from '../informer.js';
import { metaOf, type GenericStore } from '../../registry/store.js';
import { storedHead } from '../../util/stored-json.js';
import { gvString } from '../../api/resource.js';
import type { JSONObject } from '../../util/json.js';

/**
 * A source whose lists give each object's apiVersion, kind and, of its metadata, the members named in `metadataKeys`
 * (all of them when absent); an object stored at another version is decoded whole.
 */
export function metadataSource(store: GenericStore, metadataKeys?: readonly string[]): InformerSource {
  const keys = metadataKeys && new Set(metadataKeys);
  const { group, version } = store.type.served;
  const apiVersion = gvString(group, version);
  return {
    async list(opts) {
      const r = await store.listKV(opts);
      const items: JSONObject[] = [];
      for (const kv of r.items) {
        const head = storedHead(kv.value, keys);
        // Stored at another version (the storage version moved since): its conversion decides its apiVersion.
        if (head && head['apiVersion'] === apiVersion) {
          metaOf(head).resourceVersion = String(kv.modRevision);
          items.push(head);
        } else {
          items.push(await store.read(kv));
        }
      }
      return { ...r, items };
    },
    // waitForStore's revisions: nothing decoded.
    listKV: (opts) => store.listKV(opts),
    watch: (...args) => store.watch(...args),
  };
}

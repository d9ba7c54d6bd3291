// A CRD store on an in-memory SQLite with a watch that keeps each event's object (as the CRD controllers' store
// remembers event objects), and a count of the objects the store decoded: for tests of what a write hands its event.
import assert from 'node:assert/strict';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import { GenericStore } from '../../src/registry/store.js';
import { builtinResourceType } from '../../src/apis/builtin-kinds.js';
import { crdKind } from '../../src/apis/apiextensions/v1/custom-resource-definition.js';
import { trackManagedFields } from '../../src/server/merge-schema.js';
import type { JSONObject } from '../../src/util/json.js';

export function watchedCrdStore() {
  const kv = openSqliteStore(':memory:');
  const crds = new GenericStore(kv, builtinResourceType(crdKind));
  trackManagedFields([crds.type]);
  // As the CRD controllers' store does (CrdController).
  crds.rememberEventObjects();
  const events: JSONObject[] = [];
  const w = crds.watch('', 0, {}, (ev) => events.push(ev.object), (e) => assert.fail(e.message));
  const decode = crds.decode.bind(crds);
  let decoded = 0;
  crds.decode = (...args) => (decoded++, decode(...args));
  /** The event after the first `n` (delivered maybe before the write that made it returned). */
  const next = async (n: number): Promise<JSONObject> => {
    for (let i = 0; events.length <= n; i++) {
      if (i > 10_000) assert.fail('no event');
      await new Promise((r) => setImmediate(r));
    }
    return events[n]!;
  };
  return { crds, next, seen: () => events.length, decoded: () => decoded, decode, close: async () => (w.close(), await kv.close()) };
}

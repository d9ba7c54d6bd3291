// The legacy token tracking ConfigMap on a fake clock: created with today's date, recreated after a delete
// only once kube's 30-minute creation limit allows, and a `since` that is not a date put back.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as S from '../../src/api/status.js';
import { builtinResourceType } from '../../src/apis/builtin-kinds.js';
import { configMapKind } from '../../src/apis/core/v1/config-map.js';
import { LegacyTokenTrackingController, TRACKING_CONFIG_MAP } from '../../src/controllers/legacy-token-tracking.js';
import { GenericStore } from '../../src/registry/store.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import { FakeClock } from './fake-clock.js';

const T0 = Date.UTC(2026, 4, 17, 23, 50);
const MINUTE = 60_000;

const since = (cms: GenericStore): Promise<string | undefined> =>
  cms.get('kube-system', TRACKING_CONFIG_MAP).then(
    (cm) => (cm['data'] as Record<string, string>)['since'],
    (e: unknown) => (e instanceof S.StatusError && e.code === 404 ? undefined : Promise.reject(e)),
  );

async function settle(clock: FakeClock, c: LegacyTokenTrackingController, ms = 0): Promise<void> {
  await new Promise((r) => setTimeout(r, 50)); // the informer's watch delivers the writes
  clock.advance(ms);
  await new Promise((r) => setImmediate(r));
  await c.controller.idle();
}

test('legacy token tracking: the ConfigMap with the start date; recreated at most every 30 minutes; a bad date fixed', async () => {
  const kv = openSqliteStore(':memory:');
  const cms = new GenericStore(kv, builtinResourceType(configMapKind));
  const clock = new FakeClock(T0);
  const errors: unknown[] = [];
  const c = new LegacyTokenTrackingController(cms, { clock, onError: (_k, e) => errors.push(e) });
  await c.start();
  await settle(clock, c);
  assert.equal(await since(cms), '2026-05-17');

  await cms.delete('kube-system', TRACKING_CONFIG_MAP);
  await settle(clock, c, 10 * MINUTE);
  assert.equal(await since(cms), undefined, 'not again within 30 minutes');
  await settle(clock, c, 21 * MINUTE);
  assert.equal(await since(cms), '2026-05-18');

  await cms.update('kube-system', TRACKING_CONFIG_MAP, (cm) => ({ ...cm!, data: { since: 'yesterday' } }), '');
  await settle(clock, c);
  assert.equal(await since(cms), '2026-05-18');
  assert.deepEqual(errors, []);
  c.stop();
  await kv.close();
});

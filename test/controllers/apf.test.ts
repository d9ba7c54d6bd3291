// The APF bootstrap ensurer and the FlowSchema Dangling condition over real stores: the first pass creates
// kube's 21 objects; operators' changes are stomped or kept by kube's rules; removed objects come back on the
// next pass and after a restart; the strategies reset status, keep spec on /status and bump generation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import { GenericStore, metaOf } from '../../src/registry/store.js';
import { builtinResourceType } from '../../src/apis/builtin-kinds.js';
import { trackManagedFields } from '../../src/server/merge-schema.js';
import { flowSchemaKind } from '../../src/apis/flowcontrol/v1/flow-schema.js';
import { priorityLevelConfigurationKind } from '../../src/apis/flowcontrol/v1/priority-level-configuration.js';
import { flowcontrolBootstrapKinds } from '../../src/apis/flowcontrol/v1/ensure.js';
import { AUTO_UPDATE_ANNOTATION } from '../../src/apis/flowcontrol/v1/bootstrap.js';
import { APF_CONFIG_PRODUCER, ApfBootstrapEnsurer } from '../../src/controllers/apf-bootstrap.js';
import { APF_CONFIG_CONSUMER, FlowSchemaDanglingController } from '../../src/controllers/flowschema-dangling.js';
import type { JSONObject } from '../../src/util/json.js';

function stores(): { fs: GenericStore; pl: GenericStore } {
  const kv = openSqliteStore(':memory:');
  const fsType = builtinResourceType(flowSchemaKind);
  const plType = builtinResourceType(priorityLevelConfigurationKind);
  trackManagedFields([fsType, plType]);
  return { fs: new GenericStore(kv, fsType), pl: new GenericStore(kv, plType) };
}

const names = async (s: GenericStore): Promise<string[]> => (await s.list({ namespace: '' })).items.map((o) => metaOf(o).name ?? '').sort();
const failOnError = (_key: string, err: unknown): never => {
  throw err;
};

async function until(what: string, check: () => Promise<boolean>, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

test('the first pass creates the mandatory and suggested objects, recorded for the config producer', async () => {
  const { fs, pl } = stores();
  const ensurer = new ApfBootstrapEnsurer(flowcontrolBootstrapKinds(pl, fs), { onError: failOnError });
  await ensurer.start();
  await ensurer.firstPass;
  ensurer.stop();
  assert.deepEqual(await names(pl), ['catch-all', 'exempt', 'global-default', 'leader-election', 'node-high', 'system', 'workload-high', 'workload-low']);
  assert.equal((await names(fs)).length, 13);
  const probes = await fs.get('', 'probes');
  assert.equal(metaOf(probes).annotations?.[AUTO_UPDATE_ANNOTATION], 'true');
  assert.equal(metaOf(probes).generation, 1);
  assert.deepEqual(metaOf(probes).managedFields?.map((m) => [m.manager, m.operation]), [[APF_CONFIG_PRODUCER, 'Update']]);
  assert.deepEqual(probes['status'], {});
});

test('later passes: stomp auto-updated specs, keep opted-out ones, mark changed unannotated ones, delete unwanted auto-updated objects', async () => {
  const { fs, pl } = stores();
  const first = new ApfBootstrapEnsurer(flowcontrolBootstrapKinds(pl, fs), { onError: failOnError });
  await first.start();
  await first.firstPass;
  first.stop();

  const setShares = (name: string, ncs: number, annotations?: Record<string, string> | null) =>
    pl.update(
      '',
      name,
      (cur) => {
        const o = structuredClone(cur!);
        ((o['spec'] as JSONObject)['limited'] as JSONObject)['nominalConcurrencyShares'] = ncs;
        if (annotations === null) delete metaOf(o).annotations;
        else if (annotations) metaOf(o).annotations = annotations;
        return o;
      },
      '',
    );
  await setShares('system', 99); // still auto-updated: stomped
  await setShares('node-high', 99, { [AUTO_UPDATE_ANNOTATION]: 'false' }); // opted out: kept
  await setShares('workload-low', 99, null); // no annotation, generation 2: kept, marked false
  // An auto-updated object that is not part of the bootstrap configuration goes; an opted-out one stays.
  const extra = (name: string, value: string): JSONObject => ({
    metadata: { name, annotations: { [AUTO_UPDATE_ANNOTATION]: value } },
    spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } },
  });
  await pl.create('', extra('retired', 'true'));
  await pl.create('', extra('kept', 'false'));
  await fs.delete('', 'global-default');

  const second = new ApfBootstrapEnsurer(flowcontrolBootstrapKinds(pl, fs), { onError: failOnError });
  await second.start();
  await second.firstPass;
  second.stop();

  const shares = async (name: string): Promise<unknown> => (((await pl.get('', name))['spec'] as JSONObject)['limited'] as JSONObject)['nominalConcurrencyShares'];
  assert.equal(await shares('system'), 30);
  assert.equal(metaOf(await pl.get('', 'system')).generation, 3, 'two spec changes');
  assert.equal(await shares('node-high'), 99);
  assert.equal(await shares('workload-low'), 99);
  assert.equal(metaOf(await pl.get('', 'workload-low')).annotations?.[AUTO_UPDATE_ANNOTATION], 'false');
  assert.ok((await names(pl)).includes('kept'));
  assert.ok(!(await names(pl)).includes('retired'));
  assert.ok((await names(fs)).includes('global-default'), 'a deleted suggested object is back after a restart');
});

test('the ensurer runs again at its cadence: a deleted suggested object comes back', async () => {
  const { fs, pl } = stores();
  const ensurer = new ApfBootstrapEnsurer(flowcontrolBootstrapKinds(pl, fs), { onError: failOnError, intervalMs: 50 });
  await ensurer.start();
  await ensurer.firstPass;
  try {
    await fs.delete('', 'service-accounts');
    await pl.delete('', 'workload-low');
    await until('the deleted objects to return', async () => (await names(fs)).includes('service-accounts') && (await names(pl)).includes('workload-low'));
  } finally {
    ensurer.stop();
  }
});

test('Dangling: True while the priority level is missing, False once it exists, True again when it goes', async () => {
  const { fs, pl } = stores();
  const consumer = new FlowSchemaDanglingController(fs, pl, { onError: failOnError });
  await consumer.start();
  const dangling = async (): Promise<JSONObject | undefined> => {
    const conditions = ((await fs.get('', 'mine'))['status'] as JSONObject)['conditions'] as JSONObject[] | undefined;
    return conditions?.find((c) => c['type'] === 'Dangling');
  };
  try {
    await fs.create('', {
      metadata: { name: 'mine' },
      spec: { priorityLevelConfiguration: { name: 'my-pl' }, rules: [{ subjects: [{ kind: 'User', user: { name: 'u' } }], nonResourceRules: [{ verbs: ['get'], nonResourceURLs: ['/x'] }] }] },
    });
    await until('Dangling=True', async () => (await dangling())?.['status'] === 'True');
    const t = await dangling();
    assert.equal(t?.['reason'], 'NotFound');
    assert.equal(t?.['message'], 'This FlowSchema references the PriorityLevelConfiguration object named "my-pl" but there is no such object');
    assert.match(String(t?.['lastTransitionTime']), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    const fsObj = await fs.get('', 'mine');
    assert.equal(metaOf(fsObj).generation, 1, 'status writes leave generation alone');
    const managers = metaOf(fsObj).managedFields?.map((m) => [m.manager, m.operation, m.subresource]);
    assert.deepEqual(managers, [[APF_CONFIG_CONSUMER, 'Apply', 'status']]);

    await pl.create('', { metadata: { name: 'my-pl' }, spec: { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } } });
    await until('Dangling=False', async () => (await dangling())?.['status'] === 'False');
    assert.deepEqual([(await dangling())?.['reason'], (await dangling())?.['message']], ['Found', 'This FlowSchema references the PriorityLevelConfiguration object named "my-pl" and it exists']);

    await pl.delete('', 'my-pl');
    await until('Dangling=True again', async () => (await dangling())?.['status'] === 'True');
  } finally {
    consumer.stop();
  }
});

test('strategies: status reset on create and spec writes, spec kept on /status, generation bumped by spec changes only', async () => {
  const { pl } = stores();
  const created = await pl.create('', {
    metadata: { name: 'p' },
    spec: { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: { queues: 16 } } } },
    status: { conditions: [{ type: 'X', status: 'True' }] },
  });
  assert.deepEqual(created['status'], {});
  assert.equal(metaOf(created).generation, 1);
  // Defaulted, and written as Go encodes it.
  assert.deepEqual(created['spec'], {
    type: 'Limited',
    limited: { nominalConcurrencyShares: 30, limitResponse: { type: 'Queue', queuing: { queues: 16, handSize: 8, queueLengthLimit: 50 } }, lendablePercent: 0 },
  });
  const statusWrite = await pl.update(
    '',
    'p',
    (cur) => ({ ...cur!, spec: { type: 'Exempt' }, status: { conditions: [{ type: 'X', status: 'True' }] }, metadata: { ...metaOf(cur!), labels: { a: 'b' } } }),
    'status',
  );
  assert.deepEqual((statusWrite.object['status'] as JSONObject)['conditions'], [{ type: 'X', status: 'True', lastTransitionTime: null }]);
  assert.equal((statusWrite.object['spec'] as JSONObject)['type'], 'Limited', 'spec kept');
  assert.equal(metaOf(statusWrite.object).labels, undefined, 'metadata kept');
  assert.equal(metaOf(statusWrite.object).generation, 1);
  const labelOnly = await pl.update('', 'p', (cur) => ({ ...cur!, metadata: { ...metaOf(cur!), labels: { a: 'b' } }, status: {} }), '');
  assert.equal(metaOf(labelOnly.object).generation, 1);
  assert.equal(((labelOnly.object['status'] as JSONObject)['conditions'] as unknown[]).length, 1, 'status kept');
  const specChange = await pl.update(
    '',
    'p',
    (cur) => {
      const o = structuredClone(cur!);
      ((o['spec'] as JSONObject)['limited'] as JSONObject)['lendablePercent'] = 5;
      return o;
    },
    '',
  );
  assert.equal(metaOf(specChange.object).generation, 2);
});

test('a first pass that cannot succeed fails the post-start hook, as kube`s does after its wait', async () => {
  const { fs, pl } = stores();
  const [plKind, fsKind] = flowcontrolBootstrapKinds(pl, fs);
  // A configuration the server refuses: every pass fails on it.
  const broken = { ...plKind!, suggested: [{ metadata: { name: 'broken' }, spec: { type: 'Limited' } }] };
  const errors: unknown[] = [];
  const ensurer = new ApfBootstrapEnsurer([broken, fsKind!], { onError: (_k, e) => errors.push(e), intervalMs: 50 });
  await ensurer.start();
  try {
    await assert.rejects(ensurer.waitForFirstPass(300), /^Error: unable to initialize APF bootstrap configuration: context deadline exceeded$/);
    assert.ok(errors.length >= 2, 'retried');
    assert.match(String(errors[0]), /cannot create PriorityLevelConfiguration type=suggested name="broken" error=PriorityLevelConfiguration.flowcontrol.apiserver.k8s.io "broken" is invalid: spec.limited: Required value: must not be empty when type is Limited/);
  } finally {
    ensurer.stop();
  }
});

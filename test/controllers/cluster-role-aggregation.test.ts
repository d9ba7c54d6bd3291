// The ClusterRole aggregation controller over a real store: an aggregated role holds the rules of the roles its
// selector matches, and follows them as roles are labelled, changed and deleted, and as a role gains or loses its
// aggregationRule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { builtinResourceType } from '../../src/apis/builtin-kinds.js';
import { clusterRoleKind } from '../../src/apis/rbac/v1/kinds.js';
import { ClusterRoleAggregationController } from '../../src/controllers/cluster-role-aggregation.js';
import { GenericStore } from '../../src/registry/store.js';
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import type { JSONObject } from '../../src/util/json.js';

const rule = (resource: string): JSONObject => ({ verbs: ['get'], apiGroups: [''], resources: [resource] });
const role = (name: string, opts: { labels?: Record<string, string>; rules?: JSONObject[]; selector?: string }): JSONObject => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name, ...(opts.labels ? { labels: opts.labels } : {}) },
  rules: opts.rules ?? [],
  ...(opts.selector ? { aggregationRule: { clusterRoleSelectors: [{ matchLabels: { [opts.selector]: 'true' } }] } } : {}),
});

test('aggregated roles follow the roles they select, and roles that gain or lose an aggregationRule', async (t) => {
  const kv = openSqliteStore(':memory:');
  const roles = new GenericStore(kv, builtinResourceType(clusterRoleKind));
  const controller = new ClusterRoleAggregationController(roles);
  t.after(async () => {
    controller.stop();
    await kv.close();
  });
  // A change to a stored role (its current state as read).
  const change = (name: string, f: (o: JSONObject) => JSONObject) => roles.update('', name, (o) => f(o!), '');
  const rulesOf = async (name: string): Promise<unknown> => (await roles.get('', name))['rules'];
  const settle = async (): Promise<void> => {
    // The controller's writes come back as events that requeue it: idle twice in a row is settled.
    await controller.idle();
    await new Promise((r) => setTimeout(r, 20));
    await controller.idle();
  };
  await roles.create('', role('a', { labels: { agg: 'true' }, rules: [rule('pods')] }));
  await roles.create('', role('b', { labels: { agg: 'true' }, rules: [rule('secrets')] }));
  await roles.create('', role('c', { rules: [rule('nodes')] }));
  await roles.create('', role('all', { selector: 'agg' }));
  await controller.start();
  await settle();
  assert.deepEqual(await rulesOf('all'), [rule('pods'), rule('secrets')]);

  // Labelled: gathered; deleted: dropped.
  await change('c', (o) => ({ ...o, metadata: { ...(o['metadata'] as JSONObject), labels: { agg: 'true' } } }));
  await roles.delete('', 'a');
  await settle();
  assert.deepEqual(await rulesOf('all'), [rule('secrets'), rule('nodes')]);

  // A role that gains an aggregationRule is aggregated from then on; one that loses it is left as it is.
  await change('c', (o) => ({ ...o, aggregationRule: { clusterRoleSelectors: [{ matchLabels: { other: 'true' } }] } }));
  await roles.create('', role('d', { labels: { other: 'true' }, rules: [rule('events')] }));
  await settle();
  assert.deepEqual(await rulesOf('c'), [rule('events')]);
  await change('c', (o) => {
    const { aggregationRule: _gone, ...rest } = o;
    return rest;
  });
  await roles.create('', role('e', { labels: { other: 'true' }, rules: [rule('services')] }));
  await settle();
  assert.deepEqual(await rulesOf('c'), [rule('events')]);
});

test('an event requeues only the aggregated roles it can change: itself, those selecting it before or after, and any whose selector does not convert', async (t) => {
  const kv = openSqliteStore(':memory:');
  const roles = new GenericStore(kv, builtinResourceType(clusterRoleKind));
  // The unconvertible selector's failures are expected: not logged.
  const controller = new ClusterRoleAggregationController(roles, { onError: () => {} });
  t.after(async () => {
    controller.stop();
    await kv.close();
  });
  const enqueued: string[] = [];
  const enqueue = controller.controller.enqueue.bind(controller.controller);
  controller.controller.enqueue = (key: string) => (enqueued.push(key), enqueue(key));
  const settle = async (): Promise<void> => {
    await controller.idle();
    await new Promise((r) => setTimeout(r, 20));
    await controller.idle();
  };
  const change = (name: string, f: (o: JSONObject) => JSONObject) => roles.update('', name, (o) => f(o!), '');
  const labelled = (labels: Record<string, string>) => (o: JSONObject) => ({ ...o, metadata: { ...(o['metadata'] as JSONObject), labels } });
  // kube's chain: edit feeds admin through its label, and is itself aggregated.
  await roles.create('', role('admin', { selector: 'to-admin' }));
  await roles.create('', { ...role('edit', { selector: 'to-edit' }), metadata: { name: 'edit', labels: { 'to-admin': 'true' } } });
  await roles.create('', role('view', { selector: 'to-view' }));
  // Validation refuses such a selector: written to storage as another writer might have.
  const broken = { ...role('broken', {}), aggregationRule: { clusterRoleSelectors: [{ matchExpressions: [{ key: 'a', operator: 'Near' }] }] } };
  await kv.create(roles.key('', 'broken'), JSON.stringify(broken));
  await controller.start();
  await settle();

  enqueued.length = 0;
  await roles.create('', role('editor-extra', { labels: { 'to-edit': 'true' }, rules: [rule('pods')] }));
  await settle();
  // edit gathers the new role's rule; its write then requeues admin, which selects edit; view is left alone.
  assert.deepEqual((await roles.get('', 'edit'))['rules'], [rule('pods')]);
  assert.deepEqual((await roles.get('', 'admin'))['rules'], [rule('pods')]);
  assert.deepEqual([...new Set(enqueued)].sort(), ['admin', 'broken', 'edit']);

  // A role relabelled away is dropped by the role that selected it before.
  enqueued.length = 0;
  await change('editor-extra', labelled({ 'to-view': 'true' }));
  await settle();
  assert.deepEqual((await roles.get('', 'edit'))['rules'] ?? [], []);
  assert.deepEqual((await roles.get('', 'view'))['rules'], [rule('pods')]);
  assert.deepEqual((await roles.get('', 'admin'))['rules'] ?? [], []);
  assert.deepEqual([...new Set(enqueued)].sort(), ['admin', 'broken', 'edit', 'view']);

  // A role no selector matches, before or after, requeues only the unconvertible one.
  enqueued.length = 0;
  await roles.create('', role('unrelated', { labels: { other: 'true' }, rules: [rule('nodes')] }));
  await settle();
  assert.deepEqual(enqueued, ['broken']);
});

// NamespaceLifecycle as kube's plugin decides: immortal namespaces, missing and terminating namespaces.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { namespaceLifecycle } from '../../src/admission/namespace-lifecycle.js';
import type { AdmissionAttributes } from '../../src/registry/admission.js';
import type { ServedResource } from '../../src/api/resource.js';
import { builtinResourceType } from '../../src/apis/builtin-kinds.js';
import { namespaceKind } from '../../src/apis/core/v1/namespace.js';

const namespaceType = () => builtinResourceType(namespaceKind);
import * as S from '../../src/api/status.js';
import type { JSONObject } from '../../src/util/json.js';

const widgets = { ...namespaceType().served, group: 'example.com', resource: 'widgets', kind: 'Widget', namespaced: true } as ServedResource;
const namespaces: Record<string, JSONObject> = {
  live: { metadata: { name: 'live' }, status: { phase: 'Active' } },
  dying: { metadata: { name: 'dying', deletionTimestamp: '2026-01-01T00:00:00Z' }, status: { phase: 'Terminating' } },
};
// The lookup answers with a promise (a namespace read from storage) or at once (one in memory): the same decisions.
const plugins = { promised: namespaceLifecycle(async (name) => namespaces[name]), 'at once': namespaceLifecycle((name) => namespaces[name]) };
let plugin = plugins.promised;
// A refusal may be thrown at once or come as a rejection: the chain takes both alike.
const admit = (a: Partial<AdmissionAttributes>): Promise<void> =>
  new Promise<void>((resolve) => resolve(plugin.admit!({ operation: 'CREATE', resource: widgets, subresource: '', namespace: 'live', name: 'w', dryRun: false, ...a })));

const statusOf = async (p: Promise<void>): Promise<S.Status | undefined> => {
  try {
    await p;
    return undefined;
  } catch (e) {
    assert.ok(e instanceof S.StatusError);
    return e.status;
  }
};

for (const [how, p] of Object.entries(plugins)) {
  test(`the immortal namespaces cannot be deleted; other namespaces can (lookup answered ${how})`, async () => {
    plugin = p;
    for (const name of ['default', 'kube-system', 'kube-public']) {
      const s = await statusOf(admit({ operation: 'DELETE', resource: namespaceType().served, namespace: '', name }));
      assert.equal(s?.message, `namespaces "${name}" is forbidden: this namespace may not be deleted`);
      assert.equal(s?.code, 403);
    }
    assert.equal(await statusOf(admit({ operation: 'DELETE', resource: namespaceType().served, namespace: '', name: 'kube-node-lease' })), undefined);
  });

  test(`content: refused in a missing namespace, new content refused in a terminating one, deletes always pass (lookup answered ${how})`, async () => {
    plugin = p;
    // Found in memory, an allowed write takes no promise.
    if (how === 'at once') assert.equal(p.admit!({ operation: 'CREATE', resource: widgets, subresource: '', namespace: 'live', name: 'w', dryRun: false }), undefined);
    assert.equal(await statusOf(admit({})), undefined);
    const missing = await statusOf(admit({ namespace: 'nope' }));
    assert.equal(missing?.code, 404);
    assert.equal(missing?.message, 'namespaces "nope" not found');
    assert.equal((await statusOf(admit({ operation: 'UPDATE', namespace: 'nope' })))?.code, 404);
    const dying = await statusOf(admit({ namespace: 'dying', name: '', object: { metadata: { generateName: 'w-' } } }));
    assert.deepEqual(dying, {
      kind: 'Status',
      apiVersion: 'v1',
      metadata: {},
      status: 'Failure',
      message: 'widgets.example.com "w-" is forbidden: unable to create new content in namespace dying because it is being terminated',
      reason: 'Forbidden',
      details: {
        name: 'w-',
        group: 'example.com',
        kind: 'widgets',
        causes: [{ reason: 'NamespaceTerminating', message: 'namespace dying is being terminated', field: 'metadata.namespace' }],
      },
      code: 403,
    });
    assert.equal(await statusOf(admit({ operation: 'UPDATE', namespace: 'dying' })), undefined);
    assert.equal(await statusOf(admit({ operation: 'DELETE', namespace: 'nope' })), undefined);
    // Cluster-scoped objects are not its concern.
    assert.equal(await statusOf(admit({ namespace: '' })), undefined);
  });
}

// The admission chain: mutating plugins in order, then validating plugins in order, each only for the
// operations it handles; the first refusal ends the write.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { admissionChain, type AdmissionPlugin } from '../../src/admission/chain.js';
import type { AdmissionAttributes } from '../../src/registry/admission.js';
import { builtinResourceType } from '../../src/apis/builtin-kinds.js';
import { namespaceKind } from '../../src/apis/core/v1/namespace.js';

const namespaceType = () => builtinResourceType(namespaceKind);
import * as S from '../../src/api/status.js';

const attrs = (operation: AdmissionAttributes['operation']): AdmissionAttributes => ({
  operation,
  resource: namespaceType().served,
  subresource: '',
  namespace: '',
  name: 'x',
  object: { metadata: { name: 'x' } },
  dryRun: false,
});

test('mutating plugins run in order and see each other\'s changes; validating ones only at validate', async () => {
  const seen: string[] = [];
  const plugin = (name: string, ops: AdmissionAttributes['operation'][]): AdmissionPlugin => ({
    name,
    operations: ops,
    admit(a) {
      seen.push(`admit ${name} ${JSON.stringify(a.object?.['metadata'])}`);
      (a.object!['metadata'] as Record<string, unknown>)[name] = true;
    },
    validate() {
      seen.push(`validate ${name}`);
    },
  });
  const chain = admissionChain([plugin('a', ['CREATE', 'UPDATE']), plugin('b', ['CREATE']), plugin('c', ['DELETE'])]);
  const a = attrs('CREATE');
  await chain.admit(a);
  assert.deepEqual(seen, ['admit a {"name":"x"}', 'admit b {"name":"x","a":true}']);
  seen.length = 0;
  await chain.validate(a);
  assert.deepEqual(seen, ['validate a', 'validate b']);
  seen.length = 0;
  await chain.admit(attrs('UPDATE'));
  await chain.validate(attrs('DELETE'));
  assert.deepEqual(seen, ['admit a {"name":"x"}', 'validate c']);
});

test('the first refusal ends the chain', async () => {
  const seen: string[] = [];
  const chain = admissionChain([
    { name: 'deny', operations: ['CREATE'], admit: () => Promise.reject(S.forbidden({ group: '', resource: 'namespaces' }, 'x', 'no')) },
    { name: 'after', operations: ['CREATE'], admit: () => void seen.push('after') },
  ]);
  await assert.rejects(chain.admit(attrs('CREATE')), (e: unknown) => e instanceof S.StatusError && e.code === 403);
  assert.deepEqual(seen, []);
});

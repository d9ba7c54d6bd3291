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
  await assert.rejects(async () => chain.admit(attrs('CREATE')), (e: unknown) => e instanceof S.StatusError && e.code === 403);
  assert.deepEqual(seen, []);
});

test('plugins that answer at once, with a promise, or by throwing, in any mix: the same order and outcome, observed once per phase', async () => {
  const forbidden = () => S.forbidden({ group: '', resource: 'namespaces' }, 'x', 'no');
  type How = 'sync' | 'async' | 'throw' | 'reject';
  const ways: How[] = ['sync', 'async', 'throw', 'reject'];
  for (const a of ways) for (const b of ways) for (const c of ways) {
    const seen: string[] = [];
    const steps: { type: string; rejected: boolean }[] = [];
    const plugin = (name: string, how: How): AdmissionPlugin => {
      const run = (): Promise<void> | void => {
        seen.push(name);
        if (how === 'throw') throw forbidden();
        if (how === 'reject') return Promise.reject(forbidden());
        if (how === 'async') return new Promise<void>((r) => setImmediate(r));
      };
      return { name, operations: ['CREATE'], admit: run, validate: run };
    };
    const chain = admissionChain([plugin('a', a), plugin('b', b), plugin('c', c)], (type, _op, rejected) => steps.push({ type, rejected }));
    const refusedAt = [a, b, c].findIndex((h) => h === 'throw' || h === 'reject');
    const want = refusedAt < 0 ? ['a', 'b', 'c'] : ['a', 'b', 'c'].slice(0, refusedAt + 1);
    for (const phase of ['admit', 'validate'] as const) {
      seen.length = 0;
      steps.length = 0;
      let out: Promise<void> | void = undefined;
      let thrown: unknown;
      try {
        out = chain[phase](attrs('CREATE'));
      } catch (e) {
        thrown = e;
      }
      // At once exactly when every plugin that ran answered at once (a refusal thrown at once included).
      const ran = [a, b, c].slice(0, want.length);
      assert.equal(out === undefined, !ran.includes('async') && !ran.includes('reject'), `${a} ${b} ${c} ${phase}`);
      const error: unknown = thrown ?? (await Promise.resolve(out).then(() => undefined, (e: unknown) => e));
      assert.equal(error !== undefined, refusedAt >= 0, `${a} ${b} ${c} ${phase}`);
      if (error !== undefined) assert.ok(error instanceof S.StatusError && error.code === 403);
      assert.deepEqual(seen, want, `${a} ${b} ${c} ${phase}`);
      assert.deepEqual(steps, [{ type: phase, rejected: refusedAt >= 0 }]);
    }
  }
});

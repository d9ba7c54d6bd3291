// kube's audit options: each backend wrapped as its mode asks (batch: buffered, blocking: ignore-errors,
// blocking-strict: bare; truncate outside), both in a union, and invalid flags refused with kube's messages.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { auditFromFlags } from '../../src/cli/audit-options.js';

test('backends are composed as kube composes them, and bad flags are refused with kube\'s words', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'audit-options-'));
  try {
    const policyFile = join(dir, 'policy.yaml');
    writeFileSync(policyFile, 'apiVersion: audit.k8s.io/v1\nkind: Policy\nrules:\n- level: Metadata\n');
    const webhookConfigFile = join(dir, 'hook.kubeconfig');
    writeFileSync(webhookConfigFile, 'apiVersion: v1\nkind: Config\nclusters: [{name: c, cluster: {server: "https://127.0.0.1:1/events"}}]\ncontexts: [{name: x, context: {cluster: c}}]\ncurrent-context: x\n');
    const logPath = join(dir, 'audit.log');
    const names = async (flags: Parameters<typeof auditFromFlags>[0]): Promise<string | undefined> => {
      const a = auditFromFlags(flags);
      await a?.backend.shutdown();
      return a?.backend.name;
    };
    assert.equal(await names({ policyFile, logPath }), 'ignoreErrors<log>');
    assert.equal(await names({ policyFile, logPath, log: { mode: 'batch' } }), 'buffered<log>');
    assert.equal(await names({ policyFile, webhookConfigFile }), 'buffered<webhook>');
    assert.equal(await names({ policyFile, webhookConfigFile, webhook: { mode: 'blocking-strict', truncateEnabled: true } }), 'truncate<webhook>');
    assert.equal(await names({ policyFile, logPath, webhookConfigFile, webhook: { mode: 'blocking' } }), 'union[ignoreErrors<log>,ignoreErrors<webhook>]');
    // No policy, or no backend: nothing is audited.
    assert.equal(await names({ logPath, webhookConfigFile }), undefined);
    assert.equal(await names({ policyFile }), undefined);

    const refused = (flags: Parameters<typeof auditFromFlags>[0]): string => {
      try {
        auditFromFlags(flags);
      } catch (e) {
        return (e as Error).message;
      }
      return 'accepted';
    };
    assert.equal(refused({ policyFile, webhookConfigFile, webhook: { mode: 'async' } }), 'invalid audit webhook mode async, allowed modes are "batch,blocking,blocking-strict"');
    assert.equal(refused({ policyFile, logPath, log: { mode: 'batch', batch: { bufferSize: 0 } } }), 'invalid audit batch log buffer size 0, must be a positive number');
    assert.equal(refused({ policyFile, webhookConfigFile, webhook: { batch: { throttleQPS: 0 } } }), 'invalid audit batch webhook throttle QPS 0, must be a positive number');
    assert.equal(refused({ policyFile, webhookConfigFile, webhook: { truncateMaxEventSize: 100, truncateMaxBatchSize: 50 } }), 'invalid audit truncate webhook max batch size 50, must be greater than max event size (100)');
    assert.equal(refused({ policyFile, webhookConfigFile, webhook: { version: 'audit.k8s.io/v1beta1' } }), 'invalid group version, allowed versions are ["audit.k8s.io/v1"]');
    assert.match(refused({ policyFile, webhookConfigFile: join(dir, 'missing') }), /^initializing audit webhook: /);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

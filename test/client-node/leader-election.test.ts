// Leader election with a Lease, as client-go's leaderelection package runs it (tryAcquireOrRenew), through
// @kubernetes/client-node's CoordinationV1Api (client-node 1.x has no elector of its own): one candidate
// acquires and renews; the other waits while the lease is fresh and takes over once the holder has not
// renewed for leaseDurationSeconds; writes with a stale resourceVersion are refused with 409. And, on this
// TLS server, the kube-root-ca.crt every namespace gets holds the CA the kubeconfig trusts.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import * as k8s from '@kubernetes/client-node';
import { startWithClients, eventually, expectStatus, sleep, type Clients } from './helpers.js';

let c: Clients;
let leases: k8s.CoordinationV1Api;
before(async () => {
  c = await startWithClients();
  leases = c.kc.makeApiClient(k8s.CoordinationV1Api);
});
after(async () => {
  await c?.server.close();
});

const NS = 'default';
const isConflict = (e: unknown): boolean => e instanceof k8s.ApiException && (e as k8s.ApiException<unknown>).code === 409;
const isNotFound = (e: unknown): boolean => e instanceof k8s.ApiException && (e as k8s.ApiException<unknown>).code === 404;
/** client-node leaves a V1MicroTime it reads as the string the server sent. */
const ms = (t: unknown): number => new Date(t as string).getTime();

/** One candidate: client-go's LeaderElector over a LeaseLock, its clock the local one. */
class Elector {
  leading = false;
  renewals = 0;
  private observed?: { record: string; at: number };
  private timer?: NodeJS.Timeout;

  constructor(
    readonly identity: string,
    private readonly name: string,
    private readonly durationSeconds: number,
    private readonly retryMs: number,
  ) {}

  start(): void {
    const tick = async (): Promise<void> => {
      try {
        this.leading = await this.tryAcquireOrRenew();
        if (this.leading) this.renewals++;
      } catch (e) {
        // A conflict or a failed request: not the leader this round (client-go retries on the next tick).
        if (!isConflict(e)) throw e;
        this.leading = false;
      }
      if (this.timer) this.timer = setTimeout(() => void tick(), this.retryMs);
    };
    this.timer = setTimeout(() => void tick(), 0);
  }

  /** Stops renewing, without releasing: the crash the others must wait out. */
  stop(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
  }

  async tryAcquireOrRenew(): Promise<boolean> {
    const now = new k8s.V1MicroTime();
    let lease: k8s.V1Lease;
    try {
      lease = await leases.readNamespacedLease({ name: this.name, namespace: NS });
    } catch (e) {
      if (!isNotFound(e)) throw e;
      await leases.createNamespacedLease({
        namespace: NS,
        body: {
          metadata: { name: this.name, namespace: NS },
          spec: { holderIdentity: this.identity, leaseDurationSeconds: this.durationSeconds, acquireTime: now, renewTime: now, leaseTransitions: 0 },
        },
      });
      return true;
    }
    const spec = lease.spec ?? {};
    // The observed record's time is when this candidate saw it change, by its own clock.
    const record = JSON.stringify(spec);
    if (this.observed?.record !== record) this.observed = { record, at: Date.now() };
    const holder = spec.holderIdentity ?? '';
    if (holder !== '' && holder !== this.identity && this.observed.at + (spec.leaseDurationSeconds ?? 0) * 1000 > Date.now()) return false;
    const mine = holder === this.identity;
    lease.spec = {
      holderIdentity: this.identity,
      leaseDurationSeconds: this.durationSeconds,
      acquireTime: mine && spec.acquireTime ? new k8s.V1MicroTime(ms(spec.acquireTime)) : now,
      renewTime: now,
      leaseTransitions: mine ? (spec.leaseTransitions ?? 0) : (spec.leaseTransitions ?? 0) + 1,
    };
    // The update carries the resourceVersion read: a write in between makes it a 409.
    await leases.replaceNamespacedLease({ name: this.name, namespace: NS, body: lease });
    return true;
  }
}

test('two candidates: one holds and renews, the other takes over after leaseDurationSeconds once renewals stop', async () => {
  const a = new Elector('a', 'election', 1, 100);
  const b = new Elector('b', 'election', 1, 100);
  a.start();
  await eventually('a to lead', () => (a.leading ? true : undefined));
  b.start();
  // While a renews, b never leads, and the lease's renewTime moves on with six fractional digits.
  const first = await leases.readNamespacedLease({ name: 'election', namespace: NS });
  await sleep(1500);
  assert.equal(b.leading, false);
  const renewed = await leases.readNamespacedLease({ name: 'election', namespace: NS });
  assert.equal(renewed.spec?.holderIdentity, 'a');
  assert.equal(renewed.spec?.leaseTransitions, 0);
  assert.ok(ms(renewed.spec?.renewTime) > ms(first.spec?.renewTime));
  assert.equal(ms(renewed.spec?.acquireTime), ms(first.spec?.acquireTime));
  assert.match(String(renewed.spec?.renewTime), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}000Z$/);

  const stoppedAt = Date.now();
  a.stop();
  await eventually('b to take over', () => (b.leading ? true : undefined));
  // b waited out the lease: at least its duration after a's last renewal.
  assert.ok(Date.now() - stoppedAt >= 800, `took over after ${Date.now() - stoppedAt} ms`);
  b.stop();
  const taken = await leases.readNamespacedLease({ name: 'election', namespace: NS });
  assert.equal(taken.spec?.holderIdentity, 'b');
  assert.equal(taken.spec?.leaseTransitions, 1);
  assert.ok(ms(taken.spec?.acquireTime) > ms(renewed.spec?.acquireTime));

  // a, back with what it read before, cannot renew over b: its resourceVersion is stale.
  const status = await expectStatus(leases.replaceNamespacedLease({ name: 'election', namespace: NS, body: { ...renewed, spec: { ...renewed.spec, renewTime: new k8s.V1MicroTime() } } }), 409);
  assert.equal(status.reason, 'Conflict');
  assert.equal(status.message, 'Operation cannot be fulfilled on leases.coordination.k8s.io "election": the object has been modified; please apply your changes to the latest version and try again');
});

test('two candidates starting together: exactly one creates the lease (the other gets a 409 and waits)', async () => {
  const a = new Elector('a', 'race', 30, 50);
  const b = new Elector('b', 'race', 30, 50);
  a.start();
  b.start();
  await eventually('a leader', () => (a.leading || b.leading ? true : undefined));
  await sleep(300);
  a.stop();
  b.stop();
  assert.notEqual(a.leading, b.leading);
  const lease = await leases.readNamespacedLease({ name: 'race', namespace: NS });
  assert.equal(lease.spec?.holderIdentity, a.leading ? 'a' : 'b');
  assert.equal(lease.spec?.leaseTransitions, 0);
});

test('MicroTime through client-node: V1MicroTime serializes with six fractional digits, and reads back', async () => {
  const at = new k8s.V1MicroTime(Date.UTC(2026, 10, 26, 12, 0, 0, 123));
  const lease = await leases.createNamespacedLease({ namespace: NS, body: { metadata: { name: 'micro' }, spec: { holderIdentity: 'x', renewTime: at } } });
  assert.equal(lease.spec?.renewTime as unknown, '2026-11-26T12:00:00.123000Z');
  // A plain Date serializes with milliseconds only, which metav1.MicroTime does not parse.
  const refused = await expectStatus(leases.createNamespacedLease({ namespace: NS, body: { metadata: { name: 'millis' }, spec: { renewTime: new Date(at.getTime()) } } }), 400);
  assert.equal(
    refused.message,
    'Lease in version "v1" cannot be handled as a Lease: parsing time "2026-11-26T12:00:00.123Z" as "2006-01-02T15:04:05.000000Z07:00": cannot parse ".123Z" as ".000000"',
  );
});

test('kube-root-ca.crt in a new namespace holds the CA the kubeconfig trusts; the default ServiceAccount is there', async () => {
  await c.core.createNamespace({ body: { metadata: { name: 'published' } } });
  const cm = await eventually('kube-root-ca.crt', async () => {
    try {
      return await c.core.readNamespacedConfigMap({ name: 'kube-root-ca.crt', namespace: 'published' });
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  });
  const ca = Buffer.from(c.kc.getCurrentCluster()!.caData!, 'base64').toString('utf8');
  assert.equal(cm.data?.['ca.crt'], ca);
  assert.match(ca, /^-----BEGIN CERTIFICATE-----\n/);
  const sa = await eventually('the default ServiceAccount', async () => {
    try {
      return await c.core.readNamespacedServiceAccount({ name: 'default', namespace: 'published' });
    } catch (e) {
      if (isNotFound(e)) return undefined;
      throw e;
    }
  });
  assert.equal(sa.metadata?.name, 'default');
});

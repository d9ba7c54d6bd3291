// An in-memory CRD store with an informer over it and a fake clock, for the CRD controllers' syncs.
import { openSqliteStore } from '../../src/storage/sqlite-store.js';
import { GenericStore } from '../../src/registry/store.js';
import { builtinResourceType } from '../../src/apis/builtin-kinds.js';
import { crdKind } from '../../src/apis/apiextensions/v1/custom-resource-definition.js';
import { crdV1beta1Kind } from '../../src/apis/apiextensions/v1beta1/custom-resource-definition.js';
import { Informer } from '../../src/controllers/informer.js';
import type { JSONObject } from '../../src/util/json.js';
import type { CustomResourceDefinition } from '../../src/crd/types.js';
import { FakeClock } from '../controllers/fake-clock.js';
import { cronTab } from './helpers.js';

export const T0 = '2026-01-01T00:00:00Z';

export async function crdEnv() {
  const kv = openSqliteStore(':memory:');
  const crds = new GenericStore(kv, builtinResourceType(crdKind));
  const clock = new FakeClock(Date.parse(T0));
  const informer = new Informer(crds, { clock });
  const errors: unknown[] = [];
  return {
    kv,
    crds,
    v1beta1: new GenericStore(kv, builtinResourceType(crdV1beta1Kind)),
    clock,
    informer,
    /** Controller options that keep errors for the test to see. */
    opts: { clock, onError: (_key: string, e: unknown) => errors.push(e) },
    errors,
    async create(crd: CustomResourceDefinition = cronTab()): Promise<CustomResourceDefinition> {
      return (await crds.create('', crd as unknown as JSONObject)) as unknown as CustomResourceDefinition;
    },
    async get(name: string): Promise<CustomResourceDefinition> {
      return (await crds.get('', name)) as unknown as CustomResourceDefinition;
    },
    /** What the store holds now is in the informer's cache. */
    settle: () => informer.waitForStore(),
    async close(): Promise<void> {
      informer.stop();
      await kv.close();
    },
  };
}

export const conditionOf = (crd: CustomResourceDefinition, type: string) => crd.status?.conditions?.find((c) => c.type === type);

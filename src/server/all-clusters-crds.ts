// Custom resources across clusters (/clusters/*/...) that root does not serve: a platform's controller watches
// the CRD it installed in every tenant cluster, and root need not have it. The CRDs are read from each cluster's
// keys (the cache holds them; a cluster's server need not be started), each stored one decoded once. A request
// is served when every cluster serving the resource's version defines it alike (spec and accepted names, as one
// operator's CRD installed everywhere is): its objects are read through that definition, as one cluster's
// server would read them. Clusters that define it differently make the request a 409: one definition reads
// every cluster's objects, and kcp asks the same of its wildcard requests (an APIExport's identity).
import type { ServedResource } from '../api/resource.js';
import * as S from '../api/status.js';
import { isConditionTrue } from '../crd/conditions.js';
import type { CrdServing } from '../crd/serving.js';
import type { CustomResourceDefinition } from '../crd/types.js';
import type { Endpoint } from '../registry/endpoint.js';
import type { GenericStore } from '../registry/store.js';
import { clusterKey } from '../storage/prefixed-store.js';
import type { KeyValue, KVStore } from '../storage/types.js';
import { stringifyJSON } from '../util/json-int64.js';
import { ROOT_CLUSTER } from '../apis/tenancy/v1alpha1/logical-cluster.js';

/** A stored CRD as this reads it: the object, and what two clusters must agree on to share one definition. */
interface StoredCrd {
  crd: CustomResourceDefinition;
  definition: string;
}

/** Definitions whose types are kept built (each a CrdServing of one CRD); the oldest goes first past this. */
const KEPT_DEFINITIONS = 64;

const CRDS: S.GroupResource = { group: 'apiextensions.k8s.io', resource: 'customresourcedefinitions' };

/** Whether the CRD serves this version now, as CrdServing.lookup routes: served, names accepted or established. */
function serves(crd: CustomResourceDefinition, version: string): boolean {
  const v = crd.spec.versions.find((x) => x.name === version);
  return v?.served === true && (isConditionTrue(crd, 'NamesAccepted') || isConditionTrue(crd, 'Established'));
}

export class CrdsAcrossClusters {
  private readonly decoded = new WeakMap<KeyValue, StoredCrd>();
  /** One CrdServing per definition, holding its types (schemas are compiled on first use and shared by content). */
  private readonly servings = new Map<string, CrdServing>();

  constructor(
    private readonly kv: KVStore,
    /** Root's CRD store: the keys CRDs live at, and their decoding. */
    private readonly crdStore: GenericStore,
    /** The logical clusters besides root. */
    private readonly clusters: () => readonly string[],
    /** A CrdServing for one definition's types (never written through: requests across clusters only read). */
    private readonly newServing: () => CrdServing,
  ) {}

  /**
   * The endpoint of group/version/resource as the clusters serving it define it; undefined when none serves it.
   * Throws a 409 Status when two of them define it differently.
   */
  async endpoint(group: string, version: string, resource: string): Promise<Endpoint | undefined> {
    const name = `${resource}.${group}`;
    const key = this.crdStore.key('', name);
    let first: { cluster: string; stored: StoredCrd } | undefined;
    for (const cluster of [ROOT_CLUSTER, ...this.clusters()]) {
      const kv = await this.kv.get(clusterKey(cluster, key));
      if (kv === undefined) continue;
      const stored = this.read(kv);
      if (!serves(stored.crd, version)) continue;
      if (first === undefined) first = { cluster, stored };
      else if (first.stored.definition !== stored.definition) throw definitionsDiffer(name, first.cluster, cluster);
    }
    if (first === undefined) return undefined;
    return this.serving(first.stored).lookup(group, version, resource)?.endpoint;
  }

  /** What the logical clusters serve besides root's resources (the first cluster's definition of each), for discovery. */
  async served(root: readonly ServedResource[]): Promise<ServedResource[]> {
    const have = new Set(root.map((r) => `${r.group}/${r.version}/${r.resource}`));
    const prefix = this.crdStore.key('', '');
    const out: ServedResource[] = [];
    for (const cluster of this.clusters()) {
      const page = await this.kv.list(clusterKey(cluster, prefix));
      for (const kv of page.items) {
        for (const r of this.serving(this.read(kv)).served()) {
          const id = `${r.group}/${r.version}/${r.resource}`;
          if (have.has(id)) continue;
          have.add(id);
          out.push(r);
        }
      }
    }
    return out;
  }

  private read(kv: KeyValue): StoredCrd {
    let stored = this.decoded.get(kv);
    if (stored === undefined) {
      const crd = this.crdStore.decode(kv) as unknown as CustomResourceDefinition;
      stored = { crd, definition: stringifyJSON([crd.spec, crd.status?.acceptedNames ?? null]) };
      this.decoded.set(kv, stored);
    }
    return stored;
  }

  /** The CrdServing of this definition, built from the CRD that first showed it. */
  private serving(stored: StoredCrd): CrdServing {
    let serving = this.servings.get(stored.definition);
    if (serving !== undefined) return serving;
    if (this.servings.size >= KEPT_DEFINITIONS) this.servings.delete(this.servings.keys().next().value!);
    serving = this.newServing();
    serving.update(stored.crd);
    this.servings.set(stored.definition, serving);
    return serving;
  }
}

/** kube's Conflict, on the CRD: one definition reads every cluster's objects. */
const definitionsDiffer = (name: string, a: string, b: string): S.StatusError =>
  S.conflict(CRDS, name, `it is defined differently in logical clusters "${a}" and "${b}": a request across clusters reads every cluster's objects through one definition`);

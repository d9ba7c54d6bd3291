// kube-controller-manager's ClusterRole aggregation controller (pkg/controller/clusterroleaggregation): a
// ClusterRole with an aggregationRule has as its rules the union of the rules of the ClusterRoles its
// selectors match (by name order, each distinct rule once, itself left out), kept so as they change. Any
// ClusterRole event requeues every aggregated role: the set is small and who feeds whom is not known.
import type { JSONObject } from '../util/json.js';
import { isObject } from '../util/json.js';
import { deepCopyJSON } from '../schema/value-go.js';
import { metaOf, type GenericStore } from '../registry/store.js';
import { labelSelectorAsSelector, matchesLabels } from '../registry/selectors.js';
import * as S from '../api/status.js';
import { Controller, type ControllerOptions } from './controller.js';
import { Informer, scopedInformer, type InformerView } from './informer.js';

export const AGGREGATION_CONTROLLER_MANAGER = 'clusterrole-aggregation-controller';

type Options = Pick<ControllerOptions, 'clock' | 'onError' | 'rateLimiter'> & {
  /** A started ClusterRole informer to share (the RBAC authorizer's): it outlives this controller. */
  informer?: Informer;
};

const selectorsOf = (role: JSONObject): unknown[] | undefined => {
  const rule = role['aggregationRule'];
  if (!isObject(rule)) return undefined;
  return Array.isArray(rule['clusterRoleSelectors']) ? (rule['clusterRoleSelectors'] as unknown[]) : [];
};

const rulesOf = (role: JSONObject): unknown[] => (Array.isArray(role['rules']) ? (role['rules'] as unknown[]) : []);

/** Semantic equality of rules (an absent list and an empty one alike). */
const sameJSON = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** The rules an aggregated ClusterRole should hold, given every ClusterRole. Throws a selector that does not convert. */
export function aggregatedRules(role: JSONObject, all: readonly JSONObject[]): unknown[] {
  const name = metaOf(role).name;
  const byName = [...all].sort((a, b) => ((metaOf(a).name ?? '') < (metaOf(b).name ?? '') ? -1 : 1));
  const out: unknown[] = [];
  // A rule already taken is one with the same JSON (as sameJSON compares), found by its text rather than by
  // comparing it with every rule taken so far.
  const seen = new Set<string>();
  for (const sel of selectorsOf(role) ?? []) {
    const selector = labelSelectorAsSelector(isObject(sel) ? sel : {});
    for (const other of byName) {
      if (metaOf(other).name === name || !matchesLabels(selector, metaOf(other).labels ?? {})) continue;
      for (const rule of rulesOf(other)) {
        const text = JSON.stringify(rule);
        if (seen.has(text)) continue;
        seen.add(text);
        out.push(rule);
      }
    }
  }
  return out;
}

export class ClusterRoleAggregationController {
  readonly controller: Controller;
  /** Its own informer, when none was given to share. */
  private readonly owned: Informer | undefined;
  private readonly informer: InformerView & { removeHandlers(): void };

  constructor(
    private readonly clusterRoles: GenericStore,
    opts: Options = {},
  ) {
    this.controller = new Controller({ ...opts, name: 'clusterrole-aggregation', sync: (key) => this.sync(key) });
    this.owned = opts.informer ? undefined : new Informer(clusterRoles, { name: 'clusterroles', clock: opts.clock });
    this.informer = scopedInformer(opts.informer ?? this.owned!);
    // The aggregated roles' names, kept from the events: every event requeues them all, and listing every role to
    // find them at each of a start's ~70 adds was quadratic.
    const aggregated = new Set<string>();
    const seen = (role: JSONObject): void => {
      const name = metaOf(role).name ?? '';
      if (selectorsOf(role)) aggregated.add(name);
      else aggregated.delete(name);
    };
    const enqueueAll = (): void => {
      for (const name of aggregated) this.controller.enqueue(name);
    };
    this.informer.addEventHandler({
      add: (role) => (seen(role), enqueueAll()),
      update: (_old, role) => (seen(role), enqueueAll()),
      delete: (role) => (aggregated.delete(metaOf(role).name ?? ''), enqueueAll()),
    });
  }

  async start(): Promise<void> {
    await this.controller.runAfter(this.owned ? [this.owned] : []);
  }

  stop(): void {
    this.informer.removeHandlers();
    this.controller.stopWith(this.owned ? [this.owned] : []);
  }

  idle(): Promise<void> {
    return this.controller.idle();
  }

  async sync(name: string): Promise<void> {
    const role = this.informer.get(name);
    if (!role || !selectorsOf(role)) return;
    const rules = aggregatedRules(role, this.informer.list());
    if (sameJSON(rules, rulesOf(role))) return;
    const desired = deepCopyJSON(role);
    desired['rules'] = rules;
    try {
      await this.clusterRoles.updateStored('', name, () => desired, '', { manager: AGGREGATION_CONTROLLER_MANAGER, givenAway: true });
    } catch (e) {
      // Deleted meanwhile: nothing to aggregate into. A conflict is retried with the newer object.
      if (!(e instanceof S.StatusError && e.code === 404)) throw e;
    }
  }
}

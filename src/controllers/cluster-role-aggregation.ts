// kube-controller-manager's ClusterRole aggregation controller (pkg/controller/clusterroleaggregation): a
// ClusterRole with an aggregationRule has as its rules the union of the rules of the ClusterRoles its
// selectors match (by name order, each distinct rule once, itself left out), kept so as they change. kube requeues
// every aggregated role at any ClusterRole event; here an event requeues the aggregated roles it can change: the
// role itself, and those whose selectors match its labels before or after (a start's ~70 adds otherwise each
// aggregated every aggregated role again). A selector that does not convert requeues its role at every event, to
// report it as kube's sync does.
import type { JSONObject } from '../util/json.js';
import { isObject, deepCopyJSON } from '../util/json.js';
import { metaOf, type GenericStore } from '../registry/store.js';
import { labelSelectorAsSelector, matchesLabels, type LabelSelector } from '../registry/selectors.js';
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

/** An aggregated role's selectors as selectors. Throws a selector that does not convert. */
const toSelectors = (selectors: readonly unknown[]): LabelSelector[] => selectors.map((sel) => labelSelectorAsSelector(isObject(sel) ? sel : {}));

/** toSelectors, or undefined when one does not convert. */
function convertedSelectors(selectors: readonly unknown[]): LabelSelector[] | undefined {
  try {
    return toSelectors(selectors);
  } catch {
    return undefined;
  }
}

/** The rules an aggregated ClusterRole should hold, given every ClusterRole. Throws a selector that does not convert. */
export function aggregatedRules(role: JSONObject, all: readonly JSONObject[]): unknown[] {
  const name = metaOf(role).name;
  const selectors = toSelectors(selectorsOf(role) ?? []);
  // Only the roles some selector matches, in name order (sorting them all, each sync, was most of a sync).
  const byName = all
    .filter((other) => metaOf(other).name !== name && selectors.some((s) => matchesLabels(s, metaOf(other).labels ?? {})))
    .sort((a, b) => ((metaOf(a).name ?? '') < (metaOf(b).name ?? '') ? -1 : 1));
  const out: unknown[] = [];
  // A rule already taken is one with the same JSON (as sameJSON compares), found by its text rather than by
  // comparing it with every rule taken so far.
  const seen = new Set<string>();
  for (const selector of selectors) {
    for (const other of byName) {
      if (!matchesLabels(selector, metaOf(other).labels ?? {})) continue;
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
    // The aggregated roles by name, with their selectors (undefined: one does not convert), kept from the events.
    const aggregated = new Map<string, LabelSelector[] | undefined>();
    const seen = (role: JSONObject): void => {
      const name = metaOf(role).name ?? '';
      const selectors = selectorsOf(role);
      if (selectors) aggregated.set(name, convertedSelectors(selectors));
      else aggregated.delete(name);
    };
    const enqueueConcerned = (role: JSONObject, old?: JSONObject): void => {
      const name = metaOf(role).name ?? '';
      if (aggregated.has(name)) this.controller.enqueue(name);
      const labels = metaOf(role).labels ?? {};
      const oldLabels = old ? (metaOf(old).labels ?? {}) : undefined;
      for (const [other, selectors] of aggregated) {
        if (other === name) continue;
        if (!selectors || selectors.some((s) => matchesLabels(s, labels) || (oldLabels !== undefined && matchesLabels(s, oldLabels)))) this.controller.enqueue(other);
      }
    };
    this.informer.addEventHandler({
      add: (role) => (seen(role), enqueueConcerned(role)),
      update: (old, role) => (seen(role), enqueueConcerned(role, old)),
      delete: (role) => (aggregated.delete(metaOf(role).name ?? ''), enqueueConcerned(role)),
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

// The naming and establishing controllers as pure functions: which of a CRD's requested names it
// may hold (names are unique per group across plural/singular/shortNames, and across
// kind/listKind), the NamesAccepted and Established conditions, and kube's condition bookkeeping.
// Mirrors pkg/controller/status/naming_controller.go and pkg/controller/establish.
import { caBundleError } from './webhook.js';
import type {
  CustomResourceDefinition,
  CustomResourceDefinitionCondition,
  CustomResourceDefinitionNames,
  CustomResourceDefinitionStatus,
} from './types.js';

export type Condition = Omit<CustomResourceDefinitionCondition, 'lastTransitionTime'>;
type AcceptedNames = Partial<CustomResourceDefinitionNames> & { plural: string; kind: string };

interface NamingResult {
  acceptedNames: AcceptedNames;
  /** NamesAccepted: True/NoConflicts, or False with reason PluralConflict, SingularConflict, ShortNamesConflict, KindConflict or ListKindConflict. */
  namesAccepted: Condition;
  /** What the naming controller writes for Established: kept if already True, else Installing or NotAccepted. */
  established: Condition;
}

const sameList = (a: readonly string[] | undefined, b: readonly string[] | undefined): boolean => {
  const x = a ?? [];
  const y = b ?? [];
  return x.length === y.length && x.every((v, i) => v === y[i]);
};

/** equalToAcceptedOrFresh: the error message, or undefined when the name may be taken. */
function conflict(requested: string, accepted: string, used: Set<string>): string | undefined {
  if (requested === accepted || !used.has(requested)) return undefined;
  return `${JSON.stringify(requested)} is already in use`;
}

/** utilerrors aggregate text: one message bare, several as `[a, b]` (duplicates dropped). */
function aggregateText(msgs: string[]): string {
  const unique = [...new Set(msgs)];
  return unique.length === 1 ? unique[0]! : `[${unique.join(', ')}]`;
}

/**
 * calculateNamesAndConditions. `allCRDs` is the stored CRD list; the CRD itself counts among
 * the holders of names (kube reads it from the same lister), whether or not the list has it.
 */
export function computeAcceptedNames(crd: CustomResourceDefinition, allCRDs: readonly CustomResourceDefinition[]): NamingResult {
  const group = crd.spec.group;
  const self = crd.metadata.name;
  const holders = [...allCRDs.filter((c) => c.metadata.name !== self), crd].filter((c) => c.spec?.group === group);
  const resources = new Set<string>();
  const kinds = new Set<string>();
  for (const c of holders) {
    const a = c.status?.acceptedNames ?? {};
    resources.add(a.plural ?? '');
    resources.add(a.singular ?? '');
    for (const s of a.shortNames ?? []) resources.add(s);
    kinds.add(a.kind ?? '');
    kinds.add(a.listKind ?? '');
  }

  const requested = crd.spec.names ?? ({} as CustomResourceDefinitionNames);
  const accepted = crd.status?.acceptedNames ?? {};
  const next: Partial<CustomResourceDefinitionNames> = { ...accepted };
  let cond: Condition = { type: 'NamesAccepted', status: 'Unknown' };
  const fail = (reason: string, message: string) => {
    cond = { type: 'NamesAccepted', status: 'False', reason, message };
  };

  // Each name is checked on its own, so the accepted set is the best match possible.
  let err = conflict(requested.plural ?? '', accepted.plural ?? '', resources);
  if (err) fail('PluralConflict', err);
  else next.plural = requested.plural;
  err = conflict(requested.singular ?? '', accepted.singular ?? '', resources);
  if (err) fail('SingularConflict', err);
  else next.singular = requested.singular;
  if (!sameList(requested.shortNames, accepted.shortNames)) {
    const mine = new Set(accepted.shortNames ?? []);
    const errs: string[] = [];
    for (const s of requested.shortNames ?? []) {
      if (mine.has(s)) continue;
      const e = conflict(s, '', resources);
      if (e) errs.push(e);
    }
    if (errs.length > 0) fail('ShortNamesConflict', aggregateText(errs));
    else next.shortNames = requested.shortNames;
  }
  err = conflict(requested.kind ?? '', accepted.kind ?? '', kinds);
  if (err) fail('KindConflict', err);
  else next.kind = requested.kind;
  err = conflict(requested.listKind ?? '', accepted.listKind ?? '', kinds);
  if (err) fail('ListKindConflict', err);
  else next.listKind = requested.listKind;
  next.categories = requested.categories;

  if (cond.status === 'Unknown') cond = { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' };

  // Established goes True only in the establishing controller, once this write has been observed.
  const old = findCondition(crd.status, 'Established');
  let established: Condition = old
    ? { type: 'Established', status: old.status, reason: old.reason, message: old.message }
    : { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' };
  if (established.status !== 'True' && cond.status === 'True') {
    established = { type: 'Established', status: 'False', reason: 'Installing', message: 'the initial names have been accepted' };
  }
  return { acceptedNames: cleanNames(next), namesAccepted: cond, established };
}

/** JSON form of CustomResourceDefinitionNames: plural and kind always, the rest when non-empty. */
function cleanNames(n: Partial<CustomResourceDefinitionNames>): AcceptedNames {
  const out: AcceptedNames = { plural: n.plural ?? '', kind: n.kind ?? '' };
  if (n.singular) out.singular = n.singular;
  if (n.shortNames?.length) out.shortNames = [...n.shortNames];
  if (n.listKind) out.listKind = n.listKind;
  if (n.categories?.length) out.categories = [...n.categories];
  return out;
}

const namesEqual = (a: Partial<CustomResourceDefinitionNames>, b: Partial<CustomResourceDefinitionNames>): boolean =>
  (a.plural ?? '') === (b.plural ?? '') &&
  (a.singular ?? '') === (b.singular ?? '') &&
  (a.kind ?? '') === (b.kind ?? '') &&
  (a.listKind ?? '') === (b.listKind ?? '') &&
  sameList(a.shortNames, b.shortNames) &&
  sameList(a.categories, b.categories);

/**
 * The naming controller's sync: the status to write, or undefined when nothing changes
 * (requested names already all accepted, or the same names and NamesAccepted as before). The other
 * CRDs may be given as a function: they are read only when the names are not all accepted.
 */
export function namingSync(
  crd: CustomResourceDefinition,
  allCRDs: readonly CustomResourceDefinition[] | (() => readonly CustomResourceDefinition[]),
  now: Date = new Date(),
): CustomResourceDefinitionStatus | undefined {
  if (namesEqual(crd.spec.names ?? {}, crd.status?.acceptedNames ?? {})) return undefined;
  const r = computeAcceptedNames(crd, typeof allCRDs === 'function' ? allCRDs() : allCRDs);
  const oldCond = findCondition(crd.status, 'NamesAccepted');
  if (namesEqual(crd.status?.acceptedNames ?? {}, r.acceptedNames) && oldCond && conditionEquivalent(oldCond, r.namesAccepted)) return undefined;
  let conditions = setCRDCondition(crd.status?.conditions, r.namesAccepted, now);
  conditions = setCRDCondition(conditions, r.established, now);
  return { ...(crd.status ?? {}), acceptedNames: r.acceptedNames, conditions };
}

/** The condition the establishing controller sets, or undefined when it has nothing to do. */
export function establishedCondition(crd: CustomResourceDefinition): Condition | undefined {
  if (!isConditionTrue(crd.status, 'NamesAccepted') || isConditionTrue(crd.status, 'Established')) return undefined;
  const ca = crd.spec.conversion?.webhook?.clientConfig?.caBundle;
  if (ca && caBundleError(Buffer.from(ca, 'base64')) !== undefined) {
    return { type: 'Established', status: 'False', reason: 'InvalidCABundle', message: 'The conversion webhook CABundle is invalid' };
  }
  return { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' };
}

/** The establishing controller's sync: the status to write, or undefined. */
export function establishingSync(crd: CustomResourceDefinition, now: Date = new Date()): CustomResourceDefinitionStatus | undefined {
  const cond = establishedCondition(crd);
  if (!cond) return undefined;
  return { ...(crd.status ?? {}), conditions: setCRDCondition(crd.status?.conditions, cond, now) };
}

// ---------------------------------------------------------------------------------------------
// Condition bookkeeping (apihelpers)

/** metav1.Time's JSON form: RFC 3339 in UTC, whole seconds. */
const rfc3339 = (d: Date): string => d.toISOString().replace(/\.\d{3}Z$/, 'Z');

export function findCondition(status: CustomResourceDefinitionStatus | undefined, type: string): CustomResourceDefinitionCondition | undefined {
  return status?.conditions?.find((c) => c.type === type);
}

export function isConditionTrue(status: CustomResourceDefinitionStatus | undefined, type: string): boolean {
  return findCondition(status, type)?.status === 'True';
}

/** IsCRDConditionEquivalent: equal except for times. */
function conditionEquivalent(a: Condition, b: Condition): boolean {
  return a.type === b.type && a.status === b.status && (a.reason ?? '') === (b.reason ?? '') && (a.message ?? '') === (b.message ?? '');
}

/**
 * SetCRDCondition, without mutating: a new condition is appended; an existing one keeps its
 * place and its lastTransitionTime unless the status changes (or it had none).
 */
export function setCRDCondition(
  conditions: readonly CustomResourceDefinitionCondition[] | undefined,
  cond: Condition,
  now: Date = new Date(),
): CustomResourceDefinitionCondition[] {
  const list = (conditions ?? []).map((c) => ({ ...c }));
  const existing = list.find((c) => c.type === cond.type);
  const time = rfc3339(now);
  if (!existing) {
    list.push(withoutEmpty({ type: cond.type, status: cond.status, lastTransitionTime: time, reason: cond.reason, message: cond.message }));
    return list;
  }
  if (existing.status !== cond.status || !existing.lastTransitionTime) existing.lastTransitionTime = time;
  existing.status = cond.status;
  if (cond.reason) existing.reason = cond.reason;
  else delete existing.reason;
  if (cond.message) existing.message = cond.message;
  else delete existing.message;
  return list;
}

export function removeCRDCondition(conditions: readonly CustomResourceDefinitionCondition[] | undefined, type: string): CustomResourceDefinitionCondition[] {
  return (conditions ?? []).filter((c) => c.type !== type);
}

function withoutEmpty(c: CustomResourceDefinitionCondition): CustomResourceDefinitionCondition {
  const out: CustomResourceDefinitionCondition = { type: c.type, status: c.status };
  if (c.lastTransitionTime) out.lastTransitionTime = c.lastTransitionTime;
  if (c.reason) out.reason = c.reason;
  if (c.message) out.message = c.message;
  return out;
}

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { defaultCRD } from '../../src/crd/defaults.js';
import {
  computeAcceptedNames,
  establishedCondition,
  establishingSync,
  namingSync,
  setCRDCondition,
  type Condition,
} from '../../src/crd/names.js';
import type { CustomResourceDefinition, CustomResourceDefinitionNames } from '../../src/crd/types.js';
import { CORPUS } from '../shared-paths.js';

// Builders after kube's naming_controller_test.go.
type Names = [plural: string, singular: string, kind: string, listKind: string, ...shortNames: string[]];
const toNames = ([plural, singular, kind, listKind, ...shortNames]: Names): Partial<CustomResourceDefinitionNames> => ({
  plural,
  singular,
  kind,
  listKind,
  ...(shortNames.length ? { shortNames } : {}),
});

function crd(name: string, opts: { spec?: Names; status?: Names; conditions?: Condition[] } = {}): CustomResourceDefinition {
  const [plural, group] = [name.slice(0, name.indexOf('.')), name.slice(name.indexOf('.') + 1)];
  return {
    metadata: { name },
    spec: {
      group,
      scope: 'Namespaced',
      versions: [],
      names: (opts.spec ? toNames(opts.spec) : { plural, kind: '' }) as CustomResourceDefinitionNames,
    },
    status: {
      acceptedNames: opts.status ? toNames(opts.status) : {},
      conditions: (opts.conditions ?? []).map((c) => ({ ...c })),
    },
  };
}

const accepted: Condition = { type: 'NamesAccepted', status: 'True', reason: 'NoConflicts', message: 'no conflicts found' };
const notAccepted: Condition = { type: 'NamesAccepted', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' };
const installing: Condition = { type: 'Established', status: 'False', reason: 'Installing', message: 'the initial names have been accepted' };
const notEstablished: Condition = { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' };
const conflict = (reason: string, message: string): Condition => ({ type: 'NamesAccepted', status: 'False', reason, message });
const full: Names = ['alfa', 'delta-singular', 'echo-kind', 'foxtrot-listkind', 'golf-shortname-1', 'hotel-shortname-2'];
const clean = (n: Partial<CustomResourceDefinitionNames>) => {
  const out: Record<string, unknown> = { plural: n.plural ?? '', kind: n.kind ?? '' };
  if (n.singular) out['singular'] = n.singular;
  if (n.shortNames?.length) out['shortNames'] = n.shortNames;
  if (n.listKind) out['listKind'] = n.listKind;
  return out;
};

const cases: Array<{ name: string; in: CustomResourceDefinition; existing: CustomResourceDefinition[]; names: Names; cond: Condition; established: Condition }> = [
  { name: 'first resource', in: crd('alfa.bravo.com'), existing: [], names: ['alfa', '', '', ''], cond: accepted, established: installing },
  {
    name: 'different groups',
    in: crd('alfa.bravo.com', { spec: full }),
    existing: [crd('alfa.charlie.com', { status: full })],
    names: full,
    cond: accepted,
    established: installing,
  },
  {
    name: 'conflict plural to singular',
    in: crd('alfa.bravo.com', { spec: full }),
    existing: [crd('india.bravo.com', { status: ['india', 'alfa', '', ''] })],
    names: ['', 'delta-singular', 'echo-kind', 'foxtrot-listkind', 'golf-shortname-1', 'hotel-shortname-2'],
    cond: conflict('PluralConflict', '"alfa" is already in use'),
    established: notEstablished,
  },
  {
    name: 'conflict singular to shortName',
    in: crd('alfa.bravo.com', { spec: full }),
    existing: [crd('india.bravo.com', { status: ['india', 'indias', '', '', 'delta-singular'] })],
    names: ['alfa', '', 'echo-kind', 'foxtrot-listkind', 'golf-shortname-1', 'hotel-shortname-2'],
    cond: conflict('SingularConflict', '"delta-singular" is already in use'),
    established: notEstablished,
  },
  {
    name: 'conflict on shortName to shortName',
    in: crd('alfa.bravo.com', { spec: full }),
    existing: [crd('india.bravo.com', { status: ['india', 'indias', '', '', 'hotel-shortname-2'] })],
    names: ['alfa', 'delta-singular', 'echo-kind', 'foxtrot-listkind'],
    cond: conflict('ShortNamesConflict', '"hotel-shortname-2" is already in use'),
    established: notEstablished,
  },
  {
    name: 'conflict on kind to listkind',
    in: crd('alfa.bravo.com', { spec: full }),
    existing: [crd('india.bravo.com', { status: ['india', 'indias', '', 'echo-kind'] })],
    names: ['alfa', 'delta-singular', '', 'foxtrot-listkind', 'golf-shortname-1', 'hotel-shortname-2'],
    cond: conflict('KindConflict', '"echo-kind" is already in use'),
    established: notEstablished,
  },
  {
    name: 'conflict on listkind to kind',
    in: crd('alfa.bravo.com', { spec: full }),
    existing: [crd('india.bravo.com', { status: ['india', 'indias', 'foxtrot-listkind', ''] })],
    names: ['alfa', 'delta-singular', 'echo-kind', '', 'golf-shortname-1', 'hotel-shortname-2'],
    cond: conflict('ListKindConflict', '"foxtrot-listkind" is already in use'),
    established: notEstablished,
  },
  {
    name: 'no conflict on resource and kind',
    in: crd('alfa.bravo.com', { spec: full }),
    existing: [crd('india.bravo.com', { status: ['india', 'echo-kind', '', ''] })],
    names: full,
    cond: accepted,
    established: installing,
  },
  {
    name: 'merge on conflicts',
    in: crd('alfa.bravo.com', { spec: full, status: ['zulu', 'yankee-singular', 'xray-kind', 'whiskey-listkind', 'victor-shortname-1', 'uniform-shortname-2'] }),
    existing: [crd('india.bravo.com', { status: ['india', 'indias', 'foxtrot-listkind', '', 'delta-singular'] })],
    names: ['alfa', 'yankee-singular', 'echo-kind', 'whiskey-listkind', 'golf-shortname-1', 'hotel-shortname-2'],
    cond: conflict('ListKindConflict', '"foxtrot-listkind" is already in use'),
    established: notEstablished,
  },
  {
    name: 'merge on conflicts shortNames as one',
    in: crd('alfa.bravo.com', { spec: full, status: ['zulu', 'yankee-singular', 'xray-kind', 'whiskey-listkind', 'victor-shortname-1', 'uniform-shortname-2'] }),
    existing: [crd('india.bravo.com', { status: ['india', 'indias', 'foxtrot-listkind', '', 'delta-singular', 'golf-shortname-1'] })],
    names: ['alfa', 'yankee-singular', 'echo-kind', 'whiskey-listkind', 'victor-shortname-1', 'uniform-shortname-2'],
    cond: conflict('ListKindConflict', '"foxtrot-listkind" is already in use'),
    established: notEstablished,
  },
  {
    name: 'no conflicts on self',
    in: crd('alfa.bravo.com', { spec: full, status: full }),
    existing: [crd('alfa.bravo.com', { spec: full, status: full })],
    names: full,
    cond: accepted,
    established: installing,
  },
  {
    name: 'no conflicts on self, remove shortname',
    in: crd('alfa.bravo.com', { spec: ['alfa', 'delta-singular', 'echo-kind', 'foxtrot-listkind', 'golf-shortname-1'], status: full }),
    existing: [crd('alfa.bravo.com', { spec: full, status: full })],
    names: ['alfa', 'delta-singular', 'echo-kind', 'foxtrot-listkind', 'golf-shortname-1'],
    cond: accepted,
    established: installing,
  },
  {
    name: 'installing before with true condition',
    in: crd('alfa.bravo.com', { conditions: [accepted] }),
    existing: [],
    names: ['alfa', '', '', ''],
    cond: accepted,
    established: installing,
  },
  {
    name: 'not installing before with false condition',
    in: crd('alfa.bravo.com', { conditions: [notAccepted] }),
    existing: [],
    names: ['alfa', '', '', ''],
    cond: accepted,
    established: installing,
  },
  {
    name: 'conflicting, installing before with true condition',
    in: crd('alfa.bravo.com', { spec: full, conditions: [accepted] }),
    existing: [crd('india.bravo.com', { status: ['india', 'alfa', '', ''] })],
    names: ['', 'delta-singular', 'echo-kind', 'foxtrot-listkind', 'golf-shortname-1', 'hotel-shortname-2'],
    cond: conflict('PluralConflict', '"alfa" is already in use'),
    established: notEstablished,
  },
  {
    name: 'conflicting, not installing before with false condition',
    in: crd('alfa.bravo.com', { spec: full, conditions: [notAccepted] }),
    existing: [crd('india.bravo.com', { status: ['india', 'alfa', '', ''] })],
    names: ['', 'delta-singular', 'echo-kind', 'foxtrot-listkind', 'golf-shortname-1', 'hotel-shortname-2'],
    cond: conflict('PluralConflict', '"alfa" is already in use'),
    established: notEstablished,
  },
];

for (const c of cases) {
  test(`naming: ${c.name}`, () => {
    const r = computeAcceptedNames(c.in, c.existing);
    assert.deepEqual(r.acceptedNames, clean(toNames(c.names)));
    assert.deepEqual(r.namesAccepted, c.cond);
    assert.deepEqual(r.established, c.established);
  });
}

test('naming: an Established=True condition is kept', () => {
  const established: Condition = { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted' };
  const r = computeAcceptedNames(crd('alfa.bravo.com', { spec: full, conditions: [accepted, established] }), [
    crd('india.bravo.com', { status: ['india', 'alfa', '', ''] }),
  ]);
  assert.deepEqual(r.established, established);
  assert.equal(r.namesAccepted.status, 'False');
});

test('naming: several short name conflicts are aggregated', () => {
  const r = computeAcceptedNames(crd('alfa.bravo.com', { spec: ['alfa', 'a', 'A', 'AList', 'x', 'y', 'z'] }), [
    crd('india.bravo.com', { status: ['india', 'i', 'I', 'IList', 'x', 'z'] }),
  ]);
  assert.deepEqual(r.namesAccepted, conflict('ShortNamesConflict', '["x" is already in use, "z" is already in use]'));
  assert.equal(r.acceptedNames.shortNames, undefined);
});

test('naming: categories are always accepted', () => {
  const c = crd('alfa.bravo.com', { spec: full });
  c.spec.names.categories = ['all'];
  assert.deepEqual(computeAcceptedNames(c, []).acceptedNames.categories, ['all']);
});

test('naming: a CRD conflicts with its own accepted names in another role', () => {
  // kube counts the CRD itself among the name holders, whether or not the list has it.
  const c = crd('alfa.bravo.com', { spec: ['alfa', 'beta', 'Alfa', 'AlfaList'], status: ['alfa', 'alfas', 'Alfa', 'AlfaList'] });
  c.spec.names.singular = 'alfas';
  c.spec.names.plural = 'alfas';
  const r = computeAcceptedNames(c, []);
  assert.deepEqual(r.namesAccepted, conflict('PluralConflict', '"alfas" is already in use'));
});

test('namingSync: nothing to do when all requested names are accepted', () => {
  assert.equal(namingSync(crd('alfa.bravo.com', { spec: full, status: full }), []), undefined);
});

test('namingSync: writes accepted names and both conditions, then establishingSync establishes', () => {
  const t0 = new Date('2025-01-01T00:00:00.123Z');
  const c = crd('alfa.bravo.com', { spec: full });
  const status = namingSync(c, [], t0)!;
  assert.deepEqual(status.acceptedNames, clean(toNames(full)));
  assert.deepEqual(status.conditions, [
    { ...accepted, lastTransitionTime: '2025-01-01T00:00:00Z' },
    { ...installing, lastTransitionTime: '2025-01-01T00:00:00Z' },
  ]);
  c.status = status;
  assert.equal(namingSync(c, [], t0), undefined);
  const t1 = new Date('2025-01-01T00:00:05Z');
  const est = establishingSync(c, t1)!;
  assert.deepEqual(est.conditions, [
    { ...accepted, lastTransitionTime: '2025-01-01T00:00:00Z' },
    { type: 'Established', status: 'True', reason: 'InitialNamesAccepted', message: 'the initial names have been accepted', lastTransitionTime: '2025-01-01T00:00:05Z' },
  ]);
  c.status = est;
  assert.equal(establishedCondition(c), undefined);
});

test('establishing: not before names are accepted; an invalid CA bundle blocks it', () => {
  const c = crd('alfa.bravo.com', { conditions: [notAccepted] });
  assert.equal(establishedCondition(c), undefined);
  c.status!.conditions = [{ ...accepted }];
  c.spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: 'https://e.com', caBundle: Buffer.from('junk').toString('base64') } } };
  assert.deepEqual(establishedCondition(c), { type: 'Established', status: 'False', reason: 'InvalidCABundle', message: 'The conversion webhook CABundle is invalid' });
});

test('setCRDCondition: lastTransitionTime changes only with the status', () => {
  const t0 = new Date('2025-01-01T00:00:00Z');
  const t1 = new Date('2025-02-01T00:00:00Z');
  let list = setCRDCondition(undefined, accepted, t0);
  list = setCRDCondition(list, { ...accepted, message: 'again' }, t1);
  assert.deepEqual(list, [{ ...accepted, message: 'again', lastTransitionTime: '2025-01-01T00:00:00Z' }]);
  list = setCRDCondition(list, notAccepted, t1);
  assert.deepEqual(list, [{ ...notAccepted, lastTransitionTime: '2025-02-01T00:00:00Z' }]);
  // Existing conditions keep their position; new ones are appended.
  list = setCRDCondition([{ type: 'Terminating', status: 'False' }, { type: 'NamesAccepted', status: 'False' }], accepted, t0);
  assert.deepEqual(list.map((c) => c.type), ['Terminating', 'NamesAccepted']);
  assert.equal(list[0]!.lastTransitionTime, undefined);
  assert.equal(list[1]!.lastTransitionTime, '2025-01-01T00:00:00Z');
});

function load(project: string): CustomResourceDefinition[] {
  const dir = `${CORPUS}/${project}/crds`;
  return readdirSync(dir)
    .filter((f) => f.endsWith('.yaml'))
    .map((f) => defaultCRD(parse(readFileSync(`${dir}/${f}`, 'utf8')) as CustomResourceDefinition));
}

test('gateway-api: a channel installs without conflicts; the other channel is an update of the same CRDs', () => {
  const installed: CustomResourceDefinition[] = [];
  for (const c of load('gateway-api-standard')) {
    const status = namingSync(c, installed);
    assert.ok(status, c.metadata.name);
    assert.equal(status.conditions?.find((x) => x.type === 'NamesAccepted')?.status, 'True', c.metadata.name);
    installed.push({ ...c, status });
  }
  for (const c of load('gateway-api-experimental')) {
    const current = installed.find((i) => i.metadata.name === c.metadata.name);
    if (!current) continue;
    // Same names: the naming controller has nothing to do.
    assert.equal(namingSync({ ...c, status: current.status }, installed), undefined, c.metadata.name);
  }
  // A different CRD claiming httproutes in the same group does conflict.
  const squatter = structuredClone(installed.find((i) => i.metadata.name === 'httproutes.gateway.networking.k8s.io')!);
  squatter.metadata.name = 'routes.gateway.networking.k8s.io';
  squatter.status = {};
  const r = computeAcceptedNames(squatter, installed);
  // Every name is taken; the condition reports the last conflict checked.
  assert.deepEqual(r.acceptedNames, { plural: '', kind: '', categories: ['gateway-api'] });
  assert.deepEqual(r.namesAccepted, conflict('ListKindConflict', '"HTTPRouteList" is already in use'));
});

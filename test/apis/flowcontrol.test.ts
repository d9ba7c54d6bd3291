// flowcontrol.apiserver.k8s.io/v1: kube's v1 defaulting, validation messages and field paths (cases from
// pkg/apis/flowcontrol/validation/validation_test.go), the bootstrap objects, the ensure strategies'
// decisions and the Dangling condition's wording.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aggregate, fieldErrorString } from '../../src/api/field-error.js';
import type { JSONObject } from '../../src/util/json.js';
import { setFlowSchemaDefaults, setPriorityLevelDefaults } from '../../src/apis/flowcontrol/v1/defaults.js';
import { requiredEntropyBits, validateFlowSchema, validateNonResourceURLPath, validatePriorityLevelConfiguration } from '../../src/apis/flowcontrol/v1/validation.js';
import {
  AUTO_UPDATE_ANNOTATION,
  MANDATORY_FLOW_SCHEMAS,
  MANDATORY_PRIORITY_LEVELS,
  SUGGESTED_FLOW_SCHEMAS,
  SUGGESTED_PRIORITY_LEVELS,
  bootstrapObjects,
} from '../../src/apis/flowcontrol/v1/bootstrap.js';
import { flowcontrolBootstrapKinds } from '../../src/apis/flowcontrol/v1/ensure.js';
import { flowSchemaOrder } from '../../src/apis/flowcontrol/v1/flow-schema.js';
import { parseGoBool, revision } from '../../src/controllers/apf-bootstrap.js';
import { danglingCondition } from '../../src/controllers/flowschema-dangling.js';
import type { GenericStore } from '../../src/registry/store.js';

const fs = (name: string, spec: JSONObject): JSONObject => ({ apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'FlowSchema', metadata: { name }, spec });
const pl = (name: string, spec: JSONObject): JSONObject => ({ apiVersion: 'flowcontrol.apiserver.k8s.io/v1', kind: 'PriorityLevelConfiguration', metadata: { name }, spec });
const messages = (errs: ReturnType<typeof validateFlowSchema>): string[] => errs.map(fieldErrorString);

const everyone = { subjects: [{ kind: 'Group', group: { name: 'system:authenticated' } }] };

test('defaulting: matchingPrecedence 1000; limited shares 30 (0 stays 0), lendablePercent 0, queuing 64/8/50; exempt zeros', () => {
  const f = fs('x', { priorityLevelConfiguration: { name: 'p' } });
  setFlowSchemaDefaults(f);
  assert.equal((f['spec'] as JSONObject)['matchingPrecedence'], 1000);

  const p = pl('x', { type: 'Limited', limited: { limitResponse: { type: 'Queue', queuing: {} } } });
  setPriorityLevelDefaults(p);
  assert.deepEqual((p['spec'] as JSONObject)['limited'], {
    limitResponse: { type: 'Queue', queuing: { handSize: 8, queues: 64, queueLengthLimit: 50 } },
    nominalConcurrencyShares: 30,
    lendablePercent: 0,
  });

  const zero = pl('jail', { type: 'Limited', limited: { nominalConcurrencyShares: 0, limitResponse: { type: 'Reject' } } });
  setPriorityLevelDefaults(zero);
  assert.equal(((zero['spec'] as JSONObject)['limited'] as JSONObject)['nominalConcurrencyShares'], 0);
  assert.deepEqual(validatePriorityLevelConfiguration(zero), []);

  // No queuing, no queuing defaults; an absent exempt stays absent.
  const reject = pl('r', { type: 'Limited', limited: { limitResponse: { type: 'Reject' } } });
  setPriorityLevelDefaults(reject);
  assert.deepEqual(((reject['spec'] as JSONObject)['limited'] as JSONObject)['limitResponse'], { type: 'Reject' });
  const exempt = pl('exempt', { type: 'Exempt', exempt: {} });
  setPriorityLevelDefaults(exempt);
  assert.deepEqual((exempt['spec'] as JSONObject)['exempt'], { nominalConcurrencyShares: 0, lendablePercent: 0 });
});

test('FlowSchema spec validation: precedence, distinguisher, priority level name', () => {
  const f = fs('x', { priorityLevelConfiguration: { name: '' }, matchingPrecedence: 1, distinguisherMethod: { type: 'Foo' }, rules: [] });
  assert.deepEqual(messages(validateFlowSchema(f)), [
    "spec.matchingPrecedence: Invalid value: 1: only the schema named 'exempt' may have matchingPrecedence 1",
    'spec.distinguisherMethod.type: Unsupported value: flowcontrol.FlowDistinguisherMethod{Type:"Foo"}: supported values: "ByNamespace", "ByUser"',
    'spec.priorityLevelConfiguration.name: Required value: must reference a priority level',
  ]);
  assert.deepEqual(messages(validateFlowSchema(fs('x', { priorityLevelConfiguration: { name: 'p' }, matchingPrecedence: 10001 }))), [
    'spec.matchingPrecedence: Invalid value: 10001: must not be greater than 10000',
  ]);
  assert.deepEqual(messages(validateFlowSchema(fs('x', { priorityLevelConfiguration: { name: 'p' }, matchingPrecedence: -1 }))), [
    'spec.matchingPrecedence: Invalid value: -1: must be a positive value',
  ]);
  assert.match(messages(validateFlowSchema(fs('x', { priorityLevelConfiguration: { name: 'Bad_PL' }, matchingPrecedence: 5 })))[0]!, /^spec\.priorityLevelConfiguration\.name: Invalid value: "Bad_PL": a lowercase RFC 1123 subdomain/);
  assert.match(messages(validateFlowSchema(fs('Bad', { priorityLevelConfiguration: { name: 'p' }, matchingPrecedence: 5 })))[0]!, /^metadata\.name: Invalid value: "Bad": a lowercase RFC 1123 subdomain/);
});

test('FlowSchema rules: subjects, verbs with *, groups, resources, namespaces, non-resource URLs', () => {
  const f = fs('x', {
    priorityLevelConfiguration: { name: 'p' },
    matchingPrecedence: 100,
    rules: [
      { subjects: [] },
      {
        subjects: [
          { kind: 'User' },
          { kind: 'Group', group: { name: '' }, user: { name: 'u' } },
          { kind: 'ServiceAccount', serviceAccount: { name: '', namespace: '' } },
          { kind: 'Robot' },
        ],
        resourceRules: [
          { verbs: [], apiGroups: [], resources: [] },
          { verbs: ['*', 'get'], apiGroups: ['*', 'apps'], resources: ['*', 'pods'], namespaces: ['*', 'default'] },
          { verbs: ['fly'], apiGroups: [''], resources: ['pods'], namespaces: ['Not_A_Label'] },
        ],
        nonResourceRules: [
          { verbs: ['get'], nonResourceURLs: [] },
          { verbs: ['get'], nonResourceURLs: ['*', '/healthz'] },
          { verbs: ['get'], nonResourceURLs: ['', 'healthz', '/a b', '//x', '/hea*', '/healthz/*'] },
        ],
      },
    ],
  });
  assert.deepEqual(messages(validateFlowSchema(f)), [
    'spec.rules[0].subjects: Required value: subjects must contain at least one value',
    'spec.rules[0]: Required value: at least one of resourceRules and nonResourceRules has to be non-empty',
    "spec.rules[1].subjects[0].user: Required value: user is required when subject kind is 'User'",
    'spec.rules[1].subjects[1].group.name: Required value',
    "spec.rules[1].subjects[1].user: Forbidden: user is forbidden when subject kind is not 'User'",
    'spec.rules[1].subjects[2].serviceAccount.name: Required value',
    'spec.rules[1].subjects[2].serviceAccount.namespace: Required value: must specify namespace for service account',
    'spec.rules[1].subjects[3].kind: Unsupported value: "Robot": supported values: "Group", "ServiceAccount", "User"',
    'spec.rules[1].resourceRules[0].verbs: Required value: verbs must contain at least one value',
    'spec.rules[1].resourceRules[0].apiGroups: Required value: resource rules must supply at least one api group',
    'spec.rules[1].resourceRules[0].resources: Required value: resource rules must supply at least one resource',
    'spec.rules[1].resourceRules[0].namespaces: Required value: resource rules that are not cluster scoped must supply at least one namespace',
    `spec.rules[1].resourceRules[1].verbs: Invalid value: []string{"*", "get"}: if '*' is present, must not specify other verbs`,
    `spec.rules[1].resourceRules[1].apiGroups: Invalid value: []string{"*", "apps"}: if '*' is present, must not specify other api groups`,
    `spec.rules[1].resourceRules[1].resources: Invalid value: []string{"*", "pods"}: if '*' is present, must not specify other resources`,
    `spec.rules[1].resourceRules[1].namespaces: Invalid value: []string{"*", "default"}: if '*' is present, must not specify other namespaces`,
    'spec.rules[1].resourceRules[2].verbs: Unsupported value: []string{"fly"}: supported values: "create", "delete", "deletecollection", "get", "list", "patch", "proxy", "update", "watch"',
    `spec.rules[1].resourceRules[2].namespaces[0]: Invalid value: "Not_A_Label": each member of this list must be '*' or a DNS-1123 label; a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`,
    'spec.rules[1].nonResourceRules[0].nonResourceURLs: Required value: nonResourceURLs must contain at least one value',
    `spec.rules[1].nonResourceRules[1].nonResourceURLs: Invalid value: []string{"*", "/healthz"}: if '*' is present, must not specify other non-resource URLs`,
    'spec.rules[1].nonResourceRules[2].nonResourceURLs[0]: Invalid value: "": must not be empty',
    'spec.rules[1].nonResourceRules[2].nonResourceURLs[1]: Invalid value: "healthz": must start with slash',
    'spec.rules[1].nonResourceRules[2].nonResourceURLs[2]: Invalid value: "/a b": must not contain white-space',
    'spec.rules[1].nonResourceRules[2].nonResourceURLs[3]: Invalid value: "//x": must not contain double slash',
    'spec.rules[1].nonResourceRules[2].nonResourceURLs[4]: Invalid value: "/hea*": wildcard can only do suffix matching',
  ]);
});

test("ValidateNonResourceURLPath on validation_test.go's paths", () => {
  const bad = ['', 'foo', '//', '/////', '/healthz/*/foo', '/healthz/foo bar', '/health*', '/health*/foo', '/*/*'];
  const good = ['/', '/foo', '/apis/', '/healthz/*'];
  for (const p of bad) assert.ok(validateNonResourceURLPath(p, 'f'), p);
  for (const p of good) assert.equal(validateNonResourceURLPath(p, 'f'), undefined, p);
});

test('status: condition types present and unique', () => {
  const f = fs('x', { priorityLevelConfiguration: { name: 'p' }, matchingPrecedence: 5, rules: [{ ...everyone, nonResourceRules: [{ verbs: ['*'], nonResourceURLs: ['*'] }] }] });
  f['status'] = { conditions: [{ type: '1' }, { type: '1' }, { type: '' }] };
  assert.deepEqual(messages(validateFlowSchema(f)), [
    'status.conditions[1].type: Duplicate value: "1"',
    'status.conditions[2].type: Required value: must not be empty',
  ]);
});

test('PriorityLevelConfiguration validation: type and name, limited, queuing and its shuffle-sharding entropy', () => {
  assert.deepEqual(messages(validatePriorityLevelConfiguration(pl('x', { type: 'Exempt', limited: { limitResponse: { type: 'Reject' } } }))), [
    "spec.type: Invalid value: \"Exempt\": type must be 'Exempt' if and only if name is 'exempt'",
    'spec.limited: Forbidden: must be nil if the type is not Limited',
  ]);
  assert.deepEqual(messages(validatePriorityLevelConfiguration(pl('x', { type: 'Limited', exempt: {} }))), [
    'spec.exempt: Forbidden: must be nil if the type is Limited',
    'spec.limited: Required value: must not be empty when type is Limited',
  ]);
  assert.deepEqual(messages(validatePriorityLevelConfiguration(pl('x', { type: 'Fancy' }))), [
    'spec.type: Unsupported value: "Fancy": supported values: "Exempt", "Limited"',
  ]);
  const limited = (l: JSONObject): JSONObject => pl('system-foo', { type: 'Limited', limited: l });
  assert.deepEqual(
    messages(validatePriorityLevelConfiguration(limited({ nominalConcurrencyShares: -1, lendablePercent: 101, borrowingLimitPercent: -1, limitResponse: { type: 'Reject', queuing: {} } }))),
    [
      'spec.limited.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer',
      'spec.limited.limitResponse.queuing: Forbidden: must be nil if limited.limitResponse.type is not Limited',
      'spec.limited.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive',
      'spec.limited.borrowingLimitPercent: Invalid value: -1: if specified, must be a non-negative integer',
    ],
  );
  assert.deepEqual(messages(validatePriorityLevelConfiguration(limited({ nominalConcurrencyShares: 1, limitResponse: { type: 'Queue' } }))), [
    'spec.limited.limitResponse.queuing: Required value: must not be empty if limited.limitResponse.type is Limited',
  ]);
  assert.deepEqual(messages(validatePriorityLevelConfiguration(limited({ nominalConcurrencyShares: 1, limitResponse: { type: 'Drop' } }))), [
    'spec.limited.limitResponse.type: Unsupported value: "Drop": supported values: "Queue", "Reject"',
  ]);
  const queuing = (q: JSONObject): string[] => messages(validatePriorityLevelConfiguration(limited({ nominalConcurrencyShares: 1, limitResponse: { type: 'Queue', queuing: q } })));
  assert.deepEqual(queuing({ queues: 512, handSize: 8, queueLengthLimit: 100 }), [
    'spec.limited.limitResponse.queuing.handSize: Invalid value: 8: required entropy bits of deckSize 512 and handSize 8 should not be greater than 60',
  ]);
  assert.deepEqual(queuing({ queues: 7, handSize: 8, queueLengthLimit: 100 }), ['spec.limited.limitResponse.queuing.handSize: Invalid value: 8: should not be greater than queues (7)']);
  assert.deepEqual(queuing({ queues: 0, handSize: 0, queueLengthLimit: 0 }), [
    'spec.limited.limitResponse.queuing.queueLengthLimit: Invalid value: 0: must be positive',
    'spec.limited.limitResponse.queuing.queues: Invalid value: 0: must be positive',
    'spec.limited.limitResponse.queuing.handSize: Invalid value: 0: must be positive',
  ]);
  assert.deepEqual(queuing({ queues: 10000001, handSize: 1, queueLengthLimit: 1 }), ['spec.limited.limitResponse.queuing.queues: Invalid value: 10000001: must not be greater than 10000000']);
  assert.deepEqual(queuing({ queues: 128, handSize: 8, queueLengthLimit: 50 }), []);
  assert.equal(requiredEntropyBits(512, 8), 72);
  assert.equal(requiredEntropyBits(1024, 6), 60);
});

test('the mandatory objects: fixed specs but for the exempt level`s exempt field', () => {
  const catchAll = structuredClone(MANDATORY_PRIORITY_LEVELS[0]!);
  setPriorityLevelDefaults(catchAll);
  assert.deepEqual(validatePriorityLevelConfiguration(catchAll), []);
  ((catchAll['spec'] as JSONObject)['limited'] as JSONObject)['nominalConcurrencyShares'] = 6;
  assert.match(
    aggregate(validatePriorityLevelConfiguration(catchAll)),
    /^spec: Invalid value: flowcontrol\.PriorityLevelConfigurationSpec\{Type:"Limited", Limited:\(\*flowcontrol\.LimitedPriorityLevelConfiguration\)\(0x[0-9a-f]+\), Exempt:\(\*flowcontrol\.ExemptPriorityLevelConfiguration\)\(nil\)\}: spec of 'catch-all' must equal the fixed value$/,
  );

  const exempt = pl('exempt', { type: 'Exempt', exempt: { nominalConcurrencyShares: 7, lendablePercent: 10 } });
  setPriorityLevelDefaults(exempt);
  assert.deepEqual(validatePriorityLevelConfiguration(exempt), []);
  const badExempt = pl('exempt', { type: 'Exempt', exempt: { nominalConcurrencyShares: -1, lendablePercent: 101 } });
  assert.deepEqual(messages(validatePriorityLevelConfiguration(badExempt)), [
    'spec.exempt.nominalConcurrencyShares: Invalid value: -1: must be a non-negative integer',
    'spec.exempt.lendablePercent: Invalid value: 101: must be between 0 and 100, inclusive',
  ]);
  const limitedExempt = pl('exempt', { type: 'Limited', limited: { nominalConcurrencyShares: 1, limitResponse: { type: 'Reject' } } });
  setPriorityLevelDefaults(limitedExempt);
  const msgs = messages(validatePriorityLevelConfiguration(limitedExempt));
  assert.equal(msgs[0], "spec.type: Invalid value: \"Limited\": type must be 'Exempt' if and only if name is 'exempt'");
  assert.match(msgs[1]!, /^spec: Invalid value: flowcontrol\.PriorityLevelConfigurationSpec\{.*\}: spec of 'exempt' except the 'spec.exempt' field must equal the fixed value$/);

  const exemptFs = structuredClone(MANDATORY_FLOW_SCHEMAS[0]!);
  setFlowSchemaDefaults(exemptFs);
  assert.deepEqual(validateFlowSchema(exemptFs), []);
  (exemptFs['spec'] as JSONObject)['matchingPrecedence'] = 2;
  assert.match(
    aggregate(validateFlowSchema(exemptFs)),
    /^spec: Invalid value: flowcontrol\.FlowSchemaSpec\{PriorityLevelConfiguration:flowcontrol\.PriorityLevelConfigurationReference\{Name:"exempt"\}, MatchingPrecedence:2, DistinguisherMethod:\(\*flowcontrol\.FlowDistinguisherMethod\)\(nil\), Rules:\[\]flowcontrol\.PolicyRulesWithSubjects\{flowcontrol\.PolicyRulesWithSubjects\{Subjects:\[\]flowcontrol\.Subject\{flowcontrol\.Subject\{Kind:"Group", User:\(\*flowcontrol\.UserSubject\)\(nil\), Group:\(\*flowcontrol\.GroupSubject\)\(0x[0-9a-f]+\), ServiceAccount:\(\*flowcontrol\.ServiceAccountSubject\)\(nil\)\}\}, ResourceRules:\[\]flowcontrol\.ResourcePolicyRule\{flowcontrol\.ResourcePolicyRule\{Verbs:\[\]string\{"\*"\}, APIGroups:\[\]string\{"\*"\}, Resources:\[\]string\{"\*"\}, ClusterScope:true, Namespaces:\[\]string\{"\*"\}\}\}, NonResourceRules:\[\]flowcontrol\.NonResourcePolicyRule\{flowcontrol\.NonResourcePolicyRule\{Verbs:\[\]string\{"\*"\}, NonResourceURLs:\[\]string\{"\*"\}\}\}\}\}\}: spec of 'exempt' must equal the fixed value$/,
  );
});

test("the bootstrap configuration: kube 1.33's names, valid, unchanged by defaulting, auto-updated", () => {
  const names = (objs: readonly JSONObject[]): string[] => objs.map((o) => String((o['metadata'] as JSONObject)['name']));
  assert.deepEqual(names(MANDATORY_PRIORITY_LEVELS), ['catch-all', 'exempt']);
  assert.deepEqual(names(MANDATORY_FLOW_SCHEMAS), ['exempt', 'catch-all']);
  assert.deepEqual(names(SUGGESTED_PRIORITY_LEVELS), ['system', 'node-high', 'leader-election', 'workload-high', 'workload-low', 'global-default']);
  assert.deepEqual(names(SUGGESTED_FLOW_SCHEMAS), [
    'system-nodes',
    'system-node-high',
    'probes',
    'system-leader-election',
    'workload-leader-election',
    'endpoint-controller',
    'kube-controller-manager',
    'kube-scheduler',
    'kube-system-service-accounts',
    'service-accounts',
    'global-default',
  ]);
  const { priorityLevels, flowSchemas } = bootstrapObjects();
  assert.equal(priorityLevels.length + flowSchemas.length, 21);
  for (const o of priorityLevels) {
    assert.equal((o['metadata'] as JSONObject)['annotations'] && ((o['metadata'] as JSONObject)['annotations'] as JSONObject)[AUTO_UPDATE_ANNOTATION], 'true');
    const d = structuredClone(o);
    setPriorityLevelDefaults(d);
    assert.deepEqual(d, o, 'defaulting changes nothing');
    assert.deepEqual(validatePriorityLevelConfiguration(o), []);
  }
  for (const o of flowSchemas) {
    const d = structuredClone(o);
    setFlowSchemaDefaults(d);
    assert.deepEqual(d, o, 'defaulting changes nothing');
    assert.deepEqual(validateFlowSchema(o), []);
  }
  // The printer's order: by matching precedence, then name.
  assert.deepEqual(names([...flowSchemas].sort(flowSchemaOrder)).slice(0, 4), ['exempt', 'probes', 'system-leader-election', 'endpoint-controller']);
  assert.deepEqual(names([...flowSchemas].sort(flowSchemaOrder)).slice(7, 9), ['kube-controller-manager', 'kube-scheduler']);
});

test('ensure strategies: mandatory always, suggested by annotation or generation 1; the annotation follows', () => {
  const [plKind, fsKind] = flowcontrolBootstrapKinds({} as GenericStore, {} as GenericStore);
  const boot = SUGGESTED_PRIORITY_LEVELS[0]!;
  const current = (annotation: string | undefined, generation: number, ncs = 30): JSONObject => {
    const o = structuredClone(boot);
    const meta = o['metadata'] as JSONObject;
    meta['generation'] = generation;
    if (annotation === undefined) delete meta['annotations'];
    else meta['annotations'] = { [AUTO_UPDATE_ANNOTATION]: annotation };
    ((o['spec'] as JSONObject)['limited'] as JSONObject)['nominalConcurrencyShares'] = ncs;
    return o;
  };
  const annotationOf = (o: JSONObject | undefined): unknown => ((o?.['metadata'] as JSONObject)['annotations'] as JSONObject)[AUTO_UPDATE_ANNOTATION];
  const ncsOf = (o: JSONObject | undefined): unknown => (((o?.['spec'] as JSONObject)['limited'] as JSONObject)['nominalConcurrencyShares']);

  assert.equal(revision(current('true', 3), boot, false, plKind!.specEqualish), undefined, 'up to date');
  const stomped = revision(current('true', 3, 99), boot, false, plKind!.specEqualish);
  assert.equal(ncsOf(stomped), 30);
  assert.equal(revision(current('false', 3, 99), boot, false, plKind!.specEqualish), undefined, 'operator opted out');
  const gen1 = revision(current(undefined, 1, 99), boot, false, plKind!.specEqualish);
  assert.deepEqual([annotationOf(gen1), ncsOf(gen1)], ['true', 30]);
  const changed = revision(current(undefined, 2, 99), boot, false, plKind!.specEqualish);
  assert.deepEqual([annotationOf(changed), ncsOf(changed)], ['false', 99]);
  const garbled = revision(current('maybe', 2, 99), boot, false, plKind!.specEqualish);
  assert.deepEqual([annotationOf(garbled), ncsOf(garbled)], ['false', 99]);
  // Mandatory: always auto-updated, the annotation forced to true.
  const mandatory = revision(current('false', 5, 99), boot, true, plKind!.specEqualish);
  assert.deepEqual([annotationOf(mandatory), ncsOf(mandatory)], ['true', 30]);
  assert.equal(revision(current('TRUE', 5), boot, true, plKind!.specEqualish), undefined, 'ParseBool reads TRUE');

  // The exempt level's `exempt` values are the operator's.
  const exempt = structuredClone(MANDATORY_PRIORITY_LEVELS[1]!);
  ((exempt['spec'] as JSONObject)['exempt'] as JSONObject)['nominalConcurrencyShares'] = 40;
  assert.equal(revision(exempt, MANDATORY_PRIORITY_LEVELS[1]!, true, plKind!.specEqualish), undefined);
  // A flow schema whose spec was defaulted on the server still equals its bootstrap object.
  const probes = structuredClone(SUGGESTED_FLOW_SCHEMAS[2]!);
  (probes['spec'] as JSONObject)['rules'] = [...((probes['spec'] as JSONObject)['rules'] as JSONObject[]), { subjects: [] }];
  assert.ok(revision(probes, SUGGESTED_FLOW_SCHEMAS[2]!, false, fsKind!.specEqualish));
  assert.deepEqual([parseGoBool('t'), parseGoBool('0'), parseGoBool('yes')], [true, false, undefined]);
});

test('the Dangling condition as the config controller words it', () => {
  assert.deepEqual(danglingCondition('x', false), {
    status: 'True',
    reason: 'NotFound',
    message: 'This FlowSchema references the PriorityLevelConfiguration object named "x" but there is no such object',
  });
  assert.deepEqual(danglingCondition('x', true), {
    status: 'False',
    reason: 'Found',
    message: 'This FlowSchema references the PriorityLevelConfiguration object named "x" and it exists',
  });
});

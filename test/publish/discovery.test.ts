import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  aggregatedDiscovery,
  aggregatedDiscoveryETag,
  apiGroup,
  apiGroupList,
  apiResourceList,
  apiVersions,
  discoveryContentType,
  parseAcceptClauses,
  pickDiscoveryFormat,
  serveRootDiscovery,
} from '../../src/server/discovery.js';
import { compareKubeVersions, storageVersionHash } from '../../src/api/versions.js';
import { goJSON } from '../../src/server/discovery-json.js';
import type { ServedResource } from '../../src/api/resource.js';
import { allResources, cronTab, customResourceDefinitions, namespaces } from './seed.js';

const CR_VERBS = ['delete', 'deletecollection', 'get', 'list', 'patch', 'create', 'update', 'watch'];

test('storageVersionHash matches the hashes kube-apiserver publishes', () => {
  // Values from kubernetes/api/discovery fixtures.
  // kube-apiserver still stores CRDs as apiextensions.k8s.io/v1beta1, and publishes that hash.
  assert.equal(storageVersionHash('apiextensions.k8s.io', 'v1beta1', 'CustomResourceDefinition'), 'jfWCUB31mvA=');
  assert.equal(storageVersionHash('', 'v1', 'Namespace'), 'Q3oi5N2YM8M=');
  assert.equal(storageVersionHash('', 'v1', 'ConfigMap'), 'qFsyl6wFWjQ=');
  assert.equal(storageVersionHash('stable.example.com', 'v1', 'CronTab'), 'EdX2FP+L0js=');
});

test('compareKubeVersions sorts in Kubernetes version priority', () => {
  const expected = ['v10', 'v2', 'v1', 'v11beta2', 'v10beta3', 'v3beta1', 'v12alpha1', 'v11alpha2', 'foo1', 'foo10'];
  const shuffled = ['foo10', 'v1', 'v11alpha2', 'v3beta1', 'foo1', 'v10', 'v12alpha1', 'v2', 'v10beta3', 'v11beta2'];
  assert.deepEqual([...shuffled].sort(compareKubeVersions), expected);
  assert.equal(compareKubeVersions('v1', 'v1'), 0);
  assert.ok(compareKubeVersions('v1', 'v1beta1') < 0);
  assert.ok(compareKubeVersions('v1alpha1', 'v1') > 0);
  // Not kube-like: "v1.0", "V1", "v1gamma1" sort after every kube-like version, among themselves by bytes.
  assert.deepEqual(['v1gamma1', 'v1.0', 'v1alpha1', 'V1'].sort(compareKubeVersions), ['v1alpha1', 'V1', 'v1.0', 'v1gamma1']);
  // Numbers compare numerically, leading zeros included.
  assert.ok(compareKubeVersions('v010', 'v9') < 0);
  // A major too large for int64 makes the string not kube-like (Go's Atoi fails).
  assert.ok(compareKubeVersions('v99999999999999999999', 'v1alpha1') > 0);
});

test('GET /api: APIVersions without apiVersion, serverAddressByClientCIDRs from the advertised address', () => {
  assert.equal(
    goJSON(apiVersions('10.0.0.1:6443')),
    '{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0","serverAddress":"10.0.0.1:6443"}]}',
  );
});

const ctOther = (group: string, version: string): ServedResource =>
  cronTab({ group, version, storageVersionHash: storageVersionHash(group, 'v1', 'CronTab') });

test('GET /apis: groups by APIService priority, versions by kube priority, preferred first', () => {
  const resources = [
    ...allResources(),
    cronTab({ version: 'v1beta1' }),
    cronTab({ version: 'v2alpha1' }),
    // Same group priority (1000): the aggregator orders APIServices by name "<version>.<group>" and
    // places each group at its first one: v1.b.example.com < v1.stable.example.com < v2.a.example.com.
    ctOther('a.example.com', 'v2'),
    ctOther('b.example.com', 'v1'),
  ];
  assert.deepEqual(apiGroupList(resources), {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: [
      {
        name: 'apiextensions.k8s.io',
        versions: [{ groupVersion: 'apiextensions.k8s.io/v1', version: 'v1' }],
        preferredVersion: { groupVersion: 'apiextensions.k8s.io/v1', version: 'v1' },
      },
      {
        name: 'b.example.com',
        versions: [{ groupVersion: 'b.example.com/v1', version: 'v1' }],
        preferredVersion: { groupVersion: 'b.example.com/v1', version: 'v1' },
      },
      {
        name: 'stable.example.com',
        versions: [
          { groupVersion: 'stable.example.com/v1', version: 'v1' },
          { groupVersion: 'stable.example.com/v1beta1', version: 'v1beta1' },
          { groupVersion: 'stable.example.com/v2alpha1', version: 'v2alpha1' },
        ],
        preferredVersion: { groupVersion: 'stable.example.com/v1', version: 'v1' },
      },
      {
        name: 'a.example.com',
        versions: [{ groupVersion: 'a.example.com/v2', version: 'v2' }],
        preferredVersion: { groupVersion: 'a.example.com/v2', version: 'v2' },
      },
    ],
  });
});

test('GET /apis/<group>: APIGroup with kind and apiVersion; unknown and core groups are not found', () => {
  const resources = [cronTab(), cronTab({ version: 'v1beta1' })];
  assert.equal(
    goJSON(apiGroup('stable.example.com', resources)),
    '{"kind":"APIGroup","apiVersion":"v1","name":"stable.example.com","versions":[{"groupVersion":"stable.example.com/v1","version":"v1"},{"groupVersion":"stable.example.com/v1beta1","version":"v1beta1"}],"preferredVersion":{"groupVersion":"stable.example.com/v1","version":"v1"}}',
  );
  assert.equal(apiGroup('nope.example.com', resources), undefined);
  assert.equal(apiGroup('', [namespaces]), undefined);
});

test('GET /apis/stable.example.com/v1: the CronTab APIResourceList, byte for byte', () => {
  assert.equal(
    goJSON(apiResourceList('stable.example.com', 'v1', [cronTab()])),
    '{"kind":"APIResourceList","apiVersion":"v1","groupVersion":"stable.example.com/v1","resources":[' +
      '{"name":"crontabs","singularName":"crontab","namespaced":true,"kind":"CronTab",' +
      '"verbs":["delete","deletecollection","get","list","patch","create","update","watch"],"shortNames":["ct"],"storageVersionHash":"EdX2FP+L0js="}]}',
  );
});

test('APIResourceList lists status then scale after the CRD resource, scale as autoscaling/v1 Scale', () => {
  const ct = cronTab({
    categories: ['all'],
    subresources: { status: true, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas' } },
  });
  assert.deepEqual(apiResourceList('stable.example.com', 'v1', [ct]).resources, [
    {
      name: 'crontabs',
      singularName: 'crontab',
      namespaced: true,
      kind: 'CronTab',
      verbs: CR_VERBS,
      shortNames: ['ct'],
      categories: ['all'],
      storageVersionHash: 'EdX2FP+L0js=',
    },
    { name: 'crontabs/status', singularName: '', namespaced: true, kind: 'CronTab', verbs: ['get', 'patch', 'update'] },
    { name: 'crontabs/scale', singularName: '', namespaced: true, group: 'autoscaling', version: 'v1', kind: 'Scale', verbs: ['get', 'patch', 'update'] },
  ]);
  // Go field order: group and version sit between namespaced and kind.
  assert.equal(
    goJSON(apiResourceList('stable.example.com', 'v1', [ct]).resources[2]),
    '{"name":"crontabs/scale","singularName":"","namespaced":true,"group":"autoscaling","version":"v1","kind":"Scale","verbs":["get","patch","update"]}',
  );
});

test('GET /api/v1 and /apis/apiextensions.k8s.io/v1 for the built-ins', () => {
  assert.equal(
    goJSON(apiResourceList('', 'v1', allResources())),
    '{"kind":"APIResourceList","groupVersion":"v1","resources":[' +
      '{"name":"namespaces","singularName":"namespace","namespaced":false,"kind":"Namespace","verbs":["create","delete","get","list","patch","update","watch"],"shortNames":["ns"],"storageVersionHash":"Q3oi5N2YM8M="},' +
      '{"name":"namespaces/status","singularName":"","namespaced":false,"kind":"Namespace","verbs":["get","patch","update"]}]}',
  );
  // Same document as kube's api/discovery/apis__apiextensions.k8s.io__v1.json fixture.
  assert.deepEqual(apiResourceList('apiextensions.k8s.io', 'v1', allResources()), {
    kind: 'APIResourceList',
    apiVersion: 'v1',
    groupVersion: 'apiextensions.k8s.io/v1',
    resources: [
      {
        name: 'customresourcedefinitions',
        singularName: 'customresourcedefinition',
        namespaced: false,
        kind: 'CustomResourceDefinition',
        verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
        shortNames: ['crd', 'crds'],
        categories: ['api-extensions'],
        storageVersionHash: 'jfWCUB31mvA=',
      },
      { name: 'customresourcedefinitions/status', singularName: '', namespaced: false, kind: 'CustomResourceDefinition', verbs: ['get', 'patch', 'update'] },
    ],
  });
});

const CRONTAB_AGGREGATED_ITEMS =
  '[{"metadata":{"name":"apiextensions.k8s.io","creationTimestamp":null},"versions":[{"version":"v1","resources":[' +
  '{"resource":"customresourcedefinitions","responseKind":{"group":"","version":"","kind":"CustomResourceDefinition"},"scope":"Cluster",' +
  '"singularResource":"customresourcedefinition","verbs":["create","delete","deletecollection","get","list","patch","update","watch"],' +
  '"shortNames":["crd","crds"],"categories":["api-extensions"],"subresources":[{"subresource":"status","responseKind":{"group":"","version":"","kind":"CustomResourceDefinition"},"verbs":["get","patch","update"]}]}' +
  '],"freshness":"Current"}]},' +
  '{"metadata":{"name":"stable.example.com","creationTimestamp":null},"versions":[{"version":"v1","resources":[' +
  '{"resource":"crontabs","responseKind":{"group":"stable.example.com","version":"v1","kind":"CronTab"},"scope":"Namespaced",' +
  '"singularResource":"crontab","verbs":["delete","deletecollection","get","list","patch","create","update","watch"],"shortNames":["ct"]}' +
  '],"freshness":"Current"}]}]';

test('aggregated /apis (v2): groups, responseKinds, scope, byte for byte in Go field order', () => {
  const list = aggregatedDiscovery(allResources(), 'v2', 'apis');
  assert.equal(goJSON(list), `{"kind":"APIGroupDiscoveryList","apiVersion":"apidiscovery.k8s.io/v2","metadata":{},"items":${CRONTAB_AGGREGATED_ITEMS}}`);
  // v2beta1 is the same document under its own apiVersion.
  const beta = aggregatedDiscovery(allResources(), 'v2beta1', 'apis');
  assert.equal(beta.apiVersion, 'apidiscovery.k8s.io/v2beta1');
  assert.deepEqual(beta.items, list.items);
});

test('aggregated ETag is sha512 of the v2 list without kind/apiVersion, upper-case hex', () => {
  const expected = createHash('sha512').update(`{"metadata":{},"items":${CRONTAB_AGGREGATED_ITEMS}}`).digest('hex').toUpperCase();
  assert.equal(aggregatedDiscoveryETag(aggregatedDiscovery(allResources(), 'v2', 'apis')), expected);
  assert.equal(aggregatedDiscoveryETag(aggregatedDiscovery(allResources(), 'v2beta1', 'apis')), expected);
  assert.match(expected, /^[0-9A-F]{128}$/);
});

test('aggregated /api holds only the core group, its metadata without a name', () => {
  assert.deepEqual(aggregatedDiscovery(allResources(), 'v2', 'api'), {
    kind: 'APIGroupDiscoveryList',
    apiVersion: 'apidiscovery.k8s.io/v2',
    metadata: {},
    items: [
      {
        metadata: { creationTimestamp: null },
        versions: [
          {
            version: 'v1',
            resources: [
              {
                resource: 'namespaces',
                responseKind: { group: '', version: '', kind: 'Namespace' },
                scope: 'Cluster',
                singularResource: 'namespace',
                verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
                shortNames: ['ns'],
                subresources: [{ subresource: 'status', responseKind: { group: '', version: '', kind: 'Namespace' }, verbs: ['get', 'patch', 'update'] }],
              },
            ],
            freshness: 'Current',
          },
        ],
      },
    ],
  });
});

test('aggregated CRD resources: status then scale subresources, versions by priority, groups by priority then name', () => {
  const scale = { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' };
  const resources = [
    cronTab({ version: 'v1beta1', subresources: { status: true, scale } }),
    cronTab({ subresources: { status: true, scale } }),
    ctOther('b.example.com', 'v1'),
    ctOther('a.example.com', 'v2'),
    customResourceDefinitions,
  ];
  const list = aggregatedDiscovery(resources, 'v2', 'apis');
  assert.deepEqual(
    list.items.map((g) => [g.metadata.name, g.versions?.map((v) => v.version)]),
    [
      ['apiextensions.k8s.io', ['v1']],
      ['a.example.com', ['v2']],
      ['b.example.com', ['v1']],
      ['stable.example.com', ['v1', 'v1beta1']],
    ],
  );
  assert.deepEqual(list.items[3]!.versions![1]!.resources![0]!.subresources, [
    { subresource: 'status', responseKind: { group: 'stable.example.com', version: 'v1beta1', kind: 'CronTab' }, verbs: ['get', 'patch', 'update'] },
    { subresource: 'scale', responseKind: { group: 'autoscaling', version: 'v1', kind: 'Scale' }, verbs: ['get', 'patch', 'update'] },
  ]);
});

// What client-go sends (discovery_client.go acceptDiscoveryFormats).
const KUBECTL_127 = 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';
const KUBECTL_133 =
  'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json';

test('pickDiscoveryFormat negotiates as kube-apiserver 1.33 does', () => {
  assert.equal(pickDiscoveryFormat(KUBECTL_127), 'v2beta1');
  assert.equal(pickDiscoveryFormat(KUBECTL_133), 'v2');
  assert.equal(pickDiscoveryFormat(undefined), 'legacy');
  assert.equal(pickDiscoveryFormat(''), 'legacy');
  assert.equal(pickDiscoveryFormat('application/json'), 'legacy');
  assert.equal(pickDiscoveryFormat('*/*'), 'legacy');
  assert.equal(pickDiscoveryFormat('application/json, */*'), 'legacy');
  // Parameter order does not matter; spaces around parameters are trimmed.
  assert.equal(pickDiscoveryFormat('application/json; as=APIGroupDiscoveryList; v=v2; g=apidiscovery.k8s.io'), 'v2');
  // Higher q first; an aggregated clause anywhere wins over plain JSON (the wrapper checks it first).
  assert.equal(pickDiscoveryFormat('application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList;q=0.5,application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList'), 'v2');
  assert.equal(pickDiscoveryFormat('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList;q=0.5,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList'), 'v2beta1');
  assert.equal(pickDiscoveryFormat('application/json;q=0.9,application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList;q=0.1'), 'v2');
  // Unknown aggregated versions and other transforms are not acceptable, and not legacy either.
  assert.equal(pickDiscoveryFormat('application/json;g=apidiscovery.k8s.io;v=v3;as=APIGroupDiscoveryList'), null);
  assert.equal(pickDiscoveryFormat('application/json;as=Table;v=v1;g=meta.k8s.io'), null);
  assert.equal(pickDiscoveryFormat('application/json;as=Table;v=v1;g=meta.k8s.io, application/json'), 'legacy');
  // A stream other than watch, or a server version, rules a clause out.
  assert.equal(pickDiscoveryFormat('application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList;stream=x,application/json'), 'legacy');
  assert.equal(pickDiscoveryFormat('application/json;sv=v1'), null);
  // Only JSON is served.
  assert.equal(pickDiscoveryFormat('application/vnd.kubernetes.protobuf'), null);
  assert.equal(pickDiscoveryFormat('application/vnd.kubernetes.protobuf;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json'), 'legacy');
});

test('parseAcceptClauses orders clauses as goautoneg does', () => {
  // goautoneg's comparison puts a concrete subtype ahead of a wildcard whatever the q values, and
  // Go's insertion sort applies it pairwise: application/json;q=0.8 ends up before text/*.
  const clauses = parseAcceptClauses('*/*, text/*;q=1, application/json;q=0.8, application/yaml');
  assert.deepEqual(
    clauses.map((c) => `${c.type}/${c.subType};q=${c.q}`),
    ['application/yaml;q=1', 'application/json;q=0.800000011920929', 'text/*;q=1', '*/*;q=1'],
  );
  // Among equals the client's order stands.
  assert.deepEqual(
    parseAcceptClauses('application/yaml, application/json').map((c) => c.subType),
    ['yaml', 'json'],
  );
  // Malformed q values count as 0 (and so sort after q=1); ranges without a subtype are dropped.
  assert.deepEqual(
    parseAcceptClauses('application/json;q=x, text, */*').map((c) => [c.type, c.q]),
    [
      ['*', 1],
      ['application', 0],
    ],
  );
});

test('discovery content types: exact strings client-go compares against', () => {
  assert.equal(discoveryContentType('legacy'), 'application/json');
  assert.equal(discoveryContentType('v2'), 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList');
  assert.equal(discoveryContentType('v2beta1'), 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList');
});

test('serveRootDiscovery: aggregated answers carry ETag, Vary and Cache-Control and honour If-None-Match', () => {
  const resources = allResources();
  const first = serveRootDiscovery({ path: '/apis', resources, accept: KUBECTL_133, serverAddress: '127.0.0.1:6443' });
  const etag = `"${aggregatedDiscoveryETag(aggregatedDiscovery(resources, 'v2', 'apis'))}"`;
  assert.equal(first.status, 200);
  assert.deepEqual(first.headers, {
    ETag: etag,
    Vary: 'Accept',
    'Cache-Control': 'public',
    'Content-Type': 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList',
  });
  assert.equal(first.body, goJSON(aggregatedDiscovery(resources, 'v2', 'apis')));

  const again = serveRootDiscovery({ path: '/apis', resources, accept: KUBECTL_133, ifNoneMatch: etag, serverAddress: '127.0.0.1:6443' });
  assert.deepEqual(again, { status: 304, headers: { ETag: etag, Vary: 'Accept', 'Cache-Control': 'public' } });

  const legacy = serveRootDiscovery({ path: '/api', resources, accept: 'application/json', serverAddress: '127.0.0.1:6443' });
  assert.deepEqual(legacy, {
    status: 200,
    headers: { 'Content-Type': 'application/json' },
    body: '{"kind":"APIVersions","versions":["v1"],"serverAddressByClientCIDRs":[{"clientCIDR":"0.0.0.0/0","serverAddress":"127.0.0.1:6443"}]}',
  });
  const core = serveRootDiscovery({ path: '/api', resources, accept: KUBECTL_127, serverAddress: '127.0.0.1:6443' });
  assert.equal(core.headers['Content-Type'], 'application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList');
  assert.equal((JSON.parse(core.body!) as { items: unknown[] }).items.length, 1);

  assert.equal(serveRootDiscovery({ path: '/apis', resources, accept: 'text/html', serverAddress: 'x' }).status, 406);
});

test('goJSON escapes like Go encoding/json', () => {
  assert.equal(goJSON({ s: '<a&b>\u2028' }), '{"s":"\\u003ca\\u0026b\\u003e\\u2028"}');
});

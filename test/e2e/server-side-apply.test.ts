// Server-side apply through kubectl 1.32, with what kube-apiserver 1.33 answers and kubectl prints: applies, conflicts
// and forcing, managedFields shown and hidden, diff, the client-side → server-side → client-side round trip (kubectl's
// csaupgrade migration and the server's last-applied updater), built-in kinds, the corpus CRDs, and the walkthrough
// of the Kubernetes documentation page "Server-Side Apply" on custom resources.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { requireKubectl, startTestServer, type TestServer } from './harness.js';
import { CORPUS } from '../shared-paths.js';

const crontabCrd = readFileSync(new URL('../fixtures/crontab-crd.yaml', import.meta.url), 'utf8');

/** A Widget has every list and map type the documentation's merge strategy talks about, and a defaulted field. */
const widgetCrd = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.ssa.example.com
spec:
  group: ssa.example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer}
              mode: {type: string, default: auto}
              ports:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name]
                items:
                  type: object
                  required: [name]
                  properties:
                    name: {type: string}
                    port: {type: integer}
              tags:
                type: array
                x-kubernetes-list-type: set
                items: {type: string}
              args:
                type: array
                items: {type: string}
              selector:
                type: object
                x-kubernetes-map-type: atomic
                additionalProperties: {type: string}
          status:
            type: object
            properties:
              ready: {type: boolean}
    subresources: {status: {}}
`;

/** What kubectl apply --server-side adds to a 409 from the server (k8s.io/kubectl pkg/cmd/apply). */
const CONFLICT_ADVICE = `Please review the fields above--they currently have other managers. Here
are the ways you can resolve this warning:
* If you intend to manage all of these fields, please re-run the apply
  command with the \`--force-conflicts\` flag.
* If you do not intend to manage all of the fields, please edit your
  manifest to remove references to the fields that should keep their
  current managers.
* You may co-own fields by updating your manifest to match the existing
  value; in this case, you'll become the manager if the other manager(s)
  stop managing the field (remove it from their configuration).
See https://kubernetes.io/docs/reference/using-api/server-side-apply/#conflicts
`;
const conflictError = (message: string): string => `error: ${message}\n${CONFLICT_ADVICE}`;

const cronTab = (name: string, spec: string, meta = ''): string =>
  `apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata:\n  name: ${name}\n${meta}spec:\n${spec}`;
const widget = (name: string, spec: string): string => `apiVersion: ssa.example.com/v1\nkind: Widget\nmetadata:\n  name: ${name}\nspec:\n${spec}`;

let s: TestServer;

async function ok(args: string[], stdin?: string): Promise<string> {
  const r = await s.kubectl(args, stdin === undefined ? {} : { stdin });
  assert.equal(r.stderr, '', `kubectl ${args.join(' ')}`);
  assert.equal(r.code, 0);
  return r.stdout;
}

/** `kubectl apply --server-side` of a manifest on stdin, with more flags. */
const ssa = (manifest: string, ...flags: string[]) => s.kubectl(['apply', '--server-side', ...flags, '-f', '-'], { stdin: manifest });

async function getObject(resource: string, name: string, showManaged = true): Promise<any> {
  const out = await ok(['get', resource, name, '-o', 'yaml', ...(showManaged ? ['--show-managed-fields'] : [])]);
  return parseYaml(out);
}

/**
 * managedFields without times, which the tests cannot know: manager, operation, fieldsV1 (and subresource),
 * ordered by operation and manager (kube orders them by operation, then time to the second, then manager).
 */
async function managers(resource: string, name: string): Promise<unknown[]> {
  const obj = await getObject(resource, name);
  const entries = (obj.metadata.managedFields ?? []).map((e: any) => {
    assert.equal(e.fieldsType, 'FieldsV1');
    const { time: _time, fieldsType: _type, apiVersion: _v, ...rest } = e;
    return rest;
  });
  const key = (e: any): string => `${e.operation} ${e.manager}`;
  return entries.sort((a: any, b: any) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

before(async () => {
  requireKubectl();
  s = await startTestServer();
  for (const crd of [crontabCrd, widgetCrd]) await ok(['apply', '-f', '-'], crd);
  await ok(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/crontabs.stable.example.com', 'crd/widgets.ssa.example.com']);
});
after(async () => {
  await s?.close();
});

describe('kubectl apply --server-side of a custom resource', () => {
  test('create, change, remove a field, another field manager, conflicts, forcing, server dry run', async () => {
    let r = await ssa(cronTab('ssa', '  cronSpec: "* * * * */5"\n  image: img\n  replicas: 1\n'));
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, 'crontab.stable.example.com/ssa serverside-applied\n');

    r = await ssa(cronTab('ssa', '  cronSpec: "* * * * */5"\n  image: img\n  replicas: 2\n'));
    assert.equal(r.stdout, 'crontab.stable.example.com/ssa serverside-applied\n');
    assert.equal((await getObject('crontab', 'ssa')).spec.replicas, 2);

    // A field no longer in the manifest, that nobody else owns, is removed.
    r = await ssa(cronTab('ssa', '  cronSpec: "* * * * */5"\n  replicas: 2\n'));
    assert.equal(r.stdout, 'crontab.stable.example.com/ssa serverside-applied\n');
    let obj = await getObject('crontab', 'ssa');
    assert.deepEqual(obj.spec, { cronSpec: '* * * * */5', replicas: 2 });
    assert.deepEqual(await managers('crontab', 'ssa'), [
      { fieldsV1: { 'f:spec': { 'f:cronSpec': {}, 'f:replicas': {} } }, manager: 'kubectl', operation: 'Apply' },
    ]);

    // Another manager changing a field kubectl owns conflicts; kubectl adds its advice.
    r = await ssa(cronTab('ssa', '  replicas: 3\n'), '--field-manager=other');
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, conflictError('Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas'));
    r = await ssa(cronTab('ssa', '  cronSpec: "0 * * * *"\n  image: other\n  replicas: 3\n'), '--field-manager=other');
    assert.equal(
      r.stderr,
      conflictError('Apply failed with 2 conflicts: conflicts with "kubectl":\n- .spec.cronSpec\n- .spec.replicas'),
    );

    // The same value is no conflict: both own the field.
    r = await ssa(cronTab('ssa', '  replicas: 2\n'), '--field-manager=other');
    assert.equal(r.stdout, 'crontab.stable.example.com/ssa serverside-applied\n');

    // Forcing takes the field over: kubectl no longer owns it.
    r = await ssa(cronTab('ssa', '  replicas: 3\n'), '--field-manager=other', '--force-conflicts');
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, 'crontab.stable.example.com/ssa serverside-applied\n');
    obj = await getObject('crontab', 'ssa');
    assert.deepEqual(obj.spec, { cronSpec: '* * * * */5', replicas: 3 });
    assert.deepEqual(await managers('crontab', 'ssa'), [
      { fieldsV1: { 'f:spec': { 'f:cronSpec': {} } }, manager: 'kubectl', operation: 'Apply' },
      { fieldsV1: { 'f:spec': { 'f:replicas': {} } }, manager: 'other', operation: 'Apply' },
    ]);
    // kubectl re-applying replicas: 2 now conflicts with "other".
    r = await ssa(cronTab('ssa', '  cronSpec: "* * * * */5"\n  replicas: 2\n'));
    assert.equal(r.stderr, conflictError('Apply failed with 1 conflict: conflict with "other": .spec.replicas'));

    // Server dry run: the conflict is reported, forcing succeeds, and nothing is stored.
    const before = await getObject('crontab', 'ssa');
    r = await ssa(cronTab('ssa', '  cronSpec: "* * * * */6"\n  replicas: 9\n'), '--dry-run=server');
    assert.equal(r.stderr, conflictError('Apply failed with 1 conflict: conflict with "other": .spec.replicas'));
    r = await ssa(cronTab('ssa', '  cronSpec: "* * * * */6"\n  replicas: 9\n'), '--dry-run=server', '--force-conflicts');
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, 'crontab.stable.example.com/ssa serverside-applied (server dry run)\n');
    r = await ssa(cronTab('dry', '  image: x\n'), '--dry-run=server');
    assert.equal(r.stdout, 'crontab.stable.example.com/dry serverside-applied (server dry run)\n');
    assert.deepEqual(await getObject('crontab', 'ssa'), before);
    r = await s.kubectl(['get', 'crontab', 'dry']);
    assert.equal(r.stderr, 'Error from server (NotFound): crontabs.stable.example.com "dry" not found\n');
  });

  test('a value of the wrong type or an undeclared field: the messages of smd, as kube words them', async () => {
    // kube answers these with a 500 and no reason (a plain Go error, kubernetes/kubernetes#139253); this server
    // answers 400 BadRequest on purpose, as they are the client's mistake. The messages are kube's.
    // (One wrong field at a time: smd walks a decoded map in Go's random order, so kube lists several in any order.)
    const typedPatchError = (kind: string, message: string): string =>
      `Error from server (BadRequest): failed to create typed patch object (default/typed; ${kind}): ${message}\n`;
    let r = await ssa(cronTab('typed', '  image: 1\n'));
    assert.equal(r.code, 1);
    assert.equal(r.stderr, typedPatchError('stable.example.com/v1, Kind=CronTab', '.spec.image: expected string, got &value.valueUnstructured{Value:1}'));
    r = await ssa(cronTab('typed', '  replicas: "2"\n'));
    assert.equal(r.stderr, typedPatchError('stable.example.com/v1, Kind=CronTab', '.spec.replicas: expected numeric (int or float), got string'));
    r = await ssa(widget('typed', '  ports: {a: 1}\n'));
    assert.equal(r.stderr, typedPatchError('ssa.example.com/v1, Kind=Widget', '.spec.ports: expected list, got &{map[a:1]}'));
    r = await ssa(widget('typed', '  selector: [a]\n'));
    assert.equal(r.stderr, typedPatchError('ssa.example.com/v1, Kind=Widget', '.spec.selector: expected map, got &{[a]}'));
    r = await ssa(cronTab('typed', '  bogus: 1\n'));
    assert.equal(r.stderr, typedPatchError('stable.example.com/v1, Kind=CronTab', '.spec.bogus: field not declared in schema'));
  });

  test('a stale resourceVersion in the manifest is a conflict, to which kubectl adds its advice all the same', async () => {
    await ok(['apply', '--server-side', '-f', '-'], cronTab('stale', '  image: a\n'));
    const r = await ssa(cronTab('stale', '  image: b\n', '  resourceVersion: "1"\n'));
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      conflictError('Operation cannot be fulfilled on crontabs.stable.example.com "stale": the object has been modified; please apply your changes to the latest version and try again'),
    );
  });

  test('at most 10 update managers: the oldest are merged into ancient-changes', async () => {
    await ok(['apply', '--server-side', '-f', '-'], cronTab('capped', '  image: a\n'));
    for (let i = 0; i <= 10; i++) {
      await ok(['label', 'crontab', 'capped', `l${i}=v`, `--field-manager=m${i}`]);
    }
    const m = (await managers('crontab', 'capped')) as any[];
    assert.deepEqual(
      m.map((e) => e.manager),
      ['kubectl', 'ancient-changes', 'm10', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', 'm8', 'm9'],
    );
    assert.deepEqual(m[1], { fieldsV1: { 'f:metadata': { 'f:labels': { '.': {}, 'f:l0': {}, 'f:l1': {} } } }, manager: 'ancient-changes', operation: 'Update' });
  });

  test('-o yaml hides managedFields, --show-managed-fields shows them', async () => {
    await ok(['apply', '--server-side', '--field-manager=shower', '-f', '-'], cronTab('shown', '  image: img\n', '  labels:\n    app: a\n'));
    const hidden = await getObject('crontab', 'shown', false);
    assert.equal(hidden.metadata.managedFields, undefined);
    assert.deepEqual(Object.keys(hidden.metadata).sort(), ['creationTimestamp', 'generation', 'labels', 'name', 'namespace', 'resourceVersion', 'uid']);
    const shown = await getObject('crontab', 'shown');
    assert.equal(shown.metadata.managedFields.length, 1);
    const [entry] = shown.metadata.managedFields;
    assert.match(entry.time, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    assert.deepEqual(entry, {
      apiVersion: 'stable.example.com/v1',
      fieldsType: 'FieldsV1',
      fieldsV1: { 'f:metadata': { 'f:labels': { 'f:app': {} } }, 'f:spec': { 'f:image': {} } },
      manager: 'shower',
      operation: 'Apply',
      time: entry.time,
    });
    // JSON too.
    const json = JSON.parse(await ok(['get', 'crontab', 'shown', '-o', 'json']));
    assert.equal(json.metadata.managedFields, undefined);
    const jsonShown = JSON.parse(await ok(['get', 'crontab', 'shown', '-o', 'json', '--show-managed-fields']));
    assert.deepEqual(jsonShown.metadata.managedFields, shown.metadata.managedFields);
  });

  test('kubectl diff --server-side: exit 1 and the diff when changed, exit 0 when not', async () => {
    await ok(['apply', '--server-side', '-f', '-'], cronTab('diffed', '  cronSpec: "* * * * */5"\n  image: img\n'));
    let r = await s.kubectl(['diff', '--server-side', '-f', '-'], { stdin: cronTab('diffed', '  cronSpec: "* * * * */7"\n  image: img\n') });
    assert.equal(r.stderr, '');
    assert.equal(r.code, 1);
    const changes = r.stdout.split('\n').filter((l) => /^[-+](?![-+]{2} )/.test(l));
    assert.deepEqual(changes, ['-  generation: 1', '+  generation: 2', "-  cronSpec: '* * * * */5'", "+  cronSpec: '* * * * */7'"]);
    assert.match(r.stdout, /^diff -u -N \S+\/LIVE-\d+\/stable\.example\.com\.v1\.CronTab\.default\.diffed \S+\/MERGED-\d+\/stable\.example\.com\.v1\.CronTab\.default\.diffed\n/);

    // Removing a field shows it going.
    r = await s.kubectl(['diff', '--server-side', '-f', '-'], { stdin: cronTab('diffed', '  cronSpec: "* * * * */5"\n') });
    assert.equal(r.code, 1);
    assert.deepEqual(
      r.stdout.split('\n').filter((l) => /^[-+](?![-+]{2} )/.test(l)),
      ['-  generation: 1', '+  generation: 2', '-  image: img'],
    );

    r = await s.kubectl(['diff', '--server-side', '-f', '-'], { stdin: cronTab('diffed', '  cronSpec: "* * * * */5"\n  image: img\n') });
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, '');
    assert.equal(r.code, 0);

    // A conflict is an error: exit 2 (kubectl diff's errors are exit > 1).
    r = await s.kubectl(['diff', '--server-side', '--field-manager=intruder', '-f', '-'], { stdin: cronTab('diffed', '  image: other\n') });
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    // kubectl retries a diff on any 409, the last time warning that it diffs "without lock".
    assert.match(
      r.stderr,
      /^W\d{4} [\d:.]+ +\d+ diff\.go:\d+\] Object \(stable\.example\.com\/v1, Kind=CronTab: diffed\) keeps changing, diffing without lock\nError from server \(Conflict\): Apply failed with 1 conflict: conflict with "kubectl": \.spec\.image\n$/,
    );
    // Nothing was written by any of them.
    assert.equal((await getObject('crontab', 'diffed')).metadata.generation, 1);
  });
});

describe('client-side apply, then server-side, then client-side again', () => {
  test('kubectl migrates ownership, the server keeps last-applied in step, and client-side apply removes what kube removes', async () => {
    // 1. Client-side apply: the annotation, and manager kubectl-client-side-apply (an Update).
    let r = await s.kubectl(['apply', '-f', '-'], { stdin: cronTab('csa', '  cronSpec: "* * * * */5"\n  image: img\n  replicas: 1\n') });
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, 'crontab.stable.example.com/csa created\n');
    let obj = await getObject('crontab', 'csa');
    assert.equal(
      obj.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'],
      '{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"annotations":{},"name":"csa","namespace":"default"},"spec":{"cronSpec":"* * * * */5","image":"img","replicas":1}}\n',
    );
    assert.deepEqual(await managers('crontab', 'csa'), [
      {
        fieldsV1: {
          'f:metadata': { 'f:annotations': { '.': {}, 'f:kubectl.kubernetes.io/last-applied-configuration': {} } },
          'f:spec': { '.': {}, 'f:cronSpec': {}, 'f:image': {}, 'f:replicas': {} },
        },
        manager: 'kubectl-client-side-apply',
        operation: 'Update',
      },
    ]);

    // 2. Server-side apply changing cronSpec (a field the last client-side apply set: no conflict for manager
    // "kubectl", lastAppliedManager) and dropping replicas. kubectl then saves the annotation under
    // kubectl-last-applied, moves kubectl-client-side-apply's fields to its own Apply entry (csaupgrade) and
    // applies again, which removes replicas. The server rewrote the annotation to the applied configuration.
    r = await s.kubectl(['apply', '--server-side', '-f', '-'], { stdin: cronTab('csa', '  cronSpec: "* * * * */6"\n  image: img\n') });
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, 'crontab.stable.example.com/csa serverside-applied\n');
    obj = await getObject('crontab', 'csa');
    assert.deepEqual(obj.spec, { cronSpec: '* * * * */6', image: 'img' });
    assert.equal(
      obj.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'],
      '{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"name":"csa","namespace":"default"},"spec":{"cronSpec":"* * * * */6","image":"img"}}\n',
    );
    // kubectl-last-applied's apply changed nothing, so kube gives its entry no time (and sorts it first).
    assert.deepEqual(
      obj.metadata.managedFields.map((e: any) => [e.manager, typeof e.time]),
      [
        ['kubectl-last-applied', 'undefined'],
        ['kubectl', 'string'],
      ],
    );
    assert.deepEqual(await managers('crontab', 'csa'), [
      { fieldsV1: { 'f:spec': { 'f:cronSpec': {}, 'f:image': {} } }, manager: 'kubectl', operation: 'Apply' },
      {
        fieldsV1: { 'f:metadata': { 'f:annotations': { 'f:kubectl.kubernetes.io/last-applied-configuration': {} } } },
        manager: 'kubectl-last-applied',
        operation: 'Apply',
      },
    ]);

    // Someone else sets replicas. Client-side apply computes its patch from the annotation: as the server kept it in
    // step (no replicas in it), replicas is left alone, and image, dropped from the manifest, is removed.
    await ok(['patch', 'crontab', 'csa', '--type=merge', '-p', '{"spec":{"replicas":7}}']);
    r = await s.kubectl(['apply', '-f', '-'], { stdin: cronTab('csa', '  cronSpec: "* * * * */6"\n') });
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, 'crontab.stable.example.com/csa configured\n');
    obj = await getObject('crontab', 'csa');
    assert.deepEqual(obj.spec, { cronSpec: '* * * * */6', replicas: 7 });
    assert.equal(
      obj.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'],
      '{"apiVersion":"stable.example.com/v1","kind":"CronTab","metadata":{"annotations":{},"name":"csa","namespace":"default"},"spec":{"cronSpec":"* * * * */6"}}\n',
    );
    // The update took the annotation from kubectl-last-applied (whose entry goes) and image from kubectl.
    assert.deepEqual(await managers('crontab', 'csa'), [
      { fieldsV1: { 'f:spec': { 'f:cronSpec': {} } }, manager: 'kubectl', operation: 'Apply' },
      {
        fieldsV1: { 'f:metadata': { 'f:annotations': { 'f:kubectl.kubernetes.io/last-applied-configuration': {} } } },
        manager: 'kubectl-client-side-apply',
        operation: 'Update',
      },
      { fieldsV1: { 'f:spec': { 'f:replicas': {} } }, manager: 'kubectl-patch', operation: 'Update' },
    ]);
    r = await s.kubectl(['apply', 'view-last-applied', 'crontab', 'csa', '-o', 'json']);
    assert.deepEqual(JSON.parse(r.stdout), {
      apiVersion: 'stable.example.com/v1',
      kind: 'CronTab',
      metadata: { annotations: {}, name: 'csa', namespace: 'default' },
      spec: { cronSpec: '* * * * */6' },
    });
  });

  test('kubectl migrates client-side ownership to any --field-manager, which then drops what its manifest lacks', async () => {
    // kubectl's migrateToSSAIfNecessary runs whatever the field manager: "tool" takes over kubectl-client-side-apply's
    // fields (the annotation and image), and kubectl's second apply removes them, as on kube.
    await ok(['apply', '-f', '-'], cronTab('csa-other', '  image: img\n'));
    await ok(['apply', '--server-side', '--field-manager=tool', '-f', '-'], cronTab('csa-other', '  replicas: 2\n'));
    const obj = await getObject('crontab', 'csa-other');
    assert.equal(obj.metadata.annotations, undefined);
    assert.deepEqual(obj.spec, { replicas: 2 });
    assert.deepEqual(await managers('crontab', 'csa-other'), [
      { fieldsV1: { 'f:spec': { 'f:replicas': {} } }, manager: 'tool', operation: 'Apply' },
    ]);
  });
});

describe('the status subresource', () => {
  test('apply --subresource=status records its manager for status; status in a main-resource apply is dropped', async () => {
    await ok(['apply', '--server-side', '-f', '-'], `${widget('w-status', '  replicas: 1\n')}status:\n  ready: true\n`);
    let obj = await getObject('widget', 'w-status');
    assert.equal(obj.status, undefined);
    let r = await s.kubectl(['apply', '--server-side', '--subresource=status', '--field-manager=ctl', '-f', '-'], {
      stdin: 'apiVersion: ssa.example.com/v1\nkind: Widget\nmetadata:\n  name: w-status\nstatus:\n  ready: true\n',
    });
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, 'widget.ssa.example.com/w-status serverside-applied\n');
    obj = await getObject('widget', 'w-status');
    assert.deepEqual(obj.status, { ready: true });
    assert.deepEqual(await managers('widget', 'w-status'), [
      { fieldsV1: { 'f:status': { 'f:ready': {} } }, manager: 'ctl', operation: 'Apply', subresource: 'status' },
      { fieldsV1: { 'f:spec': { 'f:replicas': {} } }, manager: 'kubectl', operation: 'Apply' },
    ]);
    // Another status manager conflicts with ctl, naming the subresource.
    r = await s.kubectl(['apply', '--server-side', '--subresource=status', '--field-manager=other', '-f', '-'], {
      stdin: 'apiVersion: ssa.example.com/v1\nkind: Widget\nmetadata:\n  name: w-status\nstatus:\n  ready: false\n',
    });
    assert.equal(r.stderr, conflictError('Apply failed with 1 conflict: conflict with "ctl" with subresource "status": .status.ready'));
    // An update through /status is recorded too.
    await ok(['patch', 'widget', 'w-status', '--subresource=status', '--type=merge', '--field-manager=patcher', '-p', '{"status":{"ready":false}}']);
    assert.deepEqual(await managers('widget', 'w-status'), [
      { fieldsV1: { 'f:spec': { 'f:replicas': {} } }, manager: 'kubectl', operation: 'Apply' },
      { fieldsV1: { 'f:status': { 'f:ready': {} } }, manager: 'patcher', operation: 'Update', subresource: 'status' },
    ]);
  });

  test('a Namespace status apply records its manager, and keeps the metadata it sets', async () => {
    // Namespaces' status strategy resets spec only: metadata written through /status is kept (and owned).
    await ok(['create', 'namespace', 'ns-status']);
    const r = await s.kubectl(['apply', '--server-side', '--subresource=status', '--field-manager=ctl', '-f', '-'], {
      stdin: 'apiVersion: v1\nkind: Namespace\nmetadata:\n  name: ns-status\n  labels:\n    checked: "yes"\nstatus:\n  conditions:\n  - type: Custom\n    status: "True"\n',
    });
    assert.equal(r.stderr, '');
    const obj = await getObject('namespace', 'ns-status');
    assert.deepEqual(obj.metadata.labels, { checked: 'yes', 'kubernetes.io/metadata.name': 'ns-status' });
    // A metav1.Time is a struct, which omitempty never leaves out: kube writes the unset time as null.
    assert.deepEqual(obj.status.conditions, [{ type: 'Custom', status: 'True', lastTransitionTime: null }]);
    const m = (await managers('namespace', 'ns-status')) as any[];
    assert.deepEqual(m.find((e) => e.manager === 'ctl'), {
      fieldsV1: {
        'f:metadata': { 'f:labels': { 'f:checked': {} } },
        'f:status': { 'f:conditions': { 'k:{"type":"Custom"}': { '.': {}, 'f:status': {}, 'f:type': {} } } },
      },
      manager: 'ctl',
      operation: 'Apply',
      subresource: 'status',
    });
  });
});

describe('a stored object its CRD schema no longer describes', () => {
  test('apply fails as kube fails it: 500 with no reason, "failed to create typed live object"', async () => {
    const morph = (type: string): string => `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: morphs.ssa.example.com
spec:
  group: ssa.example.com
  scope: Namespaced
  names: {plural: morphs, singular: morph, kind: Morph}
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              x: {type: ${type}}
`;
    const cr = (x: string): string => `apiVersion: ssa.example.com/v1\nkind: Morph\nmetadata:\n  name: m\nspec:\n  x: ${x}\n`;
    await ok(['apply', '--server-side', '-f', '-'], morph('string'));
    await ok(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/morphs.ssa.example.com']);
    await ok(['apply', '--server-side', '-f', '-'], cr('a'));
    await ok(['apply', '--server-side', '-f', '-'], morph('integer'));
    // Until the new schema is served the patch itself is refused; then the stored value is what does not fit.
    let r = await ssa(cr('1'));
    for (let i = 0; i < 100 && r.stderr.includes('typed patch object'); i++) {
      await new Promise((res) => setTimeout(res, 50));
      r = await ssa(cr('1'));
    }
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      'Error from server: failed to create typed live object (default/m; ssa.example.com/v1, Kind=Morph): .spec.x: expected numeric (int or float), got string\n',
    );
  });
});

describe('built-in kinds', () => {
  test('a Namespace with labels', async () => {
    const ns = (team: string): string => `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n  labels:\n    team: ${team}\n`;
    let r = await ssa(ns('a'));
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, 'namespace/team-a serverside-applied\n');
    r = await ssa(ns('b'));
    assert.equal(r.stdout, 'namespace/team-a serverside-applied\n');
    const obj = await getObject('namespace', 'team-a');
    assert.deepEqual(obj.metadata.labels, { 'kubernetes.io/metadata.name': 'team-a', team: 'b' });
    assert.deepEqual(await managers('namespace', 'team-a'), [
      { fieldsV1: { 'f:metadata': { 'f:labels': { 'f:team': {} } } }, manager: 'kubectl', operation: 'Apply' },
    ]);
    r = await ssa(ns('c'), '--field-manager=other');
    assert.equal(r.stderr, conflictError('Apply failed with 1 conflict: conflict with "kubectl": .metadata.labels.team'));
    // Dropping the label removes it; the label the server sets stays.
    r = await ssa('apiVersion: v1\nkind: Namespace\nmetadata:\n  name: team-a\n');
    assert.equal(r.stdout, 'namespace/team-a serverside-applied\n');
    assert.deepEqual((await getObject('namespace', 'team-a')).metadata.labels, { 'kubernetes.io/metadata.name': 'team-a' });
  });

  test('a Namespace applied client-side, then server-side: ownership migrated, the annotation kept in step; a label changed by kubectl label conflicts', async () => {
    const ns = (labels: string): string => `apiVersion: v1\nkind: Namespace\nmetadata:\n  name: csa-ns\n  labels:\n${labels}`;
    await ok(['apply', '-f', '-'], ns('    a: "1"\n    b: "2"\n'));
    let r = await ssa(ns('    a: "1"\n'));
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, 'namespace/csa-ns serverside-applied\n');
    const obj = await getObject('namespace', 'csa-ns');
    assert.deepEqual(obj.metadata.labels, { a: '1', 'kubernetes.io/metadata.name': 'csa-ns' });
    assert.equal(
      obj.metadata.annotations['kubectl.kubernetes.io/last-applied-configuration'],
      '{"apiVersion":"v1","kind":"Namespace","metadata":{"labels":{"a":"1"},"name":"csa-ns"}}\n',
    );
    assert.deepEqual(await managers('namespace', 'csa-ns'), [
      { fieldsV1: { 'f:metadata': { 'f:labels': { 'f:a': {} } } }, manager: 'kubectl', operation: 'Apply' },
      {
        fieldsV1: { 'f:metadata': { 'f:annotations': { 'f:kubectl.kubernetes.io/last-applied-configuration': {} } } },
        manager: 'kubectl-last-applied',
        operation: 'Apply',
      },
    ]);
    await ok(['label', 'namespace', 'csa-ns', 'a=9', '--overwrite']);
    r = await ssa(ns('    a: "1"\n'));
    assert.equal(r.stderr, conflictError('Apply failed with 1 conflict: conflict with "kubectl-label" using v1: .metadata.labels.a'));
  });

  test('a CustomResourceDefinition', async () => {
    const crd = widgetCrd.replaceAll('widget', 'gadget').replaceAll('Widget', 'Gadget');
    let r = await ssa(crd);
    assert.equal(r.stderr, '');
    assert.equal(r.stdout, 'customresourcedefinition.apiextensions.k8s.io/gadgets.ssa.example.com serverside-applied\n');
    await ok(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/gadgets.ssa.example.com']);
    const m = await managers('crd', 'gadgets.ssa.example.com');
    assert.deepEqual(
      m.map((e: any) => [e.manager, e.operation, e.subresource]),
      [
        ['kubectl', 'Apply', undefined],
        ['kube-apiserver', 'Update', 'status'],
      ],
    );
    assert.deepEqual((m[0] as any).fieldsV1, {
      'f:spec': {
        'f:group': {},
        'f:names': { 'f:kind': {}, 'f:plural': {}, 'f:singular': {} },
        'f:scope': {},
        'f:versions': {},
      },
    });
    // Re-applied with a short name added.
    r = await ssa(crd.replace('kind: Gadget}', 'kind: Gadget, shortNames: [gd]}'));
    assert.equal(r.stdout, 'customresourcedefinition.apiextensions.k8s.io/gadgets.ssa.example.com serverside-applied\n');
    const obj = await getObject('crd', 'gadgets.ssa.example.com');
    assert.deepEqual(obj.spec.names.shortNames, ['gd']);
    // And a custom resource of it.
    r = await ssa('apiVersion: ssa.example.com/v1\nkind: Gadget\nmetadata:\n  name: g\nspec:\n  replicas: 1\n');
    assert.equal(r.stdout, 'gadget.ssa.example.com/g serverside-applied\n');
  });
});

describe('the Kubernetes documentation page "Server-Side Apply", on custom resources', () => {
  test('conflicts: a field changed by an update is owned by its manager, and applying another value conflicts', async () => {
    await ok(['apply', '--server-side', '-f', '-'], widget('w-update', '  replicas: 1\n'));
    await ok(['patch', 'widget', 'w-update', '--type=merge', '--field-manager=scaler', '-p', '{"spec":{"replicas":2}}']);
    let r = await ssa(widget('w-update', '  replicas: 1\n'));
    assert.equal(r.stderr, conflictError('Apply failed with 1 conflict: conflict with "scaler" using ssa.example.com/v1: .spec.replicas'));
    // Overwrite: force.
    r = await ssa(widget('w-update', '  replicas: 1\n'), '--force-conflicts');
    assert.equal(r.stdout, 'widget.ssa.example.com/w-update serverside-applied\n');
    assert.deepEqual(await managers('widget', 'w-update'), [
      { fieldsV1: { 'f:spec': { 'f:replicas': {} } }, manager: 'kubectl', operation: 'Apply' },
    ]);
  });

  test('conflicts: shared ownership after applying the same value, and giving it up', async () => {
    await ok(['apply', '--server-side', '-f', '-'], widget('w-share', '  replicas: 3\n'));
    await ok(['apply', '--server-side', '--field-manager=second', '-f', '-'], widget('w-share', '  replicas: 3\n'));
    // Any change by either owner now conflicts with the other.
    let r = await ssa(widget('w-share', '  replicas: 4\n'));
    assert.equal(r.stderr, conflictError('Apply failed with 1 conflict: conflict with "second": .spec.replicas'));
    r = await ssa(widget('w-share', '  replicas: 4\n'), '--field-manager=second');
    assert.equal(r.stderr, conflictError('Apply failed with 1 conflict: conflict with "kubectl": .spec.replicas'));
    // An owner gives up the field by applying without it: the value stays, the other owns it alone.
    await ok(['apply', '--server-side', '--field-manager=second', '-f', '-'], widget('w-share', '  mode: auto\n'));
    const obj = await getObject('widget', 'w-share');
    assert.equal(obj.spec.replicas, 3);
    r = await ssa(widget('w-share', '  replicas: 4\n'));
    assert.equal(r.stdout, 'widget.ssa.example.com/w-share serverside-applied\n');
  });

  test('merge strategy: a list-type map list merged by key across two managers', async () => {
    await ok(['apply', '--server-side', '--field-manager=alice', '-f', '-'], widget('w-map', '  ports:\n  - name: http\n    port: 80\n'));
    await ok(['apply', '--server-side', '--field-manager=bob', '-f', '-'], widget('w-map', '  ports:\n  - name: metrics\n    port: 9090\n'));
    let obj = await getObject('widget', 'w-map');
    assert.deepEqual(obj.spec.ports, [
      { name: 'http', port: 80 },
      { name: 'metrics', port: 9090 },
    ]);
    assert.deepEqual(await managers('widget', 'w-map'), [
      {
        fieldsV1: { 'f:spec': { 'f:ports': { 'k:{"name":"http"}': { '.': {}, 'f:name': {}, 'f:port': {} } } } },
        manager: 'alice',
        operation: 'Apply',
      },
      {
        fieldsV1: { 'f:spec': { 'f:ports': { 'k:{"name":"metrics"}': { '.': {}, 'f:name': {}, 'f:port': {} } } } },
        manager: 'bob',
        operation: 'Apply',
      },
    ]);
    // Each changes its own entry freely; another's entry conflicts.
    await ok(['apply', '--server-side', '--field-manager=alice', '-f', '-'], widget('w-map', '  ports:\n  - name: http\n    port: 8080\n'));
    const r = await ssa(widget('w-map', '  ports:\n  - name: http\n    port: 81\n'), '--field-manager=bob');
    assert.equal(r.stderr, conflictError('Apply failed with 1 conflict: conflict with "alice": .spec.ports[name="http"].port'));
    // alice drops her entry: only bob's is left.
    await ok(['apply', '--server-side', '--field-manager=alice', '-f', '-'], widget('w-map', '  mode: auto\n'));
    obj = await getObject('widget', 'w-map');
    assert.deepEqual(obj.spec.ports, [{ name: 'metrics', port: 9090 }]);
  });

  test('merge strategy: set lists merge, atomic lists and maps are replaced whole and conflict', async () => {
    await ok(['apply', '--server-side', '--field-manager=alice', '-f', '-'], widget('w-set', '  tags: [a, b]\n  args: [x]\n  selector: {app: a}\n'));
    await ok(['apply', '--server-side', '--field-manager=bob', '-f', '-'], widget('w-set', '  tags: [b, c]\n'));
    let obj = await getObject('widget', 'w-set');
    assert.deepEqual(obj.spec.tags, ['a', 'b', 'c']);
    let r = await ssa(widget('w-set', '  args: [q]\n  selector: {app: a, tier: b}\n'), '--field-manager=bob');
    assert.equal(r.stderr, conflictError('Apply failed with 2 conflicts: conflicts with "alice":\n- .spec.args\n- .spec.selector'));
    r = await ssa(widget('w-set', '  tags: [b, c]\n  args: [q]\n  selector: {tier: b}\n'), '--field-manager=bob', '--force-conflicts');
    assert.equal(r.stderr, '');
    obj = await getObject('widget', 'w-set');
    assert.deepEqual(obj.spec, { mode: 'auto', tags: ['a', 'b', 'c'], args: ['q'], selector: { tier: 'b' } });
    // alice drops b and her atomic fields: b stays (bob owns it too), a goes.
    await ok(['apply', '--server-side', '--field-manager=alice', '-f', '-'], widget('w-set', '  tags: [z]\n'));
    obj = await getObject('widget', 'w-set');
    assert.deepEqual(obj.spec.tags, ['b', 'c', 'z']);
  });

  test('a field removed from the manifest and owned by nobody else is reset to its default', async () => {
    await ok(['apply', '--server-side', '-f', '-'], widget('w-default', '  mode: manual\n  replicas: 1\n'));
    assert.equal((await getObject('widget', 'w-default')).spec.mode, 'manual');
    await ok(['apply', '--server-side', '-f', '-'], widget('w-default', '  replicas: 1\n'));
    assert.deepEqual((await getObject('widget', 'w-default')).spec, { mode: 'auto', replicas: 1 });
  });

  test('transferring ownership of replicas to another manager (handover)', async () => {
    await ok(['apply', '--server-side', '-f', '-'], widget('w-hand', '  replicas: 3\n  mode: auto\n'));
    // The temporary manager takes a share of replicas by applying the same value.
    let r = await ssa(widget('w-hand', '  replicas: 3\n'), '--field-manager=handover-to-hpa');
    assert.equal(r.stdout, 'widget.ssa.example.com/w-hand serverside-applied\n');
    // The user drops replicas from the manifest: the value stays, now owned by handover-to-hpa only.
    await ok(['apply', '--server-side', '-f', '-'], widget('w-hand', '  mode: auto\n'));
    let obj = await getObject('widget', 'w-hand');
    assert.equal(obj.spec.replicas, 3);
    assert.deepEqual(await managers('widget', 'w-hand'), [
      { fieldsV1: { 'f:spec': { 'f:replicas': {} } }, manager: 'handover-to-hpa', operation: 'Apply' },
      { fieldsV1: { 'f:spec': { 'f:mode': {} } }, manager: 'kubectl', operation: 'Apply' },
    ]);
    // The controller sets replicas: the temporary manager owns nothing any more and its entry goes.
    await ok(['patch', 'widget', 'w-hand', '--type=merge', '--field-manager=hpa', '-p', '{"spec":{"replicas":5}}']);
    assert.deepEqual(await managers('widget', 'w-hand'), [
      { fieldsV1: { 'f:spec': { 'f:mode': {} } }, manager: 'kubectl', operation: 'Apply' },
      { fieldsV1: { 'f:spec': { 'f:replicas': {} } }, manager: 'hpa', operation: 'Update' },
    ]);
    r = await ssa(widget('w-hand', '  mode: auto\n'));
    assert.equal(r.stdout, 'widget.ssa.example.com/w-hand serverside-applied\n');
    obj = await getObject('widget', 'w-hand');
    assert.equal(obj.spec.replicas, 5);
  });

  test('clearing managedFields: a JSON patch to [{}] strips them, to [] changes nothing', async () => {
    await ok(['apply', '--server-side', '-f', '-'], widget('w-clear', '  replicas: 1\n'));
    await ok(['patch', 'widget', 'w-clear', '--type=json', '-p', '[{"op":"replace","path":"/metadata/managedFields","value":[]}]']);
    assert.equal((await managers('widget', 'w-clear')).length, 1);
    await ok(['patch', 'widget', 'w-clear', '--type=json', '-p', '[{"op":"replace","path":"/metadata/managedFields","value":[{}]}]']);
    assert.deepEqual(await managers('widget', 'w-clear'), []);
  });
});

/** Every corpus CRD, one per file, the two Gateway API channels being one set of CRDs. */
function corpusCrdFiles(): string[] {
  const files: string[] = [];
  for (const project of readdirSync(CORPUS).sort()) {
    if (project === 'gateway-api-experimental') continue;
    let names: string[];
    try {
      names = readdirSync(join(CORPUS, project, 'crds')).filter((f) => f.endsWith('.yaml')).sort();
    } catch {
      continue;
    }
    for (const f of names) files.push(join(CORPUS, project, 'crds', f));
  }
  return files;
}

describe('the corpus CRDs', () => {
  let c: TestServer;
  before(async () => {
    c = await startTestServer();
  });
  after(async () => {
    await c?.close();
  });

  test('client-side apply of the Prometheus operator CRDs: the annotation is too long; server-side apply works', async () => {
    const dir = join(CORPUS, 'prometheus-operator', 'crds');
    const files = readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort();
    let r = await c.kubectl(['apply', '-f', dir], { timeoutMs: 300_000 });
    assert.equal(r.code, 1);
    // The annotation is the whole CRD as JSON: those over 256KiB are refused with 422, the others created.
    const tooLong = files.filter((f) => Buffer.byteLength(JSON.stringify(parseYaml(readFileSync(join(dir, f), 'utf8')))) > 262144);
    assert.ok(tooLong.length >= 5, tooLong.join());
    const name = (f: string): string => f.replace(/^monitoring\.coreos\.com_/, '').replace(/\.yaml$/, '') + '.monitoring.coreos.com';
    assert.equal(
      r.stderr,
      tooLong
        .map(
          (f) =>
            `Error from server (Invalid): error when creating "${join(dir, f)}": CustomResourceDefinition.apiextensions.k8s.io "${name(f)}" is invalid: metadata.annotations: Too long: may not be more than 262144 bytes\n`,
        )
        .join(''),
    );
    assert.equal(r.stdout, files.filter((f) => !tooLong.includes(f)).map((f) => `customresourcedefinition.apiextensions.k8s.io/${name(f)} created\n`).join(''));

    r = await c.kubectl(['apply', '--server-side', '-f', dir], { timeoutMs: 300_000 });
    assert.equal(r.stderr, '');
    assert.equal(r.code, 0);
    assert.equal(r.stdout, files.map((f) => `customresourcedefinition.apiextensions.k8s.io/${name(f)} serverside-applied\n`).join(''));
  });

  test('every corpus CRD server-side applied in one command, twice, without conflicts', async () => {
    const files = corpusCrdFiles();
    assert.ok(files.length > 100, `${files.length} CRDs`);
    const all = c.file('all-crds.yaml', files.map((f) => readFileSync(f, 'utf8').replace(/^---\n/, '')).join('\n---\n'));
    const names = files.map((f) => `customresourcedefinition.apiextensions.k8s.io/${(parseYaml(readFileSync(f, 'utf8')) as any).metadata.name} serverside-applied\n`);
    for (let round = 0; round < 2; round++) {
      const r = await c.kubectl(['apply', '--server-side', '-f', all], { timeoutMs: 300_000 });
      assert.equal(r.stderr, '', `round ${round}`);
      assert.equal(r.code, 0);
      assert.equal(r.stdout, names.join(''));
    }
  });
});

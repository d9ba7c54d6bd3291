// The seed's "Categories" section through kubectl: a CRD in the `all` category is listed by
// `kubectl get all`; short names and categories are in discovery; `kubectl get ct` works.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { requireKubectl, startTestServer, squeeze, type TestServer } from './harness.js';

// The seed's resourcedefinition.yaml for this section: the walkthrough CRD plus `categories: [all]`.
const crdYaml = readFileSync(new URL('../fixtures/crontab-crd.yaml', import.meta.url), 'utf8').replace(
  /(shortNames:\n\s+- ct\n?)/,
  '$1    # categories is a list of grouped resources the custom resource belongs to.\n    categories:\n    - all\n',
);
const crYaml = readFileSync(new URL('../fixtures/my-crontab.yaml', import.meta.url), 'utf8');

let s: TestServer;
before(async () => {
  requireKubectl();
  s = await startTestServer();
});
after(async () => {
  await s?.close();
});

test('seed: kubectl get all includes the custom resources of kind CronTab', async () => {
  assert.match(crdYaml, /categories:\n {4}- all\n/);
  let r = await s.kubectl(['apply', '-f', s.file('resourcedefinition.yaml', crdYaml)]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout.trim(), 'customresourcedefinition.apiextensions.k8s.io/crontabs.stable.example.com created');
  r = await s.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/crontabs.stable.example.com']);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['apply', '-f', s.file('my-crontab.yaml', crYaml)]);
  assert.equal(r.code, 0, r.stderr);

  // With CronTabs the only kind found, kubectl (1.27+) prints them without a kind prefix.
  r = await s.kubectl(['get', 'all']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(squeeze(r.stdout), /^NAME AGE\nmy-new-cron-object \d+s$/);
  r = await s.kubectl(['get', 'all', '-o', 'name']);
  assert.equal(r.stdout, 'crontab.stable.example.com/my-new-cron-object\n');
  r = await s.kubectl(['get', 'all', '--all-namespaces']);
  assert.match(squeeze(r.stdout), /^NAMESPACE NAME AGE\ndefault my-new-cron-object \d+s$/);

  // The short name.
  r = await s.kubectl(['get', 'ct']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(squeeze(r.stdout), /^NAME AGE\nmy-new-cron-object \d+s$/);
  r = await s.kubectl(['get', 'ct', 'my-new-cron-object', '-o', 'jsonpath={.spec.image}']);
  assert.equal(r.stdout, 'my-awesome-cron-image');

  r = await s.kubectl(['api-resources', '--categories=all']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(squeeze(r.stdout), 'NAME SHORTNAMES APIVERSION NAMESPACED KIND\ncrontabs ct stable.example.com/v1 true CronTab');
});

test('with more than one kind in the category, each is listed under its own header, kind-qualified', async () => {
  // A second CRD in `all` (and in a category of its own): kubectl prints one table per kind, and names
  // carry the kind (the seed's older kubectl printed `crontabs/my-new-cron-object`).
  const widgets = crdYaml
    .replace('name: crontabs.stable.example.com', 'name: widgets.example.org')
    .replace('group: stable.example.com', 'group: example.org')
    .replace('plural: crontabs', 'plural: widgets')
    .replace('singular: crontab', 'singular: widget')
    .replace('kind: CronTab', 'kind: Widget')
    .replace(/shortNames:\n\s+- ct/, 'shortNames:\n    - wd')
    .replace('- all\n', '- all\n    - gadgets\n');
  let r = await s.kubectl(['apply', '-f', s.file('widgets.yaml', widgets)]);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['wait', '--for', 'condition=established', '--timeout=20s', 'crd/widgets.example.org']);
  assert.equal(r.code, 0, r.stderr);
  r = await s.kubectl(['apply', '-f', s.file('w.yaml', crYaml.replace('stable.example.com/v1', 'example.org/v1').replace('kind: CronTab', 'kind: Widget').replace('my-new-cron-object', 'my-widget'))]);
  assert.equal(r.code, 0, r.stderr);

  r = await s.kubectl(['get', 'all']);
  assert.equal(r.code, 0, r.stderr);
  // Groups in discovery order: CRD groups share a priority, then go by APIService name (v1.example.org first).
  assert.match(r.stdout, /^NAME {2,}AGE\nwidget\.example\.org\/my-widget {2,}\d+s\n\nNAME {2,}AGE\ncrontab\.stable\.example\.com\/my-new-cron-object {2,}\d+s\n$/);

  // A category of its own: only the widgets.
  r = await s.kubectl(['get', 'gadgets', '-o', 'name']);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, 'widget.example.org/my-widget\n');

  // Discovery publishes both lists as the CRDs' accepted names hold them.
  r = await s.kubectl(['get', '--raw', '/apis/example.org/v1']);
  const res = JSON.parse(r.stdout).resources.find((x: any) => x.name === 'widgets');
  assert.deepEqual(res.shortNames, ['wd']);
  assert.deepEqual(res.categories, ['all', 'gadgets']);
  r = await s.kubectl(['get', 'crd', 'widgets.example.org', '-o', 'jsonpath={.status.acceptedNames.categories}']);
  assert.equal(r.stdout, '["all","gadgets"]');

  // Once the CRDs are gone, so are their resources from the category.
  r = await s.kubectl(['delete', 'crd', 'widgets.example.org', 'crontabs.stable.example.com']);
  assert.equal(r.code, 0, r.stderr);
  // (A fresh discovery cache: the cached one still maps the category to the deleted resources.)
  r = await s.kubectl(['get', 'all', '--cache-dir', s.file('fresh-cache', '') + '.d']);
  // As kubectl says it to any server without a resource in the category (kube-apiserver always has some).
  assert.equal(r.code, 1);
  assert.equal(r.stderr.trim(), 'error: the server doesn\'t have a resource type "all"');
});

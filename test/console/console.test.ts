// The web console in a real browser (headless chromium) against a server holding corpus CRDs: the login form,
// schema pages with their fields and CEL rules, the live objects table, an object's YAML and Events, and the
// API's own refusals.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { parse } from 'yaml';
import { parseTokenFile } from '../../src/auth/authenticate.js';
import { startTestServer, type TestServer } from '../e2e/harness.js';
import { launchChromium, signedIn } from './browser.js';
import { PROMETHEUS_CRD, cronTabCrd } from './fixtures.js';

const ADMIN = 'admin-token';
const BOB = 'bob-token';

let t: TestServer;
let browser: Browser;

async function kubectl(args: string[], stdin?: string): Promise<string> {
  const r = await t.kubectl(args, stdin === undefined ? {} : { stdin });
  assert.equal(r.code, 0, r.stderr);
  return r.stdout;
}

before(async () => {
  browser = await launchChromium();
  // Watches end after 1 to 2 s: the console's watches must resume, as they do when a real server ends them.
  t = await startTestServer({ tokens: parseTokenFile(`${ADMIN},admin,u-admin,"system:masters"\n${BOB},bob,u-bob\n`), anonymousAuth: false, minRequestTimeoutSeconds: 1 });
  await kubectl(['create', '-f', '-'], cronTabCrd());
  await kubectl(['create', '-f', PROMETHEUS_CRD]);
  // bob reads CRDs (the console's schemas) but may not list CronTabs.
  await kubectl(['create', 'clusterrole', 'crd-reader', '--verb=get,list,watch', '--resource=customresourcedefinitions.apiextensions.k8s.io']);
  await kubectl(['create', 'clusterrolebinding', 'bob-crd-reader', '--clusterrole=crd-reader', '--user=bob']);
  await kubectl(['wait', '--for=condition=Established', 'crd/crontabs.stable.example.com', 'crd/prometheuses.monitoring.coreos.com', '--timeout=30s']);
});

after(async () => {
  await browser?.close();
  await t?.close();
});

test('the shell is served without credentials, with a restrictive CSP; data is not', async () => {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const res = await context.request.get(`${t.url}/console/`);
  assert.equal(res.status(), 200);
  assert.match(res.headers()['content-type']!, /^text\/html/);
  assert.match(res.headers()['content-security-policy']!, /default-src 'self'/);
  const js = await context.request.get(`${t.url}/console/console.js`);
  assert.equal(js.status(), 200);
  assert.match(js.headers()['content-type']!, /^text\/javascript/);
  const redirect = await context.request.get(`${t.url}/console`, { maxRedirects: 0 });
  assert.equal(redirect.status(), 301);
  assert.equal(redirect.headers()['location'], 'console/');
  // Anything else under /console/ is the API's, behind authentication.
  assert.equal((await context.request.get(`${t.url}/console/other`)).status(), 401);
  await context.close();
});

test('the API answers 401: the login form shows it, and a bearer token signs in', async () => {
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const page = await context.newPage();
  await page.goto(`${t.url}/console/`);
  await page.getByRole('alert').getByText('401 Unauthorized').waitFor();
  await page.getByLabel('Bearer token').fill('wrong-token');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').getByText('401 Unauthorized').waitFor();
  await page.getByLabel('Bearer token').fill(ADMIN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const nav = page.locator('nav');
  await nav.getByText('monitoring.coreos.com').waitFor();
  await nav.getByText('Prometheus', { exact: true }).waitFor();
  // The token stays in the tab: a reload is still signed in.
  await page.reload();
  await nav.getByText('CronTab', { exact: true }).waitFor();
  await context.close();
});

test("CronTab's schema page: fields, types, required, constraints, the CEL rule, printer columns", async () => {
  const page = await signedIn(browser, t.url, ADMIN, '#/stable.example.com/v1/crontabs');
  const spec = page.locator('[data-path="spec"]');
  await spec.locator('.rule').getByText('self.replicas <= 5 || self.image != ""').waitFor();
  const rule = await spec.locator('.rule').first().innerText();
  assert.match(rule, /more than 5 replicas need an image/);
  assert.match(rule, /reason: FieldValueInvalid/);
  assert.match(rule, /fieldPath: \.replicas/);
  await page.getByRole('button', { name: 'expand spec' }).click();
  assert.match(await page.locator('[data-path="spec.cronSpec"]').innerText(), /cronSpec\s+string\s+required[\s\S]*pattern/);
  const replicas = await page.locator('[data-path="spec.replicas"]').innerText();
  assert.match(replicas, /integer/);
  assert.match(replicas, /default\s+1/);
  assert.match(replicas, /maximum\s+10/);
  assert.match(await page.locator('[data-path="spec.concurrencyPolicy"]').innerText(), /enum\s+"Allow", "Forbid", "Replace"/);
  assert.match(await page.locator('[data-path="spec.tags"]').innerText(), /\[\]string[\s\S]*list type\s+set/);
  assert.match(await page.locator('table.columns').innerText(), /Schedule\s+string\s+\.spec\.cronSpec/);
  assert.match(await page.locator('.facts').innerText(), /Namespaced[\s\S]*crontabs\.stable\.example\.com[\s\S]*ct/);
  assert.match(await page.locator('.details').innerText(), /Selectable fields\s+metadata\.name\s*metadata\.namespace\s*spec\.image/);
  assert.match(await page.locator('.details').innerText(), /Subresources\s+status/);
  // The versions, the older one's deprecation, and what changes from it.
  assert.match(await page.locator('table.versions').innerText(), /v1beta1\s+yes\s+no\s+stable\.example\.com\/v1beta1 CronTab is deprecated; use stable\.example\.com\/v1 CronTab/);
  assert.match(await page.locator('table.diff').innerText(), /added\s+spec\.tags\s+\[\]string; list type set/);
  await page.context().close();
});

test('a built-in kind\'s schema page, from /openapi/v3 with its references resolved', async () => {
  const page = await signedIn(browser, t.url, ADMIN, '#/core/v1/configmaps');
  assert.match(await page.locator('.facts').innerText(), /Namespaced[\s\S]*configmaps[\s\S]*cm/);
  assert.match(await page.locator('[data-path="data"]').innerText(), /map\[string\]string\s+Data contains the configuration data/);
  await page.getByRole('button', { name: 'expand metadata' }).click();
  assert.match(await page.locator('[data-path="metadata.labels"]').innerText(), /map\[string\]string/);
  await page.context().close();
});

test('a browser presenting a client certificate reads the API without the login form', async () => {
  const user = parse(readFileSync(t.kubeconfig, 'utf8')).users[0].user;
  const context = await browser.newContext({
    ignoreHTTPSErrors: true,
    clientCertificates: [{ origin: t.url, cert: Buffer.from(user['client-certificate-data'], 'base64'), key: Buffer.from(user['client-key-data'], 'base64') }],
  });
  const page = await context.newPage();
  await page.goto(`${t.url}/console/#/stable.example.com/v1/crontabs`);
  await page.locator('[data-path="spec"] .rule').waitFor();
  assert.equal(await page.getByLabel('Bearer token').count(), 0);
  await context.close();
});

test("Prometheus' schema page (the corpus CRD, 800 kB): descriptions, nested fields, CEL rules", async () => {
  const page = await signedIn(browser, t.url, ADMIN, '#/monitoring.coreos.com/v1/prometheuses');
  const spec = page.locator('[data-path="spec"]');
  await spec.locator('.rule').getByText('shards must be greater than or equal to the number of topology values').waitFor();
  assert.match(await page.locator('[data-path="."]').locator('.description').first().innerText(), /The `Prometheus` custom resource definition/);
  await page.getByRole('button', { name: 'expand spec' }).click();
  await page.getByRole('button', { name: 'expand shardingStrategy' }).click();
  const strategy = page.locator('[data-path="spec.shardingStrategy"]');
  await strategy.locator('.rule').getByText("topology can only be defined when mode is set to 'Topology'").waitFor();
  assert.match(await page.locator('[data-path="spec.shardingStrategy.mode"]').innerText(), /enum/);
  assert.match(await page.locator('table.columns').innerText(), /Version[\s\S]*Desired[\s\S]*Ready/);
  await page.context().close();
});

test('a created object appears in the live table within a second, without a reload; its YAML and Events', async () => {
  const page = await signedIn(browser, t.url, ADMIN, '#/stable.example.com/v1/crontabs/objects');
  await page.getByText('live · 0 objects').waitFor();
  // Past the first watch's end: the object arrives on the resumed one.
  await new Promise((r) => setTimeout(r, 2500));
  await kubectl(['create', '-n', 'default', '-f', '-'], 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: nightly, labels: {app: backup}}\nspec: {cronSpec: "0 3 * * *", image: backup:1}\n');
  const created = Date.now();
  const row = page.locator('tr[data-name="nightly"]');
  await row.waitFor({ timeout: 1000 });
  assert.ok(Date.now() - created < 1000);
  assert.match(await row.innerText(), /default\s+nightly\s+0 3 \* \* \*/);
  // The label selector filters through the API (a new list and watch).
  await page.getByLabel('Label selector').fill('app=other');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByText('live · 0 objects').waitFor();
  await page.getByLabel('Label selector').fill('app=backup');
  await page.getByRole('button', { name: 'Apply' }).click();
  await row.waitFor();
  // So does the namespace (the namespaced path); the Namespace column is only there across namespaces.
  await page.getByLabel('Namespace').fill('kube-system');
  await page.getByRole('button', { name: 'Apply' }).click();
  await page.getByText('live · 0 objects').waitFor();
  await page.getByLabel('Namespace').fill('default');
  await page.getByRole('button', { name: 'Apply' }).click();
  await row.waitFor();
  assert.match(await row.innerText(), /^nightly\s+0 3 \* \* \*/);
  assert.doesNotMatch(await page.locator('table.objects-table thead').innerText(), /Namespace/);
  // A deletion leaves the table as live.
  await kubectl(['create', '-n', 'default', '-f', '-'], 'apiVersion: stable.example.com/v1\nkind: CronTab\nmetadata: {name: hourly, labels: {app: backup}}\nspec: {cronSpec: "0 * * * *"}\n');
  await page.locator('tr[data-name="hourly"]').waitFor({ timeout: 1000 });
  await kubectl(['delete', 'crontab', 'hourly', '-n', 'default']);
  await page.locator('tr[data-name="hourly"]').waitFor({ state: 'detached', timeout: 1000 });

  const uid = (await kubectl(['get', 'crontab', 'nightly', '-n', 'default', '-o', 'jsonpath={.metadata.uid}'])).trim();
  await kubectl(
    ['create', '-f', '-'],
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: 'nightly.1', namespace: 'default' },
      involvedObject: { apiVersion: 'stable.example.com/v1', kind: 'CronTab', name: 'nightly', namespace: 'default', uid },
      reason: 'Scheduled',
      message: 'next run at 03:00',
      type: 'Normal',
      source: { component: 'cron-operator' },
    }),
  );
  await row.getByRole('link', { name: 'nightly' }).click();
  const yaml = page.getByLabel('YAML');
  await yaml.getByText('cronSpec: 0 3 * * *').waitFor();
  assert.doesNotMatch(await yaml.innerText(), /managedFields/);
  assert.match(await page.locator('details.managed summary').innerText(), /metadata\.managedFields: 1 entry \(folded\)/);
  await page.locator('details.managed summary').click();
  await page.locator('details.managed pre').getByText('manager: kubectl-create').waitFor();
  await page.locator('table.events').getByText('next run at 03:00').waitFor();
  assert.match(await page.locator('table.events').innerText(), /Normal\s+Scheduled[\s\S]*cron-operator/);
  await page.context().close();
});

test('the navigation follows CRDs as they are created, without a reload', async () => {
  const page = await signedIn(browser, t.url, ADMIN);
  const crd = cronTabCrd().replaceAll('crontabs', 'snapshots').replaceAll('crontab', 'snapshot').replaceAll('CronTab', 'Snapshot').replaceAll('- ct', '- snap');
  await kubectl(['create', '-f', '-'], crd);
  await page.locator('nav').getByText('Snapshot', { exact: true }).waitFor({ timeout: 5000 });
  await kubectl(['delete', 'crd', 'snapshots.stable.example.com']);
  await page.locator('nav').getByText('Snapshot', { exact: true }).waitFor({ state: 'detached', timeout: 5000 });
  await page.context().close();
});

test("a user who may not list a kind sees the API's 403 message", async () => {
  const page = await signedIn(browser, t.url, BOB, '#/stable.example.com/v1/crontabs/objects');
  await page
    .getByRole('alert')
    .getByText('403 crontabs.stable.example.com is forbidden: User "bob" cannot list resource "crontabs" in API group "stable.example.com" at the cluster scope')
    .waitFor();
  // The schema is still there (bob may read CRDs).
  await page.getByRole('link', { name: 'Schema', exact: true }).click();
  await page.locator('[data-path="spec"] .rule').waitFor();
  await page.context().close();
});

test("a logical cluster's console, at /clusters/<name>/console/, reads that cluster's API", async () => {
  await kubectl(['create', '-f', '-'], 'apiVersion: tenancy.crd-apiserver.io/v1alpha1\nkind: LogicalCluster\nmetadata:\n  name: console-team\n');
  await kubectl(['wait', '--for=condition=Ready', 'logicalcluster/console-team', '--timeout=30s']);
  const base = `${t.url}/clusters/console-team`;
  const toConsole = await browser.newContext({ ignoreHTTPSErrors: true });
  assert.equal((await toConsole.request.get(`${base}/console`, { maxRedirects: 0 })).headers()['location'], 'console/');
  await toConsole.close();
  const inCluster = t.file('console-team.kubeconfig', readFileSync(t.kubeconfig, 'utf8').replace(/(server: https:\/\/[^\s]+)/, '$1/clusters/console-team'));
  const crd = cronTabCrd().replaceAll('crontabs', 'widgets').replaceAll('crontab', 'widget').replaceAll('CronTab', 'Widget').replaceAll('- ct', '- wd');
  await kubectl(['--kubeconfig', inCluster, 'create', '-f', '-'], crd);
  await kubectl(['--kubeconfig', inCluster, 'wait', '--for=condition=Established', 'crd/widgets.stable.example.com', '--timeout=30s']);
  const context = await browser.newContext({ ignoreHTTPSErrors: true });
  const page = await context.newPage();
  await page.goto(`${base}/console/`);
  await page.getByLabel('Bearer token').fill(ADMIN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // The cluster's own CRD, and none of root's.
  await page.locator('nav').getByText('Widget', { exact: true }).waitFor();
  assert.equal(await page.locator('nav').getByText('CronTab', { exact: true }).count(), 0);
  await context.close();
});

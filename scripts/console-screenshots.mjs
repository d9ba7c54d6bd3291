// Takes the README's screenshots of the web console (docs/console/*.png): a kind's schema page, its live objects
// table, and one object's YAML and Events, against a test server holding the CronTab and Prometheus CRDs.
//   node --import tsx scripts/console-screenshots.mjs
// Needs Debian's chromium (or CHROMIUM_PATH) and kubectl, as the console tests do.
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseTokenFile } from '../src/auth/authenticate.js';
import { startTestServer } from '../test/e2e/harness.js';
import { launchChromium, signedIn } from '../test/console/browser.js';
import { PROMETHEUS_CRD, cronTabCrd } from '../test/console/fixtures.js';

const out = fileURLToPath(new URL('../docs/console/', import.meta.url));
mkdirSync(out, { recursive: true });

const t = await startTestServer({ tokens: parseTokenFile('admin-token,admin,u-admin,"system:masters"\n') });
const browser = await launchChromium();
try {
  const kubectl = async (args, stdin) => {
    const r = await t.kubectl(args, stdin === undefined ? {} : { stdin });
    if (r.code !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  await kubectl(['create', '-f', '-'], cronTabCrd());
  await kubectl(['create', '-f', PROMETHEUS_CRD]);
  await kubectl(['wait', '--for=condition=Established', 'crd/crontabs.stable.example.com', 'crd/prometheuses.monitoring.coreos.com']);
  await kubectl(['create', 'namespace', 'batch']);
  const crontabs = [
    ['default', 'nightly-backup', '0 3 * * *', 'backup:1.4', 1],
    ['default', 'hourly-report', '0 * * * *', 'report:2.0', 2],
    ['batch', 'cleanup', '*/15 * * * *', 'cleanup:0.9', 1],
    ['batch', 'index-rebuild', '30 1 * * 0', 'indexer:3.1', 3],
  ];
  for (const [ns, name, cron, image, replicas] of crontabs) {
    await kubectl(['create', '-n', ns, '-f', '-'], JSON.stringify({ apiVersion: 'stable.example.com/v1', kind: 'CronTab', metadata: { name, labels: { app: name.split('-')[0] } }, spec: { cronSpec: cron, image, replicas } }));
  }
  const uid = (await kubectl(['get', 'crontab', 'nightly-backup', '-n', 'default', '-o', 'jsonpath={.metadata.uid}'])).trim();
  for (const [i, [reason, message]] of [
    ['Scheduled', 'Next run at 03:00 UTC'],
    ['Completed', 'Backup of 3 volumes finished in 42s'],
  ].entries()) {
    await kubectl(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Event', metadata: { name: `nightly-backup.${i}`, namespace: 'default' }, involvedObject: { apiVersion: 'stable.example.com/v1', kind: 'CronTab', name: 'nightly-backup', namespace: 'default', uid }, reason, message, type: 'Normal', source: { component: 'crontab-controller' }, count: 1, lastTimestamp: new Date().toISOString().replace(/\.\d+Z$/, 'Z') }));
  }

  const page = await signedIn(browser, t.url, 'admin-token', '#/stable.example.com/v1/crontabs');
  await page.setViewportSize({ width: 1400, height: 1500 });
  await page.getByRole('button', { name: 'expand spec' }).click();
  await page.locator('[data-path="spec.cronSpec"]').waitFor();
  await page.screenshot({ path: `${out}schema.png` });

  await page.setViewportSize({ width: 1400, height: 700 });
  await page.getByRole('link', { name: 'Objects', exact: true }).click();
  await page.locator('tr[data-name="nightly-backup"]').waitFor();
  await page.screenshot({ path: `${out}objects.png` });

  await page.setViewportSize({ width: 1400, height: 1100 });
  await page.locator('tr[data-name="nightly-backup"]').getByRole('link').click();
  await page.locator('table.events').waitFor();
  await page.screenshot({ path: `${out}object.png` });
  console.log(`wrote ${out}schema.png, objects.png, object.png`);
} finally {
  await browser.close();
  await t.close();
}

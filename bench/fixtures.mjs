// What the figures create: the seed's CronTab CRD and CronTab objects of about 1 KB.
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { expectOk, request, sleep, here } from './util.mjs';

export const GROUP_PATH = '/apis/stable.example.com/v1';
export const crontabs = (ns) => `${GROUP_PATH}/namespaces/${ns}/crontabs`;

/** Request bodies are padded to this size, for a name of NAME_LENGTH characters. */
export const BODY_BYTES = 1024;
const NAME_LENGTH = 12;

/**
 * A CronTab create body of BODY_BYTES bytes (give or take the name's length), with __NAME__ where
 * the name goes. The padding is an annotation: the CronTab schema would prune unknown spec fields.
 */
export function crontabBody(namespace) {
  const obj = (pad) => ({
    apiVersion: 'stable.example.com/v1',
    kind: 'CronTab',
    metadata: {
      name: '__NAME__',
      namespace,
      labels: { app: 'bench', tier: 'backend', 'example.com/owner': 'team-a' },
      annotations: { 'bench.example.com/padding': pad },
    },
    spec: { cronSpec: '*/5 * * * *', image: 'registry.example.com/team/cron-image:v1.2.3', replicas: 3 },
  });
  const base = JSON.stringify(obj('')).length - '__NAME__'.length + NAME_LENGTH;
  return JSON.stringify(obj('x'.repeat(BODY_BYTES - base)));
}

/** Create the CronTab CRD and wait until its resource is served. */
export async function setupCrd(url) {
  const crd = parse(readFileSync(here('../test/fixtures/crontab-crd.yaml'), 'utf8'));
  await expectOk(request(`${url}/apis/apiextensions.k8s.io/v1/customresourcedefinitions`, 'POST', crd), 'create CRD');
  for (let i = 0; i < 500; i++) {
    const r = await request(`${url}${crontabs('default')}?limit=1`);
    if (r.status === 200) return;
    await sleep(10);
  }
  throw new Error('CronTab resource was not served within 5 s');
}

export async function createNamespace(url, name) {
  await expectOk(request(`${url}/api/v1/namespaces`, 'POST', { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }), `create namespace ${name}`);
}

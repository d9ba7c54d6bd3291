// Cost of storing CRDs on etcd as kube-apiserver does (src/server/stored-crds.ts): encode (the registry's v1
// text to v1beta1 JSON, read back once to make sure nothing is lost) and decode (v1beta1 back to the same v1
// text), per CRD, against what the etcd store did before (UTF-8 bytes of the v1 JSON and back). The CRDs are
// stored by an in-process server first, so the texts are the registry's, status and managedFields included.
// Run: node --import tsx bench/stored-crds.ts
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { storedCRDCodec } from '../src/server/stored-crds.js';
import { startApi } from '../test/server/helpers.js';
import { CORPUS } from '../test/shared-paths.js';

const files = ['cert-manager/crds/cert-manager.io_certificates.yaml', 'argo-cd/crds/application-crd.yaml'];
const crds = files.flatMap((f) => {
  try {
    return [parse(readFileSync(join(CORPUS, f), 'utf8'))];
  } catch {
    return [];
  }
});
// The smallest and largest of the corpus besides, whatever their files are called.
const all = readdirSync(CORPUS, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .flatMap((d) => {
    try {
      return readdirSync(join(CORPUS, d.name, 'crds')).map((f) => join(CORPUS, d.name, 'crds', f));
    } catch {
      return [];
    }
  })
  .map((p) => readFileSync(p, 'utf8'))
  .sort((a, b) => a.length - b.length);
crds.unshift(parse(all[0]!));
crds.push(parse(all[all.length - 1]!));

const api = await startApi();
const texts: string[] = [];
try {
  for (const crd of crds) {
    const r = await api.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd);
    if (r.status !== 201 && r.status !== 409) throw new Error(r.text);
  }
  await new Promise((r) => setTimeout(r, 1000));
  for (const crd of crds) texts.push((await api.kv.get(`/registry/apiextensions.k8s.io/customresourcedefinitions/${crd.metadata.name}`))!.value);
} finally {
  await api.close();
}

function time(label: string, n: number, fn: () => void): number {
  for (let i = 0; i < Math.max(5, n / 10); i++) fn();
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < n; i++) fn();
  const us = Number(process.hrtime.bigint() - t0) / 1e3 / n;
  console.log(`${label.padEnd(44)} ${us.toFixed(1).padStart(9)} µs`);
  return us;
}

for (const json of texts) {
  const stored = storedCRDCodec.encode(json);
  if (!stored) throw new Error('stored as v1');
  const text = stored.toString('utf8');
  if (storedCRDCodec.readText!(text).value !== json) throw new Error('round trip differs');
  console.log(`${JSON.parse(json).metadata.name}: ${json.length} B v1, ${stored.length} B v1beta1`);
  const n = json.length > 100_000 ? 50 : 500;
  time('  encode (v1 → v1beta1, read back once)', n, () => storedCRDCodec.encode(json));
  time('  decode (v1beta1 → the same v1 text)', n, () => storedCRDCodec.readText!(text));
  time('  before: Buffer.from(json) + toString()', n, () => Buffer.from(json, 'utf8').toString('utf8'));
}

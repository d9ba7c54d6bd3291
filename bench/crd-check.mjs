// CPU of a CRD create's validation over every corpus CRD, in-process (issue 19): each corpus CRD defaulted as the
// create's strategy does, then validateCRD with the server's schema checks (their memo included), so each distinct
// schema is checked once, as the first install of the corpus does. The figure is CPU time (user + system), not wall
// time: this machine is shared. Each run is a fresh process (cold caches and JIT, as a server's first installs).
//   npm run build && node bench/crd-check.mjs [runs]          median of the runs' CPU per corpus CRD
//   BENCH_CPU_PROF=file.cpuprofile node bench/crd-check.mjs --one   a profile of the checks alone (not of loading)
//   node --cpu-prof bench/crd-check.mjs --one                one run in this process (everything profiled)
// BENCH_DIST=<dir>: another build's dist/ (a base worktree's, for before/after in the same session).
import { spawnSync } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { corpusCrds as corpusCrdsAsParsed } from './corpus-crds.mjs';
import { startProfile } from './util.mjs';

const DIST = process.env.BENCH_DIST ? pathToFileURL(`${process.env.BENCH_DIST.replace(/\/$/, '')}/`) : new URL('../dist/', import.meta.url);

/** Every corpus CRD, as the server decodes a request body (JSON.parse), not as the YAML reader builds objects. */
const corpusCrds = () => corpusCrdsAsParsed().map((o) => JSON.parse(JSON.stringify(o)));

/** What the create strategy's prepareForCreate sets besides the defaults (src/crd/resource.ts). */
function prepareForCreate(crd) {
  crd.status = { acceptedNames: { plural: '', kind: '' } };
  crd.metadata.generation = 1;
  const storage = crd.spec.versions?.find((v) => v.storage);
  if (storage) crd.status.storedVersions = [storage.name];
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** One run in this process: { crds, ms } (CPU ms of defaulting and validating every corpus CRD once). */
async function once() {
  const { validateCRD } = await import(new URL('crd/validation.js', DIST));
  const { defaultCRDSpec } = await import(new URL('crd/defaults.js', DIST));
  const { crdSchemaValidator } = await import(new URL('crd/schema-checks.js', DIST));
  const crds = corpusCrds();
  const prof = process.env.BENCH_CPU_PROF ? await startProfile() : undefined;
  const t0 = cpuMs();
  let failed = 0;
  for (const crd of crds) {
    defaultCRDSpec(crd.spec);
    prepareForCreate(crd);
    if (validateCRD(crd, { validateSchemaStructure: crdSchemaValidator, requestVersion: 'v1' }).length > 0) failed++;
  }
  const ms = cpuMs() - t0;
  if (prof) await prof(process.env.BENCH_CPU_PROF);
  if (failed > 0) throw new Error(`${failed} corpus CRDs failed validation`);
  return { crds: crds.length, ms };
}

if (process.argv.includes('--one')) {
  console.log(JSON.stringify(await once()));
} else {
  const runs = Number(process.argv[2] ?? 5);
  const per = [];
  let crds = 0;
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--one'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    if (r.status !== 0) throw new Error(`run ${i} exited ${r.status}`);
    const o = JSON.parse(r.stdout.trim().split('\n').pop());
    crds = o.crds;
    per.push(o.ms);
  }
  const sorted = [...per].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  console.log(`${crds} corpus CRDs validated once each, ${runs} fresh processes: CPU ${median.toFixed(0)} ms (median; runs ${per.map((x) => x.toFixed(0)).join(', ')}), ${(median / crds).toFixed(2)} ms per CRD`);
}

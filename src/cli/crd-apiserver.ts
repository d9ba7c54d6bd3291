#!/usr/bin/env node
// The command line's entry: the bundle of main.js and every module of ours it imports (scripts/command-bundle.mjs:
// one file to load instead of about 470), compiled with V8's code cache beside it when there is a valid one
// (util/code-cache.ts). The build bundles this entry too, as CommonJS (dist/cli/crd-apiserver.cjs: what
// bin/crd-apiserver.cjs, npm start and the benchmarks run), so that starting it does not start Node's ES module loader.
import { fileURLToPath } from 'node:url';
import { runBundle } from '../util/code-cache.js';

runBundle(fileURLToPath(new URL('./crd-apiserver.bundle.cjs', import.meta.url)), fileURLToPath(new URL('./crd-apiserver.bundle.v8cache', import.meta.url)));

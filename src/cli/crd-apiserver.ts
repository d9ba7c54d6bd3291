#!/usr/bin/env node
// The command line's entry (bin/crd-apiserver.js, npm start, the benchmarks): the bundle of main.js and every module
// of ours it imports (scripts/command-bundle.mjs: one file to load instead of about 470), compiled with V8's code
// cache beside it when there is a valid one (util/code-cache.ts).
import { fileURLToPath } from 'node:url';
import { runBundle } from '../util/code-cache.js';

runBundle(fileURLToPath(new URL('./crd-apiserver.bundle.cjs', import.meta.url)), fileURLToPath(new URL('./crd-apiserver.bundle.v8cache', import.meta.url)));

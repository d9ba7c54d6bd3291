// crd-apiserver/testing as the package exports it: the test kit (index.ts and everything it imports of ours) bundled
// into one CommonJS file by the build (scripts/command-bundle.mjs) and compiled with V8's code cache beside it, as
// the command line is (src/util/code-cache.ts). A test file is a process of its own under most runners, so every one
// of them paid for loading about 470 modules and compiling, cold, what a start and a CRD install run: a third of a
// second before its first environment on this 2-core machine. The cache is made when a process's first environment
// is ready, so it holds those functions compiled. The bundle also remembers which CRD schemas passed their checks
// (bundle-entry.ts), per build, for the next process.
import { fileURLToPath } from 'node:url';
import { TEST_ENV_READY_EVENT, cacheHeader, loadBundle } from '../util/code-cache.js';
import type * as Kit from './bundle-entry.js';

const bundle = fileURLToPath(new URL('./testing.bundle.cjs', import.meta.url));
const kit = loadBundle(bundle, fileURLToPath(new URL('./testing.bundle.v8cache', import.meta.url)), TEST_ENV_READY_EVENT) as typeof Kit;
// CRD schemas that passed their checks in this build are not checked again by the next test process.
kit.rememberSchemaChecks(cacheHeader(bundle));

export const startTestEnv: typeof Kit.startTestEnv = kit.startTestEnv;
export type { TestEnv, TestEnvOptions, WebhookOptions, WebhookServing } from './index.js';

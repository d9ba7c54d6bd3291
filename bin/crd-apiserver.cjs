#!/usr/bin/env node
// The command line as one bundled file (scripts/command-bundle.mjs), run by a CommonJS entry: a fraction of the
// modules' load time, and no ES module loader to start.
require('../dist/cli/crd-apiserver.cjs');

#!/usr/bin/env node
// The command line as one bundled file (scripts/command-bundle.mjs): a fraction of the modules' load time.
import '../dist/cli/crd-apiserver.js';

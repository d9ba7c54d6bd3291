#!/usr/bin/env node
// Writes policy/rbac-bootstrap/policy.json: the vendored YAML files of kube's bootstrap RBAC policy, parsed
// once with the `yaml` package, so that the server reads JSON at every start (parsing the YAML took
// 100-400 ms). test/auth/bootstrap-policy-files.test.ts fails when the JSON no longer matches the YAML.
// Run after changing a YAML file: node scripts/rbac-bootstrap-json.mjs
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { parse } from 'yaml';

const dir = new URL('../policy/rbac-bootstrap/', import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith('.yaml')).sort();
const out = Object.fromEntries(files.map((f) => [f, parse(readFileSync(new URL(f, dir), 'utf8'))]));
writeFileSync(new URL('policy.json', dir), JSON.stringify(out) + '\n');
console.log(`policy/rbac-bootstrap/policy.json: ${files.join(', ')}`);

// semanticEqualLarge (a key-for-key equality tried first) answers as semanticEqual's walk by Go type does: corpus
// schemas against each other and against copies with keys reordered, a leaf changed, nulls added, a bigint.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { ValidationPtrType, semanticEqual, semanticEqualLarge } from '../../src/crd/go-types.js';
import type { CustomResourceDefinition } from '../../src/crd/types.js';
import { CORPUS } from '../shared-paths.js';

function reordered(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reordered);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(Object.entries(v).reverse().map(([k, x]) => [k, reordered(x)]));
}

/** v with the first string leaf found changed, or a null field added to every object (both per `how`). */
function altered(v: unknown, how: 'leaf' | 'nulls'): unknown {
  let done = false;
  const walk = (x: unknown): unknown => {
    if (Array.isArray(x)) return x.map(walk);
    if (typeof x === 'string' && how === 'leaf' && !done) {
      done = true;
      return `${x}!`;
    }
    if (typeof x !== 'object' || x === null) return x;
    const out = Object.fromEntries(Object.entries(x).map(([k, y]) => [k, walk(y)]));
    return how === 'nulls' ? { ...out, description: (out as Record<string, unknown>)['description'] ?? null } : out;
  };
  return walk(v);
}

const schemas: unknown[] = [];
for (const project of readdirSync(CORPUS, { withFileTypes: true }).filter((d) => d.isDirectory()).slice(0, 6)) {
  let files: string[] = [];
  try {
    files = readdirSync(`${CORPUS}/${project.name}/crds`).filter((f) => f.endsWith('.yaml')).slice(0, 3);
  } catch {
    continue;
  }
  for (const f of files) {
    const crd = parse(readFileSync(`${CORPUS}/${project.name}/crds/${f}`, 'utf8')) as CustomResourceDefinition;
    for (const v of crd.spec?.versions ?? []) if (v.schema) schemas.push(v.schema);
  }
}

test('semanticEqualLarge answers as semanticEqual', () => {
  assert.ok(schemas.length >= 10, `${schemas.length} schemas`);
  let equal = 0;
  for (const [i, a] of schemas.entries()) {
    const others = [schemas[(i + 1) % schemas.length], structuredClone(a), reordered(a), altered(a, 'leaf'), altered(a, 'nulls'), { openAPIV3Schema: { type: 'object', maxProperties: 3n } }];
    for (const b of others) {
      const want = semanticEqual(a, b, ValidationPtrType);
      assert.equal(semanticEqualLarge(a, b, ValidationPtrType), want);
      assert.equal(semanticEqualLarge(b, a, ValidationPtrType), want);
      if (want) equal++;
    }
  }
  // Copies and reordered copies at least are equal (null padding adds properties where it pads a properties map).
  assert.ok(equal >= schemas.length * 2, `${equal} equal of ${schemas.length}`);
  assert.equal(semanticEqualLarge({ openAPIV3Schema: { maxProperties: 3n } }, { openAPIV3Schema: { maxProperties: 3 } }, ValidationPtrType), true);
});

// The source folders depend one way, as graphql-js keeps its layers: a folder imports only from folders
// below it in LAYERS, and no module imports itself through a cycle. Type-only imports count too: a type
// that a lower folder needs from a higher one is in the wrong folder.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const SRC = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'src');

/** Lowest first; folders on one line are peers and may not import each other. */
const LAYERS: string[][] = [
  ['util'],
  ['api'],
  ['storage', 'audit'], // audit: policy, backends (log, webhook, buffered, truncate) and the per-request record (nothing of ours below it)
  ['schema'],
  ['cel', 'smd'], // smd: structured-merge-diff (field sets, managed fields)
  ['conversion'],
  ['registry'],
  ['controllers'],
  ['crd'],
  ['apis'], // built-in kinds: the CRD kind's strategy comes from crd/
  ['admission', 'auth'],
  ['server'],
  ['testing'], // the test kit: the server with state in memory, CRDs and webhooks installed
  ['cli'],
  ['.'], // src/index.ts, the package's entry
];
const levelOf = new Map(LAYERS.flatMap((folders, i) => folders.map((f) => [f, i] as const)));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? sourceFiles(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?from\s*['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

/** Module (path relative to src, .ts) → the modules it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const text = readFileSync(file, 'utf8');
    const deps: string[] = [];
    for (const m of text.matchAll(IMPORT)) {
      const spec = (m[1] ?? m[2])!;
      deps.push(relative(SRC, normalize(join(dirname(file), spec))).replace(/\.js$/, '.ts'));
    }
    graph.set(relative(SRC, file), deps);
  }
  return graph;
}

const folderOf = (module: string): string => (module.includes('/') ? module.slice(0, module.indexOf('/')) : '.');

test('every source folder has a layer', () => {
  const folders = new Set([...importGraph().keys()].map(folderOf));
  assert.deepEqual([...folders].filter((f) => !levelOf.has(f)), []);
});

test('folders import only from lower layers', () => {
  const violations: string[] = [];
  for (const [module, deps] of importGraph()) {
    const from = folderOf(module);
    for (const dep of deps) {
      const to = folderOf(dep);
      if (to !== from && !(levelOf.get(to)! < levelOf.get(from)!)) violations.push(`${module} -> ${dep}`);
    }
  }
  assert.deepEqual(violations, []);
});

test('no module imports itself through a cycle', () => {
  const graph = importGraph();
  // Tarjan's strongly connected components: any component of more than one module is a cycle.
  let index = 0;
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const cycles: string[][] = [];
  const visit = (v: string): void => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1) cycles.push(comp.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  assert.deepEqual(cycles, []);
});

test('the graph is read correctly: known edges are found', () => {
  const graph = importGraph();
  assert.ok(graph.get('server/server.ts')?.includes('registry/store.ts'));
  assert.ok(graph.get('registry/store.ts')?.includes('storage/types.ts'));
});

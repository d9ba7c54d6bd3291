// `npm start` (scripts/start.mjs) runs tsc and bundles the console and the command line only when a source changed
// since the last build, then serve (the bundled command line) with the given flags. Tested on a tiny copy: the real scripts, a one-file "main" that prints its
// arguments, a one-file console.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('../..', import.meta.url));

function copy(): string {
  const root = mkdtempSync(join(tmpdir(), 'crd-apiserver-start-'));
  cpSync(join(repo, 'scripts'), join(root, 'scripts'), { recursive: true });
  symlinkSync(join(repo, 'node_modules'), join(root, 'node_modules'));
  writeFileSync(join(root, 'package.json'), '{"type":"module"}\n');
  writeFileSync(
    join(root, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', strict: true, skipLibCheck: true, types: ['node'], rootDir: '.', outDir: 'dist' }, include: ['src'] }),
  );
  writeFileSync(join(root, 'tsconfig.build.json'), JSON.stringify({ extends: './tsconfig.json', compilerOptions: { rootDir: 'src', outDir: 'dist' }, include: ['src'] }));
  mkdirSync(join(root, 'src', 'cli'), { recursive: true });
  writeFileSync(join(root, 'src', 'cli', 'main.ts'), "import { word } from './word.js';\nprocess.stdout.write(JSON.stringify([word, ...process.argv.slice(2)]));\n");
  writeFileSync(join(root, 'src', 'cli', 'word.ts'), "export const word: string = 'one';\n");
  // The real entry, which runs the bundle through the code cache.
  cpSync(join(repo, 'src', 'cli', 'crd-apiserver.ts'), join(root, 'src', 'cli', 'crd-apiserver.ts'));
  mkdirSync(join(root, 'src', 'util'));
  cpSync(join(repo, 'src', 'util', 'code-cache.ts'), join(root, 'src', 'util', 'code-cache.ts'));
  // The build bundles the test kit too (dist/testing/testing.bundle.cjs).
  mkdirSync(join(root, 'src', 'testing'));
  writeFileSync(join(root, 'src', 'testing', 'bundle-entry.ts'), 'export const startTestEnv = (): string => "kit";\n');
  mkdirSync(join(root, 'console'));
  writeFileSync(join(root, 'console', 'main.tsx'), "document.title = 'one';\n");
  return root;
}

function start(root: string): { code: number | null; built: boolean; stderr: string; argv: unknown } {
  const r = spawnSync(process.execPath, [join(root, 'scripts', 'start.mjs'), '--secure-port', '0'], { cwd: root, encoding: 'utf8' });
  return { code: r.status, built: r.stderr.includes('building dist/'), stderr: r.stderr, argv: r.stdout ? JSON.parse(r.stdout) : undefined };
}

test('npm start builds when there is no build or a source changed, and not otherwise', () => {
  const root = copy();
  try {
    let r = start(root);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /building dist\/ \(no build yet\)/);
    assert.deepEqual(r.argv, ['one', 'serve', '--secure-port', '0']);

    r = start(root);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.built, false, r.stderr);

    // An edited source (its mtime after the build's start) is rebuilt and what runs is the new code.
    writeFileSync(join(root, 'src', 'cli', 'word.ts'), "export const word: string = 'two';\n");
    r = start(root);
    assert.match(r.stderr, /building dist\/ \(sources changed since the last build\)/);
    assert.deepEqual(r.argv, ['two', 'serve', '--secure-port', '0']);
    assert.equal(start(root).built, false);
    // What ran is the bundle, with the edited module inside it.
    assert.match(readFileSync(join(root, 'dist', 'cli', 'crd-apiserver.bundle.cjs'), 'utf8'), /'two'|"two"/);

    // The console is bundled into dist/console/, and rebuilt when its sources change.
    assert.match(readFileSync(join(root, 'dist', 'console', 'console.js'), 'utf8'), /one/);
    writeFileSync(join(root, 'console', 'main.tsx'), "document.title = 'two';\n");
    assert.equal(start(root).built, true);
    assert.match(readFileSync(join(root, 'dist', 'console', 'console.js'), 'utf8'), /two/);

    // A tsconfig change counts as well.
    const now = new Date();
    utimesSync(join(root, 'tsconfig.json'), now, now);
    assert.equal(start(root).built, true);

    // A type error: tsc's exit code, and the server is not started from a half-right dist/.
    writeFileSync(join(root, 'src', 'cli', 'word.ts'), 'export const word: string = 2;\n');
    r = start(root);
    assert.notEqual(r.code, 0);
    assert.equal(r.argv, undefined);
    // Still stale afterwards: the failed build left no stamp behind.
    writeFileSync(join(root, 'src', 'cli', 'word.ts'), "export const word: string = 'three';\n");
    r = start(root);
    assert.equal(r.built, true);
    assert.deepEqual(r.argv, ['three', 'serve', '--secure-port', '0']);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('a deleted source makes the build stale (the directory changed)', () => {
  const root = copy();
  try {
    writeFileSync(join(root, 'src', 'cli', 'extra.ts'), 'export const x = 1;\n');
    assert.equal(start(root).built, true);
    assert.equal(start(root).built, false);
    // The directory's mtime is what records a removal.
    unlinkSync(join(root, 'src', 'cli', 'extra.ts'));
    assert.equal(start(root).built, true);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { backupName, openLogWriter } from '../../src/audit/log-writer.js';

test('lines are appended in order, off the caller\'s path, and are all in the file after flush', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'audit-'));
  try {
    const w = openLogWriter({ path: join(dir, 'logs', 'audit.log') });
    for (let i = 0; i < 100; i++) w.write(JSON.stringify({ i }));
    await w.flush();
    w.write(JSON.stringify({ i: 100 }));
    await w.close();
    const lines = readFileSync(join(dir, 'logs', 'audit.log'), 'utf8').trimEnd().split('\n');
    assert.deepEqual(lines.map((l) => (JSON.parse(l) as { i: number }).i), Array.from({ length: 101 }, (_, i) => i));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('backup names are lumberjack\'s: <name>-<UTC 2006-01-02T15-04-05.000>.<ext>', () => {
  assert.equal(backupName('/var/log/audit.log', new Date('2026-11-26T15:00:00.000Z')), '/var/log/audit-2026-11-26T15-00-00.000.log');
});

test('rotation by size keeps no file over the limit, and at most maxBackups backups', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'audit-'));
  try {
    const file = join(dir, 'audit.log');
    let t = Date.parse('2026-11-26T15:00:00.000Z');
    // An old backup, which the age limit removes at the first rotation.
    writeFileSync(join(dir, 'audit-2026-01-01T00-00-00.000.log'), 'old\n');
    const w = openLogWriter({ path: file, maxSizeBytes: 100, maxBackups: 3, maxAgeDays: 30, now: () => new Date((t += 1000)) });
    const line = 'x'.repeat(39); // 40 bytes with its newline: two per file
    for (let i = 0; i < 11; i++) {
      w.write(`${line.slice(0, 37)}${String(i).padStart(2, '0')}`);
      if (i % 3 === 0) await w.flush();
    }
    await w.close();
    const files = readdirSync(dir).sort();
    assert.deepEqual(files, ['audit-2026-11-26T15-00-05.000.log', 'audit-2026-11-26T15-00-07.000.log', 'audit-2026-11-26T15-00-09.000.log', 'audit.log']);
    for (const f of files) assert.ok(readFileSync(join(dir, f)).length <= 100, f);
    // Five rotations (the clock ticks at each rotation and each pruning); the three newest backups stay.
    // The newest lines are in the live file, the ones before them in the newest backup.
    assert.deepEqual(readFileSync(file, 'utf8').trimEnd().split('\n').map((l) => l.slice(-2)), ['10']);
    assert.deepEqual(readFileSync(join(dir, files[2]!), 'utf8').trimEnd().split('\n').map((l) => l.slice(-2)), ['08', '09']);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

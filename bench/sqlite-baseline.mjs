// The storage baseline: raw better-sqlite3 in its own process, WAL with synchronous=NORMAL, a 1 KB
// value per row. Measures single-row commits/s (each INSERT its own transaction) and rows/s in
// transactions of 100, and single-row commits with synchronous=FULL. Receives { path, durationMs },
// replies { single, batched100, singleFull } (rows/s).
import Database from 'better-sqlite3';

process.once('message', ({ path, durationMs }) => {
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
  const insert = db.prepare('INSERT INTO kv (key, value) VALUES (?, ?)');
  const value = 'x'.repeat(1024);
  let n = 0;

  const single = () => {
    const start = performance.now();
    const end = start + durationMs;
    let rows = 0;
    while (performance.now() < end) {
      for (let i = 0; i < 100; i++) insert.run(`/registry/k/${n++}`, value);
      rows += 100;
    }
    return rows / ((performance.now() - start) / 1000);
  };
  const batch = db.transaction(() => {
    for (let i = 0; i < 100; i++) insert.run(`/registry/k/${n++}`, value);
  });
  const batched = () => {
    const start = performance.now();
    const end = start + durationMs / 2;
    let rows = 0;
    while (performance.now() < end) {
      batch();
      rows += 100;
    }
    return rows / ((performance.now() - start) / 1000);
  };

  const result = { single: single(), batched100: batched() };
  db.close();
  // The same single-row commits with an fsync each (synchronous=FULL, our default): the disk's fsync rate.
  const full = new Database(`${path}-full`);
  full.pragma('journal_mode = WAL');
  full.pragma('synchronous = FULL');
  full.exec('CREATE TABLE kv (key TEXT PRIMARY KEY, value TEXT NOT NULL)');
  const insertFull = full.prepare('INSERT INTO kv (key, value) VALUES (?, ?)');
  const start = performance.now();
  let rows = 0;
  while (performance.now() < start + durationMs / 2) insertFull.run(`/registry/k/${rows++}`, value);
  result.singleFull = rows / ((performance.now() - start) / 1000);
  full.close();
  process.send(result, () => process.exit(0));
});

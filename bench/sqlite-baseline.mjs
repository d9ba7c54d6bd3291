// The storage baseline: raw better-sqlite3 in its own process, WAL with synchronous=NORMAL, a 1 KB
// value per row. Measures single-row commits/s (each INSERT its own transaction) and rows/s in
// transactions of 100. Receives { path, durationMs }, replies { single, batched100 } (rows/s).
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
  process.send(result, () => process.exit(0));
});

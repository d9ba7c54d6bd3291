// How `snapshot save` reaches a server that is serving the data directory: the server holds SQLite's
// exclusive lock on state.db (one writer owns the revision counter), so no other process can read the file.
// Instead the server listens on a Unix socket in the data directory (0700, as the directory is; the socket
// itself 0600) and writes the snapshot itself, as etcd's Maintenance.Snapshot call streams one from the
// running member. One request per connection: a JSON line {"save": "/absolute/path"}, answered by a JSON
// line {"revision": N} or {"error": "..."}.
import { createServer, createConnection, type Server } from 'node:net';
import { chmodSync, rmSync } from 'node:fs';

export const SNAPSHOT_SOCKET = 'snapshot.sock';

/** Writes a consistent copy of the store to a path; resolves to the revision it holds. */
export type BackupFn = (dest: string) => Promise<number>;

export interface SnapshotListener {
  close(): Promise<void>;
}

/**
 * Listen at socketPath. A socket file left by a server that died is removed first: the caller holds the
 * database's lock, so no live server can be listening there.
 */
export async function listenForSnapshots(socketPath: string, backup: BackupFn): Promise<SnapshotListener> {
  rmSync(socketPath, { force: true });
  const server: Server = createServer((conn) => {
    let buf = '';
    conn.setEncoding('utf8');
    conn.on('error', () => {});
    conn.on('data', (d: string) => {
      buf += d;
      const nl = buf.indexOf('\n');
      if (nl < 0) {
        if (buf.length > 64 * 1024) conn.destroy();
        return;
      }
      conn.pause();
      let dest: unknown;
      try {
        dest = (JSON.parse(buf.slice(0, nl)) as { save?: unknown }).save;
      } catch {
        dest = undefined;
      }
      const reply = (o: object): void => void conn.end(`${JSON.stringify(o)}\n`);
      if (typeof dest !== 'string' || !dest.startsWith('/')) return reply({ error: 'want {"save": "/absolute/path"}' });
      backup(dest).then(
        (revision) => reply({ revision }),
        (err: unknown) => reply({ error: err instanceof Error ? err.message : String(err) }),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(socketPath, () => {
      server.off('error', reject);
      resolve();
    });
  });
  chmodSync(socketPath, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        rmSync(socketPath, { force: true });
      }),
  };
}

/**
 * Ask the server listening at socketPath for a snapshot at dest (absolute). Undefined when nobody listens
 * there (no socket file, or one a dead server left); a server's refusal is thrown.
 */
export function requestSnapshot(socketPath: string, dest: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const conn = createConnection(socketPath);
    let buf = '';
    let connected = false;
    conn.setEncoding('utf8');
    conn.on('connect', () => {
      connected = true;
      conn.write(`${JSON.stringify({ save: dest })}\n`);
    });
    conn.on('data', (d: string) => (buf += d));
    conn.on('error', (err: NodeJS.ErrnoException) => {
      if (!connected && (err.code === 'ENOENT' || err.code === 'ECONNREFUSED')) resolve(undefined);
      else reject(err);
    });
    conn.on('end', () => {
      let answer: { revision?: unknown; error?: unknown };
      try {
        answer = JSON.parse(buf) as typeof answer;
      } catch {
        return reject(new Error(`the server at ${socketPath} answered ${JSON.stringify(buf)}`));
      }
      if (typeof answer.revision === 'number') resolve(answer.revision);
      else reject(new Error(`the server could not save the snapshot: ${String(answer.error)}`));
    });
  });
}

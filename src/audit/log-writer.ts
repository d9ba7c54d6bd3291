// The audit log backend (plugin/pkg/audit/log over lumberjack): events as JSON lines, appended off the
// request path by a buffered writer, the file rotated by size into `<name>-<UTC time>.<ext>` backups, of
// which at most maxBackups (and none older than maxAgeDays) are kept.
import { promises as fsp } from 'node:fs';
import * as path from 'node:path';
import type { AuditBackend } from './backend.js';

export interface LogWriterOptions {
  path: string;
  /** --audit-log-maxsize in bytes (kube's flag is in MB); 0: never rotate. */
  maxSizeBytes?: number;
  /** --audit-log-maxbackup; 0: keep every backup. */
  maxBackups?: number;
  /** --audit-log-maxage in days; 0: no age limit. */
  maxAgeDays?: number;
  /** The clock for backup names (tests pin it). */
  now?: () => Date;
}

export interface LogWriter {
  /** Queues one line (without its newline); returns at once. */
  write(line: string): void;
  /** Resolves once everything queued so far is in the file. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export function openLogWriter(o: LogWriterOptions): LogWriter {
  const maxSize = o.maxSizeBytes ?? 0;
  const now = o.now ?? (() => new Date());
  let queue: string[] = [];
  let size: number | undefined;
  let running: Promise<void> = Promise.resolve();
  let scheduled = false;

  const drain = async (): Promise<void> => {
    scheduled = false;
    const lines = queue;
    queue = [];
    if (lines.length === 0) return;
    await fsp.mkdir(path.dirname(o.path), { recursive: true });
    size ??= await fsp.stat(o.path).then((s) => s.size, () => 0);
    // Lines are written in chunks that fit the current file, rotating between them as lumberjack does.
    let chunk = '';
    for (const l of lines) {
      const line = l + '\n';
      const n = Buffer.byteLength(line);
      if (maxSize > 0 && size + Buffer.byteLength(chunk) + n > maxSize && size + Buffer.byteLength(chunk) > 0) {
        if (chunk) await fsp.appendFile(o.path, chunk);
        chunk = '';
        await rotate();
        size = 0;
      }
      chunk += line;
    }
    if (chunk) {
      await fsp.appendFile(o.path, chunk);
      size += Buffer.byteLength(chunk);
    }
  };

  const rotate = async (): Promise<void> => {
    await fsp.rename(o.path, backupName(o.path, now())).catch(() => undefined);
    await prune();
  };

  const prune = async (): Promise<void> => {
    if (!o.maxBackups && !o.maxAgeDays) return;
    const dir = path.dirname(o.path);
    const { prefix, ext } = nameParts(o.path);
    const backups = (await fsp.readdir(dir))
      .filter((f) => f.startsWith(prefix) && f.endsWith(ext) && f !== path.basename(o.path))
      .map((f) => ({ f, t: parseBackupTime(f.slice(prefix.length, f.length - ext.length)) }))
      .filter((b): b is { f: string; t: number } => b.t !== undefined)
      .sort((a, b) => b.t - a.t);
    const cutoff = o.maxAgeDays ? now().getTime() - o.maxAgeDays * 86_400_000 : -Infinity;
    for (const [i, b] of backups.entries()) {
      if ((o.maxBackups && i >= o.maxBackups) || b.t < cutoff) await fsp.rm(path.join(dir, b.f), { force: true });
    }
  };

  const flush = (): Promise<void> => {
    running = running.then(drain).catch((e: unknown) => console.error('audit log write failed:', e));
    return running;
  };

  return {
    write(line) {
      queue.push(line);
      if (!scheduled) {
        scheduled = true;
        setImmediate(() => void flush());
      }
    },
    flush,
    close: flush,
  };
}

function nameParts(file: string): { prefix: string; ext: string } {
  const base = path.basename(file);
  const ext = path.extname(base);
  return { prefix: base.slice(0, base.length - ext.length) + '-', ext };
}

/** lumberjack's backup name: the name, `-`, the UTC time as 2006-01-02T15-04-05.000, the extension. */
export function backupName(file: string, t: Date): string {
  const { prefix, ext } = nameParts(file);
  const stamp = t.toISOString().slice(0, 23).replace(/:/g, '-');
  return path.join(path.dirname(file), prefix + stamp + ext);
}

function parseBackupTime(stamp: string): number | undefined {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2})-(\d{2})-(\d{2})\.(\d{3})$/.exec(stamp);
  return m ? Date.parse(`${m[1]}T${m[2]}:${m[3]}:${m[4]}.${m[5]}Z`) : undefined;
}

/** The log as an audit backend: each event one JSON line, appended off the request path. */
export function logBackend(writer: LogWriter): AuditBackend {
  return {
    name: 'log',
    processEvents(events) {
      for (const ev of events) writer.write(JSON.stringify(ev));
      return true;
    },
    shutdown: () => writer.close(),
  };
}

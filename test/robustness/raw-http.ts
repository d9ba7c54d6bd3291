// A raw HTTP/1.1 client over TCP for the robustness tests: it can stop reading, send a body slowly, or
// send oversized headers, which fetch cannot.
import net from 'node:net';

export function connect(url: string): Promise<net.Socket> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const s = net.connect(Number(u.port), u.hostname, () => resolve(s));
    s.once('error', reject);
  });
}

/** Resolves with everything the server sent once the connection closes (or `ms` pass: then it is destroyed). */
export function readUntilClosed(s: net.Socket, ms = 5000): Promise<{ data: string; closed: boolean }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      s.destroy();
      resolve({ data: Buffer.concat(chunks).toString('latin1'), closed: false });
    }, ms);
    s.on('data', (c: Buffer) => chunks.push(c));
    s.on('error', () => {});
    s.once('close', () => {
      clearTimeout(timer);
      resolve({ data: Buffer.concat(chunks).toString('latin1'), closed: true });
    });
    s.resume();
  });
}

/** The status line and headers of the first response in `raw`. */
export function parseHead(raw: string): { status: number; headers: Map<string, string>; body: string } {
  const end = raw.indexOf('\r\n\r\n');
  const lines = raw.slice(0, end).split('\r\n');
  const headers = new Map<string, string>();
  for (const l of lines.slice(1)) {
    const i = l.indexOf(':');
    headers.set(l.slice(0, i).toLowerCase(), l.slice(i + 1).trim());
  }
  return { status: Number(lines[0]!.split(' ')[1]), headers, body: raw.slice(end + 4) };
}

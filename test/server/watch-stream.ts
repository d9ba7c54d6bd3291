// Reading a watch response over HTTP one event at a time, for the watch tests.
import assert from 'node:assert/strict';
import type { Api } from './helpers.js';

export interface Stream {
  next(): Promise<any>;
  close(): void;
  ended: Promise<void>;
}

/** A watch request read event by event. */
export async function openWatch(api: Api, path: string, headers: Record<string, string> = {}): Promise<Stream> {
  const ctrl = new AbortController();
  const res = await fetch(api.url + path, { signal: ctrl.signal, headers });
  assert.equal(res.status, 200);
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  let buf = '';
  const queue: any[] = [];
  let wake: (() => void) | undefined;
  let done = false;
  const ended = (async () => {
    try {
      for (;;) {
        const { value, done: d } = await reader.read();
        if (d) break;
        buf += decoder.decode(value, { stream: true });
        let nl;
        while ((nl = buf.indexOf('\n')) >= 0) {
          const line = buf.slice(0, nl);
          buf = buf.slice(nl + 1);
          if (line.trim()) queue.push(JSON.parse(line));
        }
        wake?.();
      }
    } catch {
      // aborted
    } finally {
      done = true;
      wake?.();
    }
  })();
  return {
    async next() {
      const deadline = Date.now() + 5000;
      while (queue.length === 0) {
        if (done) throw new Error('stream ended');
        if (Date.now() > deadline) throw new Error('no event within 5s');
        await new Promise<void>((r) => {
          wake = r;
          setTimeout(r, 50);
        });
      }
      return queue.shift();
    },
    close: () => ctrl.abort(),
    ended,
  };
}

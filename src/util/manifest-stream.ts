// readManifests on a worker thread, file by file: the caller acts on the first files (the test kit installs
// CRDs) while the worker parses the rest. Parsing YAML is most of a test environment's start with the large
// CRDs projects ship (4 MB for 20 of the corpus's), and it needs no state of the caller's.
import { Worker } from 'node:worker_threads';

/** One object of a manifest file, as JSON text, with what a caller checks before sending it on. */
export interface ManifestText {
  file: string;
  /** The document's index in the file. */
  document: number;
  kind: unknown;
  apiVersion: unknown;
  /** metadata.name, '' when absent. */
  name: string;
  json: string;
}

export type ManifestWorkerMessage = { docs: ManifestText[] } | { done: true } | { error: unknown };

export interface ManifestReading {
  /** The objects in readManifests' order; throws readManifests' error when a file cannot be read or parsed. */
  manifests: AsyncIterable<ManifestText>;
  /** Ends the worker (when the objects are no longer wanted). */
  close(): Promise<void>;
}

/** The worker, from dist/; under tsx (the tests) it is TypeScript, and Node 20 gives a worker none of tsx's hooks. */
function startWorker(workerData: unknown): Worker {
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('./manifest-worker.js', import.meta.url), { workerData });
  const worker = JSON.stringify(new URL('./manifest-worker.ts', import.meta.url).href);
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  return new Worker(`import(${tsx}).then((m) => m.register()).then(() => import(${worker}))`, { eval: true, workerData });
}

/** Starts reading now, in a worker; the objects come as each file is parsed. */
export function readManifestsInWorker(paths: readonly string[]): ManifestReading {
  const worker = startWorker({ paths: [...paths] });
  const queue: Array<ManifestWorkerMessage | { exit: number }> = [];
  let wake: (() => void) | undefined;
  const push = (m: ManifestWorkerMessage | { exit: number }): void => {
    queue.push(m);
    wake?.();
  };
  worker.on('message', push);
  worker.on('error', (error) => push({ error }));
  worker.on('exit', (code) => push({ exit: code }));
  async function* manifests(): AsyncGenerator<ManifestText> {
    for (;;) {
      while (queue.length === 0) await new Promise<void>((r) => (wake = r));
      wake = undefined;
      const m = queue.shift()!;
      if ('error' in m) throw m.error;
      if ('exit' in m) throw new Error(`reading manifests: the worker exited with code ${m.exit}`);
      if ('done' in m) return;
      yield* m.docs;
    }
  }
  return { manifests: manifests(), close: async () => void (await worker.terminate()) };
}

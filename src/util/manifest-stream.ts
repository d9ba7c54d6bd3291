// readManifests on a worker thread, file by file: the caller acts on the first files (the test kit installs
// CRDs) while the worker parses the rest. Parsing YAML is most of a test environment's start with the large
// CRDs projects ship (4 MB for 20 of the corpus's), and it needs no state of the caller's. One worker serves
// the process's readings one after another and ends once idle for a while, so a test file that starts several
// environments parses with a warmed-up parser; it never keeps the process alive.
import type { Worker } from 'node:worker_threads';
import { PACKAGE_ROOT } from './package-root.js';
import { lazyBuiltin } from './lazy-builtin.js';
import { defaultManifestCacheDir, type ManifestText } from './manifest-cache.js';

export type { ManifestText } from './manifest-cache.js';

/** A reading asked of the worker, and what it answers for it. */
export interface ManifestWorkerRequest {
  id: number;
  paths: string[];
  /** Where parsed files are remembered (manifest-cache.ts); none when undefined. */
  cacheDir: string | undefined;
}
export type ManifestWorkerMessage = { id: number } & ({ docs: ManifestText[] } | { done: true } | { error: unknown });

export interface ManifestReading {
  /** The objects in readManifests' order; throws readManifests' error when a file cannot be read or parsed. */
  manifests: AsyncIterable<ManifestText>;
  /** Stops listening (when the objects are no longer wanted). */
  close(): Promise<void>;
}

type Event = { docs: ManifestText[] } | { done: true } | { error: unknown };

/** How long the worker waits for another reading before it ends. */
const IDLE_MS = 10_000;

const workerThreads = lazyBuiltin<typeof import('node:worker_threads')>('node:worker_threads');

/** The worker, from dist/; under tsx (the tests) it is TypeScript, and Node 20 gives a worker none of tsx's hooks. */
function startWorker(): Worker {
  const { Worker } = workerThreads();
  if (!import.meta.url.endsWith('.ts')) return new Worker(new URL('dist/util/manifest-worker.js', PACKAGE_ROOT));
  const worker = JSON.stringify(new URL('./manifest-worker.ts', import.meta.url).href);
  const tsx = JSON.stringify(import.meta.resolve('tsx/esm/api'));
  return new Worker(`import(${tsx}).then((m) => m.register()).then(() => import(${worker}))`, { eval: true });
}

class SharedWorker {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly readers = new Map<number, (e: Event) => void>();
  private idle: NodeJS.Timeout | undefined;

  /** Asks for a reading; its events go to onEvent until `forget`. */
  read(paths: string[], cacheDir: string | undefined, onEvent: (e: Event) => void): { forget(): void } {
    const worker = (this.worker ??= this.start());
    const id = ++this.nextId;
    this.readers.set(id, onEvent);
    clearTimeout(this.idle);
    worker.ref();
    worker.postMessage({ id, paths, cacheDir } satisfies ManifestWorkerRequest);
    return {
      forget: () => {
        if (!this.readers.delete(id) || this.readers.size > 0) return;
        // Nobody waits: the process may exit, and the worker ends unless asked again soon.
        worker.unref();
        this.idle = setTimeout(() => this.stop(worker), IDLE_MS).unref();
      },
    };
  }

  private start(): Worker {
    const worker = startWorker();
    worker.on('message', (m: ManifestWorkerMessage) => this.readers.get(m.id)?.(m));
    // The worker failed or ended: every reading under way fails, and the next starts another.
    const fail = (error: unknown): void => {
      if (this.worker === worker) this.worker = undefined;
      for (const r of [...this.readers.values()]) r({ error });
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`reading manifests: the worker exited with code ${code}`)));
    return worker;
  }

  private stop(worker: Worker): void {
    if (this.worker !== worker || this.readers.size > 0) return;
    this.worker = undefined;
    void worker.terminate();
  }
}

const shared = new SharedWorker();

/**
 * Starts reading now, in the worker; the objects come as each file is parsed. Parsed files are remembered in
 * cacheDir (default: defaultManifestCacheDir) for the next reading, in this process or another.
 */
export function readManifestsInWorker(paths: readonly string[], cacheDir: string | undefined = defaultManifestCacheDir()): ManifestReading {
  const queue: Event[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  const reading = shared.read([...paths], cacheDir, (e) => {
    if (ended) return;
    queue.push(e);
    if (!('docs' in e)) {
      ended = true;
      reading.forget();
    }
    wake?.();
  });
  async function* manifests(): AsyncGenerator<ManifestText> {
    for (;;) {
      while (queue.length === 0) await new Promise<void>((r) => (wake = r));
      wake = undefined;
      const e = queue.shift()!;
      if ('error' in e) throw e.error;
      if ('done' in e) return;
      yield* e.docs;
    }
  }
  return {
    manifests: manifests(),
    close: async () => {
      ended = true;
      reading.forget();
    },
  };
}

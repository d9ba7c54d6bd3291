// The worker thread of readManifestsInWorker: for each reading asked, reads the files the paths name one by
// one, posting each file's objects as JSON text as soon as it is parsed (or found in the parse cache), then
// `done`; or the error readManifests would have thrown. Readings are served in the order asked.
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';
import { manifestFiles, readManifestFile } from './manifests.js';
import { readManifestTexts } from './manifest-cache.js';
import type { ManifestWorkerMessage, ManifestWorkerRequest } from './manifest-stream.js';

const post = (m: ManifestWorkerMessage): void => parentPort!.postMessage(m);

/** Part of the cache's key: another parser may read the same bytes otherwise. */
const YAML_VERSION = String((createRequire(import.meta.url)('yaml/package.json') as { version: unknown }).version);

parentPort!.on('message', ({ id, paths, cacheDir }: ManifestWorkerRequest) => {
  try {
    for (const file of paths.flatMap(manifestFiles)) {
      post({ id, docs: readManifestTexts(file, cacheDir, YAML_VERSION, readManifestFile) });
    }
    post({ id, done: true });
  } catch (error) {
    post({ id, error });
  }
});

// The worker thread of readManifestsInWorker: for each reading asked, reads the files the paths name one by
// one, posting each file's objects as JSON text as soon as it is parsed, then `done`; or the error
// readManifests would have thrown. Readings are served in the order asked.
import { parentPort } from 'node:worker_threads';
import { manifestFiles, readManifestFile } from './manifests.js';
import { isObject } from './json.js';
import type { ManifestText, ManifestWorkerMessage, ManifestWorkerRequest } from './manifest-stream.js';

const post = (m: ManifestWorkerMessage): void => parentPort!.postMessage(m);

parentPort!.on('message', ({ id, paths }: ManifestWorkerRequest) => {
  try {
    for (const file of paths.flatMap(manifestFiles)) {
      const docs = readManifestFile(file).map((m): ManifestText => {
        const meta = m.object['metadata'];
        return {
          file: m.file,
          document: m.document,
          kind: m.object['kind'],
          apiVersion: m.object['apiVersion'],
          name: String((isObject(meta) ? meta['name'] : undefined) ?? ''),
          json: JSON.stringify(m.object),
        };
      });
      post({ id, docs });
    }
    post({ id, done: true });
  } catch (error) {
    post({ id, error });
  }
});

// The worker thread of readManifestsInWorker: reads the files the paths name, one by one, posting each file's
// objects as JSON text as soon as it is parsed, then `done`; or the error readManifests would have thrown.
import { parentPort, workerData } from 'node:worker_threads';
import { manifestFiles, readManifestFile } from './manifests.js';
import { isObject } from './json.js';
import type { ManifestText, ManifestWorkerMessage } from './manifest-stream.js';

const post = (m: ManifestWorkerMessage): void => parentPort!.postMessage(m);

try {
  for (const file of (workerData as { paths: string[] }).paths.flatMap(manifestFiles)) {
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
    post({ docs });
  }
  post({ done: true });
} catch (error) {
  post({ error });
}

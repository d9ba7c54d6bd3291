// Reading Kubernetes manifests as kubectl apply -f reads them: files or directories (walked recursively, .yaml,
// .yml and .json files, in name order), multi-document YAML, and `List` kinds flattened into their items.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { isObject, type JSONObject } from './json.js';

export interface Manifest {
  object: JSONObject;
  /** Where it came from: the file, and the document's index in it. */
  file: string;
  document: number;
}

const MANIFEST_FILE = /\.(ya?ml|json)$/i;

/** The manifest files a path names: the file itself, or a directory's manifest files, recursively, sorted. */
export function manifestFiles(path: string): string[] {
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path)
    .sort()
    .flatMap((name) => {
      const p = join(path, name);
      return statSync(p).isDirectory() ? manifestFiles(p) : MANIFEST_FILE.test(name) ? [p] : [];
    });
}

/** Every object in the files the paths name; throws on a document that is not YAML or JSON, naming the file. */
export function readManifests(paths: readonly string[]): Manifest[] {
  return paths.flatMap(manifestFiles).flatMap((f) => readManifestFile(f));
}

/** The objects of one manifest file (its text, when already read), as readManifests reads them. */
export function readManifestFile(file: string, text: string = readFileSync(file, 'utf8')): Manifest[] {
  const out: Manifest[] = [];
  const docs = parseAllDocuments(text);
  // parseAllDocuments answers an empty file with an empty list, and an error as a document's errors.
  for (const [i, doc] of (Array.isArray(docs) ? docs : [docs]).entries()) {
    if (doc.errors.length > 0) throw new Error(`${file}: document ${i + 1}: ${doc.errors[0]!.message}`);
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) continue;
    if (!isObject(value)) throw new Error(`${file}: document ${i + 1} is not an object`);
    const items = typeof value['kind'] === 'string' && value['kind'].endsWith('List') && Array.isArray(value['items']) ? value['items'] : [value];
    for (const item of items) if (isObject(item)) out.push({ object: item as JSONObject, file, document: i });
  }
  return out;
}

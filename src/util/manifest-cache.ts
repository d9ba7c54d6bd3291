// Parsed manifest files remembered on disk by their content. Parsing YAML is most of a test environment's start
// with the large CRDs projects ship (about a second for 20 of the corpus's, 4.9 MB), and a test suite starts
// environments over the same CRD files again and again, in one process and in many. The cache is addressed by a
// hash of the file's bytes and of the parser's version, so an edited file is simply a new entry, whatever its
// mtime says; an entry is written whole and renamed into place, so a reader never sees half of one.
//
// An entry holds each object as the JSON text the test kit sends, one line per document's facts followed by a
// line of its JSON (JSON.stringify writes no newlines), so a hit parses only the small lines.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isObject } from './json.js';
import { crdApiserverCacheDir, keepNewestFiles } from './cache-dir.js';
import type { Manifest } from './manifests.js';

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

/** Bump when what an entry holds, or how a file is read into objects, changes. */
const FORMAT = 'manifests-1';

/** Entries kept; past this, the least recently used go when one is added. */
const MAX_ENTRIES = 512;

/** Where parsed manifests are cached: manifests/ in crdApiserverCacheDir. */
export function defaultManifestCacheDir(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const dir = crdApiserverCacheDir(env);
  return dir === undefined ? undefined : join(dir, 'manifests');
}

/** The entry's name for a file's bytes as one parser version reads them. */
export function manifestCacheKey(bytes: Buffer, parserVersion: string): string {
  return createHash('sha256').update(`${FORMAT}\0${parserVersion}\0`).update(bytes).digest('hex');
}

type Facts = Omit<ManifestText, 'file' | 'json'>;

/** An entry's text for the objects of one file. */
export function encodeEntry(docs: readonly ManifestText[]): string {
  let out = '';
  for (const d of docs) out += `${JSON.stringify({ document: d.document, kind: d.kind, apiVersion: d.apiVersion, name: d.name } satisfies Facts)}\n${d.json}\n`;
  return out;
}

/** The objects an entry holds, for `file`; undefined when the text is not a whole entry. */
export function decodeEntry(text: string, file: string): ManifestText[] | undefined {
  if (text !== '' && !text.endsWith('\n')) return undefined;
  const lines = text.split('\n');
  lines.pop();
  if (lines.length % 2 !== 0) return undefined;
  const out: ManifestText[] = [];
  for (let i = 0; i < lines.length; i += 2) {
    let facts: unknown;
    try {
      facts = JSON.parse(lines[i]!);
    } catch {
      return undefined;
    }
    if (!isObject(facts) || typeof facts['document'] !== 'number' || typeof facts['name'] !== 'string') return undefined;
    const json = lines[i + 1]!;
    if (!json.startsWith('{') || !json.endsWith('}')) return undefined;
    out.push({ file, document: facts['document'], kind: facts['kind'], apiVersion: facts['apiVersion'], name: facts['name'], json });
  }
  return out;
}

/** A manifest as the test kit sends it. */
export function manifestText(m: Manifest): ManifestText {
  const meta = m.object['metadata'];
  return {
    file: m.file,
    document: m.document,
    kind: m.object['kind'],
    apiVersion: m.object['apiVersion'],
    name: String((isObject(meta) ? meta['name'] : undefined) ?? ''),
    json: JSON.stringify(m.object),
  };
}

/**
 * The objects of one manifest file, from the cache when its bytes were parsed before, else parsed by `parse` and
 * remembered. The cache is a convenience: one that cannot be read or written is as if there were none.
 */
export function readManifestTexts(file: string, dir: string | undefined, parserVersion: string, parse: (file: string, text: string) => Manifest[]): ManifestText[] {
  const bytes = readFileSync(file);
  if (!dir) return parse(file, bytes.toString('utf8')).map(manifestText);
  const key = manifestCacheKey(bytes, parserVersion);
  const path = join(dir, key);
  const hit = readEntry(path, file);
  if (hit) return hit;
  const docs = parse(file, bytes.toString('utf8')).map(manifestText);
  writeEntry(dir, key, encodeEntry(docs));
  return docs;
}

function readEntry(path: string, file: string): ManifestText[] | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
  const docs = decodeEntry(text, file);
  if (docs) {
    // Used: it is among the last to go.
    const now = new Date();
    try {
      utimesSync(path, now, now);
    } catch {
      // another process pruned it meanwhile; the answer stands
    }
  }
  return docs;
}

function writeEntry(dir: string, key: string, text: string): void {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const tmp = join(dir, `.${key}.${process.pid}.${Math.random().toString(36).slice(2)}`);
    writeFileSync(tmp, text, { mode: 0o600 });
    renameSync(tmp, join(dir, key));
    keepNewestFiles(dir, MAX_ENTRIES);
  } catch {
    // a read-only or full disk: parse again next time
  }
}

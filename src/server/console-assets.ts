// The web console's static shell: the page, the bundled script and its stylesheet. Code only, no data: every
// request the console makes for data goes through the API with the user's own credentials.
// From dist/ the bundle is the one scripts/build.mjs wrote (dist/console/); run from src under tsx (the tests),
// or from a dist/ built without it, the console's sources are bundled once in this process with esbuild.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PACKAGE_ROOT } from '../util/package-root.js';
import { importPackage } from '../util/import-package.js';

export interface ConsoleAssets {
  /** File name under /console/ → content type and body. */
  files: Map<string, { contentType: string; body: string }>;
}

/** The page: the script and the stylesheet, relative to /console/. The app routes in the URL's fragment. */
export const CONSOLE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>crd-apiserver console</title>
<link rel="stylesheet" href="console.css">
</head>
<body>
<div id="app"></div>
<script type="module" src="console.js"></script>
</body>
</html>
`;

let loading: Promise<ConsoleAssets> | undefined;

/** The console's files, read or bundled on first use; a failed bundle is retried on the next request. */
export function consoleAssets(): Promise<ConsoleAssets> {
  loading ??= loadAssets().catch((e: unknown) => {
    loading = undefined;
    throw e;
  });
  return loading;
}

async function loadAssets(): Promise<ConsoleAssets> {
  const { js, css } = (await readBuilt()) ?? (await bundleFromSources());
  return {
    files: new Map([
      ['', { contentType: 'text/html; charset=utf-8', body: CONSOLE_PAGE }],
      ['console.js', { contentType: 'text/javascript; charset=utf-8', body: js }],
      ['console.css', { contentType: 'text/css; charset=utf-8', body: css }],
    ]),
  };
}

/** dist/console/, next to dist/server/ (absent when running from src). */
async function readBuilt(): Promise<{ js: string; css: string } | undefined> {
  if (import.meta.url.endsWith('.ts')) return undefined;
  try {
    const dir = new URL('dist/console/', PACKAGE_ROOT);
    const [js, css] = await Promise.all([readFile(new URL('console.js', dir), 'utf8'), readFile(new URL('console.css', dir), 'utf8')]);
    return { js, css };
  } catch {
    return undefined;
  }
}

async function bundleFromSources(): Promise<{ js: string; css: string }> {
  const root = fileURLToPath(PACKAGE_ROOT);
  // A path outside src/, so neither tsc nor the layers test follows it; scripts/build.mjs uses the same options.
  const script = new URL('scripts/console-bundle.mjs', PACKAGE_ROOT).href;
  const { bundleConsole } = await importPackage<{ bundleConsole(root: string): Promise<{ js: string; css: string }> }>(script);
  return bundleConsole(root);
}

// The package's root directory (where package.json, policy/ and dist/ are), as a file: URL ending in a slash.
// Files beside the code are found from here rather than from each module's own URL: the command is also run
// as one bundled file (dist/cli/crd-apiserver.cjs), where every module's import.meta.url is the bundle's.
// This module, in src/util/ or dist/util/, and that bundle, in dist/cli/, are all two levels below the root.
export const PACKAGE_ROOT = new URL('../../', import.meta.url);

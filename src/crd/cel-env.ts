// The CEL environments custom resource validation rules compile in (k8s.io/apiserver
// pkg/cel/environment base.go at compatibility version 1.32, as kube-apiserver 1.33 runs it):
// expressions new to a CRD get the libraries introduced up to 1.32; expressions already stored in
// the CRD, and everything evaluated at runtime, also get semver, which 1.33 introduced.
import { Env } from '../cel/env.js';
import type { Library } from '../cel/decls.js';
import { STANDARD_LIBRARY } from '../cel/stdlib.js';
import { OPTIONAL_LIBRARY } from '../cel/optional-lib.js';
import { COMPREHENSIONS_LIBRARY } from '../cel/stdlib-comprehensions.js';
import { KUBERNETES_EXTENSION_LIBRARIES, SEMVER_LIBRARY } from '../cel/lib/index.js';

// Two-variable comprehensions (1.32) bring transformMap's cel.@mapInsert; cel.bind (ext.Bindings) is not
// part of Kubernetes' environment, so its macro is not expanded either (see KUBERNETES_MACROS).
let stored: Env | undefined;
let fresh: Env | undefined;

const base = (libs: readonly Library[]): Env => new Env([STANDARD_LIBRARY, OPTIONAL_LIBRARY, COMPREHENSIONS_LIBRARY, ...libs]);

/** The StoredExpressions environment: every library of this release. */
export function storedExpressionsEnv(): Env {
  return (stored ??= base(KUBERNETES_EXTENSION_LIBRARIES));
}

/** The NewExpressions environment: only libraries the previous release understands too. */
export function newExpressionsEnv(): Env {
  return (fresh ??= base(KUBERNETES_EXTENSION_LIBRARIES.filter((l) => l !== SEMVER_LIBRARY)));
}

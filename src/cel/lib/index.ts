// The extension libraries of Kubernetes 1.33's CEL environment (k8s.io/apiserver
// pkg/cel/environment/base.go), each a Library of overloads with implementations and
// runtime costs. Static cost estimates for them live in cost-estimator-calls.ts, which
// prices calls by function name as Kubernetes' CostEstimator does.

import type { Library } from '../decls.js';
import { CIDR_LIBRARY } from './cidr.js';
import { FORMAT_LIBRARY } from './format.js';
import { IP_LIBRARY } from './ip.js';
import { K8S_LISTS_LIBRARY } from './lists.js';
import { QUANTITY_LIBRARY } from './quantity.js';
import { REGEX_LIBRARY } from './regex.js';
import { SEMVER_LIBRARY } from './semver.js';
import { SETS_LIBRARY } from './sets.js';
import { STRINGS_LIBRARY } from './strings.js';
import { URLS_LIBRARY } from './urls.js';

export { CIDR_LIBRARY, CidrValue, CIDR_TYPE } from './cidr.js';
export { FORMAT_LIBRARY, NamedFormat, NAMED_FORMAT_TYPE, CONSTANT_FORMATS } from './format.js';
export { IP_LIBRARY, IpValue, IP_TYPE } from './ip.js';
export { K8S_LISTS_LIBRARY } from './lists.js';
export { QUANTITY_LIBRARY, QuantityValue, QUANTITY_TYPE } from './quantity.js';
export { REGEX_LIBRARY, REGEX_OPTIMIZED_FUNCTIONS, compileRegex } from './regex.js';
export { SEMVER_LIBRARY, SemverValue, SEMVER_TYPE, semverLibrary } from './semver.js';
export { SETS_LIBRARY } from './sets.js';
export { STRINGS_LIBRARY, stringsLibrary } from './strings.js';
export { stringFormatValidator } from './string-format.js';
export { URLS_LIBRARY, UrlValue, URL_TYPE } from './urls.js';
export { actualSize } from './support.js';

/** The extension libraries a CRD validation rule sees in Kubernetes 1.33, in the order the
 * base environment adds them (the authorization libraries are for admission policies only). */
export const KUBERNETES_EXTENSION_LIBRARIES: readonly Library[] = [
  URLS_LIBRARY,
  REGEX_LIBRARY,
  K8S_LISTS_LIBRARY,
  QUANTITY_LIBRARY,
  STRINGS_LIBRARY,
  SETS_LIBRARY,
  IP_LIBRARY,
  CIDR_LIBRARY,
  FORMAT_LIBRARY,
  SEMVER_LIBRARY,
];

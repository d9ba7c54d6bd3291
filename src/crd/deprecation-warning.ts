// The Warning a deprecated custom resource version answers with when its CRD sets no deprecationWarning:
// apiextensions-apiserver's defaultDeprecationWarning (customresource_handler.go).
import { compareKubeVersions } from '../api/versions.js';
import type { CustomResourceDefinition } from './types.js';

/**
 * `<group>/<version> <Kind> is deprecated`, followed by `; use <group>/<version> <Kind>` naming the
 * highest-priority served, non-deprecated version of higher priority than the deprecated one, if any.
 */
export function defaultDeprecationWarning(deprecatedVersion: string, spec: CustomResourceDefinition['spec']): string {
  const msg = `${spec.group}/${deprecatedVersion} ${spec.names.kind} is deprecated`;
  const newer = spec.versions
    .filter((v) => v.served && !v.deprecated && compareKubeVersions(v.name, deprecatedVersion) < 0)
    .map((v) => v.name)
    .sort(compareKubeVersions);
  return newer.length === 0 ? msg : `${msg}; use ${spec.group}/${newer[0]} ${spec.names.kind}`;
}

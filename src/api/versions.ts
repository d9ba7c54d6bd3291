// What every layer needs to know of API versions: Kubernetes' version priority (v2 > v1 > v1beta2 >
// v1alpha1 > others) and the storage version hash discovery publishes.
import { createHash } from 'node:crypto';


/** k8s.io/apiserver/pkg/endpoints/discovery.StorageVersionHash: base64 of the first 8 bytes of sha256("g/v/k"). */
export function storageVersionHash(group: string, version: string, kind: string): string {
  return createHash('sha256').update(`${group}/${version}/${kind}`).digest().subarray(0, 8).toString('base64');
}

const KUBE_VERSION = /^v(\d+)(?:(alpha|beta)(\d+))?$/;
const MAX_INT64 = 2n ** 63n - 1n;

interface KubeVersion {
  major: bigint;
  /** alpha < beta < GA */
  stability: number;
  minor: bigint;
}

function parseKubeVersion(v: string): KubeVersion | undefined {
  const m = KUBE_VERSION.exec(v);
  if (!m) return undefined;
  const major = BigInt(m[1]!);
  const minor = m[3] === undefined ? 0n : BigInt(m[3]);
  // Go's strconv.Atoi rejects what does not fit an int64; such strings are then not "kube-like".
  if (major > MAX_INT64 || minor > MAX_INT64) return undefined;
  return { major, stability: m[2] === 'alpha' ? 0 : m[2] === 'beta' ? 1 : 2, minor };
}

const sign = (n: bigint | number): number => (n > 0 ? 1 : n < 0 ? -1 : 0);

/**
 * Kubernetes version priority (apimachinery version.CompareKubeAwareVersionStrings) as a sort
 * comparator: negative when `a` has the higher priority, so `versions.sort(compareKubeVersions)`
 * gives v10, v2, v1, v11beta2, v10beta3, v3beta1, v12alpha1, v11alpha2, foo1, foo10.
 */
export function compareKubeVersions(a: string, b: string): number {
  if (a === b) return 0;
  const pa = parseKubeVersion(a);
  const pb = parseKubeVersion(b);
  // Non kube-like strings sort after kube-like ones, among themselves in byte order.
  if (!pa && !pb) return sign(Buffer.compare(Buffer.from(a), Buffer.from(b)));
  if (!pa) return 1;
  if (!pb) return -1;
  if (pa.stability !== pb.stability) return pb.stability - pa.stability;
  if (pa.major !== pb.major) return sign(pb.major - pa.major);
  return sign(pb.minor - pa.minor);
}

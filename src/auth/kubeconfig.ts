// A kubeconfig for reaching this server: one cluster, one user, one context, made current.
// Credentials are embedded (*-data fields, base64) so the file stands alone.
import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { stringifyYaml as stringify } from '../util/yaml.js';

interface KubeconfigOptions {
  /** e.g. https://127.0.0.1:6443, or http://127.0.0.1:8080 for the insecure variant. */
  server: string;
  /** CA bundle the client trusts; omit for plain HTTP. */
  caPem?: string;
  clientCertPem?: string;
  clientKeyPem?: string;
  /** Bearer token, as an alternative to a client certificate. */
  token?: string;
  /** Names the cluster, user (with an "-admin" suffix) and context. Default "crd-apiserver". */
  contextName?: string;
  /** Default namespace for the context. */
  namespace?: string;
}

const DEFAULT_CONTEXT_NAME = 'crd-apiserver';

const b64 = (pem: string): string => Buffer.from(pem, 'utf8').toString('base64');

/** The kubeconfig document as a plain object (clientcmd v1 Config). */
function kubeconfigObject(opts: KubeconfigOptions): Record<string, unknown> {
  const name = opts.contextName ?? DEFAULT_CONTEXT_NAME;
  const userName = `${name}-admin`;

  const cluster: Record<string, string> = { server: opts.server };
  if (opts.caPem) cluster['certificate-authority-data'] = b64(opts.caPem);

  const user: Record<string, string> = {};
  if (opts.clientCertPem) user['client-certificate-data'] = b64(opts.clientCertPem);
  if (opts.clientKeyPem) user['client-key-data'] = b64(opts.clientKeyPem);
  if (opts.token) user.token = opts.token;

  const context: Record<string, string> = { cluster: name, user: userName };
  if (opts.namespace) context.namespace = opts.namespace;

  return {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name, cluster }],
    contexts: [{ name, context }],
    'current-context': name,
    preferences: {},
    users: [{ name: userName, user }],
  };
}

/** The kubeconfig as YAML text. */
export function kubeconfigYaml(opts: KubeconfigOptions): string {
  // lineWidth 0: never fold the long base64 strings.
  return stringify(kubeconfigObject(opts), { lineWidth: 0 });
}

/** Write the kubeconfig with mode 0600 (it holds a private key), replacing any previous file atomically. */
export async function writeKubeconfig(path: string, opts: KubeconfigOptions): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  await writeFile(tmp, kubeconfigYaml(opts), { mode: 0o600, flag: 'wx' });
  await rename(tmp, path);
}

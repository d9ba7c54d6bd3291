// A kubeconfig for reaching this server: one cluster, one user, one context, made current.
// Credentials are embedded (*-data fields, base64) so the file stands alone.
import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';

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

/**
 * A string as a YAML scalar: plain when it can be read as nothing but that string (by YAML 1.1 and 1.2
 * readers alike: no leading digit or sign, no word YAML 1.1 reads as a boolean or null), else double-quoted,
 * JSON's escapes being YAML's.
 */
function scalar(s: string): string {
  const plain = /^[A-Za-z][A-Za-z0-9+/=._:@-]*$/.test(s) && !/^(true|false|yes|no|on|off|y|n|null)$/i.test(s);
  return plain ? s : JSON.stringify(s);
}

/** `key: value` lines of string fields, at an indent. */
const fields = (indent: string, f: Record<string, string>): string =>
  Object.entries(f)
    .map(([k, v]) => `${indent}${k}: ${scalar(v)}\n`)
    .join('');

/**
 * The kubeconfig as YAML text (clientcmd v1 Config), written out directly: it is every start's, and the YAML
 * library's first use costs a start several milliseconds. Laid out as that library lays it out.
 */
export function kubeconfigYaml(opts: KubeconfigOptions): string {
  const name = opts.contextName ?? DEFAULT_CONTEXT_NAME;
  const userName = `${name}-admin`;

  const cluster: Record<string, string> = { server: opts.server };
  if (opts.caPem) cluster['certificate-authority-data'] = b64(opts.caPem);

  const user: Record<string, string> = {};
  if (opts.clientCertPem) user['client-certificate-data'] = b64(opts.clientCertPem);
  if (opts.clientKeyPem) user['client-key-data'] = b64(opts.clientKeyPem);
  if (opts.token) user['token'] = opts.token;

  const context: Record<string, string> = { cluster: name, user: userName };
  if (opts.namespace) context['namespace'] = opts.namespace;

  const entry = (key: string, entryName: string, body: Record<string, string>): string =>
    `  - name: ${scalar(entryName)}\n    ${key}:${Object.keys(body).length === 0 ? ' {}\n' : `\n${fields('      ', body)}`}`;
  return (
    'apiVersion: v1\nkind: Config\n' +
    `clusters:\n${entry('cluster', name, cluster)}` +
    `contexts:\n${entry('context', name, context)}` +
    `current-context: ${scalar(name)}\n` +
    'preferences: {}\n' +
    `users:\n${entry('user', userName, user)}`
  );
}

/** Write the kubeconfig with mode 0600 (it holds a private key), replacing any previous file atomically. */
export async function writeKubeconfig(path: string, opts: KubeconfigOptions): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  await writeFile(tmp, kubeconfigYaml(opts), { mode: 0o600, flag: 'wx' });
  await rename(tmp, path);
}

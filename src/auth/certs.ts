// The server's PKI under <dataDir>/pki: a self-signed CA, a serving certificate and an admin
// client certificate (CN=kubernetes-admin, O=system:masters), laid out like kubeadm's.
// Generated once and reused; a leaf is reissued only when it no longer fits (hosts not covered,
// not signed by the current CA, key mismatch, or about to expire).
import { X509Certificate, createPrivateKey, generateKeyPair, randomBytes, type KeyObject } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import forge from 'node-forge';

export interface Certs {
  /** Directory holding the files: <dataDir>/pki. */
  dir: string;
  caCert: string;
  caKey: string;
  serverCert: string;
  serverKey: string;
  adminCert: string;
  adminKey: string;
  /** Absolute file paths, for flags such as --client-ca-file or a kubeconfig. */
  paths: {
    caCert: string;
    caKey: string;
    serverCert: string;
    serverKey: string;
    adminCert: string;
    adminKey: string;
  };
}

export interface EnsureCertificatesOptions {
  /** Extra DNS names or IP addresses the serving certificate must cover. */
  hosts: string[];
}

export const CA_COMMON_NAME = 'crd-apiserver-ca';
export const SERVER_COMMON_NAME = 'crd-apiserver';
export const ADMIN_USER = 'kubernetes-admin';
export const ADMIN_GROUP = 'system:masters';

const DEFAULT_HOSTS = ['127.0.0.1', '::1', 'localhost'];
const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;
const CA_VALIDITY_MS = 3650 * DAY_MS;
const LEAF_VALIDITY_MS = 365 * DAY_MS;
// Backdated so clients whose clock runs behind still accept a freshly minted certificate.
const BACKDATE_MS = HOUR_MS;
// Leaves this close to expiry are reissued on start rather than left to fail mid-run.
const RENEW_BEFORE_MS = 7 * DAY_MS;

const generateKeyPairAsync = promisify(generateKeyPair);

interface KeyPair {
  certPem: string;
  keyPem: string;
}

/** Make sure all certificates exist and fit, generating what is missing; returns their PEM text. */
export async function ensureCertificates(dataDir: string, opts: EnsureCertificatesOptions): Promise<Certs> {
  const dir = join(dataDir, 'pki');
  const paths = {
    caCert: join(dir, 'ca.crt'),
    caKey: join(dir, 'ca.key'),
    serverCert: join(dir, 'apiserver.crt'),
    serverKey: join(dir, 'apiserver.key'),
    adminCert: join(dir, 'admin.crt'),
    adminKey: join(dir, 'admin.key'),
  };
  await mkdir(dir, { recursive: true, mode: 0o700 });

  const hosts = servingHosts(opts.hosts);
  const now = Date.now();

  let ca = await readPair(paths.caCert, paths.caKey);
  let caRenewed = false;
  if (!ca || !validPair(ca, now, undefined)) {
    ca = await issueCA(now);
    await writePair(paths.caCert, paths.caKey, ca);
    caRenewed = true;
  }
  const caX509 = new X509Certificate(ca.certPem);

  let server = caRenewed ? undefined : await readPair(paths.serverCert, paths.serverKey);
  let admin = caRenewed ? undefined : await readPair(paths.adminCert, paths.adminKey);
  const needServer = !server || !validPair(server, now, caX509) || !coversHosts(server.certPem, hosts);
  const needAdmin = !admin || !validPair(admin, now, caX509);

  // Key generation dominates the cost; run the two leaves in parallel on the libuv pool.
  const [newServer, newAdmin] = await Promise.all([
    needServer ? issueServing(ca, hosts, now) : undefined,
    needAdmin ? issueAdmin(ca, now) : undefined,
  ]);
  if (newServer) {
    server = newServer;
    await writePair(paths.serverCert, paths.serverKey, server);
  }
  if (newAdmin) {
    admin = newAdmin;
    await writePair(paths.adminCert, paths.adminKey, admin);
  }

  return {
    dir,
    caCert: ca.certPem,
    caKey: ca.keyPem,
    serverCert: server!.certPem,
    serverKey: server!.keyPem,
    adminCert: admin!.certPem,
    adminKey: admin!.keyPem,
    paths,
  };
}

/** The serving certificate's SANs: the loopback defaults plus the requested hosts, de-duplicated. */
export function servingHosts(extra: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of [...DEFAULT_HOSTS, ...extra]) {
    const host = normalizeHost(raw);
    // Wildcard bind addresses are not names a client connects to.
    if (!host || host === '0.0.0.0' || host === '::') continue;
    if (!seen.has(host)) {
      seen.add(host);
      out.push(host);
    }
  }
  return out;
}

/** True when the certificate carries a SAN for every host (IPs compared as addresses, DNS names case-insensitively). */
export function coversHosts(certPem: string, hosts: readonly string[]): boolean {
  const { dns, ips } = certSANs(certPem);
  return hosts.every((h) => {
    const host = normalizeHost(h);
    return isIP(host) ? ips.has(host) : dns.has(host);
  });
}

/** DNS names (lower case) and IP addresses (canonical text) in a certificate's subjectAltName. */
export function certSANs(certPem: string): { dns: Set<string>; ips: Set<string> } {
  const dns = new Set<string>();
  const ips = new Set<string>();
  const cert = forge.pki.certificateFromPem(certPem);
  const ext = cert.getExtension('subjectAltName') as { altNames?: { type: number; value?: string; ip?: string }[] } | undefined;
  for (const alt of ext?.altNames ?? []) {
    if (alt.type === 2 && alt.value) dns.add(alt.value.toLowerCase());
    else if (alt.type === 7 && alt.ip) ips.add(normalizeHost(alt.ip));
  }
  return { dns, ips };
}

// IPs in one canonical text form (IPv6 compressed, brackets and zone dropped) so that
// "0:0:0:0:0:0:0:1" and "::1" compare equal; DNS names lower-cased.
function normalizeHost(raw: string): string {
  let host = raw.trim();
  if (host.startsWith('[') && host.endsWith(']')) host = host.slice(1, -1);
  const pct = host.indexOf('%');
  if (pct >= 0 && isIP(host.slice(0, pct)) === 6) host = host.slice(0, pct);
  switch (isIP(host)) {
    case 4:
      return host;
    case 6:
      return new URL(`http://[${host}]/`).hostname.slice(1, -1);
    default:
      return host.toLowerCase();
  }
}

async function readPair(certPath: string, keyPath: string): Promise<KeyPair | undefined> {
  try {
    const [certPem, keyPem] = await Promise.all([readFile(certPath, 'utf8'), readFile(keyPath, 'utf8')]);
    return { certPem, keyPem };
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw e;
  }
}

// A pair is reusable when it parses, the key matches, it is not near expiry and (for leaves)
// the current CA signed it.
function validPair(pair: KeyPair, now: number, issuer: X509Certificate | undefined): boolean {
  let cert: X509Certificate;
  let key: KeyObject;
  try {
    cert = new X509Certificate(pair.certPem);
    key = createPrivateKey(pair.keyPem);
  } catch {
    return false;
  }
  if (!cert.checkPrivateKey(key)) return false;
  if (Date.parse(cert.validTo) - now < RENEW_BEFORE_MS) return false;
  if (issuer && !(cert.checkIssued(issuer) && cert.verify(issuer.publicKey))) return false;
  return true;
}

async function writePair(certPath: string, keyPath: string, pair: KeyPair): Promise<void> {
  await atomicWrite(keyPath, pair.keyPem, 0o600);
  await atomicWrite(certPath, pair.certPem, 0o644);
}

// Write-then-rename so a crash never leaves a half-written PEM that would be "reused" next start;
// the fresh temp file also guarantees the mode, which writeFile only applies on creation.
async function atomicWrite(path: string, data: string, mode: number): Promise<void> {
  const tmp = `${path}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  await writeFile(tmp, data, { mode, flag: 'wx' });
  await rename(tmp, path);
}

async function newRsaKey(): Promise<{ publicPem: string; privatePem: string }> {
  const { publicKey, privateKey } = await generateKeyPairAsync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  return { publicPem: publicKey, privatePem: privateKey };
}

// A positive 127-bit serial whose DER INTEGER encoding is minimal (no leading zero byte, high bit clear).
function randomSerialHex(): string {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return bytes.toString('hex');
}

interface CertSpec {
  subject: forge.pki.CertificateField[];
  publicPem: string;
  notBefore: number;
  validityMs: number;
  extensions: object[];
  /** Absent for the self-signed CA. */
  issuer?: { cert: forge.pki.Certificate; keyPem: string };
  selfKeyPem?: string;
}

function buildCert(spec: CertSpec): string {
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.publicKeyFromPem(spec.publicPem);
  cert.serialNumber = randomSerialHex();
  cert.validity.notBefore = new Date(spec.notBefore - BACKDATE_MS);
  cert.validity.notAfter = new Date(spec.notBefore + spec.validityMs);
  cert.setSubject(spec.subject);
  cert.setIssuer(spec.issuer ? spec.issuer.cert.subject.attributes : spec.subject);
  const authorityKeyId = spec.issuer
    ? subjectKeyId(spec.issuer.cert)
    : cert.generateSubjectKeyIdentifier().getBytes();
  cert.setExtensions([
    ...spec.extensions,
    { name: 'subjectKeyIdentifier' },
    { name: 'authorityKeyIdentifier', keyIdentifier: authorityKeyId },
  ]);
  const signingKeyPem = spec.issuer ? spec.issuer.keyPem : spec.selfKeyPem!;
  cert.sign(forge.pki.privateKeyFromPem(signingKeyPem) as forge.pki.rsa.PrivateKey, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

// The issuer's own SKI extension when it has one, so the AKI matches byte for byte.
function subjectKeyId(cert: forge.pki.Certificate): string {
  const ext = cert.getExtension('subjectKeyIdentifier') as { subjectKeyIdentifier?: string } | undefined;
  if (ext?.subjectKeyIdentifier) return forge.util.hexToBytes(ext.subjectKeyIdentifier);
  return cert.generateSubjectKeyIdentifier().getBytes();
}

async function issueCA(now: number): Promise<KeyPair> {
  const key = await newRsaKey();
  const certPem = buildCert({
    subject: [{ shortName: 'CN', value: CA_COMMON_NAME }],
    publicPem: key.publicPem,
    notBefore: now,
    validityMs: CA_VALIDITY_MS,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true, critical: true },
    ],
    selfKeyPem: key.privatePem,
  });
  return { certPem, keyPem: key.privatePem };
}

async function issueLeaf(
  ca: KeyPair,
  now: number,
  subject: forge.pki.CertificateField[],
  extraExtensions: object[],
): Promise<KeyPair> {
  const key = await newRsaKey();
  const certPem = buildCert({
    subject,
    publicPem: key.publicPem,
    notBefore: now,
    validityMs: LEAF_VALIDITY_MS,
    extensions: [
      { name: 'basicConstraints', cA: false, critical: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      ...extraExtensions,
    ],
    issuer: { cert: forge.pki.certificateFromPem(ca.certPem), keyPem: ca.keyPem },
  });
  return { certPem, keyPem: key.privatePem };
}

function issueServing(ca: KeyPair, hosts: readonly string[], now: number): Promise<KeyPair> {
  const altNames = hosts.map((h) => (isIP(h) ? { type: 7, ip: h } : { type: 2, value: h }));
  return issueLeaf(ca, now, [{ shortName: 'CN', value: SERVER_COMMON_NAME }], [
    { name: 'extKeyUsage', serverAuth: true },
    { name: 'subjectAltName', altNames },
  ]);
}

function issueAdmin(ca: KeyPair, now: number): Promise<KeyPair> {
  // Go's x509 name order: O before CN, as kubeadm's admin.conf certificate has it.
  return issueLeaf(
    ca,
    now,
    [
      { shortName: 'O', value: ADMIN_GROUP },
      { shortName: 'CN', value: ADMIN_USER },
    ],
    [{ name: 'extKeyUsage', clientAuth: true }],
  );
}

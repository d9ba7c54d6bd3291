// The server's PKI under <dataDir>/pki: a self-signed CA, a serving certificate and an admin
// client certificate (CN=kubernetes-admin, O=system:masters), laid out like kubeadm's.
// Generated once and reused; a leaf is reissued only when it no longer fits (hosts not covered,
// not signed by the current CA, key mismatch, or about to expire).
// New keys are ECDSA P-256: generating and signing with them takes about a millisecond, where
// RSA-2048 key generation alone took most of a second on first start. Files from older
// versions (RSA keys) are reused as they are.
import { X509Certificate, createPrivateKey, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { isIPv4 } from 'node:net';
import { join } from 'node:path';
import { domainToASCII } from 'node:url';
import * as x509 from './x509.js';

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

interface EnsureCertificatesOptions {
  /** Extra DNS names or IP addresses the serving certificate must cover. */
  hosts: string[];
}

const CA_COMMON_NAME = 'crd-apiserver-ca';
const SERVER_COMMON_NAME = 'crd-apiserver';
const ADMIN_USER = 'kubernetes-admin';
const ADMIN_GROUP = 'system:masters';

const DEFAULT_HOSTS = ['127.0.0.1', '::1', 'localhost'];
const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;
const CA_VALIDITY_MS = 3650 * DAY_MS;
const LEAF_VALIDITY_MS = 365 * DAY_MS;
// Backdated so clients whose clock runs behind still accept a freshly minted certificate.
const BACKDATE_MS = HOUR_MS;
// Leaves this close to expiry are reissued on start rather than left to fail mid-run.
const RENEW_BEFORE_MS = 7 * DAY_MS;

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
  // Read synchronously: a handful of small files, where each await of the thread pool was a turn of the event loop
  // that start-up waited for (about 2 ms of a restart).
  mkdirSync(dir, { recursive: true, mode: 0o700 });

  const hosts = servingHosts(opts.hosts);
  const now = Date.now();

  let ca = readPair(paths.caCert, paths.caKey);
  let caRenewed = false;
  if (!ca || !validPair(ca, now, undefined)) {
    ca = issueCA(now);
    await writePair(paths.caCert, paths.caKey, ca);
    caRenewed = true;
  }
  const caX509 = new X509Certificate(ca.certPem);

  let [server, admin] = caRenewed ? [undefined, undefined] : [readPair(paths.serverCert, paths.serverKey), readPair(paths.adminCert, paths.adminKey)];
  const needServer = !server || !validPair(server, now, caX509) || !coversHosts(server.certPem, hosts);
  const needAdmin = !admin || !validPair(admin, now, caX509);

  if (needServer || needAdmin) {
    const issuer = issuerOf(ca, caX509);
    // The two pairs' files are written side by side (each its key, then its certificate).
    const writes: Promise<void>[] = [];
    if (needServer) {
      server = issueServing(issuer, hosts, now);
      writes.push(writePair(paths.serverCert, paths.serverKey, server));
    }
    if (needAdmin) {
      admin = issueAdmin(issuer, now);
      writes.push(writePair(paths.adminCert, paths.adminKey, admin));
    }
    await Promise.all(writes);
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
  const san = x509.parseCertificate(new X509Certificate(certPem).raw).extensions.get(x509.OID.subjectAltName);
  if (san) {
    const names = x509.readSubjectAltName(san.value);
    for (const name of names.dns) dns.add(name.toLowerCase());
    for (const ip of names.ips) {
      const text = ipText(ip);
      if (text) ips.add(text);
    }
  }
  return { dns, ips };
}

/**
 * net.isIP without its IPv6 regular expression, whose first use alone costs a start 4 ms: IPv4 by net.isIPv4,
 * IPv6 by the URL parser (the characters checked first, so that nothing but an address stands in the brackets).
 */
export function isIP(host: string): 0 | 4 | 6 {
  if (!host.includes(':')) return isIPv4(host) ? 4 : 0;
  return /^[0-9A-Fa-f:.]+$/.test(host) && URL.canParse(`http://[${host}]/`) ? 6 : 0;
}

// IPs in one canonical text form (IPv6 compressed, brackets and zone dropped) so that
// "0:0:0:0:0:0:0:1" and "::1" compare equal; DNS names lower-cased, and internationalized
// ones in their ASCII (punycode) form, the only form a dNSName SAN can hold.
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
      // domainToASCII returns '' for what is not a valid domain; keep such text as given.
      return /^[\x00-\x7f]*$/.test(host) ? host.toLowerCase() : domainToASCII(host) || host.toLowerCase();
  }
}

// An IP's SAN bytes: 4 for IPv4, 16 for IPv6 (which may end in a dotted IPv4 part).
function ipBytes(ip: string): Buffer {
  if (isIP(ip) === 4) return Buffer.from(ip.split('.').map(Number));
  let text = ip;
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const groups = (s: string | undefined): string[] => (s ? s.split(':') : []);
  const left = groups(head);
  const right = groups(tail);
  const all = tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  const out = Buffer.alloc(16);
  all.forEach((g, i) => out.writeUInt16BE(parseInt(g, 16), i * 2));
  return out;
}

// SAN bytes back to canonical text; undefined for a length that is no IP address.
function ipText(bytes: Buffer): string | undefined {
  if (bytes.length === 4) return [...bytes].join('.');
  if (bytes.length !== 16) return undefined;
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(bytes.readUInt16BE(i).toString(16));
  return normalizeHost(groups.join(':'));
}

function readPair(certPath: string, keyPath: string): KeyPair | undefined {
  try {
    return { certPem: readFileSync(certPath, 'utf8'), keyPem: readFileSync(keyPath, 'utf8') };
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

// A fresh ECDSA P-256 key: its PKCS#8 PEM, the private KeyObject to sign with, its SPKI DER.
function newKey(): { keyPem: string; privateKey: KeyObject; spki: Buffer } {
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  return {
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string,
    privateKey,
    spki: publicKey.export({ type: 'spki', format: 'der' }),
  };
}

// A positive 127-bit serial whose DER INTEGER encoding is minimal (no leading zero byte, high bit clear).
function randomSerial(): Buffer {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0]! & 0x7f) | 0x01;
  return bytes;
}

/** What a leaf needs from its CA: the subject bytes to name as issuer, the key id for the AKI, the signing key. */
interface Issuer {
  name: Buffer;
  keyId: Buffer;
  key: KeyObject;
}

// The CA's subject is copied byte for byte so that name matching cannot depend on string types,
// and its own SKI is used when present so the AKI matches exactly (a CA from an older version
// may have been written by other code).
function issuerOf(ca: KeyPair, caX509: X509Certificate): Issuer {
  const parsed = x509.parseCertificate(caX509.raw);
  const ski = parsed.extensions.get(x509.OID.subjectKeyIdentifier);
  return {
    name: parsed.subject,
    keyId: ski ? x509.readSubjectKeyIdentifier(ski.value) : x509.keyIdentifier(parsed.spki),
    key: createPrivateKey(ca.keyPem),
  };
}

function certPem(spec: Omit<x509.CertificateSpec, 'serial' | 'notBefore' | 'notAfter'>, now: number, validityMs: number): string {
  const der = x509.signCertificate({
    ...spec,
    serial: randomSerial(),
    notBefore: new Date(now - BACKDATE_MS),
    notAfter: new Date(now + validityMs),
  });
  return x509.toPem('CERTIFICATE', der);
}

function issueCA(now: number): KeyPair {
  const key = newKey();
  const name = x509.name([[x509.OID.commonName, CA_COMMON_NAME]]);
  const keyId = x509.keyIdentifier(key.spki);
  const pem = certPem(
    {
      issuer: name,
      subject: name,
      spki: key.spki,
      extensions: [
        x509.basicConstraints(true),
        x509.keyUsage([x509.KeyUsage.digitalSignature, x509.KeyUsage.keyCertSign, x509.KeyUsage.cRLSign]),
        x509.subjectKeyIdentifier(keyId),
        x509.authorityKeyIdentifier(keyId),
      ],
      signingKey: key.privateKey,
    },
    now,
    CA_VALIDITY_MS,
  );
  return { certPem: pem, keyPem: key.keyPem };
}

function issueLeaf(issuer: Issuer, now: number, subject: Buffer, extraExtensions: x509.Extension[]): KeyPair {
  const key = newKey();
  const pem = certPem(
    {
      issuer: issuer.name,
      subject,
      spki: key.spki,
      extensions: [
        x509.basicConstraints(false),
        // ECDSA keys sign; they cannot encipher keys, so no keyEncipherment (as Go and kubeadm do).
        x509.keyUsage([x509.KeyUsage.digitalSignature]),
        ...extraExtensions,
        x509.subjectKeyIdentifier(x509.keyIdentifier(key.spki)),
        x509.authorityKeyIdentifier(issuer.keyId),
      ],
      signingKey: issuer.key,
    },
    now,
    LEAF_VALIDITY_MS,
  );
  return { certPem: pem, keyPem: key.keyPem };
}

function issueServing(issuer: Issuer, hosts: readonly string[], now: number): KeyPair {
  return issueLeaf(issuer, now, x509.name([[x509.OID.commonName, SERVER_COMMON_NAME]]), [
    x509.extKeyUsage([x509.OID.serverAuth]),
    x509.subjectAltName(hosts.map((h) => (isIP(h) ? { ip: ipBytes(h) } : { dns: h }))),
  ]);
}

function issueAdmin(issuer: Issuer, now: number): KeyPair {
  // Go's x509 name order: O before CN, as kubeadm's admin.conf certificate has it.
  const subject = x509.name([
    [x509.OID.organization, ADMIN_GROUP],
    [x509.OID.commonName, ADMIN_USER],
  ]);
  return issueLeaf(issuer, now, subject, [x509.extKeyUsage([x509.OID.clientAuth])]);
}

/**
 * A client certificate for a user and groups (CN the user, one O per group, as kube reads them), signed by the
 * data directory's CA: `crd-apiserver kubeconfig --user` and the test kit mint identities with it.
 */
export function issueClientCertificate(ca: { certPem: string; keyPem: string }, user: string, groups: readonly string[]): { certPem: string; keyPem: string } {
  const issuer = issuerOf(ca, new X509Certificate(ca.certPem));
  const subject = x509.name([...groups.map((g) => [x509.OID.organization, g] as const), [x509.OID.commonName, user]]);
  return issueLeaf(issuer, Date.now(), subject, [x509.extKeyUsage([x509.OID.clientAuth])]);
}

/**
 * A CA of its own and a serving certificate it signed for hosts: what a test's webhook server presents (the
 * test kit's, as envtest's WebhookInstallOptions generate one). The CA goes into the webhooks' caBundle.
 */
export function issueServingCertificate(hosts: readonly string[]): { caPem: string; certPem: string; keyPem: string } {
  const now = Date.now();
  const ca = issueCA(now);
  const serving = issueServing(issuerOf(ca, new X509Certificate(ca.certPem)), hosts.map(normalizeHost), now);
  return { caPem: ca.certPem, certPem: serving.certPem, keyPem: serving.keyPem };
}

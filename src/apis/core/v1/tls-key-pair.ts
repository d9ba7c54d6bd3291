// crypto/tls X509KeyPair's checks, for the warning a kubernetes.io/tls Secret gets when its tls.crt and
// tls.key do not make a key pair: the PEM blocks it looks for, then the certificate's public key against
// the private key's. The messages are Go's; a certificate that does not parse gets x509's generic one.
import { X509Certificate, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

interface PemBlock {
  type: string;
  der: Buffer;
}

/** pem.Decode repeated: every well-formed block, in order. */
function pemBlocks(input: Buffer): PemBlock[] {
  const out: PemBlock[] = [];
  const re = /-----BEGIN ([^-\r\n]*)-----\r?\n([\s\S]*?)-----END \1-----/g;
  for (const m of input.toString('latin1').matchAll(re)) {
    const body = m[2]!.split(/\r?\n/).filter((l) => !l.includes(':')).join('');
    out.push({ type: m[1]!, der: Buffer.from(body, 'base64') });
  }
  return out;
}

const goList = (xs: readonly string[]): string => `[${xs.join(' ')}]`;

/** parsePrivateKey: PKCS #1, PKCS #8, then SEC 1, whatever the block's type says. */
function parsePrivateKey(der: Buffer): KeyObject | undefined {
  for (const type of ['pkcs1', 'pkcs8', 'sec1'] as const) {
    try {
      return createPrivateKey({ key: der, format: 'der', type });
    } catch {
      // next form
    }
  }
  return undefined;
}

/** The error tls.X509KeyPair(cert, key) returns, or undefined when they are a pair. */
export function tlsKeyPairError(certPem: Buffer, keyPem: Buffer): string | undefined {
  const certBlocks = pemBlocks(certPem);
  const certs = certBlocks.filter((b) => b.type === 'CERTIFICATE');
  if (certs.length === 0) {
    const skipped = certBlocks.map((b) => b.type);
    if (skipped.length === 0) return 'tls: failed to find any PEM data in certificate input';
    if (skipped.length === 1 && skipped[0]!.endsWith('PRIVATE KEY')) {
      return 'tls: failed to find certificate PEM data in certificate input, but did find a private key; PEM inputs may have been switched';
    }
    return `tls: failed to find "CERTIFICATE" PEM block in certificate input after skipping PEM blocks of the following types: ${goList(skipped)}`;
  }
  const skipped: string[] = [];
  let keyBlock: PemBlock | undefined;
  for (const b of pemBlocks(keyPem)) {
    if (b.type === 'PRIVATE KEY' || b.type.endsWith(' PRIVATE KEY')) {
      keyBlock = b;
      break;
    }
    skipped.push(b.type);
  }
  if (!keyBlock) {
    if (skipped.length === 0) return 'tls: failed to find any PEM data in key input';
    if (skipped.length === 1 && skipped[0] === 'CERTIFICATE') return 'tls: found a certificate rather than a key in the PEM for the private key';
    return `tls: failed to find PEM block with type ending in "PRIVATE KEY" in key input after skipping PEM blocks of the following types: ${goList(skipped)}`;
  }
  let publicKey: KeyObject;
  try {
    publicKey = new X509Certificate(certs[0]!.der).publicKey;
  } catch {
    return 'x509: malformed certificate';
  }
  const privateKey = parsePrivateKey(keyBlock.der);
  if (!privateKey) return 'tls: failed to parse private key';
  const kind = (k: KeyObject): string => (k.asymmetricKeyType === 'rsa-pss' ? 'rsa' : String(k.asymmetricKeyType));
  if (!['rsa', 'ec', 'ed25519'].includes(kind(publicKey))) return 'tls: unknown public key algorithm';
  if (kind(publicKey) !== kind(privateKey)) return 'tls: private key type does not match public key type';
  const spki = (k: KeyObject): Buffer => k.export({ type: 'spki', format: 'der' });
  if (!spki(publicKey).equals(spki(createPublicKey(privateKey)))) return 'tls: private key does not match public key';
  return undefined;
}

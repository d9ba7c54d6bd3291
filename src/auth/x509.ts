// X.509 v3 certificates (RFC 5280) built with our DER encoder and signed by node:crypto,
// plus the little reading certs.ts needs: subject, public key, extensions, SANs.
import { createHash, sign, type KeyObject } from 'node:crypto';
import * as der from './der.js';

export const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
  clientAuth: '1.3.6.1.5.5.7.3.2',
  sha256WithRSAEncryption: '1.2.840.113549.1.1.11',
  ecdsaWithSHA256: '1.2.840.10045.4.3.2',
  ecdsaWithSHA384: '1.2.840.10045.4.3.3',
  ecdsaWithSHA512: '1.2.840.10045.4.3.4',
  ed25519: '1.3.101.112',
} as const;

/** KeyUsage bit numbers (RFC 5280 §4.2.1.3). */
export const KeyUsage = {
  digitalSignature: 0,
  keyEncipherment: 2,
  keyCertSign: 5,
  cRLSign: 6,
} as const;

export interface Extension {
  oid: string;
  critical: boolean;
  /** The extnValue content: the DER of the extension's own structure. */
  value: Buffer;
}

/** A Name with one attribute per RDN, in the order given. */
export function name(attributes: readonly (readonly [oid: string, value: string])[]): Buffer {
  return der.sequence(...attributes.map(([type, value]) => der.set(der.sequence(der.oid(type), der.directoryString(value)))));
}

export function basicConstraints(ca: boolean): Extension {
  // cA defaults to FALSE, and DER omits defaults: a leaf's value is an empty SEQUENCE.
  return { oid: OID.basicConstraints, critical: true, value: ca ? der.sequence(der.boolean(true)) : der.sequence() };
}

export function keyUsage(bits: readonly number[]): Extension {
  return { oid: OID.keyUsage, critical: true, value: der.namedBits(bits) };
}

export function extKeyUsage(purposes: readonly string[]): Extension {
  return { oid: OID.extKeyUsage, critical: false, value: der.sequence(...purposes.map(der.oid)) };
}

/** GeneralNames in the order given: dNSName [2] and iPAddress [7] (4 or 16 bytes). */
export function subjectAltName(names: readonly ({ dns: string } | { ip: Uint8Array })[]): Extension {
  const general = names.map((n) => ('dns' in n ? der.implicit(2, primitiveContent(der.ia5String(n.dns))) : der.implicit(7, n.ip)));
  return { oid: OID.subjectAltName, critical: false, value: der.sequence(...general) };
}

// [2] IMPLICIT IA5String: the IA5String encoder checks the text, its content goes under the new tag.
function primitiveContent(element: Buffer): Buffer {
  return der.content(element, der.read(element));
}

export function subjectKeyIdentifier(id: Uint8Array): Extension {
  return { oid: OID.subjectKeyIdentifier, critical: false, value: der.octetString(id) };
}

export function authorityKeyIdentifier(id: Uint8Array): Extension {
  // AuthorityKeyIdentifier ::= SEQUENCE { keyIdentifier [0] IMPLICIT OCTET STRING, ... }
  return { oid: OID.authorityKeyIdentifier, critical: false, value: der.sequence(der.implicit(0, id)) };
}

/** RFC 5280 §4.2.1.2 method 1 (what Go and OpenSSL use): SHA-1 of the subjectPublicKey bits. */
export function keyIdentifier(spki: Uint8Array): Buffer {
  const root = der.expect(der.read(spki), der.TAG.SEQUENCE, 'SubjectPublicKeyInfo');
  const [, bits] = der.children(spki, root);
  const key = der.content(spki, der.expect(bits, der.TAG.BIT_STRING, 'subjectPublicKey'));
  return createHash('sha1').update(key.subarray(1)).digest();
}

export interface CertificateSpec {
  /** Positive serial number, big-endian. */
  serial: Uint8Array;
  /** Name encodings; a leaf's issuer should be its CA's subject bytes as they are. */
  issuer: Buffer;
  subject: Buffer;
  notBefore: Date;
  notAfter: Date;
  /** SubjectPublicKeyInfo DER of the key being certified. */
  spki: Buffer;
  extensions: readonly Extension[];
  /** The issuer's private key (the subject's own for a self-signed certificate). */
  signingKey: KeyObject;
}

/** Builds and signs an X.509 v3 certificate; returns its DER. */
export function signCertificate(spec: CertificateSpec): Buffer {
  const { algorithm, hash } = signatureAlgorithm(spec.signingKey);
  const extensions = spec.extensions.map((e) =>
    der.sequence(der.oid(e.oid), ...(e.critical ? [der.boolean(true)] : []), der.octetString(e.value)),
  );
  const tbs = der.sequence(
    der.explicit(0, der.integer(2)), // v3
    der.integer(spec.serial),
    algorithm,
    spec.issuer,
    der.sequence(der.time(spec.notBefore), der.time(spec.notAfter)),
    spec.subject,
    spec.spki,
    der.explicit(3, der.sequence(...extensions)),
  );
  const signature = sign(hash, tbs, spec.signingKey);
  return der.sequence(tbs, algorithm, der.bitString(signature));
}

// The signature AlgorithmIdentifier and digest for an issuer key, chosen as Go's x509 does:
// ECDSA by curve size, RSA PKCS#1 v1.5 with SHA-256 (parameters NULL), Ed25519 without digest.
function signatureAlgorithm(key: KeyObject): { algorithm: Buffer; hash: string | null } {
  switch (key.asymmetricKeyType) {
    case 'ec': {
      const curve = key.asymmetricKeyDetails?.namedCurve;
      if (curve === 'prime256v1') return { algorithm: der.sequence(der.oid(OID.ecdsaWithSHA256)), hash: 'sha256' };
      if (curve === 'secp384r1') return { algorithm: der.sequence(der.oid(OID.ecdsaWithSHA384)), hash: 'sha384' };
      if (curve === 'secp521r1') return { algorithm: der.sequence(der.oid(OID.ecdsaWithSHA512)), hash: 'sha512' };
      throw new Error(`cannot sign certificates with an EC key on curve ${curve ?? 'unknown'}`);
    }
    case 'rsa':
      return { algorithm: der.sequence(der.oid(OID.sha256WithRSAEncryption), der.nullValue()), hash: 'sha256' };
    case 'ed25519':
      return { algorithm: der.sequence(der.oid(OID.ed25519)), hash: null };
    default:
      throw new Error(`cannot sign certificates with a ${key.asymmetricKeyType ?? 'unknown'} key`);
  }
}

export function toPem(label: string, derBytes: Uint8Array): string {
  const b64 = Buffer.from(derBytes).toString('base64');
  const lines = b64.match(/.{1,64}/g) ?? [];
  return `-----BEGIN ${label}-----\n${lines.join('\n')}\n-----END ${label}-----\n`;
}

// ---- reading ----

export interface ParsedCertificate {
  /** Encoding of the subject Name, header included. */
  subject: Buffer;
  /** Encoding of the SubjectPublicKeyInfo, header included. */
  spki: Buffer;
  /** OID of the outer signatureAlgorithm. */
  signatureAlgorithm: string;
  extensions: Map<string, { critical: boolean; value: Buffer }>;
}

/** Reads the parts of a DER certificate that issuing and SAN checks need. */
export function parseCertificate(cert: Uint8Array): ParsedCertificate {
  const root = der.expect(der.read(cert), der.TAG.SEQUENCE, 'Certificate');
  const [tbsNode, algNode] = der.children(cert, root);
  const tbs = der.children(cert, der.expect(tbsNode, der.TAG.SEQUENCE, 'TBSCertificate'));
  // version is optional ([0], absent for v1): everything after it shifts by one.
  const at = tbs[0]?.tag === der.contextTag(0, true) ? 1 : 0;
  const subject = der.expect(tbs[at + 4], der.TAG.SEQUENCE, 'subject');
  const spki = der.expect(tbs[at + 5], der.TAG.SEQUENCE, 'subjectPublicKeyInfo');
  const [algOid] = der.children(cert, der.expect(algNode, der.TAG.SEQUENCE, 'signatureAlgorithm'));

  const extensions = new Map<string, { critical: boolean; value: Buffer }>();
  const extsNode = tbs.slice(at + 6).find((n) => n.tag === der.contextTag(3, true));
  if (extsNode) {
    const [list] = der.children(cert, extsNode);
    for (const ext of der.children(cert, der.expect(list, der.TAG.SEQUENCE, 'Extensions'))) {
      const parts = der.children(cert, der.expect(ext, der.TAG.SEQUENCE, 'Extension'));
      const id = der.readOid(der.content(cert, der.expect(parts[0], der.TAG.OID, 'extnID')));
      const critical = parts.length === 3 && der.content(cert, der.expect(parts[1], der.TAG.BOOLEAN, 'critical'))[0] !== 0;
      const value = der.content(cert, der.expect(parts.at(-1), der.TAG.OCTET_STRING, 'extnValue'));
      extensions.set(id, { critical, value });
    }
  }
  return {
    subject: der.encoding(cert, subject),
    spki: der.encoding(cert, spki),
    signatureAlgorithm: der.readOid(der.content(cert, der.expect(algOid, der.TAG.OID, 'algorithm'))),
    extensions,
  };
}

/** The keyIdentifier in a SubjectKeyIdentifier extension value. */
export function readSubjectKeyIdentifier(value: Buffer): Buffer {
  return der.content(value, der.expect(der.read(value), der.TAG.OCTET_STRING, 'SubjectKeyIdentifier'));
}

/** The keyIdentifier ([0]) in an AuthorityKeyIdentifier extension value, if it has one. */
export function readAuthorityKeyIdentifier(value: Buffer): Buffer | undefined {
  const seq = der.expect(der.read(value), der.TAG.SEQUENCE, 'AuthorityKeyIdentifier');
  const id = der.children(value, seq).find((n) => n.tag === der.contextTag(0, false));
  return id && der.content(value, id);
}

/** dNSName and iPAddress entries of a SubjectAltName extension value; other kinds are skipped. */
export function readSubjectAltName(value: Buffer): { dns: string[]; ips: Buffer[] } {
  const dns: string[] = [];
  const ips: Buffer[] = [];
  for (const gn of der.children(value, der.expect(der.read(value), der.TAG.SEQUENCE, 'GeneralNames'))) {
    if (gn.tag === der.contextTag(2, false)) dns.push(der.content(value, gn).toString('latin1'));
    else if (gn.tag === der.contextTag(7, false)) ips.push(der.content(value, gn));
  }
  return { dns, ips };
}

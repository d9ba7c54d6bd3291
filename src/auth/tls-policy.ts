// The secure port's TLS versions and cipher suites, as kube-apiserver's --tls-min-version and
// --tls-cipher-suites name them (k8s.io/component-base/cli/flag/ciphersuites_flag.go), mapped to the
// OpenSSL names node:tls takes. Without --tls-cipher-suites kube-apiserver uses Go's defaults.

/** Go's IANA-style name → OpenSSL's name; null for TLS 1.3 suites, which are not configurable (as in Go). */
const SUITES: Readonly<Record<string, string | null>> = {
  // tls.CipherSuites()
  TLS_AES_128_GCM_SHA256: null,
  TLS_AES_256_GCM_SHA384: null,
  TLS_CHACHA20_POLY1305_SHA256: null,
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA: 'ECDHE-ECDSA-AES128-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA: 'ECDHE-ECDSA-AES256-SHA',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA: 'ECDHE-RSA-AES128-SHA',
  TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA: 'ECDHE-RSA-AES256-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256: 'ECDHE-ECDSA-AES128-GCM-SHA256',
  TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384: 'ECDHE-ECDSA-AES256-GCM-SHA384',
  TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256: 'ECDHE-RSA-AES128-GCM-SHA256',
  TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384: 'ECDHE-RSA-AES256-GCM-SHA384',
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256: 'ECDHE-RSA-CHACHA20-POLY1305',
  // kube's legacy names
  TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305: 'ECDHE-ECDSA-CHACHA20-POLY1305',
  TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305: 'ECDHE-RSA-CHACHA20-POLY1305',
  // tls.InsecureCipherSuites() and the RSA key exchange suites: accepted when asked for by name
  TLS_RSA_WITH_AES_128_CBC_SHA: 'AES128-SHA',
  TLS_RSA_WITH_AES_256_CBC_SHA: 'AES256-SHA',
  TLS_RSA_WITH_AES_128_GCM_SHA256: 'AES128-GCM-SHA256',
  TLS_RSA_WITH_AES_256_GCM_SHA384: 'AES256-GCM-SHA384',
  TLS_RSA_WITH_AES_128_CBC_SHA256: 'AES128-SHA256',
  TLS_RSA_WITH_3DES_EDE_CBC_SHA: 'DES-CBC3-SHA',
  TLS_RSA_WITH_RC4_128_SHA: 'RC4-SHA',
  TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256: 'ECDHE-ECDSA-AES128-SHA256',
  TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256: 'ECDHE-RSA-AES128-SHA256',
  TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA: 'ECDHE-RSA-DES-CBC3-SHA',
  TLS_ECDHE_ECDSA_WITH_RC4_128_SHA: 'ECDHE-ECDSA-RC4-SHA',
  TLS_ECDHE_RSA_WITH_RC4_128_SHA: 'ECDHE-RSA-RC4-SHA',
};

/** Names kube warns about ("Use of insecure cipher ... detected."): Go's tls.InsecureCipherSuites(). */
const INSECURE = new Set([
  'TLS_RSA_WITH_RC4_128_SHA',
  'TLS_RSA_WITH_3DES_EDE_CBC_SHA',
  'TLS_RSA_WITH_AES_128_CBC_SHA256',
  'TLS_ECDHE_ECDSA_WITH_RC4_128_SHA',
  'TLS_ECDHE_RSA_WITH_RC4_128_SHA',
  'TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA',
  'TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256',
  'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256',
]);

/**
 * Go 1.24's default TLS 1.2 suites (crypto/tls defaultCipherSuites): ECDHE with AES-GCM,
 * ChaCha20-Poly1305 and AES-CBC-SHA1, in Go's preference order. Go drops the CBC-SHA256 suites
 * (disabledCipherSuites), RSA key exchange (since 1.22) and 3DES (since 1.23) from the defaults.
 */
export const GO_DEFAULT_CIPHER_SUITES: readonly string[] = [
  'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256',
  'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
  'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384',
  'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384',
  'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256',
  'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256',
  'TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA',
  'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA',
  'TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA',
  'TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA',
];

/** Go's TLS 1.3 suites, all always on. */
const TLS13_SUITES = 'TLS_AES_128_GCM_SHA256:TLS_AES_256_GCM_SHA384:TLS_CHACHA20_POLY1305_SHA256';

const VERSIONS: Readonly<Record<string, 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3'>> = {
  VersionTLS10: 'TLSv1',
  VersionTLS11: 'TLSv1.1',
  VersionTLS12: 'TLSv1.2',
  VersionTLS13: 'TLSv1.3',
};

export interface TlsPolicyFlags {
  /** --tls-min-version: VersionTLS10 … VersionTLS13; empty or absent means VersionTLS12. */
  minVersion?: string;
  /** --tls-cipher-suites: Go's names; empty or absent means Go's defaults. */
  cipherSuites?: readonly string[];
}

export interface TlsPolicy {
  minVersion: 'TLSv1' | 'TLSv1.1' | 'TLSv1.2' | 'TLSv1.3';
  /** The OpenSSL cipher string for node:tls (TLS 1.2 and below, then the TLS 1.3 suites). */
  ciphers: string;
  /** Names kube would warn about. */
  insecure: string[];
}

/** The node:tls settings for kube's flags; throws kube's errors for unknown names. */
export function tlsPolicy(flags: TlsPolicyFlags = {}): TlsPolicy {
  let minVersion: TlsPolicy['minVersion'] = 'TLSv1.2';
  if (flags.minVersion) {
    const v = VERSIONS[flags.minVersion];
    if (v === undefined) throw new Error(`unknown tls version ${JSON.stringify(flags.minVersion)}`);
    minVersion = v;
  }
  const names = flags.cipherSuites && flags.cipherSuites.length > 0 ? flags.cipherSuites : GO_DEFAULT_CIPHER_SUITES;
  const openssl: string[] = [];
  for (const name of names) {
    if (!Object.hasOwn(SUITES, name)) throw new Error(`Cipher suite ${name} not supported or doesn't exist`);
    const o = SUITES[name];
    if (o && !openssl.includes(o)) openssl.push(o);
  }
  // Only TLS 1.3 names: no TLS 1.2 suite is left, so only TLS 1.3 can be negotiated (as in Go).
  if (openssl.length === 0) minVersion = 'TLSv1.3';
  return {
    minVersion,
    ciphers: [...openssl, TLS13_SUITES].join(':'),
    insecure: names.filter((n) => INSECURE.has(n)),
  };
}

// kube-apiserver's --authentication-config: an AuthenticationConfiguration (apiserver.config.k8s.io/v1beta1 or
// v1alpha1, the versions 1.33 serves) configuring JWT authenticators for external OIDC issuers and the
// anonymous authenticator; decoded strictly as kube's codec decodes it (unknown fields are errors), and the
// legacy --oidc-* flags turned into the same JWT authenticator kube builds from them.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { isObject } from '../util/json.js';

export interface Issuer {
  url: string;
  /** Where the discovery document is fetched instead of {url}/.well-known/openid-configuration. */
  discoveryURL?: string;
  /** PEM CA certificates that verify the issuer's TLS certificate (else the system's roots). */
  certificateAuthority?: string;
  audiences: string[];
  audienceMatchPolicy?: string;
}

export interface ClaimValidationRule {
  claim?: string;
  requiredValue?: string;
  expression?: string;
  message?: string;
}

export interface PrefixedClaimOrExpression {
  claim?: string;
  /** Unset and '' differ: a claim mapping must set it, possibly to ''. */
  prefix?: string;
  expression?: string;
}

export interface ClaimOrExpression {
  claim?: string;
  expression?: string;
}

export interface ExtraMapping {
  key: string;
  valueExpression: string;
}

export interface UserValidationRule {
  expression: string;
  message?: string;
}

export interface ClaimMappings {
  username: PrefixedClaimOrExpression;
  groups?: PrefixedClaimOrExpression;
  uid?: ClaimOrExpression;
  extra?: ExtraMapping[];
}

export interface JWTAuthenticator {
  issuer: Issuer;
  claimValidationRules?: ClaimValidationRule[];
  claimMappings: ClaimMappings;
  userValidationRules?: UserValidationRule[];
}

export interface AnonymousAuthConfig {
  enabled: boolean;
  /** When set, anonymous requests are accepted only for these paths. */
  conditions?: { path: string }[];
}

export interface AuthenticationConfiguration {
  jwt: JWTAuthenticator[];
  anonymous?: AnonymousAuthConfig;
}

const GROUP = 'apiserver.config.k8s.io';
const KIND = 'AuthenticationConfiguration';
/** The versions kube-apiserver 1.33 registers the kind in (v1 arrived in 1.34). */
export const AUTHENTICATION_CONFIG_VERSIONS = [`${GROUP}/v1beta1`, `${GROUP}/v1alpha1`] as const;

// The shape of each type, for strict decoding: a field's kind, and for objects and lists the element's shape.
type Shape = 'string' | 'bool' | { object: string; fields: Record<string, Shape> } | { list: Shape };

const obj = (name: string, fields: Record<string, Shape>): Shape => ({ object: name, fields });
const PREFIXED = obj('PrefixedClaimOrExpression', { claim: 'string', prefix: 'string', expression: 'string' });
const CONFIG_SHAPE = obj(KIND, {
  apiVersion: 'string',
  kind: 'string',
  jwt: {
    list: obj('JWTAuthenticator', {
      issuer: obj('Issuer', { url: 'string', discoveryURL: 'string', certificateAuthority: 'string', audiences: { list: 'string' }, audienceMatchPolicy: 'string' }),
      claimValidationRules: { list: obj('ClaimValidationRule', { claim: 'string', requiredValue: 'string', expression: 'string', message: 'string' }) },
      claimMappings: obj('ClaimMappings', {
        username: PREFIXED,
        groups: PREFIXED,
        uid: obj('ClaimOrExpression', { claim: 'string', expression: 'string' }),
        extra: { list: obj('ExtraMapping', { key: 'string', valueExpression: 'string' }) },
      }),
      userValidationRules: { list: obj('UserValidationRule', { expression: 'string', message: 'string' }) },
    }),
  },
  anonymous: obj('AnonymousAuthConfig', { enabled: 'bool', conditions: { list: obj('AnonymousAuthCondition', { path: 'string' }) } }),
});

const jsonKind = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v === 'object' ? 'object' : typeof v === 'boolean' ? 'bool' : typeof v;

/**
 * Checks `value` against `shape`: unknown fields are collected as kube's strict decoder names them
 * (`unknown field "jwt[0].issuer.foo"`), a value of the wrong JSON type fails as encoding/json does.
 */
function checkShape(value: unknown, shape: Shape, path: string, parent: string, unknown: string[]): void {
  if (value === null) return; // JSON null leaves a Go field at its zero value
  const mismatch = (goType: string): never => {
    throw new Error(`json: cannot unmarshal ${jsonKind(value)} into Go struct field ${parent}.${path} of type ${goType}`);
  };
  if (shape === 'string') {
    if (typeof value !== 'string') mismatch('string');
    return;
  }
  if (shape === 'bool') {
    if (typeof value !== 'boolean') mismatch('bool');
    return;
  }
  if ('list' in shape) {
    if (!Array.isArray(value)) mismatch(`[]${typeof shape.list === 'string' ? shape.list : 'object' in shape.list ? `v1beta1.${shape.list.object}` : 'list'}`);
    (value as unknown[]).forEach((v, i) => checkShape(v, shape.list, `${path}[${i}]`, parent, unknown));
    return;
  }
  if (!isObject(value)) mismatch(`v1beta1.${shape.object}`);
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    const at = path ? `${path}.${k}` : k;
    const field = shape.fields[k];
    if (field === undefined) unknown.push(`unknown field ${JSON.stringify(at)}`);
    else checkShape(v, field, at, shape.object, unknown);
  }
}

/** Decodes a configuration file's text (YAML or JSON) as kube's strict codec does; throws with its wording. */
export function decodeAuthenticationConfig(text: string): AuthenticationConfiguration {
  if (text.length === 0) throw new Error('empty config data');
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (e) {
    throw new Error(`error converting YAML to JSON: ${(e as Error).message}`);
  }
  if (!isObject(doc)) throw new Error("couldn't get version/kind; json parse error: json: cannot unmarshal into Go value of type struct { APIVersion string \"json:\\\"apiVersion,omitempty\\\"\"; Kind string \"json:\\\"kind,omitempty\\\"\" }");
  const apiVersion = typeof doc.apiVersion === 'string' ? doc.apiVersion : '';
  const kind = typeof doc.kind === 'string' ? doc.kind : '';
  const compact = JSON.stringify(doc);
  if (kind === '') throw new Error(`Object 'Kind' is missing in '${compact}'`);
  if (apiVersion === '') throw new Error(`Object 'apiVersion' is missing in '${compact}'`);
  if (!(AUTHENTICATION_CONFIG_VERSIONS as readonly string[]).includes(apiVersion) || kind !== KIND) {
    throw new Error(`no kind ${JSON.stringify(kind)} is registered for version ${JSON.stringify(apiVersion)} in scheme "pkg/kubeapiserver/options/authentication.go"`);
  }
  const unknown: string[] = [];
  checkShape(doc, CONFIG_SHAPE, '', KIND, unknown);
  if (unknown.length > 0) throw new Error(`strict decoding error: ${unknown.join(', ')}`);
  return normalize(doc);
}

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const optStr = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const list = (v: unknown): Record<string, unknown>[] => (Array.isArray(v) ? v.map((x) => (isObject(x) ? x : {})) : []);
const objOf = (v: unknown): Record<string, unknown> => (isObject(v) ? v : {});

/** The checked document as our types; absent strings are '' as Go's zero values, except prefix (a pointer). */
function normalize(doc: Record<string, unknown>): AuthenticationConfiguration {
  const pce = (v: unknown): PrefixedClaimOrExpression => {
    const o = objOf(v);
    const out: PrefixedClaimOrExpression = { claim: str(o.claim), expression: str(o.expression) };
    if (typeof o.prefix === 'string') out.prefix = o.prefix;
    return out;
  };
  const config: AuthenticationConfiguration = {
    jwt: list(doc.jwt).map((j) => {
      const issuer = objOf(j.issuer);
      const mappings = objOf(j.claimMappings);
      const uid = objOf(mappings.uid);
      return {
        issuer: {
          url: str(issuer.url),
          discoveryURL: optStr(issuer.discoveryURL),
          certificateAuthority: str(issuer.certificateAuthority),
          audiences: Array.isArray(issuer.audiences) ? issuer.audiences.map(str) : [],
          audienceMatchPolicy: str(issuer.audienceMatchPolicy),
        },
        claimValidationRules: list(j.claimValidationRules).map((r) => ({ claim: str(r.claim), requiredValue: str(r.requiredValue), expression: str(r.expression), message: str(r.message) })),
        claimMappings: {
          username: pce(mappings.username),
          groups: pce(mappings.groups),
          uid: { claim: str(uid.claim), expression: str(uid.expression) },
          extra: list(mappings.extra).map((e) => ({ key: str(e.key), valueExpression: str(e.valueExpression) })),
        },
        userValidationRules: list(j.userValidationRules).map((r) => ({ expression: str(r.expression), message: str(r.message) })),
      };
    }),
  };
  if (isObject(doc.anonymous)) {
    config.anonymous = { enabled: doc.anonymous.enabled === true, conditions: list(doc.anonymous.conditions).map((c) => ({ path: str(c.path) })) };
  }
  return config;
}

/** os.ReadFile: the text, or Go's error wording (`open <path>: no such file or directory`). */
export function readFileGo(path: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such file or directory' : code === 'EACCES' ? 'permission denied' : code === 'EISDIR' ? 'is a directory' : (e as Error).message;
    throw new Error(code === 'EISDIR' ? `read ${path}: ${why}` : `open ${path}: ${why}`);
  }
}

/** Reads and decodes the file; the text is returned too, so that a reload can tell whether it changed. */
export function loadAuthenticationConfigFile(path: string): { config: AuthenticationConfiguration; text: string } {
  try {
    const text = readFileGo(path);
    return { config: decodeAuthenticationConfig(text), text };
  } catch (e) {
    throw new Error(`failed to load authentication configuration from file ${JSON.stringify(path)}: ${(e as Error).message}`);
  }
}

/** The legacy --oidc-* flags (kube's OIDCAuthenticationOptions). */
export interface OidcFlags {
  issuerURL?: string;
  clientID?: string;
  caFile?: string;
  /** Default 'sub'. */
  usernameClaim?: string;
  usernamePrefix?: string;
  groupsClaim?: string;
  groupsPrefix?: string;
  /** Default [RS256]. */
  signingAlgs?: string[];
  requiredClaims?: Record<string, string>;
}

export const OIDC_FLAG_NAMES = [
  'oidc-issuer-url',
  'oidc-client-id',
  'oidc-ca-file',
  'oidc-username-claim',
  'oidc-username-prefix',
  'oidc-groups-claim',
  'oidc-groups-prefix',
  'oidc-signing-algs',
  'oidc-required-claim',
] as const;

/**
 * validateOIDCOptions: without a configuration file, an issuer URL and a client ID go together once any
 * --oidc-* flag is set; with one, no --oidc-* flag may be set.
 */
export function validateOidcFlags(flags: OidcFlags, flagsSet: boolean, configFile: string | undefined): string[] {
  if (!configFile) {
    return flagsSet && (!flags.issuerURL || !flags.clientID) ? ['oidc-issuer-url and oidc-client-id must be specified together when any oidc-* flags are set'] : [];
  }
  return flagsSet ? ['authentication-config file and oidc-* flags are mutually exclusive'] : [];
}

/**
 * The JWT authenticator kube builds from the flags (ToAuthenticationConfig): the username claim (default sub)
 * prefixed by '<issuer URL>#' unless it is email or a prefix is given ('-' meaning none), groups from the
 * groups claim with its prefix, the CA file's content, and each required claim as a claim validation rule.
 */
export function jwtAuthenticatorFromFlags(flags: OidcFlags): JWTAuthenticator | undefined {
  if (!flags.issuerURL || !flags.clientID) return undefined;
  const usernameClaim = flags.usernameClaim ?? 'sub';
  let usernamePrefix = flags.usernamePrefix ?? '';
  if (usernamePrefix === '' && usernameClaim !== 'email') usernamePrefix = `${flags.issuerURL}#`;
  if (flags.usernamePrefix === '-') usernamePrefix = '';
  const jwt: JWTAuthenticator = {
    issuer: { url: flags.issuerURL, audiences: [flags.clientID] },
    claimMappings: { username: { claim: usernameClaim, prefix: usernamePrefix } },
  };
  if (flags.groupsClaim) jwt.claimMappings.groups = { claim: flags.groupsClaim, prefix: flags.groupsPrefix ?? '' };
  if (flags.caFile) jwt.issuer.certificateAuthority = readFileGo(flags.caFile);
  const required = Object.entries(flags.requiredClaims ?? {});
  if (required.length > 0) jwt.claimValidationRules = required.map(([claim, requiredValue]) => ({ claim, requiredValue }));
  return jwt;
}

// Setting up JWT authentication as kube-apiserver's BuiltInAuthenticationOptions do: from
// --authentication-config or from the legacy --oidc-* flags (never both), validated with kube's messages
// before the server starts, and, for a configuration file, reloaded when the file changes (a new version
// replaces the authenticators once its issuers answer; an invalid one is logged and the old one kept).
import { readFileSync, watch, type FSWatcher } from 'node:fs';
import { basename, dirname } from 'node:path';
import { aggregate, forbidden, fieldErrorString } from '../api/field-error.js';
import {
  decodeAuthenticationConfig,
  jwtAuthenticatorFromFlags,
  loadAuthenticationConfigFile,
  validateOidcFlags,
  type AnonymousAuthConfig,
  type AuthenticationConfiguration,
  type OidcFlags,
} from './authentication-config.js';
import { validateAuthenticationConfiguration, validateJwtAuthenticator } from './authentication-config-validation.js';
import { ALL_SIGNING_ALGORITHMS } from './jwt.js';
import { JwtAuthenticator, JwtAuthenticators, type JwtAuthenticatorOptions } from './oidc.js';

export interface JwtAuthenticationOptions {
  /** --authentication-config. */
  configFile?: string;
  /** The --oidc-* flags, and whether any was given on the command line. */
  oidc?: OidcFlags;
  oidcFlagsSet?: boolean;
  /** Whether --anonymous-auth was given (it may not be together with the file's anonymous). */
  anonymousFlagSet?: boolean;
  /** The ServiceAccount issuers: no JWT authenticator may claim one. */
  serviceAccountIssuers?: readonly string[];
  /** How often the file is checked besides change notifications (kube: one minute). */
  reloadIntervalMs?: number;
  /** How long a reloaded configuration's issuers have to answer before it is given up (kube: one minute). */
  reloadTimeoutMs?: number;
  /** Passed to each authenticator (clock, HTTP client, discovery retry). */
  authenticator?: Omit<JwtAuthenticatorOptions, 'signingAlgs'>;
  log?: (msg: string) => void;
}

export interface JwtAuthentication {
  authenticators: JwtAuthenticators;
  /** The file's anonymous section, which replaces --anonymous-auth. */
  anonymous?: AnonymousAuthConfig;
  /** Resolves after the next reload attempt that changed something or failed (tests wait on it). */
  reloaded(): Promise<void>;
  close(): void;
}

/**
 * Builds the authenticators of a configuration (oidc.New for each): the per-authenticator validation against
 * the disallowed issuers, with kube's unprefixed paths, and the signing algorithms.
 */
export function buildJwtAuthenticators(config: AuthenticationConfiguration, signingAlgs: readonly string[], disallowed: readonly string[], opts: JwtAuthenticatorOptions = {}): JwtAuthenticator[] {
  const built: JwtAuthenticator[] = [];
  for (const a of config.jwt) {
    const { mapper, errors } = validateJwtAuthenticator(a, '', disallowed);
    if (errors.length > 0) throw new Error(aggregate(errors));
    const bad = signingAlgs.find((alg) => !ALL_SIGNING_ALGORITHMS.includes(alg));
    if (bad !== undefined) throw new Error(`oidc: unsupported signing alg: ${JSON.stringify(bad)}`);
    built.push(new JwtAuthenticator(a, mapper, { ...opts, signingAlgs }));
  }
  return built;
}

/** undefined when neither a file nor the flags configure JWT authentication (and the file has no anonymous). */
export function setUpJwtAuthentication(o: JwtAuthenticationOptions): JwtAuthentication | undefined {
  const flagErrors = validateOidcFlags(o.oidc ?? {}, o.oidcFlagsSet ?? false, o.configFile);
  if (flagErrors.length > 0) throw new Error(flagErrors.length === 1 ? flagErrors[0]! : `[${flagErrors.join(', ')}]`);
  let config: AuthenticationConfiguration;
  let text: string | undefined;
  let signingAlgs: readonly string[];
  if (o.configFile) {
    ({ config, text } = loadAuthenticationConfigFile(o.configFile));
    signingAlgs = ALL_SIGNING_ALGORITHMS;
  } else {
    const fromFlags = o.oidc && jwtAuthenticatorFromFlags(o.oidc);
    if (!fromFlags) return undefined;
    config = { jwt: [fromFlags] };
    signingAlgs = o.oidc?.signingAlgs?.length ? o.oidc.signingAlgs : ['RS256'];
  }
  if (config.anonymous && o.anonymousFlagSet) {
    throw new Error(fieldErrorString(forbidden('anonymous', '--anonymous-auth flag cannot be set when anonymous field is configured in authentication configuration file')));
  }
  const errs = validateAuthenticationConfiguration(config);
  if (errs.length > 0) throw new Error(`invalid authentication configuration: ${aggregate(errs)}`);
  const disallowed = o.serviceAccountIssuers ?? [];
  const log = o.log ?? ((m: string) => console.error(m));
  const authOpts: JwtAuthenticatorOptions = { log, ...o.authenticator };
  const authenticators = new JwtAuthenticators(buildJwtAuthenticators(config, signingAlgs, disallowed, authOpts).map((a) => a.start()));

  let watcher: FSWatcher | undefined;
  let timer: NodeJS.Timeout | undefined;
  let waiters: (() => void)[] = [];
  const settle = (): void => {
    const w = waiters;
    waiters = [];
    for (const f of w) f();
  };
  if (o.configFile && text !== undefined) {
    const path = o.configFile;
    const originalAnonymous = JSON.stringify(config.anonymous ?? null);
    let tracked = text;
    let running: Promise<void> | undefined;
    const reload = async (): Promise<void> => {
      let data: string;
      try {
        data = readFileSync(path, 'utf8');
      } catch (e) {
        log(`failed to read authentication config file: ${(e as Error).message}`);
        return settle();
      }
      if (data === tracked) return;
      let next: AuthenticationConfiguration;
      try {
        next = decodeAuthenticationConfig(data);
      } catch (e) {
        log(`failed to load authentication config: ${(e as Error).message}`);
        tracked = data; // never valid: stop retrying until it changes
        return settle();
      }
      const errors = validateAuthenticationConfiguration(next, disallowed);
      if (JSON.stringify(next.anonymous ?? null) !== originalAnonymous) errors.push(forbidden('anonymous', 'changed from initial configuration file'));
      if (errors.length > 0) {
        log(`failed to validate authentication config: ${aggregate(errors)}`);
        tracked = data;
        return settle();
      }
      let built: JwtAuthenticator[];
      try {
        built = buildJwtAuthenticators(next, signingAlgs, disallowed, authOpts).map((a) => a.start());
      } catch (e) {
        log(`failed to update authentication config: ${(e as Error).message}`);
        tracked = data;
        return settle();
      }
      // The new issuers must answer before they replace the old ones; if they do not in time, try again later.
      const healthy = await Promise.race([
        Promise.all(built.map((a) => a.settled())).then(() => built.every((a) => a.healthError() === undefined)),
        new Promise<boolean>((r) => setTimeout(() => r(false), o.reloadTimeoutMs ?? 60_000).unref()),
      ]);
      if (!healthy) {
        log(`failed to update authentication config: ${built.map((a) => a.healthError()).filter(Boolean).join(', ') || 'timed out waiting for the JWT authenticators to become healthy'}`);
        for (const a of built) a.stop();
        return settle();
      }
      authenticators.replace(built);
      tracked = data;
      log('reloaded authentication config');
      settle();
    };
    const check = (): void => {
      running ??= reload().finally(() => {
        running = undefined;
      });
    };
    // The directory is watched, not the file: editors and ConfigMap mounts replace files by renaming.
    try {
      watcher = watch(dirname(path), (_event, name) => {
        if (name === null || name === basename(path) || name === '..data') check();
      });
      watcher.on('error', () => undefined);
    } catch {
      watcher = undefined;
    }
    timer = setInterval(check, o.reloadIntervalMs ?? 60_000);
    timer.unref();
  }
  return {
    authenticators,
    anonymous: config.anonymous,
    reloaded: () => new Promise<void>((r) => waiters.push(r)),
    close: () => {
      watcher?.close();
      if (timer) clearInterval(timer);
      authenticators.stop();
    },
  };
}

// --encryption-provider-config: kube's EncryptionConfiguration (apiserver.config.k8s.io/v1), validated
// with kube's messages (pkg/apis/apiserver/validation/validation_encryption.go) and turned into one
// value transformer per group-resource (pkg/server/options/encryptionconfig/config.go).
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { aggregate, invalid, required, type FieldError } from '../../api/field-error.js';
import { isObject, type JSONObject } from '../../util/json.js';
import { aesProvider, identityProvider, prefixTransformers, secretboxProvider, type NamedKey, type PrefixTransformer, type ValueTransformer } from './transformers.js';

export interface GroupResource {
  group: string;
  resource: string;
}

/** The transformer for a group-resource: an exact rule, then `*.<group>`, then `*.*`; undefined means stored as is. */
export type TransformerLookup = (gr: GroupResource) => ValueTransformer | undefined;

const PROVIDERS = ['kms', 'aesgcm', 'aescbc', 'secretbox', 'identity'] as const;
const AES_KEY_SIZES = [16, 24, 32];
const SECRETBOX_KEY_SIZES = [32];

/** schema.ParseGroupResource: the part before the first dot is the resource. */
function parseGroupResource(s: string): GroupResource {
  const dot = s.indexOf('.');
  return dot < 0 ? { group: '', resource: s } : { group: s.slice(dot + 1), resource: s.slice(0, dot) };
}

const grKey = (gr: GroupResource): string => `${gr.resource}.${gr.group}`;
/** How kube's masking error names a group-resource. */
const grYAML = (gr: GroupResource): string => (gr.group === '' && gr.resource === '*' ? '*.' : gr.group ? `${gr.resource}.${gr.group}` : gr.resource);

function asArray(v: unknown): unknown[] {
  return Array.isArray(v) ? v : [];
}

function validateKeys(keys: unknown, path: string, sizes: readonly number[]): FieldError[] {
  const list = asArray(keys);
  if (list.length === 0) return [required(path, 'at least one keys is required')];
  const errs: FieldError[] = [];
  list.forEach((k, i) => {
    const key = isObject(k) ? k : {};
    const at = `${path}[${i}]`;
    if (!key.name) errs.push(required(`${at}.name`, 'name is a mandatory field for a key'));
    if (!key.secret) {
      errs.push(required(`${at}.secret`, 'secret is a mandatory field for a key'));
      return;
    }
    const secret = String(key.secret);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(secret) || secret.length % 4 !== 0) {
      errs.push(invalid(`${at}.secret`, 'REDACTED', 'secrets must be base64 encoded'));
      return;
    }
    const len = Buffer.from(secret, 'base64').length;
    if (!sizes.includes(len)) errs.push(invalid(`${at}.secret`, 'REDACTED', `secret is not of the expected length, got ${len}, expected one of [${sizes.join(' ')}]`));
  });
  return errs;
}

function validateResourceNames(resources: readonly string[], path: string): FieldError[] {
  const errs: FieldError[] = [];
  resources.forEach((res, j) => {
    const at = `${path}[${j}]`;
    const gr = parseGroupResource(res);
    if (/[A-Z]/.test(res)) errs.push(invalid(at, res, 'resource name should not contain capital letters'));
    else if (res === '*') errs.push(invalid(at, res, "use '*.' to encrypt all the resources from core API group or *.* to encrypt all resources"));
    else if (['apiserveripinfo', 'serviceipallocations', 'servicenodeportallocations'].includes(res))
      errs.push(invalid(at, res, 'resources which do not have REST API/s cannot be encrypted'));
    else if (gr.group === 'events.k8s.io')
      errs.push(invalid(at, res, "'*.events.k8s.io' objects are stored using the 'events' API group in etcd. Use 'events' instead in the config file"));
    else if (gr.group === 'extensions') errs.push(invalid(at, res, "'extensions' group has been removed and cannot be used for encryption"));
    else if (gr.group === '*' && gr.resource !== '*') errs.push(invalid(at, res, 'encrypting the same resource across groups is not supported'));
  });
  return errs;
}

function validateResourceOverlap(resources: readonly string[], path: string): FieldError[] {
  if (resources.length < 2) return [];
  const grs = resources.map(parseGroupResource);
  let duplicate = false;
  let overlap = false;
  grs.forEach((a, i) =>
    grs.forEach((b, j) => {
      if (i === j) return;
      if (grKey(a) === grKey(b)) duplicate = true;
      else if ((a.group === '*' && a.resource === '*') || (a.group === b.group && (a.resource === '*' || b.resource === '*'))) overlap = true;
    }),
  );
  const errs: FieldError[] = [];
  if (duplicate) errs.push(invalid(path, resources, 'the same resource cannot be specified multiple times'));
  if (overlap) errs.push(invalid(path, resources, "using overlapping resources such as 'secrets' and '*.' in the same resource list is not allowed as they will be masked"));
  return errs;
}

/** ValidateEncryptionConfiguration's errors for a decoded configuration. */
export function validateEncryptionConfiguration(config: JSONObject): FieldError[] {
  const rules = asArray(config.resources);
  if (rules.length === 0) return [required('resources', 'at least one resources is required')];
  const errs: FieldError[] = [];
  rules.forEach((r, i) => {
    const rule = isObject(r) ? r : {};
    const rPath = `resources[${i}].resources`;
    const pPath = `resources[${i}].providers`;
    const resources = asArray(rule.resources).map(String);
    if (resources.length === 0) errs.push(required(rPath, `at least one ${rPath} is required`));
    errs.push(...validateResourceOverlap(resources, rPath), ...validateResourceNames(resources, rPath));
    const providers = asArray(rule.providers);
    if (providers.length === 0) errs.push(required(pPath, `at least one ${pPath} is required`));
    providers.forEach((p, j) => {
      const provider = isObject(p) ? p : {};
      const at = `${pPath}[${j}]`;
      const found = PROVIDERS.filter((name) => provider[name] !== undefined && provider[name] !== null);
      if (found.length === 0) errs.push(invalid(at, provider, 'provider does not contain any of the expected providers: KMS, AESGCM, AESCBC, Secretbox, Identity'));
      else if (found.length > 1) errs.push(invalid(at, provider, 'more than one provider specified in a single element, should split into different list elements'));
      else if (found[0] === 'aesgcm' || found[0] === 'aescbc' || found[0] === 'secretbox') {
        const conf = provider[found[0]];
        errs.push(...validateKeys(isObject(conf) ? conf.keys : undefined, `${at}.${found[0]}.keys`, found[0] === 'secretbox' ? SECRETBOX_KEY_SIZES : AES_KEY_SIZES));
      }
    });
  });
  return errs;
}

function providerTransformer(provider: JSONObject, binary: boolean): PrefixTransformer {
  if (provider.identity !== undefined) return identityProvider;
  const keysOf = (conf: JSONObject): NamedKey[] =>
    asArray(conf.keys).map((k) => {
      const key = k as JSONObject;
      return { name: String(key.name), secret: Buffer.from(String(key.secret), 'base64') };
    });
  for (const mode of ['aescbc', 'aesgcm'] as const) {
    const conf = provider[mode];
    if (isObject(conf)) return aesProvider(mode, keysOf(conf), binary);
  }
  if (isObject(provider.secretbox)) return secretboxProvider(keysOf(provider.secretbox), binary);
  throw new Error('kms provider is not supported by this server; use aescbc, aesgcm or secretbox');
}

/**
 * Build the lookup from a decoded configuration; throws with kube's messages when it is invalid. binary: the
 * transformers' strings are bytes and the ciphertext raw (the etcd store's form), else text with base64 ciphertext.
 */
export function transformersFromConfig(config: unknown, binary = false): TransformerLookup {
  if (!isObject(config) || config.kind !== 'EncryptionConfiguration' || config.apiVersion !== 'apiserver.config.k8s.io/v1') {
    const c = isObject(config) ? config : {};
    throw new Error(`got unexpected config type: ${String(c.apiVersion ?? '')}, Kind=${String(c.kind ?? '')}`);
  }
  const errs = validateEncryptionConfiguration(config);
  if (errs.length) throw new Error(aggregate(errs));
  const byGR = new Map<string, ValueTransformer>();
  for (const r of asArray(config.resources) as JSONObject[]) {
    const providers = asArray(r.providers).map((p) => providerTransformer(p as JSONObject, binary));
    const transformer = prefixTransformers('no matching prefix found', providers);
    for (const res of asArray(r.resources).map(String)) {
      const gr = parseGroupResource(res);
      // An earlier `*.<group>` or `*.*` rule would win at lookup: kube refuses the later, masked rule.
      const anyInGroup = { group: gr.group, resource: '*' };
      const anyAtAll = { group: '*', resource: '*' };
      if (byGR.has(grKey(anyInGroup))) throw new Error(`resource "${grYAML(gr)}" is masked by earlier rule "${grYAML(anyInGroup)}"`);
      if (byGR.has(grKey(anyAtAll))) throw new Error(`resource "${grYAML(gr)}" is masked by earlier rule "${grYAML(anyAtAll)}"`);
      if (!byGR.has(grKey(gr))) byGR.set(grKey(gr), transformer);
    }
  }
  return (gr) => byGR.get(grKey(gr)) ?? byGR.get(grKey({ group: gr.group, resource: '*' })) ?? byGR.get('*.*');
}

/** Read and build --encryption-provider-config; errors carry kube's wording. */
export function loadEncryptionConfig(path: string, binary = false): TransformerLookup {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (err) {
    throw new Error(`error while parsing file: error reading encryption provider configuration file "${path}": ${(err as Error).message}`);
  }
  if (text.trim() === '') throw new Error(`error while parsing file: encryption provider configuration file "${path}" is empty`);
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new Error(`error while parsing file: error decoding encryption provider configuration file "${path}": ${(err as Error).message}`);
  }
  try {
    return transformersFromConfig(doc, binary);
  } catch (err) {
    throw new Error(`error while parsing file: ${(err as Error).message}`);
  }
}

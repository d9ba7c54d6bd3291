// kube's validation of flowcontrol objects (pkg/apis/flowcontrol/validation/validation.go, 1.33), over
// defaulted v1 JSON, with its messages and field paths. The mandatory objects' specs are fixed (but the
// exempt level's `exempt` field); zero nominalConcurrencyShares are allowed, as kube 1.30+ allows them.
import type { FieldError } from '../../../api/field-error.js';
import type { GoStruct } from '../../../api/go-struct.js';
import { duplicate, forbidden, invalid, notSupported, required } from '../../../api/field-error.js';
import { goEncode } from '../../../api/go-encode.js';
import type { JSONObject } from '../../../util/json.js';
import { isObject } from '../../../util/json.js';
import { goRendered, goStringSlice, validateObjectMeta } from '../../../schema/objectmeta.js';
import { nameIsDNSLabel, nameIsDNSSubdomain } from '../../../schema/names.js';
import { metaOf } from '../../../registry/store.js';
import { FlowDistinguisherMethod, FlowSchemaSpec, PriorityLevelConfigurationSpec } from './types.js';
import { mandatoryFlowSchema, mandatoryPriorityLevel } from './bootstrap.js';
import { setFlowSchemaDefaults, setPriorityLevelDefaults } from './defaults.js';
import { goSharpV } from './go-sharp-v.js';

const MAX_MATCHING_PRECEDENCE = 10000;
const MAX_QUEUES = 10 * 1000 * 1000;
/** shufflesharding.MaxHashBits. */
const MAX_HASH_BITS = 60;
const SUPPORTED_VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'proxy', 'update', 'watch'];
const SUPPORTED_DISTINGUISHERS = ['ByNamespace', 'ByUser'];
const SUPPORTED_SUBJECT_KINDS = ['Group', 'ServiceAccount', 'User'];
const SUPPORTED_ENABLEMENTS = ['Exempt', 'Limited'];
const SUPPORTED_LIMIT_RESPONSES = ['Queue', 'Reject'];
const NS_ERR_INTRO = "each member of this list must be '*' or a DNS-1123 label; ";
/** v1beta3's round-trip annotation, which no stored object may carry. */
const PRESERVE_ZERO_SHARES_ANNOTATION = 'flowcontrol.k8s.io/v1beta3-preserve-zero-concurrency-shares';

const obj = (v: unknown): JSONObject => (isObject(v) ? v : {});
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
/** A []string bad value: printed as Go's %#v, serialized as the list. */
const stringList = (v: unknown): string[] => goRendered(strings(v), goStringSlice(strings(v)));

/** shufflesharding.RequiredEntropyBits. */
export const requiredEntropyBits = (deckSize: number, handSize: number): number => Math.ceil(Math.log2(deckSize) * handSize);

// ---- FlowSchema ----

export function validateFlowSchema(fs: JSONObject): FieldError[] {
  const name = str(metaOf(fs).name);
  const spec = obj(fs['spec']);
  const errs = validateObjectMeta(metaOf(fs), { namespaced: false, nameValidator: 'dns1123Subdomain' }, 'metadata');
  errs.push(...validateFlowSchemaSpec(name, spec));
  const mandatory = mandatoryFlowSchema(name);
  if (mandatory && !semanticEqual(FlowSchemaSpec, spec, defaultedSpec(mandatory, setFlowSchemaDefaults))) {
    errs.push(invalid('spec', goRendered(spec, goSharpV(FlowSchemaSpec, spec)), `spec of '${name}' must equal the fixed value`));
  }
  errs.push(...validateConditions(fs['status']));
  return errs;
}

export const validateFlowSchemaStatus = (fs: JSONObject): FieldError[] => validateConditions(fs['status']);

function validateFlowSchemaSpec(fsName: string, spec: JSONObject): FieldError[] {
  const errs: FieldError[] = [];
  const precedence = num(spec['matchingPrecedence']);
  if (precedence <= 0) errs.push(invalid('spec.matchingPrecedence', precedence, 'must be a positive value'));
  if (precedence > MAX_MATCHING_PRECEDENCE) errs.push(invalid('spec.matchingPrecedence', precedence, `must not be greater than ${MAX_MATCHING_PRECEDENCE}`));
  if (precedence === 1 && fsName !== 'exempt') errs.push(invalid('spec.matchingPrecedence', precedence, "only the schema named 'exempt' may have matchingPrecedence 1"));
  const dm = spec['distinguisherMethod'];
  if (isObject(dm) && !SUPPORTED_DISTINGUISHERS.includes(str(dm['type']))) {
    errs.push(notSupported('spec.distinguisherMethod.type', goRendered(dm, goSharpV(FlowDistinguisherMethod, dm)), SUPPORTED_DISTINGUISHERS));
  }
  const plName = str(obj(spec['priorityLevelConfiguration'])['name']);
  if (plName) {
    for (const msg of nameIsDNSSubdomain(plName, false)) errs.push(invalid('spec.priorityLevelConfiguration.name', plName, msg));
  } else {
    errs.push(required('spec.priorityLevelConfiguration.name', 'must reference a priority level'));
  }
  const rules = Array.isArray(spec['rules']) ? spec['rules'] : [];
  rules.forEach((r, i) => errs.push(...validatePolicyRulesWithSubjects(obj(r), `spec.rules[${i}]`)));
  return errs;
}

function validatePolicyRulesWithSubjects(rule: JSONObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const subjects = Array.isArray(rule['subjects']) ? rule['subjects'] : [];
  if (subjects.length > 0) subjects.forEach((s, i) => errs.push(...validateSubject(obj(s), `${path}.subjects[${i}]`)));
  else errs.push(required(`${path}.subjects`, 'subjects must contain at least one value'));
  const resourceRules = Array.isArray(rule['resourceRules']) ? rule['resourceRules'] : [];
  const nonResourceRules = Array.isArray(rule['nonResourceRules']) ? rule['nonResourceRules'] : [];
  if (resourceRules.length === 0 && nonResourceRules.length === 0) {
    errs.push(required(path, 'at least one of resourceRules and nonResourceRules has to be non-empty'));
  }
  resourceRules.forEach((r, i) => errs.push(...validateResourcePolicyRule(obj(r), `${path}.resourceRules[${i}]`)));
  nonResourceRules.forEach((r, i) => errs.push(...validateNonResourcePolicyRule(obj(r), `${path}.nonResourceRules[${i}]`)));
  return errs;
}

const USER_FORBIDDEN = "user is forbidden when subject kind is not 'User'";
const GROUP_FORBIDDEN = "group is forbidden when subject kind is not 'Group'";
const SA_FORBIDDEN = "serviceAccount is forbidden when subject kind is not 'ServiceAccount'";
const present = (v: unknown): boolean => v !== undefined && v !== null;

function validateSubject(subject: JSONObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const kind = str(subject['kind']);
  switch (kind) {
    case 'ServiceAccount':
      errs.push(...validateServiceAccountSubject(subject['serviceAccount'], `${path}.serviceAccount`));
      if (present(subject['user'])) errs.push(forbidden(`${path}.user`, USER_FORBIDDEN));
      if (present(subject['group'])) errs.push(forbidden(`${path}.group`, GROUP_FORBIDDEN));
      break;
    case 'User':
      errs.push(...validateNamedSubject(subject['user'], `${path}.user`, "user is required when subject kind is 'User'"));
      if (present(subject['serviceAccount'])) errs.push(forbidden(`${path}.serviceAccount`, SA_FORBIDDEN));
      if (present(subject['group'])) errs.push(forbidden(`${path}.group`, GROUP_FORBIDDEN));
      break;
    case 'Group':
      errs.push(...validateNamedSubject(subject['group'], `${path}.group`, "group is required when subject kind is 'Group'"));
      if (present(subject['serviceAccount'])) errs.push(forbidden(`${path}.serviceAccount`, SA_FORBIDDEN));
      if (present(subject['user'])) errs.push(forbidden(`${path}.user`, USER_FORBIDDEN));
      break;
    default:
      errs.push(notSupported(`${path}.kind`, kind, SUPPORTED_SUBJECT_KINDS));
  }
  return errs;
}

function validateServiceAccountSubject(v: unknown, path: string): FieldError[] {
  if (!isObject(v)) return [required(path, "serviceAccount is required when subject kind is 'ServiceAccount'")];
  const errs: FieldError[] = [];
  const name = str(v['name']);
  if (!name) errs.push(required(`${path}.name`));
  else if (name !== '*') for (const msg of nameIsDNSSubdomain(name, false)) errs.push(invalid(`${path}.name`, name, msg));
  const ns = str(v['namespace']);
  if (ns) for (const msg of nameIsDNSLabel(ns, false)) errs.push(invalid(`${path}.namespace`, ns, msg));
  else errs.push(required(`${path}.namespace`, 'must specify namespace for service account'));
  return errs;
}

function validateNamedSubject(v: unknown, path: string, missing: string): FieldError[] {
  if (!isObject(v)) return [required(path, missing)];
  return str(v['name']) ? [] : [required(`${path}.name`)];
}

/** The verbs of a rule: not empty, '*' alone, else only kube's verbs. */
function validateVerbs(verbs: string[], path: string): FieldError[] {
  if (verbs.length === 0) return [required(path, 'verbs must contain at least one value')];
  if (verbs.includes('*')) return verbs.length > 1 ? [invalid(path, stringList(verbs), "if '*' is present, must not specify other verbs")] : [];
  return verbs.every((v) => SUPPORTED_VERBS.includes(v)) ? [] : [notSupported(path, stringList(verbs), SUPPORTED_VERBS)];
}

function validateNonResourcePolicyRule(rule: JSONObject, path: string): FieldError[] {
  const errs = validateVerbs(strings(rule['verbs']), `${path}.verbs`);
  const urls = strings(rule['nonResourceURLs']);
  if (urls.length === 0) errs.push(required(`${path}.nonResourceURLs`, 'nonResourceURLs must contain at least one value'));
  else if (urls.includes('*')) {
    if (urls.length > 1) errs.push(invalid(`${path}.nonResourceURLs`, stringList(urls), "if '*' is present, must not specify other non-resource URLs"));
  } else {
    urls.forEach((u, i) => {
      const e = validateNonResourceURLPath(u, `${path}.nonResourceURLs[${i}]`);
      if (e) errs.push(e);
    });
  }
  return errs;
}

function validateResourcePolicyRule(rule: JSONObject, path: string): FieldError[] {
  const errs = validateVerbs(strings(rule['verbs']), `${path}.verbs`);
  const groups = strings(rule['apiGroups']);
  if (groups.length === 0) errs.push(required(`${path}.apiGroups`, 'resource rules must supply at least one api group'));
  else if (groups.length > 1 && groups.includes('*')) errs.push(invalid(`${path}.apiGroups`, stringList(groups), "if '*' is present, must not specify other api groups"));
  const resources = strings(rule['resources']);
  if (resources.length === 0) errs.push(required(`${path}.resources`, 'resource rules must supply at least one resource'));
  else if (resources.length > 1 && resources.includes('*')) errs.push(invalid(`${path}.resources`, stringList(resources), "if '*' is present, must not specify other resources"));
  const namespaces = strings(rule['namespaces']);
  if (namespaces.length === 0 && rule['clusterScope'] !== true) {
    errs.push(required(`${path}.namespaces`, 'resource rules that are not cluster scoped must supply at least one namespace'));
  } else if (namespaces.includes('*')) {
    if (namespaces.length > 1) errs.push(invalid(`${path}.namespaces`, stringList(namespaces), "if '*' is present, must not specify other namespaces"));
  } else {
    namespaces.forEach((ns, i) => {
      for (const msg of nameIsDNSLabel(ns, false)) errs.push(invalid(`${path}.namespaces[${i}]`, ns, NS_ERR_INTRO + msg));
    });
  }
  return errs;
}

/** ValidateNonResourceURLPath: a leading slash, no white-space or double slash, '*' only as a final segment. */
export function validateNonResourceURLPath(path: string, fld: string): FieldError | undefined {
  if (path === '') return invalid(fld, path, 'must not be empty');
  if (path === '/') return undefined;
  if (!path.startsWith('/')) return invalid(fld, path, 'must start with slash');
  if (path.includes(' ')) return invalid(fld, path, 'must not contain white-space');
  if (path.includes('//')) return invalid(fld, path, 'must not contain double slash');
  const wildcards = path.split('*').length - 1;
  if (wildcards > 1 || (wildcards === 1 && path.slice(-2) !== '/*')) return invalid(fld, path, 'wildcard can only do suffix matching');
  return undefined;
}

/** The status of either kind: condition types present and unique. */
function validateConditions(status: unknown): FieldError[] {
  const errs: FieldError[] = [];
  const conditions = Array.isArray(obj(status)['conditions']) ? (obj(status)['conditions'] as unknown[]) : [];
  const seen = new Set<string>();
  conditions.forEach((c, i) => {
    const type = str(obj(c)['type']);
    if (seen.has(type)) errs.push(duplicate(`status.conditions[${i}].type`, type));
    seen.add(type);
    if (!type) errs.push(required(`status.conditions[${i}].type`, 'must not be empty'));
  });
  return errs;
}

// ---- PriorityLevelConfiguration ----

export function validatePriorityLevelConfiguration(pl: JSONObject): FieldError[] {
  const meta = metaOf(pl);
  const name = str(meta.name);
  const spec = obj(pl['spec']);
  const errs = validateObjectMeta(meta, { namespaced: false, nameValidator: 'dns1123Subdomain' }, 'metadata');
  if (meta.annotations && PRESERVE_ZERO_SHARES_ANNOTATION in meta.annotations) {
    errs.push(forbidden('metadata.annotations', `annotation '${PRESERVE_ZERO_SHARES_ANNOTATION}' is forbidden`));
  }
  errs.push(...validatePriorityLevelSpec(spec, name));
  errs.push(...validateIfMandatoryPriorityLevel(name, spec));
  errs.push(...validateConditions(pl['status']));
  return errs;
}

export const validatePriorityLevelConfigurationStatus = (pl: JSONObject): FieldError[] => validateConditions(pl['status']);

function validateIfMandatoryPriorityLevel(name: string, spec: JSONObject): FieldError[] {
  const mandatory = mandatoryPriorityLevel(name);
  if (!mandatory) return [];
  const want = defaultedSpec(mandatory, setPriorityLevelDefaults);
  const bad = (): JSONObject => goRendered(spec, goSharpV(PriorityLevelConfigurationSpec, spec));
  if (name === 'exempt') {
    // Operators may change the exempt level's `exempt` field; nothing else.
    if (!semanticEqual(PriorityLevelConfigurationSpec, { ...spec, exempt: want['exempt'] }, want)) {
      return [invalid('spec', bad(), `spec of '${name}' except the 'spec.exempt' field must equal the fixed value`)];
    }
    return [];
  }
  return semanticEqual(PriorityLevelConfigurationSpec, spec, want) ? [] : [invalid('spec', bad(), `spec of '${name}' must equal the fixed value`)];
}

function validatePriorityLevelSpec(spec: JSONObject, name: string): FieldError[] {
  const errs: FieldError[] = [];
  const type = str(spec['type']);
  if ((name === 'exempt') !== (type === 'Exempt')) errs.push(invalid('spec.type', type, "type must be 'Exempt' if and only if name is 'exempt'"));
  switch (type) {
    case 'Exempt':
      if (present(spec['limited'])) errs.push(forbidden('spec.limited', 'must be nil if the type is not Limited'));
      if (isObject(spec['exempt'])) errs.push(...validateExempt(spec['exempt']));
      break;
    case 'Limited':
      if (present(spec['exempt'])) errs.push(forbidden('spec.exempt', 'must be nil if the type is Limited'));
      if (!isObject(spec['limited'])) errs.push(required('spec.limited', 'must not be empty when type is Limited'));
      else errs.push(...validateLimited(spec['limited']));
      break;
    default:
      errs.push(notSupported('spec.type', type, SUPPORTED_ENABLEMENTS));
  }
  return errs;
}

const lendableOutOfRange = (v: unknown): boolean => typeof v === 'number' && !(v >= 0 && v <= 100);

function validateExempt(exempt: JSONObject): FieldError[] {
  const errs: FieldError[] = [];
  const ncs = exempt['nominalConcurrencyShares'];
  if (typeof ncs === 'number' && ncs < 0) errs.push(invalid('spec.exempt.nominalConcurrencyShares', ncs, 'must be a non-negative integer'));
  const lp = exempt['lendablePercent'];
  if (lendableOutOfRange(lp)) errs.push(invalid('spec.exempt.lendablePercent', lp, 'must be between 0 and 100, inclusive'));
  return errs;
}

function validateLimited(limited: JSONObject): FieldError[] {
  const errs: FieldError[] = [];
  const ncs = num(limited['nominalConcurrencyShares']);
  if (ncs < 0) errs.push(invalid('spec.limited.nominalConcurrencyShares', ncs, 'must be a non-negative integer'));
  errs.push(...validateLimitResponse(obj(limited['limitResponse'])));
  const lp = limited['lendablePercent'];
  if (lendableOutOfRange(lp)) errs.push(invalid('spec.limited.lendablePercent', lp, 'must be between 0 and 100, inclusive'));
  const blp = limited['borrowingLimitPercent'];
  if (typeof blp === 'number' && blp < 0) errs.push(invalid('spec.limited.borrowingLimitPercent', blp, 'if specified, must be a non-negative integer'));
  return errs;
}

function validateLimitResponse(lr: JSONObject): FieldError[] {
  const path = 'spec.limited.limitResponse';
  const type = str(lr['type']);
  switch (type) {
    case 'Reject':
      return present(lr['queuing']) ? [forbidden(`${path}.queuing`, 'must be nil if limited.limitResponse.type is not Limited')] : [];
    case 'Queue':
      return isObject(lr['queuing'])
        ? validateQueuing(lr['queuing'], `${path}.queuing`)
        : [required(`${path}.queuing`, 'must not be empty if limited.limitResponse.type is Limited')];
    default:
      return [notSupported(`${path}.type`, type, SUPPORTED_LIMIT_RESPONSES)];
  }
}

function validateQueuing(q: JSONObject, path: string): FieldError[] {
  const errs: FieldError[] = [];
  const queueLengthLimit = num(q['queueLengthLimit']);
  const queues = num(q['queues']);
  const handSize = num(q['handSize']);
  if (queueLengthLimit <= 0) errs.push(invalid(`${path}.queueLengthLimit`, queueLengthLimit, 'must be positive'));
  if (queues <= 0) errs.push(invalid(`${path}.queues`, queues, 'must be positive'));
  else if (queues > MAX_QUEUES) errs.push(invalid(`${path}.queues`, queues, `must not be greater than ${MAX_QUEUES}`));
  if (handSize <= 0) errs.push(invalid(`${path}.handSize`, handSize, 'must be positive'));
  else if (handSize > queues) errs.push(invalid(`${path}.handSize`, handSize, `should not be greater than queues (${queues})`));
  else if (requiredEntropyBits(queues, handSize) > MAX_HASH_BITS) {
    errs.push(invalid(`${path}.handSize`, handSize, `required entropy bits of deckSize ${queues} and handSize ${handSize} should not be greater than ${MAX_HASH_BITS}`));
  }
  return errs;
}

// ---- helpers ----

/** A bootstrap object's spec after defaulting (what kube's internalbootstrap compares against). */
function defaultedSpec(o: JSONObject, setDefaults: (obj: JSONObject) => void): JSONObject {
  const copy = structuredClone(o);
  setDefaults(copy);
  return obj(copy['spec']);
}

/** apiequality.Semantic.DeepEqual of two specs: compared as Go values, where a nil and an empty slice are equal. */
export function semanticEqual(s: GoStruct, a: JSONObject, b: JSONObject): boolean {
  const norm = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.length === 0 ? null : v.map(norm);
    if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, norm(x)]));
    return v;
  };
  return JSON.stringify(norm(goEncode(s, a))) === JSON.stringify(norm(goEncode(s, b)));
}


// admissionregistration.k8s.io/v1 ValidatingAdmissionPolicy (with /status) and
// ValidatingAdmissionPolicyBinding as built-in kinds: v1 defaulting, the REST strategies of
// pkg/registry/admissionregistration/{validatingadmissionpolicy,validatingadmissionpolicybinding}, and
// kube's printers.
import type { JSONObject } from '../../../util/json.js';
import { isObject } from '../../../util/json.js';
import { validateObjectMetaUpdate } from '../../../schema/objectmeta.js';
import { reportStrictDecoding } from '../../../schema/unknown-fields.js';
import { metaOf } from '../../../registry/store.js';
import { CREATION_TIMESTAMP_DESCRIPTION, NAME_DESCRIPTION } from '../../meta/v1/object-meta.js';
import type { KindDeclaration, TableColumnDecl } from '../../kind.js';
import { flowcontrolStrategy } from '../../flowcontrol/v1/strategy.js';
import { semanticEqual } from '../../flowcontrol/v1/validation.js';
import { clusterScopedFields } from '../../flowcontrol/v1/shared.js';
import {
  ValidatingAdmissionPolicy,
  ValidatingAdmissionPolicyBinding,
  ValidatingAdmissionPolicyBindingList,
  ValidatingAdmissionPolicyList,
} from './vap-types.js';
import { validateBinding, validateBindingUpdate, validatePolicy, validatePolicyStatus, validatePolicyUpdate } from './vap-validation.js';

export const ADMISSIONREGISTRATION_GROUP = 'admissionregistration.k8s.io';
/** kube-aggregator's built-in priority of the group. */
const GROUP_PRIORITY = 16700;

const objectAt = (obj: JSONObject, key: string): JSONObject => (isObject(obj[key]) ? (obj[key] as JSONObject) : {});

/** SetDefaults_MatchResources and SetDefaults_Rule (scope "*") of each rule. */
function defaultMatchResources(mr: JSONObject): void {
  mr['matchPolicy'] ??= 'Equivalent';
  mr['namespaceSelector'] ??= {};
  mr['objectSelector'] ??= {};
  for (const k of ['resourceRules', 'excludeResourceRules']) {
    const rules = mr[k];
    if (Array.isArray(rules)) for (const r of rules) if (isObject(r)) (r as JSONObject)['scope'] ??= '*';
  }
}

/** The v1 defaults the decoder applies: failurePolicy Fail and the match resources'. */
function setPolicyDefaults(obj: JSONObject): void {
  const spec = obj['spec'];
  if (!isObject(spec)) return;
  (spec as JSONObject)['failurePolicy'] ??= 'Fail';
  if (isObject(spec['matchConstraints'])) defaultMatchResources(spec['matchConstraints'] as JSONObject);
}

function setBindingDefaults(obj: JSONObject): void {
  const spec = obj['spec'];
  if (isObject(spec) && isObject(spec['matchResources'])) defaultMatchResources(spec['matchResources'] as JSONObject);
}

const ageColumn: TableColumnDecl = { name: 'Age', type: 'string', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0, field: ['metadata', 'creationTimestamp'], render: 'age' };
const nameColumn: TableColumnDecl = { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0, field: ['metadata', 'name'], render: 'string' };

/** The gogo-protobuf String() of a LabelSelector, as kube's binding printer shows a paramRef selector. */
export function labelSelectorGoString(sel: JSONObject): string {
  const labels = objectAt(sel, 'matchLabels');
  const ml = Object.keys(labels)
    .sort()
    .map((k) => `${k}: ${String(labels[k])},`)
    .join('');
  const exprs = Array.isArray(sel['matchExpressions']) ? (sel['matchExpressions'] as JSONObject[]) : [];
  const me = exprs
    .map((e) => `LabelSelectorRequirement{Key:${String(e['key'] ?? '')},Operator:${String(e['operator'] ?? '')},Values:[${(Array.isArray(e['values']) ? e['values'] : []).join(' ')}],},`)
    .join('');
  return `&LabelSelector{MatchLabels:map[string]string{${ml}},MatchExpressions:[]LabelSelectorRequirement{${me}},}`;
}

function paramRefCell(obj: JSONObject): string {
  const pr = objectAt(obj, 'spec')['paramRef'];
  if (!isObject(pr)) return '<unset>';
  const name = typeof pr['name'] === 'string' ? pr['name'] : '';
  const ns = typeof pr['namespace'] === 'string' ? pr['namespace'] : '';
  // Whether the param kind is cluster-scoped cannot be told from here: nameless namespaces print as "*".
  if (name) return ns ? `${ns}/${name}` : `*/${name}`;
  if (isObject(pr['selector'])) return labelSelectorGoString(pr['selector'] as JSONObject);
  return '<unset>';
}

export const validatingAdmissionPolicyKind: KindDeclaration = {
  served: {
    group: ADMISSIONREGISTRATION_GROUP,
    version: 'v1',
    resource: 'validatingadmissionpolicies',
    singularName: 'validatingadmissionpolicy',
    kind: 'ValidatingAdmissionPolicy',
    listKind: 'ValidatingAdmissionPolicyList',
    namespaced: false,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: [],
    categories: ['api-extensions'],
    subresources: { status: true },
  },
  groupPriorityMinimum: GROUP_PRIORITY,
  storageVersion: 'v1',
  keyPrefix: '/registry/validatingadmissionpolicies/',
  object: ValidatingAdmissionPolicy,
  list: ValidatingAdmissionPolicyList,
  protobuf: true,
  strategy: {
    // Create resets status and sets generation 1, a spec change bumps it, /status keeps spec and metadata: as
    // the flowcontrol kinds. An update compiles only new expressions in the NewExpressions environment.
    ...flowcontrolStrategy({
      kind: 'ValidatingAdmissionPolicy',
      spec: ValidatingAdmissionPolicy.fields.find((f) => f.json === 'spec')!.type as never,
      status: ValidatingAdmissionPolicy.fields.find((f) => f.json === 'status')!.type as never,
      setDefaults: setPolicyDefaults,
      validate: validatePolicy,
      validateStatus: validatePolicyStatus,
    }),
    validateUpdate: (obj, old, sub) => (sub === 'status' ? [...validateObjectMetaUpdate(metaOf(obj), metaOf(old), 'metadata'), ...validatePolicyStatus(obj)] : validatePolicyUpdate(obj, old)),
  },
  // kube's printer: NAME VALIDATIONS PARAMKIND AGE.
  table: [
    nameColumn,
    {
      name: 'Validations',
      type: 'integer',
      format: '',
      description: 'Validations indicates the number of validation rules defined in this configuration',
      priority: 0,
      cell: (obj) => {
        const v = objectAt(obj, 'spec')['validations'];
        return Array.isArray(v) ? v.length : 0;
      },
    },
    {
      name: 'ParamKind',
      type: 'string',
      format: '',
      description: 'ParamKind specifies the kind of resources used to parameterize this policy',
      priority: 0,
      cell: (obj) => {
        const pk = objectAt(obj, 'spec')['paramKind'];
        return isObject(pk) ? `${String(pk['apiVersion'] ?? '')}/${String(pk['kind'] ?? '')}` : '<unset>';
      },
    },
    ageColumn,
  ],
  selectableFields: clusterScopedFields,
  defaultFieldLabelConversion: true,
  subresources: ['status'],
};

const BindingSpec = ValidatingAdmissionPolicyBinding.fields.find((f) => f.json === 'spec')!.type as never;

export const validatingAdmissionPolicyBindingKind: KindDeclaration = {
  served: {
    group: ADMISSIONREGISTRATION_GROUP,
    version: 'v1',
    resource: 'validatingadmissionpolicybindings',
    singularName: 'validatingadmissionpolicybinding',
    kind: 'ValidatingAdmissionPolicyBinding',
    listKind: 'ValidatingAdmissionPolicyBindingList',
    namespaced: false,
    verbs: ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'],
    shortNames: [],
    categories: ['api-extensions'],
    subresources: {},
  },
  groupPriorityMinimum: GROUP_PRIORITY,
  storageVersion: 'v1',
  keyPrefix: '/registry/validatingadmissionpolicybindings/',
  object: ValidatingAdmissionPolicyBinding,
  list: ValidatingAdmissionPolicyBindingList,
  protobuf: true,
  strategy: {
    admitBody(obj, fieldValidation, warnings, decodeErrors = []) {
      reportStrictDecoding(decodeErrors, fieldValidation, warnings, 'ValidatingAdmissionPolicyBinding', 'v1');
      setBindingDefaults(obj);
    },
    allowCreateOnUpdate: false,
    allowUnconditionalUpdate: true,
    prepareForCreate(obj) {
      setBindingDefaults(obj);
      metaOf(obj).generation = 1;
    },
    validate: validateBinding,
    prepareForUpdate(obj, old) {
      setBindingDefaults(obj);
      const generation = typeof metaOf(old).generation === 'number' ? metaOf(old).generation! : 0;
      metaOf(obj).generation = semanticEqual(BindingSpec, objectAt(obj, 'spec'), objectAt(old, 'spec')) ? generation : generation + 1;
    },
    validateUpdate: validateBindingUpdate,
  },
  // kube's printer: NAME POLICYNAME PARAMREF AGE.
  table: [
    nameColumn,
    {
      name: 'PolicyName',
      type: 'string',
      format: '',
      description: 'PolicyName indicates the policy definition which the policy binding binded to',
      priority: 0,
      field: ['spec', 'policyName'],
      render: 'string',
    },
    { name: 'ParamRef', type: 'string', format: '', description: 'ParamRef indicates the param resource which sets the configration param', priority: 0, cell: paramRefCell },
    ageColumn,
  ],
  selectableFields: clusterScopedFields,
  defaultFieldLabelConversion: true,
  subresources: [],
};

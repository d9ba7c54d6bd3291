// The four RBAC kinds as served resources: the rbac registries' strategies (nothing prepared, create on
// update and unconditional updates allowed, kube's validation), their printers and field selectors.
// Escalation prevention (kube's policybased storage wrappers) is in src/auth/rbac/escalation.ts.
import type { GoStruct } from '../../../api/go-struct.js';
import type { FieldError } from '../../../api/field-error.js';
import type { JSONObject } from '../../../util/json.js';
import { isObject } from '../../../util/json.js';
import { reportStrictDecoding } from '../../../schema/unknown-fields.js';
import { CREATION_TIMESTAMP_DESCRIPTION, NAME_DESCRIPTION } from '../../meta/v1/object-meta.js';
import { objectMetaFields } from '../../core/v1/data-maps.js';
import type { KindDeclaration, TableColumnDecl } from '../../kind.js';
import {
  ClusterRole,
  ClusterRoleBinding,
  ClusterRoleBindingList,
  ClusterRoleList,
  Role,
  RoleBinding,
  RoleBindingList,
  RoleList,
} from './rbac.js';
import {
  RBAC_GROUP,
  validateClusterRole,
  validateClusterRoleBinding,
  validateClusterRoleBindingUpdate,
  validateClusterRoleUpdate,
  validateRole,
  validateRoleBinding,
  validateRoleBindingUpdate,
  validateRoleUpdate,
} from './validation.js';

// The printers describe the Role column by rbac/v1beta1's roleRef documentation, which lacks v1's last sentence.
const V1BETA1_ROLE_BINDING_ROLE_REF_DOC =
  'RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.';
const V1BETA1_CLUSTER_ROLE_BINDING_ROLE_REF_DOC =
  'RoleRef can only reference a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error.';

const VERBS = ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch'];

/**
 * rbac/v1's defaulting of bindings: an empty roleRef.apiGroup is RBAC's, and so is a User's or Group's
 * subject apiGroup (a ServiceAccount's stays the core group).
 */
function defaultBinding(obj: JSONObject): void {
  const ref = isObject(obj['roleRef']) ? obj['roleRef'] : (obj['roleRef'] = {});
  if (!ref['apiGroup']) ref['apiGroup'] = RBAC_GROUP;
  if (!Array.isArray(obj['subjects'])) return;
  for (const s of obj['subjects'] as unknown[]) {
    if (isObject(s) && !s['apiGroup'] && (s['kind'] === 'User' || s['kind'] === 'Group')) s['apiGroup'] = RBAC_GROUP;
  }
}

const strategyOf = (
  kind: string,
  validate: (o: JSONObject) => FieldError[],
  validateUpdate: (o: JSONObject, old: JSONObject) => FieldError[],
  defaults?: (o: JSONObject) => void,
): KindDeclaration['strategy'] => ({
  admitBody(obj, fieldValidation, warnings, decodeErrors = []) {
    reportStrictDecoding(decodeErrors, fieldValidation, warnings, kind, 'v1');
    defaults?.(obj);
  },
  allowCreateOnUpdate: true,
  allowUnconditionalUpdate: true,
  prepareForCreate: () => undefined,
  validate,
  prepareForUpdate: () => undefined,
  validateUpdate: (obj, old) => validateUpdate(obj, old),
});

const nameColumn: TableColumnDecl = { name: 'Name', type: 'string', format: 'name', description: NAME_DESCRIPTION, priority: 0, field: ['metadata', 'name'], render: 'string' };
const ageColumn: TableColumnDecl = { name: 'Age', type: 'string', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0, field: ['metadata', 'creationTimestamp'], render: 'age' };

/** The Role and ClusterRole printers: NAME, CREATED AT (the creation time in RFC 3339, UTC). */
const roleColumns: readonly TableColumnDecl[] = [
  nameColumn,
  { name: 'Created At', type: 'date', format: '', description: CREATION_TIMESTAMP_DESCRIPTION, priority: 0, field: ['metadata', 'creationTimestamp'], render: 'string' },
];

/** rbac.SubjectsStrings: users, groups and ServiceAccounts (namespace/name) of a binding. */
function subjectsStrings(binding: JSONObject): { users: string[]; groups: string[]; sas: string[] } {
  const out = { users: [] as string[], groups: [] as string[], sas: [] as string[] };
  for (const s of Array.isArray(binding['subjects']) ? (binding['subjects'] as unknown[]) : []) {
    if (!isObject(s)) continue;
    const name = typeof s['name'] === 'string' ? s['name'] : '';
    if (s['kind'] === 'User') out.users.push(name);
    else if (s['kind'] === 'Group') out.groups.push(name);
    else if (s['kind'] === 'ServiceAccount') out.sas.push(typeof s['namespace'] === 'string' && s['namespace'] ? `${s['namespace']}/${name}` : name);
  }
  return out;
}

/** The RoleBinding and ClusterRoleBinding printers: NAME, ROLE (kind/name), AGE; wide: USERS, GROUPS, SERVICEACCOUNTS. */
function bindingColumns(roleRefDoc: string, what: string): TableColumnDecl[] {
  const roleRef = (o: JSONObject): JSONObject => (isObject(o['roleRef']) ? o['roleRef'] : {});
  return [
    nameColumn,
    { name: 'Role', type: 'string', format: '', description: roleRefDoc, priority: 0, cell: (o) => `${String(roleRef(o)['kind'] ?? '')}/${String(roleRef(o)['name'] ?? '')}` },
    ageColumn,
    { name: 'Users', type: 'string', format: '', description: `Users in the ${what}`, priority: 1, cell: (o) => subjectsStrings(o).users.join(', ') },
    { name: 'Groups', type: 'string', format: '', description: `Groups in the ${what}`, priority: 1, cell: (o) => subjectsStrings(o).groups.join(', ') },
    { name: 'ServiceAccounts', type: 'string', format: '', description: `ServiceAccounts in the ${what}`, priority: 1, cell: (o) => subjectsStrings(o).sas.join(', ') },
  ];
}

function rbacKind(
  kind: string,
  resource: string,
  namespaced: boolean,
  object: GoStruct,
  list: GoStruct,
  strategy: KindDeclaration['strategy'],
  table: readonly TableColumnDecl[],
): KindDeclaration {
  return {
    served: {
      group: RBAC_GROUP,
      version: 'v1',
      resource,
      singularName: kind.toLowerCase(),
      kind,
      listKind: `${kind}List`,
      namespaced,
      verbs: VERBS,
      shortNames: [],
      categories: [],
      subresources: {},
    },
    groupPriorityMinimum: 17000,
    storageVersion: 'v1',
    keyPrefix: `/registry/${resource}/`,
    object,
    list,
    protobuf: true,
    strategy,
    table,
    selectableFields: objectMetaFields,
    // rbac/v1 registers no field label conversion functions.
    defaultFieldLabelConversion: true,
    subresources: [],
  };
}

export const roleKind = rbacKind('Role', 'roles', true, Role, RoleList, strategyOf('Role', validateRole, validateRoleUpdate), roleColumns);
export const roleBindingKind = rbacKind(
  'RoleBinding',
  'rolebindings',
  true,
  RoleBinding,
  RoleBindingList,
  strategyOf('RoleBinding', validateRoleBinding, validateRoleBindingUpdate, defaultBinding),
  bindingColumns(V1BETA1_ROLE_BINDING_ROLE_REF_DOC, 'roleBinding'),
);
export const clusterRoleKind = rbacKind(
  'ClusterRole',
  'clusterroles',
  false,
  ClusterRole,
  ClusterRoleList,
  strategyOf('ClusterRole', (o) => validateClusterRole(o), validateClusterRoleUpdate),
  roleColumns,
);
export const clusterRoleBindingKind = rbacKind(
  'ClusterRoleBinding',
  'clusterrolebindings',
  false,
  ClusterRoleBinding,
  ClusterRoleBindingList,
  strategyOf('ClusterRoleBinding', validateClusterRoleBinding, validateClusterRoleBindingUpdate, defaultBinding),
  bindingColumns(V1BETA1_CLUSTER_ROLE_BINDING_ROLE_REF_DOC, 'clusterRoleBinding'),
);

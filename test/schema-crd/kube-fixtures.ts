// Reading kube's transcribed test CRDs (internal form, Go field names outside schemas) as v1 CRDs.
import type { CustomResourceDefinition, CustomResourceSubresources } from '../../src/crd/types.js';

export type Go = Record<string, any>;

export interface KubeCase {
  name: string;
  crd: Go;
  old?: Go;
  errors: Array<{ type: string; field: string; contains?: string }>;
}

export const KUBE_ERROR_TYPES: Record<string, string> = {
  invalid: 'FieldValueInvalid',
  immutable: 'FieldValueInvalid',
  required: 'FieldValueRequired',
  forbidden: 'FieldValueForbidden',
  unsupported: 'FieldValueNotSupported',
  duplicate: 'FieldValueDuplicate',
  tooMany: 'FieldValueTooMany',
  invalidtypecode: 'FieldValueTypeInvalid',
};

function subresources(s: Go | undefined): CustomResourceSubresources | undefined {
  if (!s) return undefined;
  const out: Go = {};
  if (s['Status']) out['status'] = {};
  if (s['Scale']) {
    out['scale'] = { specReplicasPath: s['Scale']['SpecReplicasPath'] ?? '', statusReplicasPath: s['Scale']['StatusReplicasPath'] ?? '' };
    if (s['Scale']['LabelSelectorPath'] !== undefined) out['scale']['labelSelectorPath'] = s['Scale']['LabelSelectorPath'];
  }
  return out as CustomResourceSubresources;
}

/** The v1 form of kube's internal test CRD, or undefined when v1 cannot express it. */
export function toV1(crd: Go): CustomResourceDefinition | undefined {
  const spec = crd['Spec'] ?? {};
  const versions: Go[] = spec['Versions'] ?? [];
  // nil behaves as false for everything under openAPIV3Schema.
  if (spec['PreserveUnknownFields'] === true) return undefined;
  if (spec['Validation'] && versions.some((v) => v['schema'])) return undefined;
  const schemas = versions.map((v) => JSON.stringify(v['schema'] ?? null));
  if (versions.length > 1 && versions[0]!['schema'] && schemas.every((s) => s === schemas[0])) return undefined;
  const names = spec['Names'] ?? {};
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: crd['ObjectMeta']?.['Name'] ?? '' },
    spec: {
      group: spec['Group'] ?? '',
      scope: spec['Scope'] ?? '',
      names: { plural: names['Plural'] ?? '', singular: names['Singular'], kind: names['Kind'] ?? '', listKind: names['ListKind'] },
      versions: versions.map((v) => {
        const schema = v['schema']?.['OpenAPIV3Schema'] ?? spec['Validation']?.['OpenAPIV3Schema'];
        const sub = subresources(v['Subresources'] ?? spec['Subresources']);
        return {
          name: v['Name'] ?? '',
          served: v['Served'] === true,
          storage: v['Storage'] === true,
          ...(schema ? { schema: { openAPIV3Schema: schema } } : {}),
          ...(sub ? { subresources: sub } : {}),
        };
      }),
      conversion: { strategy: 'None' },
    },
    status: { storedVersions: crd['Status']?.['StoredVersions'] ?? [] },
  };
}


/** Expectations only CEL compilation (or its cost estimates) produces: not this engine's job. */
export function needsCEL(name: string, schemaText: string, errors: KubeCase['errors']): boolean {
  return (
    /cost/i.test(name) ||
    // Rules evaluated on default values.
    (schemaText.includes('x-kubernetes-validations') && errors.some((e) => e.field.endsWith('.default'))) ||
    errors.some(
      (e) =>
        /x-kubernetes-validations(\[\d+\])?$/.test(e.field) ||
        /\.optionalOldSelf$/.test(e.field) ||
        (/\.rule$/.test(e.field) && !(e.type === 'required' && /rule is not specified/.test(e.contains ?? 'rule is not specified'))) ||
        (/\.messageExpression$/.test(e.field) && e.type !== 'required'),
    )
  );
}

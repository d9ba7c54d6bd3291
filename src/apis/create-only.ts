// What the create-only kinds (access and token reviews) declare alike: a POST decodes the body, the server's
// handler for the kind fills in its status, nothing is stored (kube's rest.Creater storages without a store).
import type { GoStruct } from '../api/go-struct.js';
import type { KindDeclaration } from './kind.js';
import { reportStrictDecoding } from '../schema/unknown-fields.js';

interface CreateOnly {
  group: string;
  version: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  groupPriorityMinimum: number;
  object: GoStruct;
}

export function createOnlyKind(k: CreateOnly): KindDeclaration {
  return {
    served: {
      group: k.group,
      version: k.version,
      resource: k.resource,
      singularName: k.kind.toLowerCase(),
      kind: k.kind,
      listKind: `${k.kind}List`,
      namespaced: k.namespaced,
      verbs: ['create'],
      shortNames: [],
      categories: [],
      subresources: {},
    },
    groupPriorityMinimum: k.groupPriorityMinimum,
    storageVersion: k.version,
    // Never written: the key only keeps the kind's managed-fields tables apart from the others'.
    keyPrefix: `/registry/${k.group}/${k.resource}/`,
    object: k.object,
    protobuf: true,
    createOnly: true,
    strategy: {
      admitBody(_obj, fieldValidation, warnings, decodeErrors = []) {
        reportStrictDecoding(decodeErrors, fieldValidation, warnings, k.kind, k.version);
      },
      allowCreateOnUpdate: false,
      allowUnconditionalUpdate: false,
      prepareForCreate: () => undefined,
      validate: () => [],
      prepareForUpdate: () => undefined,
      validateUpdate: () => [],
    },
    selectableFields: () => ({}),
    subresources: [],
  };
}

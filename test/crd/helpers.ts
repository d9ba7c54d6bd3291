// Shared fixtures for the CRD tests.
import { fieldErrorString, type FieldError } from '../../src/api/field-error.js';
import type { CustomResourceDefinition } from '../../src/crd/types.js';

/** A valid, already defaulted single-version CronTab CRD (the docs' example). */
export function cronTab(): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'crontabs.stable.example.com' },
    spec: {
      group: 'stable.example.com',
      scope: 'Namespaced',
      names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', listKind: 'CronTabList', shortNames: ['ct'] },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          schema: {
            openAPIV3Schema: {
              type: 'object',
              properties: {
                spec: {
                  type: 'object',
                  properties: { cronSpec: { type: 'string' }, image: { type: 'string' }, replicas: { type: 'integer' } },
                },
                status: { type: 'object', properties: { replicas: { type: 'integer' }, labelSelector: { type: 'string' } } },
              },
            },
          },
        },
      ],
      conversion: { strategy: 'None' },
    },
    status: { storedVersions: ['v1'] },
  };
}

/** Two versions with different schemas, so nothing is hoisted to the top level. */
export function twoVersions(): CustomResourceDefinition {
  const crd = cronTab();
  const v1 = crd.spec.versions[0]!;
  crd.spec.versions = [
    { ...structuredClone(v1), name: 'v1beta1', storage: false, schema: { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object' } } } } },
    v1,
  ];
  return crd;
}

export const strings = (errs: readonly FieldError[]): string[] => errs.map(fieldErrorString);

export const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
export const DNS1123_SUBDOMAIN =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";

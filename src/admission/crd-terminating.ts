// No new custom resources while their CRD is terminating: kube's crdHandler refuses the create itself;
// here it is a plugin of the chain, so every path that creates (POST, PUT that creates) is covered. One
// difference follows: crdHandler refuses before reading the body, so there a malformed body on a terminating
// CRD gets the 405; here the body's own 400 comes first.
import type { ServedResource } from '../api/resource.js';
import { terminatingCreate } from '../crd/serving.js';
import type { AdmissionPlugin } from './chain.js';

/** Whether the CRD serving this resource is terminating (false for anything that is not a custom resource). */
type TerminatingLookup = (resource: ServedResource) => boolean;

export function crdTerminating(isTerminating: TerminatingLookup): AdmissionPlugin {
  return {
    name: 'CustomResourceDefinitionTerminating',
    operations: ['CREATE'],
    admit(a) {
      if (isTerminating(a.resource)) throw terminatingCreate({ group: a.resource.group, resource: a.resource.resource });
    },
  };
}

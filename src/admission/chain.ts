// The admission chain (k8s.io/apiserver admission.chainAdmissionHandler): every mutating plugin in order,
// then, at the store's second call, every validating plugin in order. The first refusal ends the write.
// Webhooks and ValidatingAdmissionPolicy join as further plugins.
import type { Admission, AdmissionAttributes, Operation } from '../registry/admission.js';

export interface AdmissionPlugin {
  /** As --enable-admission-plugins names it. */
  name: string;
  /** The operations the plugin looks at (kube's admission.Handler.Handles). */
  operations: readonly Operation[];
  admit?(attrs: AdmissionAttributes): Promise<void> | void;
  validate?(attrs: AdmissionAttributes): Promise<void> | void;
}

export function admissionChain(plugins: readonly AdmissionPlugin[]): Admission {
  const mutating = plugins.filter((p) => p.admit);
  const validating = plugins.filter((p) => p.validate);
  return {
    async admit(attrs) {
      for (const p of mutating) if (p.operations.includes(attrs.operation)) await p.admit!(attrs);
    },
    async validate(attrs) {
      for (const p of validating) if (p.operations.includes(attrs.operation)) await p.validate!(attrs);
    },
  };
}

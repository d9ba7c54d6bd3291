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

/** Told of each whole phase, "admit" (mutating) or "validate", as kube's WithStepMetrics records them. */
export type AdmissionStepObserver = (type: 'admit' | 'validate', operation: Operation, rejected: boolean, seconds: number) => void;

export function admissionChain(plugins: readonly AdmissionPlugin[], observeStep?: AdmissionStepObserver): Admission {
  const mutating = plugins.filter((p) => p.admit);
  const validating = plugins.filter((p) => p.validate);
  // A plugin that answers synchronously (most, for most writes) is not awaited: a turn of the microtask queue
  // per plugin per write saved; a throw ends the chain as a rejection would.
  const chain: Admission = {
    async admit(attrs) {
      for (const p of mutating) {
        if (!p.operations.includes(attrs.operation)) continue;
        const pending = p.admit!(attrs);
        if (pending) await pending;
      }
    },
    async validate(attrs) {
      for (const p of validating) {
        if (!p.operations.includes(attrs.operation)) continue;
        const pending = p.validate!(attrs);
        if (pending) await pending;
      }
    },
  };
  if (!observeStep) return chain;
  const timed =
    (type: 'admit' | 'validate', phase: (attrs: AdmissionAttributes) => Promise<void>) =>
    async (attrs: AdmissionAttributes): Promise<void> => {
      const start = performance.now();
      let rejected = true;
      try {
        await phase(attrs);
        rejected = false;
      } finally {
        observeStep(type, attrs.operation, rejected, (performance.now() - start) / 1000);
      }
    };
  return { admit: timed('admit', chain.admit), validate: timed('validate', chain.validate) };
}

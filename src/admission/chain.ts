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
  const mutating = plugins.filter((p) => p.admit).map((p) => ({ operations: p.operations, run: (a: AdmissionAttributes) => p.admit!(a) }));
  const validating = plugins.filter((p) => p.validate).map((p) => ({ operations: p.operations, run: (a: AdmissionAttributes) => p.validate!(a) }));
  // A plugin that answers synchronously (most, for most writes) is not awaited, and a phase whose plugins all
  // answered so answers at once itself: no promise and no turn of the microtask queue per plugin or phase.
  // A throw ends the chain as a rejection would.
  const chain = { admit: (attrs: AdmissionAttributes) => runFrom(mutating, 0, attrs), validate: (attrs: AdmissionAttributes) => runFrom(validating, 0, attrs) };
  if (!observeStep) return chain;
  const timed =
    (type: 'admit' | 'validate', phase: (attrs: AdmissionAttributes) => Promise<void> | void) =>
    (attrs: AdmissionAttributes): Promise<void> | void => {
      const start = performance.now();
      const observe = (rejected: boolean): void => {
        observeStep(type, attrs.operation, rejected, (performance.now() - start) / 1000);
      };
      let pending: Promise<void> | void;
      try {
        pending = phase(attrs);
      } catch (e) {
        observe(true);
        throw e;
      }
      if (!pending) {
        observe(false);
        return;
      }
      return pending.then(
        () => observe(false),
        (e: unknown) => {
          observe(true);
          throw e;
        },
      );
    };
  return { admit: timed('admit', chain.admit), validate: timed('validate', chain.validate) };
}

interface Step {
  operations: readonly Operation[];
  run(attrs: AdmissionAttributes): Promise<void> | void;
}

/** The steps from `i` on, in order: at once while each answers at once, then awaiting each that answers with a promise. */
function runFrom(steps: readonly Step[], i: number, attrs: AdmissionAttributes): Promise<void> | void {
  for (; i < steps.length; i++) {
    const step = steps[i]!;
    if (!step.operations.includes(attrs.operation)) continue;
    const pending = step.run(attrs);
    if (pending) {
      const next = i + 1;
      return pending.then(() => runFrom(steps, next, attrs));
    }
  }
}

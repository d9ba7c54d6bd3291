// Keeps the serving table (which custom resources are routed, and how) in step with the CRDs, as kube's
// CRD handler does from its informer: every change rebuilds what changed, a deletion stops serving.
import type { EventHandlers } from '../controllers/informer.js';
import type { CrdServing } from './serving.js';
import { asCRD } from './types.js';

export function servingHandlers(serving: Pick<CrdServing, 'update' | 'remove'>): EventHandlers {
  return {
    add: (o) => serving.update(asCRD(o)),
    update: (_old, o) => serving.update(asCRD(o)),
    delete: (o) => serving.remove(asCRD(o).metadata.name ?? ''),
  };
}

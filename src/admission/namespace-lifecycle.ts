// The NamespaceLifecycle admission plugin (kube's plugin/pkg/admission/namespace/lifecycle): the immortal
// namespaces cannot be deleted, namespaced objects are written only into namespaces that exist, and
// nothing new is created in a namespace being terminated.
import * as S from '../api/status.js';
import type { JSONObject } from '../util/json.js';
import { IMMORTAL_NAMESPACES, NAMESPACE_GR } from '../registry/namespaces.js';
import type { AdmissionAttributes } from '../registry/admission.js';
import type { AdmissionPlugin } from './chain.js';

/** The namespace by name, or undefined when there is none: at once when it is in memory, else a promise. */
type NamespaceLookup = (name: string) => JSONObject | undefined | Promise<JSONObject | undefined>;

const isNamespace = (a: AdmissionAttributes): boolean => a.resource.group === '' && a.resource.kind === 'Namespace';

export function namespaceLifecycle(lookup: NamespaceLookup): AdmissionPlugin {
  return {
    name: 'NamespaceLifecycle',
    operations: ['CREATE', 'UPDATE', 'DELETE'],
    // Not an async function: a namespace found in memory is checked without a promise (the chain awaits only promises).
    admit(a) {
      if (a.operation === 'DELETE' && isNamespace(a) && IMMORTAL_NAMESPACES.includes(a.name)) {
        throw S.forbidden(NAMESPACE_GR, a.name, 'this namespace may not be deleted');
      }
      // Cluster-scoped objects, namespaces themselves and deletes of anything are not its concern.
      if (!a.namespace || isNamespace(a) || a.operation === 'DELETE') return;
      const ns = lookup(a.namespace);
      return ns instanceof Promise ? ns.then((found) => admitInto(a, found)) : admitInto(a, ns);
    },
  };
}

/** A write into the namespace `ns` (undefined: there is none). */
function admitInto(a: AdmissionAttributes, ns: JSONObject | undefined): void {
  const namespace = a.namespace!;
  if (!ns) throw S.notFound(NAMESPACE_GR, namespace);
  if (a.operation !== 'CREATE') return;
  // The phase decides, as in kube (a namespace marked for deletion is Terminating in the same write).
  if ((ns['status'] as JSONObject | undefined)?.['phase'] === 'Terminating') {
    // admission.NewForbidden names the object as admission sees it: its own name, else its generateName
    // (not applied yet), else "Unknown" (a subresource's body, as a TokenRequest without a name).
    const m = (a.object?.['metadata'] ?? {}) as JSONObject;
    const name = (typeof m['name'] === 'string' && m['name']) || (typeof m['generateName'] === 'string' && m['generateName']) || 'Unknown';
    const gr = { group: a.resource.group, resource: a.resource.resource };
    throw S.forbidden(gr, name, `unable to create new content in namespace ${namespace} because it is being terminated`, [
      { reason: 'NamespaceTerminating', message: `namespace ${namespace} is being terminated`, field: 'metadata.namespace' },
    ]);
  }
}

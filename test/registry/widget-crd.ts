// The widgets.example.com CRD the field-manager and store tests serve: v1 only, namespaced, with a status
// subresource, its names accepted and Established, and the root schema each test gives.
import type { CustomResourceDefinition } from '../../src/crd/types.js';
import type { JSONObject } from '../../src/util/json.js';

/** resourceVersion: the CRD's, which objects written at or below it are not served as stored (the schema's revision). */
export function widgetCRD(openAPIV3Schema: JSONObject, resourceVersion = '5'): CustomResourceDefinition {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: 'widgets.example.com', resourceVersion },
    spec: {
      group: 'example.com',
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      versions: [{ name: 'v1', served: true, storage: true, subresources: { status: {} }, schema: { openAPIV3Schema } }],
    },
    status: {
      acceptedNames: { plural: 'widgets', singular: 'widget', kind: 'Widget', listKind: 'WidgetList' },
      conditions: [
        { type: 'NamesAccepted', status: 'True' },
        { type: 'Established', status: 'True' },
      ],
    },
  } as unknown as CustomResourceDefinition;
}

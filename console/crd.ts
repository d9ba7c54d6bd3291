// The parts of a CustomResourceDefinition the console shows.
import type { Schema } from './schema.ts';

export interface PrinterColumn {
  name: string;
  type: string;
  format?: string;
  description?: string;
  priority?: number;
  jsonPath: string;
}

export interface CrdVersion {
  name: string;
  served: boolean;
  storage: boolean;
  deprecated?: boolean;
  deprecationWarning?: string;
  schema?: { openAPIV3Schema?: Schema };
  additionalPrinterColumns?: PrinterColumn[];
  selectableFields?: Array<{ jsonPath: string }>;
  subresources?: {
    status?: object;
    scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string };
  };
}

export interface Crd {
  metadata: { name: string; uid?: string; resourceVersion?: string };
  spec: {
    group: string;
    scope: string;
    names: { plural: string; singular?: string; kind: string; listKind?: string; shortNames?: string[]; categories?: string[] };
    versions: CrdVersion[];
    conversion?: { strategy: string };
    preserveUnknownFields?: boolean;
  };
  status?: { conditions?: Array<{ type: string; status: string; reason?: string; message?: string }>; storedVersions?: string[] };
}

export const CRD_PATH = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';

/** A deprecated version's warning: its own, or the one kube sends by default. */
export function deprecationText(v: CrdVersion, crd: Crd): string | undefined {
  if (!v.deprecated) return undefined;
  return v.deprecationWarning ?? `${crd.spec.group}/${v.name} ${crd.spec.names.kind} is deprecated`;
}

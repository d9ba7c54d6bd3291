// The internal (hub) form of a CRD spec that kube validates. Converting from v1 matters for
// behaviour, not just shape: kube validates the internal object, and the v1->internal conversion
// hoists per-version schema/subresources/columns/selectableFields to spec.validation,
// spec.subresources, ... when every version carries the same value. So a single-version CRD's
// schema errors are reported under `spec.validation.openAPIV3Schema`, not `spec.versions[0]...`.
import {
  ColumnsType,
  InternalSpecType,
  type GoType,
  SelectableFieldsType,
  SubresourcesPtrType,
  ValidationPtrType,
  semanticEqualLarge,
} from './go-types.js';
import type {
  CustomResourceColumnDefinition,
  CustomResourceDefinitionNames,
  CustomResourceDefinitionSpec,
  CustomResourceDefinitionVersion,
  CustomResourceSubresources,
  CustomResourceValidation,
  SelectableField,
  ServiceReference,
} from './types.js';

interface InternalWebhookClientConfig {
  url?: string;
  service?: { namespace: string; name: string; path?: string; port: number };
  /** base64, as in v1 JSON. */
  caBundle?: string;
}

export interface InternalConversion {
  strategy: string;
  webhookClientConfig?: InternalWebhookClientConfig;
  conversionReviewVersions?: string[];
}

export interface InternalSpec {
  group: string;
  /** versions[0].name. */
  version: string;
  names: Partial<CustomResourceDefinitionNames>;
  scope: string;
  validation?: CustomResourceValidation;
  subresources?: CustomResourceSubresources;
  versions: CustomResourceDefinitionVersion[];
  /** spec.versions was absent (a nil slice, which kube renders differently from an empty one). */
  versionsAbsent?: boolean;
  additionalPrinterColumns?: CustomResourceColumnDefinition[];
  selectableFields?: SelectableField[];
  conversion?: InternalConversion;
  /** Always set: v1 has a plain bool, converted to a non-nil pointer. */
  preserveUnknownFields: boolean;
}

const asString = (v: unknown): string => (typeof v === 'string' ? v : '');
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const present = (v: unknown): boolean => v !== undefined && v !== null;

type Hoisted = 'schema' | 'subresources' | 'additionalPrinterColumns' | 'selectableFields';
const hoisted: Array<[Hoisted, GoType]> = [
  ['schema', ValidationPtrType],
  ['subresources', SubresourcesPtrType],
  ['additionalPrinterColumns', ColumnsType],
  ['selectableFields', SelectableFieldsType],
];

/** Convert_v1_CustomResourceDefinitionSpec_To_apiextensions_CustomResourceDefinitionSpec. */
export function toInternalSpec(spec: CustomResourceDefinitionSpec | undefined): InternalSpec {
  const s: Partial<CustomResourceDefinitionSpec> = isObj(spec) ? spec : {};
  const versions: CustomResourceDefinitionVersion[] = Array.isArray(s.versions)
    ? s.versions.map((v) => {
        const copy: CustomResourceDefinitionVersion = { ...(isObj(v) ? v : {}) } as CustomResourceDefinitionVersion;
        // JSON null decodes to a nil pointer/slice: drop it so "absent" has one spelling.
        for (const k of Object.keys(copy) as Array<keyof CustomResourceDefinitionVersion>) if (!present(copy[k])) delete copy[k];
        return copy;
      })
    : [];
  const out: InternalSpec = {
    group: asString(s.group),
    version: '',
    names: isObj(s.names) ? { ...s.names } : {},
    scope: asString(s.scope),
    versions,
    preserveUnknownFields: s.preserveUnknownFields === true,
  };
  if (!Array.isArray(s.versions)) out.versionsAbsent = true;
  if (isObj(s.conversion)) out.conversion = toInternalConversion(s.conversion);
  if (versions.length === 0) return out;

  out.version = asString(versions[0]!.name);
  const identical = new Map(hoisted.map(([key, type]) => [key, versions.every((v) => semanticEqualLarge(v[key], versions[0]![key], type))]));
  // Selectable fields name paths of the schema: kube hoists them only along with it.
  if (!identical.get('schema')) identical.set('selectableFields', false);
  for (const [key] of hoisted) {
    if (!identical.get(key)) continue;
    const first = versions[0]![key];
    if (present(first)) (out as unknown as Record<string, unknown>)[key === 'schema' ? 'validation' : key] = first;
    for (const v of versions) delete v[key];
  }
  return out;
}

function toInternalConversion(c: NonNullable<CustomResourceDefinitionSpec['conversion']>): InternalConversion {
  const out: InternalConversion = { strategy: asString(c.strategy) };
  const webhook = isObj(c.webhook) ? c.webhook : undefined;
  if (!webhook) return out;
  if (Array.isArray(webhook.conversionReviewVersions)) out.conversionReviewVersions = webhook.conversionReviewVersions;
  const cc = isObj(webhook.clientConfig) ? webhook.clientConfig : undefined;
  if (cc) {
    const icc: InternalWebhookClientConfig = {};
    if (typeof cc.url === 'string') icc.url = cc.url;
    if (isObj(cc.service)) {
      const svc = cc.service as unknown as ServiceReference;
      icc.service = {
        namespace: asString(svc.namespace),
        name: asString(svc.name),
        // *int32 -> int32: nil becomes 0 (defaulting normally made it 443).
        port: typeof svc.port === 'number' ? svc.port : 0,
      };
      if (typeof svc.path === 'string') icc.service.path = svc.path;
    }
    if (typeof cc.caBundle === 'string' && cc.caBundle) icc.caBundle = cc.caBundle;
    out.webhookClientConfig = icc;
  }
  return out;
}

/** GetSchemaForVersion on the internal form (top-level schema when no version has its own). */
export function schemaForVersion(spec: InternalSpec, version: string): { found: boolean; schema?: CustomResourceValidation } {
  if (!spec.versions.some((v) => v.schema !== undefined)) return { found: true, schema: spec.validation };
  if (spec.validation !== undefined) return { found: false };
  const v = spec.versions.find((x) => x.name === version);
  return v ? { found: true, schema: v.schema } : { found: false };
}

/** getSubresourcesForVersion. */
export function subresourcesForVersion(spec: InternalSpec, version: string): CustomResourceSubresources | undefined {
  if (!spec.versions.some((v) => v.subresources !== undefined)) return spec.subresources;
  return spec.versions.find((v) => v.name === version)?.subresources;
}

/** Semantic.DeepEqual of two v1 specs as kube compares them (PrepareForUpdate bumps generation when they differ). */
export function specsSemanticallyEqual(a: CustomResourceDefinitionSpec | undefined, b: CustomResourceDefinitionSpec | undefined): boolean {
  return semanticEqualLarge(toInternalSpec(a), toInternalSpec(b), InternalSpecType);
}

// Go type descriptors for the internal apiextensions types, so that plain JSON values can be
// (1) rendered as Go's %#v renders them (kube puts such renderings into field errors, e.g.
//     `spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{...}`), and
// (2) compared as apimachinery's Semantic.DeepEqual compares them (nil and empty slices/maps equal,
//     nil and non-nil pointers different, absent scalars equal to their zero value).
// Field names are the JSON keys of our internal form (see internal.ts).

import { type FieldError, OMIT_VALUE } from '../api/field-error.js';
import { deepEqual } from '../util/json.js';

export type GoType =
  | { k: 'string' }
  | { k: 'bool' }
  | { k: 'int' }
  | { k: 'ptr'; name: string; elem: GoType }
  | { k: 'slice'; name: string; elem: GoType }
  | { k: 'map'; name: string; elem: GoType }
  | { k: 'struct'; name: string; fields: Array<[goName: string, key: string, type: GoType]> }
  /** An interface{} holding decoded JSON; name is the named interface type (apiextensions.JSON). */
  | { k: 'json'; name: string }
  /** []byte carried in JSON as base64. */
  | { k: 'bytes' }
  /** JSONSchemaPropsOrArray / JSONSchemaPropsOrBool / JSONSchemaPropsOrStringArray: one JSON value, a Go struct. */
  | { k: 'either'; name: string; shape: 'propsOrArray' | 'propsOrBool' | 'propsOrStringArray' };

const str: GoType = { k: 'string' };
const bool: GoType = { k: 'bool' };
const int: GoType = { k: 'int' };
const ptr = (name: string, elem: GoType): GoType => ({ k: 'ptr', name, elem });
const slice = (name: string, elem: GoType): GoType => ({ k: 'slice', name, elem });

const AX = 'apiextensions.';
const json: GoType = { k: 'json', name: AX + 'JSON' };

// JSONSchemaProps is recursive: fields are filled in after the object exists.
const schemaFields: Array<[goName: string, key: string, type: GoType]> = [];
/** JSONSchemaProps' fields in Go declaration order (kube walks them in this order). */
export const JSON_SCHEMA_PROPS_FIELDS: ReadonlyArray<[goName: string, key: string, type: GoType]> = schemaFields;
export const JSONSchemaPropsType: GoType = { k: 'struct', name: AX + 'JSONSchemaProps', fields: schemaFields };
const schemaPtr = ptr('*' + AX + 'JSONSchemaProps', JSONSchemaPropsType);
const schemaSlice = slice('[]' + AX + 'JSONSchemaProps', JSONSchemaPropsType);
const schemaMap = (name: string): GoType => ({ k: 'map', name, elem: JSONSchemaPropsType });
const int64Ptr = ptr('*int64', int);
const float64Ptr = ptr('*float64', { k: 'int' });
const validationRule: GoType = {
  k: 'struct',
  name: AX + 'ValidationRule',
  fields: [
    ['Rule', 'rule', str],
    ['Message', 'message', str],
    ['MessageExpression', 'messageExpression', str],
    ['Reason', 'reason', ptr('*' + AX + 'FieldValueErrorReason', str)],
    ['FieldPath', 'fieldPath', str],
    ['OptionalOldSelf', 'optionalOldSelf', ptr('*bool', bool)],
  ],
};
schemaFields.push(
  ['ID', 'id', str],
  ['Schema', '$schema', str],
  ['Ref', '$ref', ptr('*string', str)],
  ['Description', 'description', str],
  ['Type', 'type', str],
  ['Nullable', 'nullable', bool],
  ['Format', 'format', str],
  ['Title', 'title', str],
  ['Default', 'default', ptr('*' + AX + 'JSON', json)],
  ['Maximum', 'maximum', float64Ptr],
  ['ExclusiveMaximum', 'exclusiveMaximum', bool],
  ['Minimum', 'minimum', float64Ptr],
  ['ExclusiveMinimum', 'exclusiveMinimum', bool],
  ['MaxLength', 'maxLength', int64Ptr],
  ['MinLength', 'minLength', int64Ptr],
  ['Pattern', 'pattern', str],
  ['MaxItems', 'maxItems', int64Ptr],
  ['MinItems', 'minItems', int64Ptr],
  ['UniqueItems', 'uniqueItems', bool],
  ['MultipleOf', 'multipleOf', float64Ptr],
  ['Enum', 'enum', slice('[]' + AX + 'JSON', json)],
  ['MaxProperties', 'maxProperties', int64Ptr],
  ['MinProperties', 'minProperties', int64Ptr],
  ['Required', 'required', slice('[]string', str)],
  ['Items', 'items', ptr('*' + AX + 'JSONSchemaPropsOrArray', { k: 'either', name: AX + 'JSONSchemaPropsOrArray', shape: 'propsOrArray' })],
  ['AllOf', 'allOf', schemaSlice],
  ['OneOf', 'oneOf', schemaSlice],
  ['AnyOf', 'anyOf', schemaSlice],
  ['Not', 'not', schemaPtr],
  ['Properties', 'properties', schemaMap('map[string]' + AX + 'JSONSchemaProps')],
  ['AdditionalProperties', 'additionalProperties', ptr('*' + AX + 'JSONSchemaPropsOrBool', { k: 'either', name: AX + 'JSONSchemaPropsOrBool', shape: 'propsOrBool' })],
  ['PatternProperties', 'patternProperties', schemaMap('map[string]' + AX + 'JSONSchemaProps')],
  [
    'Dependencies',
    'dependencies',
    { k: 'map', name: AX + 'JSONSchemaDependencies', elem: { k: 'either', name: AX + 'JSONSchemaPropsOrStringArray', shape: 'propsOrStringArray' } },
  ],
  ['AdditionalItems', 'additionalItems', ptr('*' + AX + 'JSONSchemaPropsOrBool', { k: 'either', name: AX + 'JSONSchemaPropsOrBool', shape: 'propsOrBool' })],
  ['Definitions', 'definitions', schemaMap(AX + 'JSONSchemaDefinitions')],
  [
    'ExternalDocs',
    'externalDocs',
    ptr('*' + AX + 'ExternalDocumentation', {
      k: 'struct',
      name: AX + 'ExternalDocumentation',
      fields: [
        ['Description', 'description', str],
        ['URL', 'url', str],
      ],
    }),
  ],
  ['Example', 'example', ptr('*' + AX + 'JSON', json)],
  ['XPreserveUnknownFields', 'x-kubernetes-preserve-unknown-fields', ptr('*bool', bool)],
  ['XEmbeddedResource', 'x-kubernetes-embedded-resource', bool],
  ['XIntOrString', 'x-kubernetes-int-or-string', bool],
  ['XListMapKeys', 'x-kubernetes-list-map-keys', slice('[]string', str)],
  ['XListType', 'x-kubernetes-list-type', ptr('*string', str)],
  ['XMapType', 'x-kubernetes-map-type', ptr('*string', str)],
  ['XValidations', 'x-kubernetes-validations', slice(AX + 'ValidationRules', validationRule)],
);

const CustomResourceValidationType: GoType = {
  k: 'struct',
  name: AX + 'CustomResourceValidation',
  fields: [['OpenAPIV3Schema', 'openAPIV3Schema', schemaPtr]],
};

const CustomResourceSubresourcesType: GoType = {
  k: 'struct',
  name: AX + 'CustomResourceSubresources',
  fields: [
    ['Status', 'status', ptr('*' + AX + 'CustomResourceSubresourceStatus', { k: 'struct', name: AX + 'CustomResourceSubresourceStatus', fields: [] })],
    [
      'Scale',
      'scale',
      ptr('*' + AX + 'CustomResourceSubresourceScale', {
        k: 'struct',
        name: AX + 'CustomResourceSubresourceScale',
        fields: [
          ['SpecReplicasPath', 'specReplicasPath', str],
          ['StatusReplicasPath', 'statusReplicasPath', str],
          ['LabelSelectorPath', 'labelSelectorPath', ptr('*string', str)],
        ],
      }),
    ],
  ],
};

export const ColumnsType: GoType = slice('[]' + AX + 'CustomResourceColumnDefinition', {
  k: 'struct',
  name: AX + 'CustomResourceColumnDefinition',
  fields: [
    ['Name', 'name', str],
    ['Type', 'type', str],
    ['Format', 'format', str],
    ['Description', 'description', str],
    ['Priority', 'priority', int],
    ['JSONPath', 'jsonPath', str],
  ],
});

export const SelectableFieldsType: GoType = slice('[]' + AX + 'SelectableField', {
  k: 'struct',
  name: AX + 'SelectableField',
  fields: [['JSONPath', 'jsonPath', str]],
});

export const ValidationPtrType = ptr('*' + AX + 'CustomResourceValidation', CustomResourceValidationType);
export const SubresourcesPtrType = ptr('*' + AX + 'CustomResourceSubresources', CustomResourceSubresourcesType);

export const VersionsType: GoType = slice('[]' + AX + 'CustomResourceDefinitionVersion', {
  k: 'struct',
  name: AX + 'CustomResourceDefinitionVersion',
  fields: [
    ['Name', 'name', str],
    ['Served', 'served', bool],
    ['Storage', 'storage', bool],
    ['Deprecated', 'deprecated', bool],
    ['DeprecationWarning', 'deprecationWarning', ptr('*string', str)],
    ['Schema', 'schema', ValidationPtrType],
    ['Subresources', 'subresources', SubresourcesPtrType],
    ['AdditionalPrinterColumns', 'additionalPrinterColumns', ColumnsType],
    ['SelectableFields', 'selectableFields', SelectableFieldsType],
  ],
});

const namesType: GoType = {
  k: 'struct',
  name: AX + 'CustomResourceDefinitionNames',
  fields: [
    ['Plural', 'plural', str],
    ['Singular', 'singular', str],
    ['ShortNames', 'shortNames', slice('[]string', str)],
    ['Kind', 'kind', str],
    ['ListKind', 'listKind', str],
    ['Categories', 'categories', slice('[]string', str)],
  ],
};

/** The internal CustomResourceDefinitionSpec (see internal.ts for the JSON keys). */
export const InternalSpecType: GoType = {
  k: 'struct',
  name: AX + 'CustomResourceDefinitionSpec',
  fields: [
    ['Group', 'group', str],
    ['Version', 'version', str],
    ['Names', 'names', namesType],
    ['Scope', 'scope', str],
    ['Validation', 'validation', ValidationPtrType],
    ['Subresources', 'subresources', SubresourcesPtrType],
    ['Versions', 'versions', VersionsType],
    ['AdditionalPrinterColumns', 'additionalPrinterColumns', ColumnsType],
    ['SelectableFields', 'selectableFields', SelectableFieldsType],
    [
      'Conversion',
      'conversion',
      ptr('*' + AX + 'CustomResourceConversion', {
        k: 'struct',
        name: AX + 'CustomResourceConversion',
        fields: [
          ['Strategy', 'strategy', str],
          [
            'WebhookClientConfig',
            'webhookClientConfig',
            ptr('*' + AX + 'WebhookClientConfig', {
              k: 'struct',
              name: AX + 'WebhookClientConfig',
              fields: [
                ['URL', 'url', ptr('*string', str)],
                [
                  'Service',
                  'service',
                  ptr('*' + AX + 'ServiceReference', {
                    k: 'struct',
                    name: AX + 'ServiceReference',
                    fields: [
                      ['Namespace', 'namespace', str],
                      ['Name', 'name', str],
                      ['Path', 'path', ptr('*string', str)],
                      ['Port', 'port', int],
                    ],
                  }),
                ],
                ['CABundle', 'caBundle', { k: 'bytes' }],
              ],
            }),
          ],
          ['ConversionReviewVersions', 'conversionReviewVersions', slice('[]string', str)],
        ],
      }),
    ],
    ['PreserveUnknownFields', 'preserveUnknownFields', ptr('*bool', bool)],
  ],
};

export const StringSliceType: GoType = slice('[]string', str);
export const ByteSliceType: GoType = { k: 'bytes' };

// ---------------------------------------------------------------------------------------------
// %#v rendering

/** Go prints heap pointers as addresses; any stable value will do, kube's are never reproducible. */
const FAKE_ADDRESS = '0xc000a1e000';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function goQuoted(s: string): string {
  return JSON.stringify(s).replace(/\\u00([0-7][0-9a-f])/g, (_m, h: string) => `\\x${h}`);
}

/** Go's %v / %#v of a float64 (strconv 'g', shortest): exponent form below 1e-4 and from 1e6 up. */
export function goFloat(n: number): string {
  if (!Number.isFinite(n)) return n > 0 ? '+Inf' : n < 0 ? '-Inf' : 'NaN';
  if (n === 0) return '0';
  const [mant, expStr] = n.toExponential().split('e') as [string, string];
  const exp = Number(expStr);
  if (exp < -4 || exp >= 6) return `${mant}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
  return String(n);
}

function renderJSONValue(v: unknown, ifaceName: string): string {
  if (v === null || v === undefined) return `${ifaceName}(nil)`;
  if (typeof v === 'string') return goQuoted(v);
  if (typeof v === 'boolean') return String(v);
  if (typeof v === 'number') return Number.isSafeInteger(v) ? String(v) : goFloat(v);
  if (typeof v === 'bigint') return String(v);
  if (Array.isArray(v)) return `[]interface {}{${v.map((x) => renderJSONValue(x, 'interface {}')).join(', ')}}`;
  const keys = Object.keys(v as object).sort();
  return `map[string]interface {}{${keys.map((k) => `${goQuoted(k)}:${renderJSONValue((v as Record<string, unknown>)[k], 'interface {}')}`).join(', ')}}`;
}

function decodeBase64(v: unknown): Buffer {
  return typeof v === 'string' ? Buffer.from(v, 'base64') : Buffer.alloc(0);
}

/** Render a value of type t as fmt's %#v would. */
export function goRepr(v: unknown, t: GoType): string {
  switch (t.k) {
    case 'string':
      return goQuoted(typeof v === 'string' ? v : '');
    case 'bool':
      return String(v === true);
    case 'int':
      return typeof v === 'number' ? (Number.isInteger(v) ? String(v) : goFloat(v)) : typeof v === 'bigint' ? String(v) : '0';
    case 'ptr':
      return v === null || v === undefined ? `(${t.name})(nil)` : `(${t.name})(${FAKE_ADDRESS})`;
    case 'bytes': {
      if (v === null || v === undefined) return '[]byte(nil)';
      const b = decodeBase64(v);
      return `[]byte{${[...b].map((x) => '0x' + x.toString(16)).join(', ')}}`;
    }
    case 'slice':
      if (!Array.isArray(v)) return `${t.name}(nil)`;
      return `${t.name}{${v.map((x) => goRepr(x, t.elem)).join(', ')}}`;
    case 'map': {
      if (!isObj(v)) return `${t.name}(nil)`;
      const keys = Object.keys(v).sort();
      return `${t.name}{${keys.map((k) => `${goQuoted(k)}:${goRepr(v[k], t.elem)}`).join(', ')}}`;
    }
    case 'struct': {
      const o = isObj(v) ? v : {};
      return `${t.name}{${t.fields.map(([g, key, ft]) => `${g}:${goRepr(o[key], ft)}`).join(', ')}}`;
    }
    case 'json':
      return renderJSONValue(v, t.name);
    case 'either': {
      const parts = eitherParts(v, t.shape);
      const schema = `(*apiextensions.JSONSchemaProps)(${parts.schema === undefined ? 'nil' : FAKE_ADDRESS})`;
      if (t.shape === 'propsOrBool') return `${t.name}{Allows:${parts.allows}, Schema:${schema}}`;
      if (t.shape === 'propsOrArray') return `${t.name}{Schema:${schema}, JSONSchemas:${goRepr(parts.list, schemaSlice)}}`;
      return `${t.name}{Schema:${schema}, Property:${goRepr(parts.list, StringSliceType)}}`;
    }
  }
}

/** How the union JSON forms decode into their Go structs. */
function eitherParts(v: unknown, shape: 'propsOrArray' | 'propsOrBool' | 'propsOrStringArray'): { allows: boolean; schema?: unknown; list?: unknown[] } {
  if (shape === 'propsOrBool') {
    if (typeof v === 'boolean') return { allows: v };
    return isObj(v) ? { allows: true, schema: v } : { allows: false };
  }
  if (Array.isArray(v)) return { allows: false, list: v };
  return isObj(v) ? { allows: false, schema: v } : { allows: false };
}

// ---------------------------------------------------------------------------------------------
// Semantic.DeepEqual

const isNil = (v: unknown): boolean => v === null || v === undefined;

function jsonEqual(a: unknown, b: unknown): boolean {
  if (isNil(a) || isNil(b)) return isNil(a) && isNil(b);
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => jsonEqual(x, b[i]));
  }
  if (isObj(a) || isObj(b)) {
    if (!isObj(a) || !isObj(b)) return false;
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => k in b && jsonEqual(a[k], b[k]));
  }
  return a === b;
}

/** apimachinery equality.Semantic.DeepEqual over values of Go type t. */
export function semanticEqual(a: unknown, b: unknown, t: GoType): boolean {
  // A value equals itself (a schema compared with its own version's, say): no need to walk it.
  if (a === b) return true;
  switch (t.k) {
    case 'string':
      return (typeof a === 'string' ? a : '') === (typeof b === 'string' ? b : '');
    case 'bool':
      return (a === true) === (b === true);
    case 'int':
      return (typeof a === 'number' || typeof a === 'bigint' ? a : 0) == (typeof b === 'number' || typeof b === 'bigint' ? b : 0); // == compares a bigint with a number by value
    case 'ptr':
      if (isNil(a) || isNil(b)) return isNil(a) && isNil(b);
      return semanticEqual(a, b, t.elem);
    case 'bytes':
      return decodeBase64(a).equals(decodeBase64(b));
    case 'slice': {
      const la = Array.isArray(a) ? a : [];
      const lb = Array.isArray(b) ? b : [];
      return la.length === lb.length && la.every((x, i) => semanticEqual(x, lb[i], t.elem));
    }
    case 'map': {
      const ma = isObj(a) ? a : {};
      const mb = isObj(b) ? b : {};
      const ka = Object.keys(ma);
      if (ka.length !== Object.keys(mb).length) return false;
      return ka.every((k) => k in mb && semanticEqual(ma[k], mb[k], t.elem));
    }
    case 'struct': {
      const oa = isObj(a) ? a : {};
      const ob = isObj(b) ? b : {};
      return t.fields.every(([, key, ft]) => semanticEqual(oa[key], ob[key], ft));
    }
    case 'json':
      return jsonEqual(a, b);
    case 'either': {
      const pa = eitherParts(a, t.shape);
      const pb = eitherParts(b, t.shape);
      if (pa.allows !== pb.allows) return false;
      if (!semanticEqual(pa.schema, pb.schema, schemaPtr)) return false;
      return semanticEqual(pa.list, pb.list, t.shape === 'propsOrArray' ? schemaSlice : StringSliceType);
    }
  }
}

/**
 * semanticEqual, first trying a cheap answer for large values (CRD schemas): values equal key for key are
 * semantically equal (a walk without the two JSON texts this once made); others may still be (nil and empty,
 * a bigint and its number), so those are walked by type.
 */
export function semanticEqualLarge(a: unknown, b: unknown, t: GoType): boolean {
  if (a === b) return true;
  if (typeof a === 'object' && a !== null && typeof b === 'object' && b !== null && deepEqual(a, b)) return true;
  return semanticEqual(a, b, t);
}

/**
 * A field error whose bad value is a Go value rendered with %#v (typed slices, structs).
 * field-error.ts renders only JSON-ish values, so the rendering travels in front of the detail;
 * the resulting `<field>: Invalid value: <repr>: <detail>` text is exactly kube's.
 */
export function invalidGo(field: string, repr: string, detail: string): FieldError {
  return { type: 'FieldValueInvalid', field, badValue: OMIT_VALUE, detail: detail ? `${repr}: ${detail}` : repr };
}

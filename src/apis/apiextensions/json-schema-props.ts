// apiextensions JSONSchemaProps (the same Go fields and json tags at v1 and v1beta1): what request bodies
// decode a CRD version's schema into. The CRD declarations name it (field type jsonSchemaProps) rather than
// hold it, so protobuf, patch and key-order tables leave schemas as they are written. Its docs and OpenAPI
// definition names are v1's (k8s.io/apiextensions-apiserver v0.33.0), which kube publishes it under.
import { field as f, struct, type GoField } from '../../api/go-struct.js';

/** The namespace of apiextensions.k8s.io/v1's OpenAPI definition names. */
export const APIEXTENSIONS_V1 = 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions.v1';

/**
 * The custom-marshalled types a schema holds (field type tokens json and jsonSchemaPropsOr*): kube's
 * OpenAPIDefinitions for them (types_jsonschema.go) give no type, as they take any JSON value, only these docs.
 */
export const CUSTOM_TYPE_DOCS = {
  JSON: 'JSON represents any valid JSON value. These types are supported: bool, int64, float64, string, []interface{}, map[string]interface{} and nil.',
  JSONSchemaPropsOrArray: 'JSONSchemaPropsOrArray represents a value that can either be a JSONSchemaProps or an array of JSONSchemaProps. Mainly here for serialization purposes.',
  JSONSchemaPropsOrBool: 'JSONSchemaPropsOrBool represents JSONSchemaProps or a boolean value. Defaults to true for the boolean property.',
  JSONSchemaPropsOrStringArray: 'JSONSchemaPropsOrStringArray represents a JSONSchemaProps or a string array.',
} as const;

const ExternalDocumentation = struct('ExternalDocumentation', [
  f(undefined, 'description', 'string', 'omit'),
  f(undefined, 'url', 'string', 'omit', { go: 'URL' }),
], { openapi: APIEXTENSIONS_V1, doc: 'ExternalDocumentation allows referencing an external resource for extended documentation.' });

// reason's doc as kube-apiserver publishes it: without the "Possible enum values" that the +enum of
// FieldValueErrorReason adds to apiextensions-apiserver's own generated definitions.
const ValidationRule = struct('ValidationRule', [
  f(undefined, 'rule', 'string', '', {
    doc: 'Rule represents the expression which will be evaluated by CEL. ref: https://github.com/google/cel-spec The Rule is scoped to the location of the x-kubernetes-validations extension in the schema. The `self` variable in the CEL expression is bound to the scoped value. Example: - Rule scoped to the root of a resource with a status subresource: {"rule": "self.status.actual <= self.spec.maxDesired"}\n\nIf the Rule is scoped to an object with properties, the accessible properties of the object are field selectable via `self.field` and field presence can be checked via `has(self.field)`. Null valued fields are treated as absent fields in CEL expressions. If the Rule is scoped to an object with additionalProperties (i.e. a map) the value of the map are accessible via `self[mapKey]`, map containment can be checked via `mapKey in self` and all entries of the map are accessible via CEL macros and functions such as `self.all(...)`. If the Rule is scoped to an array, the elements of the array are accessible via `self[i]` and also by macros and functions. If the Rule is scoped to a scalar, `self` is bound to the scalar value. Examples: - Rule scoped to a map of objects: {"rule": "self.components[\'Widget\'].priority < 10"} - Rule scoped to a list of integers: {"rule": "self.values.all(value, value >= 0 && value < 100)"} - Rule scoped to a string value: {"rule": "self.startsWith(\'kube\')"}\n\nThe `apiVersion`, `kind`, `metadata.name` and `metadata.generateName` are always accessible from the root of the object and from any x-kubernetes-embedded-resource annotated objects. No other metadata properties are accessible.\n\nUnknown data preserved in custom resources via x-kubernetes-preserve-unknown-fields is not accessible in CEL expressions. This includes: - Unknown field values that are preserved by object schemas with x-kubernetes-preserve-unknown-fields. - Object properties where the property schema is of an "unknown type". An "unknown type" is recursively defined as:\n  - A schema with no type and x-kubernetes-preserve-unknown-fields set to true\n  - An array where the items schema is of an "unknown type"\n  - An object where the additionalProperties schema is of an "unknown type"\n\nOnly property names of the form `[a-zA-Z_.-/][a-zA-Z0-9_.-/]*` are accessible. Accessible property names are escaped according to the following rules when accessed in the expression: - \'__\' escapes to \'__underscores__\' - \'.\' escapes to \'__dot__\' - \'-\' escapes to \'__dash__\' - \'/\' escapes to \'__slash__\' - Property names that exactly match a CEL RESERVED keyword escape to \'__{keyword}__\'. The keywords are:\n	  "true", "false", "null", "in", "as", "break", "const", "continue", "else", "for", "function", "if",\n	  "import", "let", "loop", "package", "namespace", "return".\nExamples:\n  - Rule accessing a property named "namespace": {"rule": "self.__namespace__ > 0"}\n  - Rule accessing a property named "x-prop": {"rule": "self.x__dash__prop > 0"}\n  - Rule accessing a property named "redact__d": {"rule": "self.redact__underscores__d > 0"}\n\nEquality on arrays with x-kubernetes-list-type of \'set\' or \'map\' ignores element order, i.e. [1, 2] == [2, 1]. Concatenation on arrays with x-kubernetes-list-type use the semantics of the list type:\n  - \'set\': `X + Y` performs a union where the array positions of all elements in `X` are preserved and\n    non-intersecting elements in `Y` are appended, retaining their partial order.\n  - \'map\': `X + Y` performs a merge where the array positions of all keys in `X` are preserved but the values\n    are overwritten by values in `Y` when the key sets of `X` and `Y` intersect. Elements in `Y` with\n    non-intersecting keys are appended, retaining their partial order.\n\nIf `rule` makes use of the `oldSelf` variable it is implicitly a `transition rule`.\n\nBy default, the `oldSelf` variable is the same type as `self`. When `optionalOldSelf` is true, the `oldSelf` variable is a CEL optional\n variable whose value() is the same type as `self`.\nSee the documentation for the `optionalOldSelf` field for details.\n\nTransition rules by default are applied only on UPDATE requests and are skipped if an old value could not be found. You can opt a transition rule into unconditional evaluation by setting `optionalOldSelf` to true.',
  }),
  f(undefined, 'message', 'string', 'omit', {
    doc: 'Message represents the message displayed when validation fails. The message is required if the Rule contains line breaks. The message must not contain line breaks. If unset, the message is "failed rule: {Rule}". e.g. "must be a URL with the host matching spec.host"',
  }),
  f(undefined, 'messageExpression', 'string', 'omit', {
    doc: 'MessageExpression declares a CEL expression that evaluates to the validation failure message that is returned when this rule fails. Since messageExpression is used as a failure message, it must evaluate to a string. If both message and messageExpression are present on a rule, then messageExpression will be used if validation fails. If messageExpression results in a runtime error, the runtime error is logged, and the validation failure message is produced as if the messageExpression field were unset. If messageExpression evaluates to an empty string, a string with only spaces, or a string that contains line breaks, then the validation failure message will also be produced as if the messageExpression field were unset, and the fact that messageExpression produced an empty string/string with only spaces/string with line breaks will be logged. messageExpression has access to all the same variables as the rule; the only difference is the return type. Example: "x must be less than max ("+string(self.max)+")"',
  }),
  f(undefined, 'reason', 'string', 'ptr omit', {
    named: 'FieldValueErrorReason',
    doc: 'reason provides a machine-readable validation failure reason that is returned to the caller when a request fails this validation rule. The HTTP status code returned to the caller will match the reason of the reason of the first failed validation rule. The currently supported reasons are: "FieldValueInvalid", "FieldValueForbidden", "FieldValueRequired", "FieldValueDuplicate". If not set, default to use "FieldValueInvalid". All future added reasons must be accepted by clients when reading this value and unknown reasons should be treated as FieldValueInvalid.',
  }),
  f(undefined, 'fieldPath', 'string', 'omit', {
    doc: 'fieldPath represents the field path returned when the validation fails. It must be a relative JSON path (i.e. with array notation) scoped to the location of this x-kubernetes-validations extension in the schema and refer to an existing field. e.g. when validation checks if a specific attribute `foo` under a map `testMap`, the fieldPath could be set to `.testMap.foo` If the validation checks two lists must have unique attributes, the fieldPath could be set to either of the list: e.g. `.testList` It does not support list numeric index. It supports child operation to refer to an existing field currently. Refer to [JSONPath support in Kubernetes](https://kubernetes.io/docs/reference/kubectl/jsonpath/) for more info. Numeric index of array is not supported. For field name which contains special characters, use `[\'specialName\']` to refer the field name. e.g. for attribute `foo.34$` appears in a list `testList`, the fieldPath could be set to `.testList[\'foo.34$\']`',
  }),
  f(undefined, 'optionalOldSelf', 'bool', 'ptr omit', {
    doc: 'optionalOldSelf is used to opt a transition rule into evaluation even when the object is first created, or if the old object is missing the value.\n\nWhen enabled `oldSelf` will be a CEL optional whose value will be `None` if there is no old value, or when the object is initially created.\n\nYou may check for presence of oldSelf using `oldSelf.hasValue()` and unwrap it after checking using `oldSelf.value()`. Check the CEL documentation for Optional types for more information: https://pkg.go.dev/github.com/google/cel-go/cel#OptionalTypes\n\nMay not be set unless `oldSelf` is used in `rule`.',
  }),
], { openapi: APIEXTENSIONS_V1, doc: 'ValidationRule describes a validation rule written in the CEL expression language.' });

// Recursive: its fields are filled in once the struct exists.
const fields: GoField[] = [];
export const JSONSchemaProps = struct('JSONSchemaProps', fields, { openapi: APIEXTENSIONS_V1, doc: 'JSONSchemaProps is a JSON-Schema following Specification Draft 4 (http://json-schema.org/).' });
fields.push(
  f(undefined, 'id', 'string', 'omit', { go: 'ID' }),
  f(undefined, '$schema', 'string', 'omit', { go: 'Schema', named: 'JSONSchemaURL' }),
  f(undefined, '$ref', 'string', 'ptr omit', { go: 'Ref' }),
  f(undefined, 'description', 'string', 'omit'),
  f(undefined, 'type', 'string', 'omit'),
  f(undefined, 'format', 'string', 'omit', {
    doc: 'format is an OpenAPI v3 format string. Unknown formats are ignored. The following formats are validated:\n\n- bsonobjectid: a bson object ID, i.e. a 24 characters hex string - uri: an URI as parsed by Golang net/url.ParseRequestURI - email: an email address as parsed by Golang net/mail.ParseAddress - hostname: a valid representation for an Internet host name, as defined by RFC 1034, section 3.1 [RFC1034]. - ipv4: an IPv4 IP as parsed by Golang net.ParseIP - ipv6: an IPv6 IP as parsed by Golang net.ParseIP - cidr: a CIDR as parsed by Golang net.ParseCIDR - mac: a MAC address as parsed by Golang net.ParseMAC - uuid: an UUID that allows uppercase defined by the regex (?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}$ - uuid3: an UUID3 that allows uppercase defined by the regex (?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?3[0-9a-f]{3}-?[0-9a-f]{4}-?[0-9a-f]{12}$ - uuid4: an UUID4 that allows uppercase defined by the regex (?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?4[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$ - uuid5: an UUID5 that allows uppercase defined by the regex (?i)^[0-9a-f]{8}-?[0-9a-f]{4}-?5[0-9a-f]{3}-?[89ab][0-9a-f]{3}-?[0-9a-f]{12}$ - isbn: an ISBN10 or ISBN13 number string like "0321751043" or "978-0321751041" - isbn10: an ISBN10 number string like "0321751043" - isbn13: an ISBN13 number string like "978-0321751041" - creditcard: a credit card number defined by the regex ^(?:4[0-9]{12}(?:[0-9]{3})?|5[1-5][0-9]{14}|6(?:011|5[0-9][0-9])[0-9]{12}|3[47][0-9]{13}|3(?:0[0-5]|[68][0-9])[0-9]{11}|(?:2131|1800|35\\\\d{3})\\\\d{11})$ with any non digit characters mixed in - ssn: a U.S. social security number following the regex ^\\\\d{3}[- ]?\\\\d{2}[- ]?\\\\d{4}$ - hexcolor: an hexadecimal color code like "#FFFFFF: following the regex ^#?([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$ - rgbcolor: an RGB color code like rgb like "rgb(255,255,2559" - byte: base64 encoded binary data - password: any kind of string - date: a date string like "2006-01-02" as defined by full-date in RFC3339 - duration: a duration string like "22 ns" as parsed by Golang time.ParseDuration or compatible with Scala duration format - datetime: a date time string like "2014-12-15T19:30:20.000Z" as defined by date-time in RFC3339.',
  }),
  f(undefined, 'title', 'string', 'omit'),
  f(undefined, 'default', 'json', 'ptr omit', {
    doc: 'default is a default value for undefined object fields. Defaulting is a beta feature under the CustomResourceDefaulting feature gate. Defaulting requires spec.preserveUnknownFields to be false.',
  }),
  f(undefined, 'maximum', 'float64', 'ptr omit'),
  f(undefined, 'exclusiveMaximum', 'bool', 'omit'),
  f(undefined, 'minimum', 'float64', 'ptr omit'),
  f(undefined, 'exclusiveMinimum', 'bool', 'omit'),
  f(undefined, 'maxLength', 'int64', 'ptr omit'),
  f(undefined, 'minLength', 'int64', 'ptr omit'),
  f(undefined, 'pattern', 'string', 'omit'),
  f(undefined, 'maxItems', 'int64', 'ptr omit'),
  f(undefined, 'minItems', 'int64', 'ptr omit'),
  f(undefined, 'uniqueItems', 'bool', 'omit'),
  f(undefined, 'multipleOf', 'float64', 'ptr omit'),
  f(undefined, 'enum', 'json', 'slice omit', { listType: 'atomic' }),
  f(undefined, 'maxProperties', 'int64', 'ptr omit'),
  f(undefined, 'minProperties', 'int64', 'ptr omit'),
  f(undefined, 'required', 'string', 'slice omit', { listType: 'atomic' }),
  f(undefined, 'items', 'jsonSchemaPropsOrArray', 'ptr omit'),
  f(undefined, 'allOf', JSONSchemaProps, 'slice omit', { listType: 'atomic' }),
  f(undefined, 'oneOf', JSONSchemaProps, 'slice omit', { listType: 'atomic' }),
  f(undefined, 'anyOf', JSONSchemaProps, 'slice omit', { listType: 'atomic' }),
  f(undefined, 'not', JSONSchemaProps, 'ptr omit'),
  f(undefined, 'properties', JSONSchemaProps, 'map omit'),
  f(undefined, 'additionalProperties', 'jsonSchemaPropsOrBool', 'ptr omit'),
  f(undefined, 'patternProperties', JSONSchemaProps, 'map omit'),
  f(undefined, 'dependencies', 'jsonSchemaPropsOrStringArray', 'map omit', { collection: 'JSONSchemaDependencies' }),
  f(undefined, 'additionalItems', 'jsonSchemaPropsOrBool', 'ptr omit'),
  f(undefined, 'definitions', JSONSchemaProps, 'map omit', { collection: 'JSONSchemaDefinitions' }),
  f(undefined, 'externalDocs', ExternalDocumentation, 'ptr omit'),
  f(undefined, 'example', 'json', 'ptr omit'),
  f(undefined, 'nullable', 'bool', 'omit'),
  f(undefined, 'x-kubernetes-preserve-unknown-fields', 'bool', 'ptr omit', {
    go: 'XPreserveUnknownFields',
    doc: 'x-kubernetes-preserve-unknown-fields stops the API server decoding step from pruning fields which are not specified in the validation schema. This affects fields recursively, but switches back to normal pruning behaviour if nested properties or additionalProperties are specified in the schema. This can either be true or undefined. False is forbidden.',
  }),
  f(undefined, 'x-kubernetes-embedded-resource', 'bool', 'omit', {
    go: 'XEmbeddedResource',
    doc: 'x-kubernetes-embedded-resource defines that the value is an embedded Kubernetes runtime.Object, with TypeMeta and ObjectMeta. The type must be object. It is allowed to further restrict the embedded object. kind, apiVersion and metadata are validated automatically. x-kubernetes-preserve-unknown-fields is allowed to be true, but does not have to be if the object is fully specified (up to kind, apiVersion, metadata).',
  }),
  f(undefined, 'x-kubernetes-int-or-string', 'bool', 'omit', {
    go: 'XIntOrString',
    doc: 'x-kubernetes-int-or-string specifies that this value is either an integer or a string. If this is true, an empty type is allowed and type as child of anyOf is permitted if following one of the following patterns:\n\n1) anyOf:\n   - type: integer\n   - type: string\n2) allOf:\n   - anyOf:\n     - type: integer\n     - type: string\n   - ... zero or more',
  }),
  f(undefined, 'x-kubernetes-list-map-keys', 'string', 'slice omit', {
    go: 'XListMapKeys',
    listType: 'atomic',
    doc: 'x-kubernetes-list-map-keys annotates an array with the x-kubernetes-list-type `map` by specifying the keys used as the index of the map.\n\nThis tag MUST only be used on lists that have the "x-kubernetes-list-type" extension set to "map". Also, the values specified for this attribute must be a scalar typed field of the child structure (no nesting is supported).\n\nThe properties specified must either be required or have a default value, to ensure those properties are present for all list items.',
  }),
  f(undefined, 'x-kubernetes-list-type', 'string', 'ptr omit', {
    go: 'XListType',
    doc: 'x-kubernetes-list-type annotates an array to further describe its topology. This extension must only be used on lists and may have 3 possible values:\n\n1) `atomic`: the list is treated as a single entity, like a scalar.\n     Atomic lists will be entirely replaced when updated. This extension\n     may be used on any type of list (struct, scalar, ...).\n2) `set`:\n     Sets are lists that must not have multiple items with the same value. Each\n     value must be a scalar, an object with x-kubernetes-map-type `atomic` or an\n     array with x-kubernetes-list-type `atomic`.\n3) `map`:\n     These lists are like maps in that their elements have a non-index key\n     used to identify them. Order is preserved upon merge. The map tag\n     must only be used on a list with elements of type object.\nDefaults to atomic for arrays.',
  }),
  f(undefined, 'x-kubernetes-map-type', 'string', 'ptr omit', {
    go: 'XMapType',
    doc: 'x-kubernetes-map-type annotates an object to further describe its topology. This extension must only be used when type is object and may have 2 possible values:\n\n1) `granular`:\n     These maps are actual maps (key-value pairs) and each fields are independent\n     from each other (they can each be manipulated by separate actors). This is\n     the default behaviour for all maps.\n2) `atomic`: the list is treated as a single entity, like a scalar.\n     Atomic maps will be entirely replaced when updated.',
  }),
  f(undefined, 'x-kubernetes-validations', ValidationRule, 'slice omit', {
    go: 'XValidations',
    collection: 'ValidationRules',
    listType: 'map',
    listMapKeys: ['rule'],
    patchStrategy: 'merge',
    patchMergeKey: 'rule',
    doc: 'x-kubernetes-validations describes a list of validation rules written in the CEL expression language.',
  }),
);

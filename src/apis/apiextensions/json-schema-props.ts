// apiextensions JSONSchemaProps (the same Go fields and json tags at v1 and v1beta1): what request bodies
// decode a CRD version's schema into. The CRD declarations name it (field type jsonSchemaProps) rather than
// hold it, so protobuf, patch and key-order tables leave schemas as they are written.
import { field as f, struct, type GoField } from '../../api/go-struct.js';

const ExternalDocumentation = struct('ExternalDocumentation', [f(undefined, 'description', 'string', 'omit'), f(undefined, 'url', 'string', 'omit', { go: 'URL' })]);

const ValidationRule = struct('ValidationRule', [
  f(undefined, 'rule', 'string'),
  f(undefined, 'message', 'string', 'omit'),
  f(undefined, 'messageExpression', 'string', 'omit'),
  f(undefined, 'reason', 'string', 'ptr omit', { named: 'FieldValueErrorReason' }),
  f(undefined, 'fieldPath', 'string', 'omit'),
  f(undefined, 'optionalOldSelf', 'bool', 'ptr omit'),
]);

// Recursive: its fields are filled in once the struct exists.
const fields: GoField[] = [];
export const JSONSchemaProps = struct('JSONSchemaProps', fields);
const schemaMap = (json: string, collection?: string): GoField => f(undefined, json, JSONSchemaProps, 'map omit', collection ? { collection } : {});
fields.push(
  f(undefined, 'id', 'string', 'omit', { go: 'ID' }),
  f(undefined, '$schema', 'string', 'omit', { go: 'Schema', named: 'JSONSchemaURL' }),
  f(undefined, '$ref', 'string', 'ptr omit', { go: 'Ref' }),
  f(undefined, 'description', 'string', 'omit'),
  f(undefined, 'type', 'string', 'omit'),
  f(undefined, 'format', 'string', 'omit'),
  f(undefined, 'title', 'string', 'omit'),
  f(undefined, 'default', 'json', 'ptr omit'),
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
  f(undefined, 'enum', 'json', 'slice omit'),
  f(undefined, 'maxProperties', 'int64', 'ptr omit'),
  f(undefined, 'minProperties', 'int64', 'ptr omit'),
  f(undefined, 'required', 'string', 'slice omit'),
  f(undefined, 'items', 'jsonSchemaPropsOrArray', 'ptr omit'),
  f(undefined, 'allOf', JSONSchemaProps, 'slice omit'),
  f(undefined, 'oneOf', JSONSchemaProps, 'slice omit'),
  f(undefined, 'anyOf', JSONSchemaProps, 'slice omit'),
  f(undefined, 'not', JSONSchemaProps, 'ptr omit'),
  schemaMap('properties'),
  f(undefined, 'additionalProperties', 'jsonSchemaPropsOrBool', 'ptr omit'),
  schemaMap('patternProperties'),
  f(undefined, 'dependencies', 'jsonSchemaPropsOrStringArray', 'map omit', { collection: 'JSONSchemaDependencies' }),
  f(undefined, 'additionalItems', 'jsonSchemaPropsOrBool', 'ptr omit'),
  schemaMap('definitions', 'JSONSchemaDefinitions'),
  f(undefined, 'externalDocs', ExternalDocumentation, 'ptr omit'),
  f(undefined, 'example', 'json', 'ptr omit'),
  f(undefined, 'nullable', 'bool', 'omit'),
  f(undefined, 'x-kubernetes-preserve-unknown-fields', 'bool', 'ptr omit', { go: 'XPreserveUnknownFields' }),
  f(undefined, 'x-kubernetes-embedded-resource', 'bool', 'omit', { go: 'XEmbeddedResource' }),
  f(undefined, 'x-kubernetes-int-or-string', 'bool', 'omit', { go: 'XIntOrString' }),
  f(undefined, 'x-kubernetes-list-map-keys', 'string', 'slice omit', { go: 'XListMapKeys' }),
  f(undefined, 'x-kubernetes-list-type', 'string', 'ptr omit', { go: 'XListType' }),
  f(undefined, 'x-kubernetes-map-type', 'string', 'ptr omit', { go: 'XMapType' }),
  f(undefined, 'x-kubernetes-validations', ValidationRule, 'slice omit', { go: 'XValidations', collection: 'ValidationRules' }),
);

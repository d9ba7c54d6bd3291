// kubectl explain of the CustomResourceDefinition kind itself, against a started server: its fields and
// kube's descriptions through OpenAPI v3 (kubectl's default) and v2 (--output=plaintext-openapiv2), down to
// spec.versions.schema.openAPIV3Schema, whose JSONSchemaProps and custom-marshalled types kube publishes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { requireKubectl, startTestServer, type TestServer } from './harness.js';

let s: TestServer;
before(async () => {
  requireKubectl();
  s = await startTestServer();
});
after(async () => {
  await s?.close();
});

const explain = async (path: string, ...flags: string[]): Promise<string> => {
  const r = await s.kubectl(['explain', path, '--api-version=apiextensions.k8s.io/v1', ...flags]);
  assert.equal(r.code, 0, `explain ${path}: ${r.stderr}`);
  return r.stdout;
};

test('kubectl explain customresourcedefinitions.spec.versions.schema (OpenAPI v3): kube\'s text', async () => {
  assert.equal(
    await explain('customresourcedefinitions.spec.versions.schema'),
    [
      'GROUP:      apiextensions.k8s.io',
      'KIND:       CustomResourceDefinition',
      'VERSION:    v1',
      '',
      'FIELD: schema <CustomResourceValidation>',
      '',
      '',
      'DESCRIPTION:',
      '    schema describes the schema used for validation, pruning, and defaulting of',
      '    this version of the custom resource.',
      '    CustomResourceValidation is a list of validation methods for',
      '    CustomResources.',
      '    ',
      'FIELDS:',
      '  openAPIV3Schema\t<JSONSchemaProps>',
      '    openAPIV3Schema is the OpenAPI v3 schema to use for validation and pruning.',
      '',
      '',
      '',
    ].join('\n'),
  );
});

test('kubectl explain customresourcedefinition.spec.versions.schema.openAPIV3Schema (OpenAPI v3): JSONSchemaProps and its custom types', async () => {
  const out = await explain('customresourcedefinition.spec.versions.schema.openAPIV3Schema');
  assert.match(out, /^FIELD: openAPIV3Schema <JSONSchemaProps>\n/m);
  assert.match(out, /\n    JSONSchemaProps is a JSON-Schema following Specification Draft 4\n    \(http:\/\/json-schema.org\/\)\.\n/);
  for (const field of [
    'additionalProperties\t<JSONSchemaPropsOrBool>',
    'allOf\t<[]JSONSchemaProps>',
    'default\t<JSON>\n    default is a default value for undefined object fields.',
    'dependencies\t<map[string]JSONSchemaPropsOrStringArray>',
    'enum\t<[]JSON>',
    'items\t<JSONSchemaPropsOrArray>',
    'maximum\t<number>',
    'properties\t<map[string]JSONSchemaProps>',
    'x-kubernetes-validations\t<[]ValidationRule>\n    x-kubernetes-validations describes a list of validation rules written in the\n    CEL expression language.',
  ]) {
    assert.ok(out.includes(`\n  ${field}`), field);
  }
});

test('kubectl explain through OpenAPI v2: the same descriptions, down to a schema\'s validation rules', async () => {
  const schema = await explain('customresourcedefinitions.spec.versions.schema', '--output=plaintext-openapiv2');
  assert.equal(
    schema,
    [
      'KIND:     CustomResourceDefinition',
      'VERSION:  apiextensions.k8s.io/v1',
      '',
      'RESOURCE: schema <Object>',
      '',
      'DESCRIPTION:',
      '     schema describes the schema used for validation, pruning, and defaulting of',
      '     this version of the custom resource.',
      '',
      '     CustomResourceValidation is a list of validation methods for',
      '     CustomResources.',
      '',
      'FIELDS:',
      '   openAPIV3Schema\t<Object>',
      '     openAPIV3Schema is the OpenAPI v3 schema to use for validation and pruning.',
      '',
      '',
    ].join('\n'),
  );
  const rules = await explain('customresourcedefinition.spec.versions.schema.openAPIV3Schema.x-kubernetes-validations', '--output=plaintext-openapiv2');
  assert.match(rules, /^RESOURCE: x-kubernetes-validations <\[\]Object>$/m);
  assert.match(rules, /^ {5}ValidationRule describes a validation rule written in the CEL expression\n {5}language\.$/m);
  assert.match(rules, /^ {3}rule\t<string> -required-$/m);
});

test('kubectl explain crd.status (OpenAPI v3): acceptedNames and storedVersions are not required', async () => {
  const out = await explain('crd.status');
  assert.match(out, /^  acceptedNames\t<CustomResourceDefinitionNames>$/m);
  assert.match(out, /^  storedVersions\t<\[\]string>$/m);
  assert.doesNotMatch(out, /-required-/);
});

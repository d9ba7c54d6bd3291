import { test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultCRD } from '../../src/crd/defaults.js';
import { validateCRD, validateCRDStatusUpdate, validateCRDUpdate, type SchemaCheckContext } from '../../src/crd/validation.js';
import type { CustomResourceDefinition } from '../../src/crd/types.js';
import { cronTab, DNS1035, DNS1123_SUBDOMAIN, strings, twoVersions } from './helpers.js';

const check = (crd: CustomResourceDefinition, expected: string[]) => assert.deepEqual(strings(validateCRD(crd)), expected);
const has = (crd: CustomResourceDefinition, expected: string) => assert.ok(strings(validateCRD(crd)).includes(expected), strings(validateCRD(crd)).join('\n'));

const NO_VERSIONS_V1 = (extra = '') =>
  `[]apiextensions.CustomResourceDefinitionVersion{apiextensions.CustomResourceDefinitionVersion{Name:"v1", Served:true, Storage:${extra || 'true'}, Deprecated:false, DeprecationWarning:(*string)(nil), Schema:(*apiextensions.CustomResourceValidation)(nil), Subresources:(*apiextensions.CustomResourceSubresources)(nil), AdditionalPrinterColumns:[]apiextensions.CustomResourceColumnDefinition(nil), SelectableFields:[]apiextensions.SelectableField(nil)}}`;

test('the CronTab CRD is valid', () => check(cronTab(), []));

// metadata -------------------------------------------------------------------------------------

test('metadata.name must be plural.group', () => {
  const crd = cronTab();
  crd.metadata.name = 'crontab.stable.example.com';
  check(crd, ['metadata.name: Invalid value: "crontab.stable.example.com": must be spec.names.plural+"."+spec.group']);
});

test('metadata.name is required', () => {
  const crd = cronTab();
  delete crd.metadata.name;
  check(crd, ['metadata.name: Required value: name or generateName is required']);
});

test('metadata.name must be a DNS subdomain', () => {
  const crd = cronTab();
  crd.metadata.name = 'CronTabs.stable.example.com';
  check(crd, [
    `metadata.name: Invalid value: "CronTabs.stable.example.com": ${DNS1123_SUBDOMAIN}`,
    'metadata.name: Invalid value: "CronTabs.stable.example.com": must be spec.names.plural+"."+spec.group',
  ]);
});

test('metadata.namespace is not allowed on a CRD', () => {
  const crd = cronTab();
  crd.metadata.namespace = 'default';
  check(crd, ['metadata.namespace: Forbidden: not allowed on this type']);
});

// group and scope ------------------------------------------------------------------------------

test('spec.group is required', () => {
  const crd = cronTab();
  crd.spec.group = '';
  crd.metadata.name = 'crontabs';
  has(crd, 'spec.group: Required value');
});

test('spec.group must be a DNS subdomain', () => {
  const crd = cronTab();
  crd.spec.group = 'Stable.example.com';
  crd.metadata.name = 'crontabs.Stable.example.com';
  has(crd, `spec.group: Invalid value: "Stable.example.com": ${DNS1123_SUBDOMAIN}`);
});

test('spec.group needs at least one dot', () => {
  const crd = cronTab();
  crd.spec.group = 'example';
  crd.metadata.name = 'crontabs.example';
  check(crd, ['spec.group: Invalid value: "example": should be a domain with at least one dot']);
});

test('spec.scope is required', () => {
  const crd = cronTab();
  crd.spec.scope = '';
  check(crd, ['spec.scope: Required value']);
});

test('spec.scope is Namespaced or Cluster', () => {
  const crd = cronTab();
  crd.spec.scope = 'Global';
  check(crd, ['spec.scope: Unsupported value: "Global": supported values: "Cluster", "Namespaced"']);
});

// versions -------------------------------------------------------------------------------------

test('at least one version: none is "exactly one storage version"', () => {
  const crd = cronTab();
  crd.spec.versions = [];
  check(crd, [
    'spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion{}: must have exactly one version marked as storage version',
    'status.storedVersions[0]: Invalid value: "v1": missing from spec.versions; v1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1 and removes v1 from status.storedVersions',
  ]);
});

test('absent versions render as a nil slice', () => {
  const crd = cronTab();
  delete (crd.spec as Partial<typeof crd.spec>).versions;
  has(crd, 'spec.versions: Invalid value: []apiextensions.CustomResourceDefinitionVersion(nil): must have exactly one version marked as storage version');
});

test('exactly one version is the storage version (none)', () => {
  const crd = cronTab();
  crd.spec.versions[0]!.storage = false;
  // The schema was hoisted to spec.validation, so the version's Schema pointer is nil.
  check(crd, [
    `spec.versions: Invalid value: ${NO_VERSIONS_V1('false')}: must have exactly one version marked as storage version`,
  ]);
});

test('exactly one version is the storage version (two)', () => {
  const crd = twoVersions();
  crd.spec.versions[0]!.storage = true;
  const errs = strings(validateCRD(crd));
  assert.equal(errs.length, 2);
  assert.match(errs[0]!, /^spec\.versions: Invalid value: \[\]apiextensions\.CustomResourceDefinitionVersion\{apiextensions\.CustomResourceDefinitionVersion\{Name:"v1beta1", Served:true, Storage:true, .*Schema:\(\*apiextensions\.CustomResourceValidation\)\(0x[0-9a-f]+\).*: must have exactly one version marked as storage version$/);
  // Every storage version must also be in status.storedVersions.
  assert.equal(errs[1], 'status.storedVersions: Invalid value: []string{"v1"}: must have the storage version v1beta1');
});

test('version names must be unique', () => {
  const crd = twoVersions();
  crd.spec.versions[0]!.name = 'v1';
  const errs = strings(validateCRD(crd));
  assert.equal(errs.length, 2);
  assert.match(errs[0]!, /^spec\.versions: Invalid value: \[\]apiextensions.*: must contain unique version names$/);
  // The first "v1" consumed the stored version entry, as kube's map lookup does.
  assert.equal(errs[1], 'status.storedVersions: Invalid value: []string{"v1"}: must have the storage version v1');
});

test('version names are DNS-1035 labels, reported for spec.version too', () => {
  const crd = cronTab();
  crd.spec.versions[0]!.name = 'V1';
  crd.status!.storedVersions = ['V1'];
  check(crd, [`spec.versions[0].name: Invalid value: "V1": ${DNS1035}`, `spec.version: Invalid value: "V1": ${DNS1035}`]);
});

test('a later bad version name is reported once', () => {
  const crd = twoVersions();
  crd.spec.versions[1]!.name = '1v';
  crd.status!.storedVersions = ['1v'];
  check(crd, [`spec.versions[1].name: Invalid value: "1v": ${DNS1035}`]);
});

test('schemas are required in every version', () => {
  const crd = twoVersions();
  delete crd.spec.versions[0]!.schema;
  check(crd, ['spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required']);
});

test('a schema object without openAPIV3Schema still counts as missing', () => {
  const crd = cronTab();
  crd.spec.versions[0]!.schema = {};
  check(crd, ['spec.versions[0].schema.openAPIV3Schema: Required value: schemas are required']);
});

test('deprecationWarning only on deprecated versions', () => {
  const crd = cronTab();
  crd.spec.versions[0]!.deprecationWarning = 'old';
  check(crd, ['spec.versions[0].deprecationWarning: Invalid value: "old": can only be set for deprecated versions']);
});

test('deprecationWarning length, emptiness and printability', () => {
  const crd = cronTab();
  const v = crd.spec.versions[0]!;
  v.deprecated = true;
  v.deprecationWarning = 'x'.repeat(257);
  check(crd, [`spec.versions[0].deprecationWarning: Invalid value: "${'x'.repeat(257)}": must be <= 256 characters long`]);
  v.deprecationWarning = '';
  check(crd, ['spec.versions[0].deprecationWarning: Invalid value: "": must not be an empty string']);
  v.deprecationWarning = 'é\tb';
  check(crd, [
    'spec.versions[0].deprecationWarning: Invalid value: "é\\tb": must only contain printable UTF-8 characters; non-printable character found at index 2',
  ]);
  v.deprecationWarning = 'v1 is going away';
  check(crd, []);
});

// schema root ----------------------------------------------------------------------------------

test('a single version schema is validated at spec.validation', () => {
  const crd = cronTab();
  crd.spec.versions[0]!.schema!.openAPIV3Schema!['nullable'] = true;
  check(crd, ['spec.validation.openAPIV3Schema.nullable: Forbidden: nullable cannot be true at the root']);
});

test('per-version schemas are validated at spec.versions[i].schema', () => {
  const crd = twoVersions();
  crd.spec.versions[0]!.schema!.openAPIV3Schema!['nullable'] = true;
  check(crd, ['spec.versions[0].schema.openAPIV3Schema.nullable: Forbidden: nullable cannot be true at the root']);
});

test('with the status subresource the root type must be object', () => {
  const crd = cronTab();
  crd.spec.versions[0]!.subresources = { status: {} };
  crd.spec.versions[0]!.schema!.openAPIV3Schema!['type'] = 'array';
  check(crd, [
    'spec.validation.openAPIV3Schema.type: Invalid value: "array": only "object" is allowed as the type at the root of the schema if the status subresource is enabled',
  ]);
});

test('with the status subresource only some fields are allowed at the root', () => {
  const crd = cronTab();
  crd.spec.versions[0]!.subresources = { status: {} };
  crd.spec.versions[0]!.schema!.openAPIV3Schema = { type: 'object', 'x-kubernetes-int-or-string': true };
  const [err, ...rest] = strings(validateCRD(crd));
  assert.deepEqual(rest, []);
  assert.ok(
    err!.startsWith('spec.validation.openAPIV3Schema: Invalid value: apiextensions.JSONSchemaProps{ID:"", Schema:"", Ref:(*string)(nil), Description:"", Type:"object", Nullable:false,'),
    err,
  );
  assert.ok(err!.includes('XIntOrString:true, XListMapKeys:[]string(nil), XListType:(*string)(nil), XMapType:(*string)(nil), XValidations:apiextensions.ValidationRules(nil)}'), err);
  assert.ok(
    err!.endsWith(
      ': only [Description Type Format Title Maximum ExclusiveMaximum Minimum ExclusiveMinimum MaxLength MinLength Pattern MaxItems MinItems UniqueItems MultipleOf Required Items Properties ExternalDocs Example XPreserveUnknownFields XValidations] fields are allowed at the root of the schema if the status subresource is enabled',
    ),
    err,
  );
});

test('the root restriction applies only to the versions with status enabled', () => {
  const crd = twoVersions();
  crd.spec.versions[1]!.subresources = { status: {} };
  crd.spec.versions[0]!.schema!.openAPIV3Schema!['type'] = 'array';
  check(crd, []);
  crd.spec.versions[1]!.schema!.openAPIV3Schema!['type'] = 'array';
  check(crd, [
    'spec.versions[1].schema.openAPIV3Schema.type: Invalid value: "array": only "object" is allowed as the type at the root of the schema if the status subresource is enabled',
  ]);
});

test('the schema engine hook gets each schema with its path and context', () => {
  const seen: Array<[string, SchemaCheckContext]> = [];
  const hook = (schema: Record<string, unknown>, path: string, ctx: SchemaCheckContext) => {
    seen.push([path, ctx]);
    return schema['type'] === 'object' ? [] : [{ type: 'FieldValueRequired' as const, field: `${path}.type`, detail: 'must not be empty at the root' }];
  };
  const crd = twoVersions();
  crd.spec.versions[1]!.subresources = { status: {} };
  delete crd.spec.versions[0]!.schema!.openAPIV3Schema!['type'];
  assert.deepEqual(strings(validateCRD(crd, { validateSchemaStructure: hook })), [
    'spec.versions[0].schema.openAPIV3Schema.type: Required value: must not be empty at the root',
  ]);
  assert.deepEqual(
    seen.map(([p, c]) => [p, c.statusEnabled, c.requireStructuralSchema, c.update]),
    [
      ['spec.versions[0].schema.openAPIV3Schema', false, true, undefined],
      ['spec.versions[1].schema.openAPIV3Schema', true, true, undefined],
    ],
  );
  seen.length = 0;
  const single = cronTab();
  validateCRD(single, { validateSchemaStructure: hook });
  assert.deepEqual(seen.map(([p]) => p), ['spec.validation.openAPIV3Schema']);
  seen.length = 0;
  const changed = cronTab();
  changed.metadata.resourceVersion = '2';
  validateCRDUpdate(changed, cronTab(), { validateSchemaStructure: hook });
  assert.equal(seen[0]![1].update?.schemaUnchanged, true);
});

// subresources ---------------------------------------------------------------------------------

test('scale: specReplicasPath and statusReplicasPath are required', () => {
  const crd = cronTab();
  crd.spec.versions[0]!.subresources = { scale: { specReplicasPath: '', statusReplicasPath: '' } };
  check(crd, ['spec.subresources.scale.specReplicasPath: Required value', 'spec.subresources.scale.statusReplicasPath: Required value']);
});

test('scale: paths must be dot paths under .spec / .status', () => {
  const crd = cronTab();
  crd.spec.versions[0]!.subresources = { scale: { specReplicasPath: '.status.replicas', statusReplicasPath: 'status.replicas', labelSelectorPath: '.metadata.labels' } };
  check(crd, [
    'spec.subresources.scale.specReplicasPath: Invalid value: ".status.replicas": should be a json path under .spec',
    'spec.subresources.scale.statusReplicasPath: Invalid value: "status.replicas": must be a simple json path starting with .',
    'spec.subresources.scale.labelSelectorPath: Invalid value: ".metadata.labels": should be a json path under either .spec or .status',
  ]);
  crd.spec.versions[0]!.subresources = { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.labelSelector' } };
  check(crd, []);
});

test('scale: per-version subresources are reported per version', () => {
  const crd = twoVersions();
  crd.spec.versions[1]!.subresources = { scale: { specReplicasPath: '.spec', statusReplicasPath: '.status.replicas' } };
  check(crd, ['spec.versions[1].subresources.scale.specReplicasPath: Invalid value: ".spec": should be a json path under .spec']);
});

// printer columns ------------------------------------------------------------------------------

test('printer columns: name, type, format and jsonPath', () => {
  const crd = cronTab();
  crd.spec.versions[0]!.additionalPrinterColumns = [
    { name: '', type: '', jsonPath: '' },
    { name: 'Age', type: 'time', format: 'uuid', jsonPath: 'metadata.creationTimestamp' },
    { name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec', format: 'date-time' },
  ];
  check(crd, [
    'spec.additionalPrinterColumns[0].name: Required value',
    'spec.additionalPrinterColumns[0].type: Required value: must be one of boolean,date,integer,number,string',
    'spec.additionalPrinterColumns[0].JSONPath: Required value',
    'spec.additionalPrinterColumns[1].type: Invalid value: "time": must be one of boolean,date,integer,number,string',
    'spec.additionalPrinterColumns[1].format: Invalid value: "uuid": must be one of byte,date,date-time,double,float,int32,int64,password',
    'spec.additionalPrinterColumns[1].JSONPath: Invalid value: "metadata.creationTimestamp": must be a simple json path starting with .',
  ]);
});

// selectable fields ----------------------------------------------------------------------------

test('selectable fields must resolve to string, boolean or integer fields outside metadata', () => {
  const crd = cronTab();
  crd.spec.versions[0]!.selectableFields = [
    { jsonPath: '.spec.cronSpec' },
    { jsonPath: '.spec.nope' },
    { jsonPath: '.spec' },
    { jsonPath: '.spec.cronSpec' },
    { jsonPath: 'spec.image' },
    { jsonPath: '.spec.image[0]' },
    { jsonPath: '' },
  ];
  check(crd, [
    'spec.selectableFields[1].jsonPath: Invalid value: ".spec.nope": is an invalid path: does not refer to a valid field',
    'spec.selectableFields[2].jsonPath: Invalid value: ".spec": must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed.',
    'spec.selectableFields[3].jsonPath: Duplicate value: ".spec.cronSpec"',
    'spec.selectableFields[4].jsonPath: Invalid value: "spec.image": is an invalid path: expected [ or . but got: spec',
    'spec.selectableFields[5].jsonPath: Invalid value: ".spec.image[0]": is an invalid path: array notation is not allowed',
    'spec.selectableFields[6].jsonPath: Required value',
  ]);
});

test('selectable fields may not point into metadata, and at most 8', () => {
  const crd = cronTab();
  const props: Record<string, unknown> = { name: { type: 'string' } };
  for (let i = 0; i < 9; i++) props[`f${i}`] = { type: 'integer' };
  crd.spec.versions[0]!.schema!.openAPIV3Schema!['properties'] = { metadata: { type: 'object', properties: { name: { type: 'string' } } }, spec: { type: 'object', properties: props } };
  crd.spec.versions[0]!.selectableFields = [{ jsonPath: '.metadata.name' }];
  check(crd, ['spec.selectableFields[0].jsonPath: Invalid value: ".metadata.name": must not point to fields in metadata']);
  crd.spec.versions[0]!.selectableFields = Array.from({ length: 9 }, (_, i) => ({ jsonPath: `.spec.f${i}` }));
  check(crd, ['spec.selectableFields: Too many: 9: must have at most 8 items']);
});

test('the same selectable fields in versions whose schemas differ are valid (kube hoists them only with the schema)', () => {
  const crd = twoVersions();
  const schema = structuredClone(crd.spec.versions[1]!.schema!);
  (schema.openAPIV3Schema!['properties'] as Record<string, any>)['spec'].properties.extra = { type: 'string' };
  crd.spec.versions[0]!.schema = schema;
  for (const v of crd.spec.versions) v.selectableFields = [{ jsonPath: '.spec.cronSpec' }];
  check(crd, []);
});

test('per-version selectable fields with a hoisted schema are rejected (kube wording)', () => {
  const crd = twoVersions();
  crd.spec.versions[0]!.schema = structuredClone(crd.spec.versions[1]!.schema);
  crd.spec.versions[1]!.selectableFields = [{ jsonPath: '.spec.cronSpec' }];
  check(crd, ['spec.versions[1].selectableFields: Invalid value: "": selectableFields may only be set when version.schema.openAPIV3Schema is not included']);
  crd.spec.versions[0]!.schema = { openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { cronSpec: { type: 'string' } } } } } };
  check(crd, []);
});

// names ----------------------------------------------------------------------------------------

test('names: plural, singular, kind and listKind are required', () => {
  const crd = cronTab();
  crd.spec.names = { plural: '', kind: '' };
  crd.metadata.name = '.stable.example.com';
  const errs = strings(validateCRD(crd));
  for (const e of ['spec.names.plural: Required value', 'spec.names.singular: Required value', 'spec.names.kind: Required value', 'spec.names.listKind: Required value']) {
    assert.ok(errs.includes(e), e);
  }
});

test('names: plural, singular, shortNames and categories are DNS-1035 labels', () => {
  const crd = cronTab();
  crd.spec.names = { plural: 'crontabs', singular: 'Crontab', kind: 'CronTab', listKind: 'CronTabList', shortNames: ['ct', 'c_t'], categories: ['all', 'My Stuff'] };
  check(crd, [
    `spec.names.singular: Invalid value: "Crontab": ${DNS1035}`,
    `spec.names.shortNames[1]: Invalid value: "c_t": ${DNS1035}`,
    `spec.names.categories[1]: Invalid value: "My Stuff": ${DNS1035}`,
  ]);
  crd.spec.names.plural = 'cron.tabs';
  crd.metadata.name = 'cron.tabs.stable.example.com';
  has(crd, `spec.names.plural: Invalid value: "cron.tabs": ${DNS1035}`);
});

test('names: kind and listKind may have mixed case', () => {
  const crd = cronTab();
  crd.spec.names.kind = 'Cron_Tab';
  crd.spec.names.listKind = 'Cron Tab List';
  check(crd, [
    `spec.names.kind: Invalid value: "Cron_Tab": may have mixed case, but should otherwise match: ${DNS1035}`,
    `spec.names.listKind: Invalid value: "Cron Tab List": may have mixed case, but should otherwise match: ${DNS1035}`,
  ]);
});

test('names: kind and listKind may not be the same', () => {
  const crd = cronTab();
  crd.spec.names.listKind = 'CronTab';
  check(crd, ['spec.names.listKind: Invalid value: "CronTab": kind and listKind may not be the same']);
});

test('status.acceptedNames are validated as names', () => {
  const crd = cronTab();
  crd.status!.acceptedNames = { plural: 'Crontabs', kind: '' };
  check(crd, [`status.acceptedNames.plural: Invalid value: "Crontabs": ${DNS1035}`]);
});

// conversion -----------------------------------------------------------------------------------

const webhook = (crd: CustomResourceDefinition, clientConfig: object | undefined, reviewVersions: string[] = ['v1']) => {
  crd.spec.conversion = { strategy: 'Webhook', webhook: { conversionReviewVersions: reviewVersions, ...(clientConfig ? { clientConfig } : {}) } };
  return crd;
};

test('conversion: strategy is required and None or Webhook', () => {
  const crd = cronTab();
  crd.spec.conversion = { strategy: '' };
  check(crd, ['spec.conversion.strategy: Required value']);
  crd.spec.conversion = { strategy: 'Magic' };
  check(crd, ['spec.conversion.strategy: Unsupported value: "Magic": supported values: "None", "Webhook"']);
});

test('conversion: webhook needs a client config and review versions', () => {
  const crd = cronTab();
  crd.spec.conversion = { strategy: 'Webhook' };
  check(crd, [
    'spec.conversion.webhookClientConfig: Required value: required when strategy is set to Webhook',
    'spec.conversion.conversionReviewVersions: Required value',
  ]);
});

test('conversion: exactly one of url or service', () => {
  check(webhook(cronTab(), {}), ['spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required']);
  check(webhook(cronTab(), { url: 'https://example.com/convert', service: { name: 'a', namespace: 'b', port: 443 } }), [
    'spec.conversion.webhookClientConfig: Required value: exactly one of url or service is required',
  ]);
  check(webhook(cronTab(), { url: 'https://example.com/convert' }), []);
});

test('conversion: webhook url must be https with a host, no user, query or fragment', () => {
  check(webhook(cronTab(), { url: 'http://user@example.com/c?x=1#frag' }), [
    `spec.conversion.webhookClientConfig.url: Invalid value: "http": 'https' is the only allowed URL scheme; desired format: https://host[/path]`,
    'spec.conversion.webhookClientConfig.url: Invalid value: "user": user information is not permitted in the URL',
    'spec.conversion.webhookClientConfig.url: Invalid value: "frag": fragments are not permitted in the URL',
    'spec.conversion.webhookClientConfig.url: Invalid value: "x=1": query parameters are not permitted in the URL',
  ]);
  check(webhook(cronTab(), { url: 'https:///convert' }), [
    'spec.conversion.webhookClientConfig.url: Invalid value: "": host must be specified; desired format: https://host[/path]',
  ]);
  check(webhook(cronTab(), { url: 'https://exa mple.com/' }), [
    'spec.conversion.webhookClientConfig.url: Required value: url must be a valid URL: parse "https://exa mple.com/": invalid character " " in host name; desired format: https://host[/path]',
  ]);
  check(webhook(cronTab(), { url: 'https://example.com:port/' }), [
    'spec.conversion.webhookClientConfig.url: Required value: url must be a valid URL: parse "https://example.com:port/": invalid port ":port" after host; desired format: https://host[/path]',
  ]);
});

test('conversion: service name and namespace are swapped as kube swaps them', () => {
  check(webhook(cronTab(), { service: { name: '', namespace: 'ns', port: 443 } }), [
    'spec.conversion.webhookClientConfig.service.namespace: Required value: service namespace is required',
  ]);
  check(webhook(cronTab(), { service: { name: 'svc', namespace: '', port: 443 } }), [
    'spec.conversion.webhookClientConfig.service.name: Required value: service name is required',
  ]);
});

test('conversion: service port and path', () => {
  check(webhook(cronTab(), { service: { name: 'svc', namespace: 'ns', port: 70000, path: 'convert//Now/' } }), [
    'spec.conversion.webhookClientConfig.service.port: Invalid value: 70000: port is not valid: must be between 1 and 65535, inclusive',
    `spec.conversion.webhookClientConfig.service.path: Invalid value: "convert//Now/": must start with a '/'`,
    // kube drops the first character whether or not it is a '/'.
    'spec.conversion.webhookClientConfig.service.path: Invalid value: "convert//Now/": segment[1] may not be empty',
    `spec.conversion.webhookClientConfig.service.path: Invalid value: "convert//Now/": segment[2]: ${DNS1123_SUBDOMAIN}`,
  ]);
  check(webhook(cronTab(), { service: { name: 'svc', namespace: 'ns', port: 443, path: '//' } }), [
    'spec.conversion.webhookClientConfig.service.path: Invalid value: "//": segment[0] may not be empty',
  ]);
});

test('conversion: the default service port is 443', () => {
  const crd = webhook(cronTab(), { service: { name: 'svc', namespace: 'ns' } });
  check(crd, ['spec.conversion.webhookClientConfig.service.port: Invalid value: 0: port is not valid: must be between 1 and 65535, inclusive']);
  check(defaultCRD(crd), []);
});

test('conversion: review versions are unique DNS-1035 labels including v1 or v1beta1', () => {
  check(webhook(cronTab(), { url: 'https://e.com' }, ['v1', 'v1', 'V2']), [
    'spec.conversion.conversionReviewVersions[1]: Invalid value: "v1": duplicate version',
    `spec.conversion.conversionReviewVersions[2]: Invalid value: "V2": ${DNS1035}`,
  ]);
  check(webhook(cronTab(), { url: 'https://e.com' }, ['v2', 'v3']), [
    'spec.conversion.conversionReviewVersions: Invalid value: []string{"v2", "v3"}: must include at least one of v1, v1beta1',
  ]);
});

test('conversion: webhook settings are forbidden with strategy None', () => {
  const crd = cronTab();
  crd.spec.conversion = { strategy: 'None', webhook: { conversionReviewVersions: ['v1'], clientConfig: { url: 'https://e.com' } } };
  check(crd, [
    'spec.conversion.webhookClientConfig: Forbidden: should not be set when strategy is not set to Webhook',
    'spec.conversion.conversionReviewVersions: Forbidden: should not be set when strategy is not set to Webhook',
  ]);
});

test('conversion: caBundle is checked only on update of an established CRD', () => {
  const crd = webhook(cronTab(), { url: 'https://e.com', caBundle: Buffer.from('nope').toString('base64') });
  check(crd, []);
  const old = cronTab();
  old.metadata.resourceVersion = '1';
  old.status!.conditions = [{ type: 'Established', status: 'True' }];
  crd.metadata.resourceVersion = '1';
  crd.status = structuredClone(old.status);
  assert.deepEqual(strings(validateCRDUpdate(crd, old)), [
    'spec.conversion.webhookClientConfig.caBundle: Invalid value: []byte{0x6e, 0x6f, 0x70, 0x65}: unable to load root certificates: unable to parse bytes as PEM block',
  ]);
  // Not yet established: anything goes.
  old.status!.conditions = [];
  assert.deepEqual(strings(validateCRDUpdate(crd, old)), []);
});

// preserveUnknownFields ------------------------------------------------------------------------

test('preserveUnknownFields: true is not allowed in v1', () => {
  const crd = cronTab();
  crd.spec.preserveUnknownFields = true;
  check(crd, ['spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead']);
});

test('preserveUnknownFields: true with defaults or webhook conversion', () => {
  const crd = webhook(cronTab(), { url: 'https://e.com' });
  crd.spec.preserveUnknownFields = true;
  (crd.spec.versions[0]!.schema!.openAPIV3Schema!['properties'] as Record<string, Record<string, unknown>>)['spec']!['default'] = {};
  check(crd, [
    'spec.preserveUnknownFields: Invalid value: true: must be false in order to use defaults in the schema',
    'spec.conversion.strategy: Invalid value: "Webhook": must be None if spec.preserveUnknownFields is true',
    'spec.preserveUnknownFields: Invalid value: true: cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead',
  ]);
});

// storedVersions -------------------------------------------------------------------------------

test('storedVersions must include the storage version', () => {
  const crd = twoVersions();
  crd.status!.storedVersions = ['v1beta1'];
  check(crd, ['status.storedVersions: Invalid value: []string{"v1beta1"}: must have the storage version v1']);
});

test('stored versions must remain in spec.versions', () => {
  const old = twoVersions();
  old.metadata.resourceVersion = '5';
  old.status!.storedVersions = ['v1beta1', 'v1'];
  const next = cronTab();
  next.metadata.resourceVersion = '5';
  next.status!.storedVersions = ['v1beta1', 'v1'];
  assert.deepEqual(strings(validateCRDUpdate(next, old)), [
    'status.storedVersions[0]: Invalid value: "v1beta1": missing from spec.versions; v1beta1 was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in v1beta1 and removes v1beta1 from status.storedVersions',
  ]);
});

test('storedVersions may not be empty', () => {
  const crd = cronTab();
  crd.status!.storedVersions = [];
  check(crd, ['status.storedVersions: Invalid value: []string{}: must have at least one stored version']);
});

// API approval ---------------------------------------------------------------------------------

const protectedCRD = (annotation?: string) => {
  const crd = cronTab();
  crd.spec.group = 'stable.k8s.io';
  crd.metadata.name = 'crontabs.stable.k8s.io';
  if (annotation !== undefined) crd.metadata.annotations = { 'api-approved.kubernetes.io': annotation };
  return crd;
};

test('protected groups need the api-approved annotation', () => {
  check(protectedCRD(), [
    'metadata.annotations[api-approved.kubernetes.io]: Required value: protected groups must have approval annotation "api-approved.kubernetes.io", see https://github.com/kubernetes/enhancements/pull/1111',
  ]);
  check(protectedCRD('yes please'), [
    'metadata.annotations[api-approved.kubernetes.io]: Invalid value: "yes please": protected groups must have approval annotation "api-approved.kubernetes.io" with either a URL or a reason starting with "unapproved", see https://github.com/kubernetes/enhancements/pull/1111',
  ]);
  check(protectedCRD('https://github.com/kubernetes/kubernetes/pull/78458'), []);
  check(protectedCRD('unapproved, experimental-only'), []);
});

test('an unchanged approval state passes on update', () => {
  const old = protectedCRD('yes please');
  old.metadata.resourceVersion = '3';
  const next = protectedCRD('still yes');
  next.metadata.resourceVersion = '3';
  assert.deepEqual(strings(validateCRDUpdate(next, old)), []);
});

// updates --------------------------------------------------------------------------------------

const updated = (mutate: (c: CustomResourceDefinition) => void, established = false) => {
  const old = cronTab();
  old.metadata.resourceVersion = '7';
  if (established) old.status!.conditions = [{ type: 'Established', status: 'True', reason: 'InitialNamesAccepted' }];
  const next = structuredClone(old);
  mutate(next);
  return strings(validateCRDUpdate(next, old));
};

test('update: group and plural are immutable', () => {
  assert.ok(updated((c) => (c.spec.group = 'other.example.com')).includes('spec.group: Invalid value: "other.example.com": field is immutable'));
  assert.ok(updated((c) => (c.spec.names.plural = 'crons')).includes('spec.names.plural: Invalid value: "crons": field is immutable'));
});

test('update: scope and kind are immutable once established', () => {
  assert.deepEqual(
    updated((c) => {
      c.spec.scope = 'Cluster';
      c.spec.names.kind = 'Cron';
      c.spec.names.listKind = 'CronList';
    }),
    [],
  );
  assert.deepEqual(
    updated((c) => {
      c.spec.scope = 'Cluster';
      c.spec.names.kind = 'Cron';
      c.spec.names.listKind = 'CronList';
    }, true),
    ['spec.scope: Invalid value: "Cluster": field is immutable', 'spec.names.kind: Invalid value: "Cron": field is immutable'],
  );
});

test('update: resourceVersion is required and name immutable', () => {
  assert.deepEqual(
    updated((c) => delete c.metadata.resourceVersion),
    ['metadata.resourceVersion: Invalid value: "": must be specified for an update'],
  );
});

test('update: adding a version without a schema', () => {
  assert.deepEqual(
    updated((c) => c.spec.versions.push({ name: 'v2', served: true, storage: false })),
    ['spec.versions[1].schema.openAPIV3Schema: Required value: schemas are required'],
  );
});

test('update: review versions without v1/v1beta1 are tolerated when already so', () => {
  const old = webhook(cronTab(), { url: 'https://e.com' }, ['v9']);
  old.metadata.resourceVersion = '1';
  const next = structuredClone(old);
  assert.deepEqual(strings(validateCRDUpdate(next, old)), []);
  assert.deepEqual(strings(validateCRD(next)), ['spec.conversion.conversionReviewVersions: Invalid value: []string{"v9"}: must include at least one of v1, v1beta1']);
});

test('status update validates metadata and accepted names only', () => {
  const old = cronTab();
  old.metadata.resourceVersion = '1';
  const next = structuredClone(old);
  next.status!.acceptedNames = { plural: 'crontabs', kind: 'CronTab', shortNames: ['C'] };
  next.spec.scope = 'nonsense';
  assert.deepEqual(strings(validateCRDStatusUpdate(next, old)), [`status.acceptedNames.shortNames[0]: Invalid value: "C": ${DNS1035}`]);
});

// What the console tests and scripts/console-screenshots.mjs install: the CronTab fixture as a CRD author
// would grow it (constraints, a CEL rule, a printer column, an older deprecated version), and the
// prometheus-operator Prometheus CRD from the corpus.
import { readFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { CORPUS } from '../shared-paths.js';

export const PROMETHEUS_CRD = `${CORPUS}/prometheus-operator/crds/monitoring.coreos.com_prometheuses.yaml`;

export function cronTabCrd(): string {
  const crd = parse(readFileSync(new URL('../fixtures/crontab-crd.yaml', import.meta.url), 'utf8'));
  const v1 = crd.spec.versions[0];
  const spec = v1.schema.openAPIV3Schema.properties.spec;
  spec.description = 'CronTabSpec is when and what a CronTab runs.';
  spec.required = ['cronSpec'];
  spec.properties.cronSpec.description = 'The schedule, in cron format.';
  spec.properties.cronSpec.pattern = '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$';
  spec.properties.image.description = 'The image the job runs.';
  spec.properties.replicas.default = 1;
  spec.properties.replicas.maximum = 10;
  spec.properties.concurrencyPolicy = { type: 'string', enum: ['Allow', 'Forbid', 'Replace'], default: 'Allow' };
  spec.properties.tags = { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' };
  spec['x-kubernetes-validations'] = [{ rule: 'self.replicas <= 5 || self.image != ""', message: 'more than 5 replicas need an image', reason: 'FieldValueInvalid', fieldPath: '.replicas' }];
  v1.additionalPrinterColumns = [
    { name: 'Schedule', type: 'string', jsonPath: '.spec.cronSpec' },
    { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
    { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
  ];
  v1.selectableFields = [{ jsonPath: '.spec.image' }];
  v1.subresources = { status: {} };
  const v1beta1 = structuredClone(v1);
  v1beta1.name = 'v1beta1';
  v1beta1.storage = false;
  v1beta1.deprecated = true;
  v1beta1.deprecationWarning = 'stable.example.com/v1beta1 CronTab is deprecated; use stable.example.com/v1 CronTab';
  delete v1beta1.schema.openAPIV3Schema.properties.spec.properties.tags;
  delete v1beta1.selectableFields;
  crd.spec.versions.push(v1beta1);
  return stringify(crd);
}

// CRDs with validation rules, installed on an in-process server, and writes of their objects.
import assert from 'node:assert/strict';
import { installCronTab, type Api } from '../server/helpers.js';

export { startApi, type Api } from '../server/helpers.js';

let seq = 0;

export interface WidgetCRD {
  group: string;
  crd: any;
  /** The collection path of the custom resources. */
  base: string;
}

/**
 * A Widget CRD whose root schema is `{type: object, properties: {spec, status}}` plus `root`
 * (merged into the root schema), with a status subresource.
 */
export function widgetCRD(spec: Record<string, unknown>, opts: { root?: Record<string, unknown>; status?: Record<string, unknown> } = {}): WidgetCRD {
  const group = `w${++seq}.example.com`;
  const properties: Record<string, unknown> = { spec };
  if (opts.status) properties['status'] = opts.status;
  const crd = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { plural: 'widgets', singular: 'widget', kind: 'Widget' },
      versions: [
        {
          name: 'v1',
          served: true,
          storage: true,
          subresources: opts.status ? { status: {} } : undefined,
          schema: { openAPIV3Schema: { type: 'object', properties, ...opts.root } },
        },
      ],
    },
  };
  return { group, crd, base: `/apis/${group}/v1/namespaces/default/widgets` };
}

export async function install(api: Api, w: WidgetCRD): Promise<void> {
  await installCronTab(api, w.crd);
}

/** The CRD create's response (status and message). */
export async function createCRD(api: Api, w: WidgetCRD): Promise<{ status: number; message: string }> {
  const r = await api.req('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', w.crd);
  return { status: r.status, message: r.json?.message ?? r.text };
}

export const widget = (w: WidgetCRD, name: string, spec: unknown, extra: Record<string, unknown> = {}): any => ({
  apiVersion: `${w.group}/v1`,
  kind: 'Widget',
  metadata: { name },
  spec,
  ...extra,
});

export interface WriteResult {
  status: number;
  message: string;
  json: any;
  warnings: string[];
}

const warningsOf = (h: Headers): string[] =>
  (h.get('warning') ?? '')
    .split(/,\s*(?=299 )/)
    .filter(Boolean)
    .map((w) => JSON.parse(w.replace(/^299 - /, '')) as string);

export async function create(api: Api, w: WidgetCRD, name: string, spec: unknown, extra: Record<string, unknown> = {}): Promise<WriteResult> {
  const r = await api.req('POST', w.base, widget(w, name, spec, extra));
  return { status: r.status, message: r.json?.message ?? r.text, json: r.json, warnings: warningsOf(r.headers) };
}

/** Replaces the object (PUT) after `mutate` changed a copy of the stored one. */
export async function update(api: Api, w: WidgetCRD, name: string, mutate: (obj: any) => void, sub = ''): Promise<WriteResult> {
  const cur = await api.req('GET', `${w.base}/${name}`);
  assert.equal(cur.status, 200, cur.text);
  const obj = cur.json;
  mutate(obj);
  const r = await api.req('PUT', `${w.base}/${name}${sub}`, obj);
  return { status: r.status, message: r.json?.message ?? r.text, json: r.json, warnings: warningsOf(r.headers) };
}

/** Asserts a 422 whose message is kube's `Widget.<group> "<name>" is invalid: <errors>`. */
export function assertInvalid(r: WriteResult, w: WidgetCRD, name: string, errors: string | string[]): void {
  assert.equal(r.status, 422, r.message);
  const list = Array.isArray(errors) ? errors : [errors];
  const body = list.length === 1 ? list[0] : `[${list.join(', ')}]`;
  assert.equal(r.message, `Widget.${w.group} "${name}" is invalid: ${body}`);
}

export function assertCreated(r: WriteResult): void {
  assert.ok(r.status === 201 || r.status === 200, `${r.status} ${r.message}`);
}

// A kind's page: its schema and what its CRD declares, or its objects; or one object.
import { useEffect, useState } from 'preact/hooks';
import { ApiError, getJson } from './api.ts';
import type { Cluster } from './cluster.ts';
import { CrdDetails, DiscoveryDetails } from './kind-details.tsx';
import type { KindRef } from './discovery.ts';
import { ObjectsTable } from './objects.tsx';
import { ObjectView } from './object-view.tsx';
import { href, type Route } from './route.ts';
import { SchemaTree } from './schema-tree.tsx';
import type { Resolve, Schema } from './schema.ts';

export function KindPage({ cluster, route }: { cluster: Cluster; route: Route }) {
  const kind = cluster.groups?.flatMap((g) => (g.group === route.group ? g.versions : [])).find((v) => v.version === route.version)?.kinds.find((k) => k.resource === route.resource);
  if (route.resource === undefined) return <Welcome />;
  if (!kind) return <p class="error">{`${route.resource}${route.group ? `.${route.group}` : ''} ${route.version} is not served.`}</p>;
  const crd = kind.group ? cluster.crds?.get(`${kind.resource}.${kind.group}`) : undefined;
  const tab = (t: Route['tab'], label: string) => (
    <a class={`tab${route.tab === t ? ' current' : ''}`} href={href({ ...route, tab: t, name: undefined, namespace: undefined })}>
      {label}
    </a>
  );
  return (
    <article class="kind">
      <h1>
        {kind.kind} <span class="muted">{kind.group ? `${kind.group}/${kind.version}` : kind.version}</span>
      </h1>
      <div class="tabs">
        {tab('schema', 'Schema')}
        {tab('objects', 'Objects')}
      </div>
      {route.name ? (
        <ObjectView kind={kind} namespace={route.namespace ?? ''} name={route.name} />
      ) : route.tab === 'objects' ? (
        <ObjectsTable kind={kind} />
      ) : (
        <>
          {crd ? <CrdDetails crd={crd} version={kind.version} /> : <DiscoveryDetails kind={kind} />}
          <SchemaSection kind={kind} crdSchema={crd?.spec.versions.find((v) => v.name === kind.version)?.schema?.openAPIV3Schema} />
        </>
      )}
    </article>
  );
}

function Welcome() {
  return (
    <div class="welcome">
      <h1>APIs installed in this server</h1>
      <p>Pick a kind on the left to read its schema, or to watch its objects.</p>
    </div>
  );
}

function SchemaSection({ kind, crdSchema }: { kind: KindRef; crdSchema?: Schema }) {
  const published = usePublishedSchema(kind, crdSchema === undefined);
  const schema = crdSchema ? { schema: withObjectFields(crdSchema), resolve: noRefs } : published.value;
  return (
    <section>
      <h2>Schema</h2>
      {published.error && <p class="error">{published.error}</p>}
      {schema ? <SchemaTree key={`${kind.group}/${kind.version}/${kind.resource}`} rootName={kind.kind} schema={schema.schema} resolve={schema.resolve} /> : !published.error && <p class="muted">Loading…</p>}
    </section>
  );
}

const noRefs: Resolve = () => undefined;

/** The fields every object has, which a CRD's schema need not spell out (kube adds them to the published schema too). */
function withObjectFields(s: Schema): Schema {
  const common: Record<string, Schema> = {
    apiVersion: {
      type: 'string',
      description:
        'APIVersion defines the versioned schema of this representation of an object. Servers should convert recognized schemas to the latest internal value, and may reject unrecognized values.',
    },
    kind: {
      type: 'string',
      description: 'Kind is a string value representing the REST resource this object represents. Servers may infer this from the endpoint the client submits requests to.',
    },
    metadata: { type: 'object', description: "Standard object's metadata (ObjectMeta: name, namespace, labels, annotations...)." },
  };
  return { ...s, properties: { ...common, ...s.properties } };
}

interface OpenApiDoc {
  components?: { schemas?: Record<string, Schema & { 'x-kubernetes-group-version-kind'?: Array<{ group: string; version: string; kind: string }> }> };
}

/** A kind's schema from /openapi/v3 (built-ins, or a CRD the user may not read), with its $refs resolved in the same document. */
function usePublishedSchema(kind: KindRef, wanted: boolean): { value?: { schema: Schema; resolve: Resolve }; error?: string } {
  const [state, setState] = useState<{ value?: { schema: Schema; resolve: Resolve }; error?: string }>({});
  useEffect(() => {
    if (!wanted) return;
    const ctl = new AbortController();
    setState({});
    const path = kind.group ? `/openapi/v3/apis/${kind.group}/${kind.version}` : `/openapi/v3/api/${kind.version}`;
    getJson<OpenApiDoc>(path, 'application/json', ctl.signal)
      .then((doc) => {
        const schemas = doc.components?.schemas ?? {};
        const found = Object.values(schemas).find((s) => s['x-kubernetes-group-version-kind']?.some((g) => g.group === kind.group && g.version === kind.version && g.kind === kind.kind));
        const resolve: Resolve = (ref) => schemas[ref.replace('#/components/schemas/', '')];
        setState(found ? { value: { schema: found, resolve } } : { error: `${path} has no schema for ${kind.kind}` });
      })
      .catch((e: unknown) => {
        if (!ctl.signal.aborted) setState({ error: e instanceof ApiError ? `${e.code} ${e.message}` : String(e) });
      });
    return () => ctl.abort();
  }, [kind.group, kind.version, kind.kind, wanted]);
  return state;
}

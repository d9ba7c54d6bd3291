// What a kind's page shows above its schema: for a custom resource, what its CRD declares (versions and their
// deprecation, printer columns, selectable fields, subresources, how the versions differ); for a built-in,
// what discovery says.
import { useMemo, useState } from 'preact/hooks';
import { deprecationText, type Crd } from './crd.ts';
import type { KindRef } from './discovery.ts';
import { diffSchemas, flatten } from './schema.ts';

export function CrdDetails({ crd, version }: { crd: Crd; version: string }) {
  const v = crd.spec.versions.find((x) => x.name === version);
  const { names } = crd.spec;
  return (
    <section class="details">
      <dl class="facts">
        <Fact label="Scope" value={crd.spec.scope} />
        <Fact label="Resource" value={`${names.plural}.${crd.spec.group}`} />
        {names.shortNames?.length ? <Fact label="Short names" value={names.shortNames.join(', ')} /> : null}
        {names.categories?.length ? <Fact label="Categories" value={names.categories.join(', ')} /> : null}
        <Fact label="Conversion" value={crd.spec.conversion?.strategy ?? 'None'} />
      </dl>
      <h2>Versions</h2>
      <table class="grid versions">
        <thead>
          <tr>
            <th>Version</th>
            <th>Served</th>
            <th>Storage</th>
            <th>Deprecation</th>
          </tr>
        </thead>
        <tbody>
          {crd.spec.versions.map((x) => (
            <tr key={x.name} class={x.name === version ? 'current' : ''}>
              <td>{x.name}</td>
              <td>{x.served ? 'yes' : 'no'}</td>
              <td>{x.storage ? 'yes' : 'no'}</td>
              <td class={x.deprecated ? 'deprecated' : ''}>{deprecationText(x, crd) ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h2>Printer columns</h2>
      {v?.additionalPrinterColumns?.length ? (
        <table class="grid columns">
          <thead>
            <tr>
              <th>Name</th>
              <th>Type</th>
              <th>JSONPath</th>
              <th>Priority</th>
              <th>Description</th>
            </tr>
          </thead>
          <tbody>
            {v.additionalPrinterColumns.map((c) => (
              <tr key={c.name}>
                <td>{c.name}</td>
                <td>{c.format ? `${c.type}/${c.format}` : c.type}</td>
                <td>
                  <code>{c.jsonPath}</code>
                </td>
                <td>{c.priority ?? 0}</td>
                <td>{c.description ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p class="muted">None declared: tables show Name and Age.</p>
      )}
      <h2>Selectable fields</h2>
      <p>{['metadata.name', 'metadata.namespace', ...(v?.selectableFields ?? []).map((f) => f.jsonPath.replace(/^\./, ''))].map((f) => <code key={f} class="chip">{f}</code>)}</p>
      <h2>Subresources</h2>
      <ul class="plain">
        {v?.subresources?.status && <li>status</li>}
        {v?.subresources?.scale && (
          <li>
            scale: spec replicas <code>{v.subresources.scale.specReplicasPath}</code>, status replicas <code>{v.subresources.scale.statusReplicasPath}</code>
            {v.subresources.scale.labelSelectorPath && (
              <>
                , label selector <code>{v.subresources.scale.labelSelectorPath}</code>
              </>
            )}
          </li>
        )}
        {!v?.subresources?.status && !v?.subresources?.scale && <li class="muted">none</li>}
      </ul>
      {crd.spec.versions.length > 1 && <VersionDiff crd={crd} version={version} />}
    </section>
  );
}

function VersionDiff({ crd, version }: { crd: Crd; version: string }) {
  const others = crd.spec.versions.filter((x) => x.name !== version).map((x) => x.name);
  const [other, setOther] = useState(others[0]!);
  const diffs = useMemo(() => {
    const flat = (name: string) => flatten(crd.spec.versions.find((x) => x.name === name)?.schema?.openAPIV3Schema ?? {}, () => undefined);
    return diffSchemas(flat(other), flat(version));
  }, [crd, version, other]);
  return (
    <>
      <h2>
        Differences from{' '}
        <select value={other} onChange={(e) => setOther(e.currentTarget.value)} aria-label="compare with version">
          {others.map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>{' '}
        to {version}
      </h2>
      {diffs.length === 0 ? (
        <p class="muted">The schemas are the same.</p>
      ) : (
        <table class="grid diff">
          <thead>
            <tr>
              <th>Change</th>
              <th>Field</th>
              <th>{other}</th>
              <th>{version}</th>
            </tr>
          </thead>
          <tbody>
            {diffs.slice(0, 500).map((d) => (
              <tr key={d.path} class={d.change}>
                <td>{d.change}</td>
                <td>
                  <code>{d.path}</code>
                </td>
                <td>{d.from ?? ''}</td>
                <td>{d.to ?? ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {diffs.length > 500 && <p class="muted">{diffs.length - 500} more differences not shown.</p>}
    </>
  );
}

export function DiscoveryDetails({ kind }: { kind: KindRef }) {
  return (
    <section class="details">
      <dl class="facts">
        <Fact label="Scope" value={kind.namespaced ? 'Namespaced' : 'Cluster'} />
        <Fact label="Resource" value={kind.group ? `${kind.resource}.${kind.group}` : kind.resource} />
        {kind.shortNames.length ? <Fact label="Short names" value={kind.shortNames.join(', ')} /> : null}
        <Fact label="Verbs" value={kind.verbs.join(', ')} />
        <Fact label="Subresources" value={kind.subresources.join(', ') || 'none'} />
        {kind.versionNote ? <Fact label="Version" value={kind.versionNote} /> : null}
      </dl>
    </section>
  );
}

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}

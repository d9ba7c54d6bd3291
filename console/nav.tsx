// The left side: every API group, its kinds, and each kind's versions (preferred first).
import type { GroupInfo, KindRef } from './discovery.ts';
import { href, type Route } from './route.ts';

export function Nav({ groups, route }: { groups?: GroupInfo[]; route: Route }) {
  return (
    <nav class="nav" aria-label="API groups">
      {(groups ?? []).map((g) => {
        // A kind once per group, with the versions that serve it.
        const byKind = new Map<string, KindRef[]>();
        for (const v of g.versions) for (const k of v.kinds) byKind.set(k.resource, [...(byKind.get(k.resource) ?? []), k]);
        return (
          <section key={g.group} class="group">
            <h3>{g.group || 'core'}</h3>
            <ul>
              {[...byKind.values()]
                .sort((a, b) => a[0]!.kind.localeCompare(b[0]!.kind))
                .map((ks) => {
                  const k = ks[0]!;
                  const current = route.group === g.group && route.resource === k.resource;
                  return (
                    <li key={k.resource} class={current ? 'current' : ''}>
                      <a href={href({ group: g.group, version: k.version, resource: k.resource, tab: route.tab })}>{k.kind}</a>
                      {ks.map((v) => (
                        <a
                          key={v.version}
                          class={`version${current && route.version === v.version ? ' current' : ''}`}
                          href={href({ group: g.group, version: v.version, resource: k.resource, tab: route.tab })}
                        >
                          {v.version}
                        </a>
                      ))}
                    </li>
                  );
                })}
            </ul>
          </section>
        );
      })}
    </nav>
  );
}

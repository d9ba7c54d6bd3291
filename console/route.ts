// Where the console is, in the URL's fragment (the server serves one page): a kind's page and tab, or one object.
//   #/<group or core>/<version>/<resource>[/objects]
//   #/<group or core>/<version>/<resource>/objects/<namespace or _>/<name>
import { useEffect, useState } from 'preact/hooks';

export interface Route {
  group?: string;
  version?: string;
  resource?: string;
  tab: 'schema' | 'objects';
  namespace?: string;
  name?: string;
}

export function parseRoute(hash: string): Route {
  const parts = hash.replace(/^#\/?/, '').split('/').filter(Boolean).map(decodeURIComponent);
  const [group, version, resource, tab, namespace, name] = parts;
  if (!group || !version || !resource) return { tab: 'schema' };
  return {
    group: group === 'core' ? '' : group,
    version,
    resource,
    tab: tab === 'objects' ? 'objects' : 'schema',
    ...(name ? { namespace: namespace === '_' ? '' : namespace, name } : {}),
  };
}

export function href(r: Route): string {
  if (r.version === undefined || !r.resource) return '#/';
  const parts = [r.group || 'core', r.version, r.resource];
  if (r.tab === 'objects' || r.name) parts.push('objects');
  if (r.name) parts.push(r.namespace || '_', r.name);
  return `#/${parts.map(encodeURIComponent).join('/')}`;
}

export function useRoute(): Route {
  const [route, setRoute] = useState(() => parseRoute(location.hash));
  useEffect(() => {
    const on = (): void => setRoute(parseRoute(location.hash));
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}

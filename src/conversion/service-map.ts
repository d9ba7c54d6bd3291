// `--service-resolver` mappings: where a webhook's service reference is reached when there is no cluster DNS.
// Each entry is `<namespace>/<name>[:<port>]=<host>:<port>`; an entry without a service port matches any.
import { defaultServiceResolver, type ServiceEndpoint, type ServiceResolver } from './types.js';

export function parseServiceMappings(spec: string): Map<string, ServiceEndpoint> {
  const out = new Map<string, ServiceEndpoint>();
  for (const entry of spec.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([^/=\s]+)\/([^:=\s]+)(?::(\d+))?=(.+):(\d+)$/.exec(entry);
    if (!m) throw new Error(`invalid service mapping "${entry}": want <namespace>/<name>[:<port>]=<host>:<port>`);
    const port = Number(m[5]);
    if (port < 1 || port > 65535) throw new Error(`invalid service mapping "${entry}": port out of range`);
    const host = m[4]!.replace(/^\[(.*)\]$/, '$1');
    out.set(m[3] ? `${m[1]}/${m[2]}:${m[3]}` : `${m[1]}/${m[2]}`, { host, port });
  }
  return out;
}

/** A resolver answering from the mappings first, then cluster DNS. */
export function mappedServiceResolver(mappings: ReadonlyMap<string, ServiceEndpoint>): ServiceResolver {
  return (s) => mappings.get(`${s.namespace}/${s.name}:${s.port}`) ?? mappings.get(`${s.namespace}/${s.name}`) ?? defaultServiceResolver(s);
}

// Which verbs a request may use on an endpoint, decided in one place for every resource: the resource's
// declared verbs (discovery's list) for the main resource, fixed verbs for each subresource, and the routes
// kube registers (no create on a named path, no update or patch on a collection).
import * as S from '../api/status.js';
import type { Subresource } from '../registry/resource-type.js';
import { servedByCrdHandler, type Endpoint } from '../registry/endpoint.js';
import type { RequestInfo } from './request-info.js';

/** Verbs each subresource serves: status and scale read and write, a namespace's finalize is a PUT only; others as declared. */
const SUBRESOURCE_VERBS: Readonly<Partial<Record<Exclude<Subresource, ''>, readonly string[]>>> = {
  status: ['get', 'patch', 'update'],
  scale: ['get', 'patch', 'update'],
  finalize: ['update'],
};

const subresourceVerbs = (ep: Endpoint, sub: Exclude<Subresource, ''>): readonly string[] =>
  SUBRESOURCE_VERBS[sub] ?? ep.store.type.served.subresources.others?.find((s) => s.name === sub)?.verbs ?? [];

/** The Status for a verb the endpoint does not serve, or undefined when it does. */
export function verbRefusal(ep: Endpoint, info: RequestInfo, sub: Subresource): S.StatusError | undefined {
  const verb = info.verb;
  const served = ep.store.type.served;
  const allowed = sub === '' ? served.verbs : subresourceVerbs(ep, sub);
  // crdHandler.serveStatus and serveScale answer any other verb themselves.
  const crdHandler = servedByCrdHandler(ep);
  if (crdHandler && sub) return allowed.includes(verb) ? undefined : methodNotSupported(ep, verb);
  // A route kube does not register at all: POST to a named path (but for a subresource that creates, as
  // serviceaccounts/token), PUT or PATCH to a collection.
  if ((verb === 'create' && info.name && !(sub && allowed.includes('create'))) || ((verb === 'update' || verb === 'patch') && !info.name)) return S.methodNotAllowed();
  if (allowed.includes(verb)) return undefined;
  // crdHandler answers custom resources itself; built-in routes that do not exist are go-restful's 405.
  return crdHandler ? methodNotSupported(ep, verb) : S.methodNotAllowed();
}

/** crdHandler's 405 for a verb a custom resource (or its subresource) does not serve. */
const methodNotSupported = (ep: Endpoint, verb: string): S.StatusError => {
  const gr = ep.store.type.gr;
  return new S.StatusError({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message: `${verb} is not supported on resources of kind "${S.grString(gr)}"`,
    reason: 'MethodNotAllowed',
    details: { group: gr.group || undefined, kind: gr.resource },
    code: 405,
  });
};

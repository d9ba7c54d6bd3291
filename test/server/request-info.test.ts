// Request info from method and path, as k8s.io/apiserver's RequestInfoFactory derives it (cases after its
// requestinfo_test.go).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { requestInfo } from '../../src/server/request-info.js';

const info = (method: string, url: string) => {
  const [path, q = ''] = url.split('?');
  const i = requestInfo(method, path!, new URLSearchParams(q));
  return [i.isResourceRequest, i.verb, i.apiPrefix, i.apiGroup, i.apiVersion, i.namespace, i.resource, i.subresource, i.name, i.parts.join('/')].join(' ');
};

test('request info: verbs, namespaces, resources, subresources and names', () => {
  const cases: [string, string, string][] = [
    ['GET', '/api/v1/namespaces', 'true list api  v1  namespaces   namespaces'],
    ['GET', '/api/v1/namespaces/other', 'true get api  v1 other namespaces  other namespaces/other'],
    ['GET', '/api/v1/namespaces/other/pods', 'true list api  v1 other pods   pods'],
    ['GET', '/api/v1/namespaces/other/pods/foo', 'true get api  v1 other pods  foo pods/foo'],
    ['HEAD', '/api/v1/namespaces/other/pods/foo', 'true get api  v1 other pods  foo pods/foo'],
    ['GET', '/api/v1/namespaces/other/pods/foo/status', 'true get api  v1 other pods status foo pods/foo/status'],
    ['GET', '/api/v1/pods', 'true list api  v1  pods   pods'],
    ['GET', '/api/v1/namespaces/other/pods?watch=true', 'true watch api  v1 other pods   pods'],
    ['GET', '/api/v1/namespaces/other/pods?watch=', 'true watch api  v1 other pods   pods'],
    ['GET', '/api/v1/namespaces/other/pods?watch=false', 'true list api  v1 other pods   pods'],
    ['GET', '/api/v1/namespaces/other/pods/foo?watch=1', 'true watch api  v1 other pods  foo pods/foo'],
    ['GET', '/api/v1/watch/namespaces/other/pods', 'true watch api  v1 other pods   pods'],
    ['GET', '/api/v1/watch/namespaces/other/pods/foo', 'true watch api  v1 other pods  foo pods/foo'],
    ['POST', '/api/v1/namespaces/other/pods', 'true create api  v1 other pods   pods'],
    ['PUT', '/api/v1/namespaces/other/pods/foo', 'true update api  v1 other pods  foo pods/foo'],
    ['PATCH', '/api/v1/namespaces/other/pods/foo', 'true patch api  v1 other pods  foo pods/foo'],
    ['DELETE', '/api/v1/namespaces/other/pods/foo', 'true delete api  v1 other pods  foo pods/foo'],
    ['DELETE', '/api/v1/namespaces/other/pods', 'true deletecollection api  v1 other pods   pods'],
    ['PUT', '/api/v1/namespaces/other/finalize', 'true update api  v1 other namespaces finalize other namespaces/other/finalize'],
    ['GET', '/api/v1/namespaces/other/status', 'true get api  v1 other namespaces status other namespaces/other/status'],
    ['GET', '/apis/extensions/v1beta1/namespaces/other/pods/foo', 'true get apis extensions v1beta1 other pods  foo pods/foo'],
    // Empty segments are kept, as kube's splitPath keeps them: the group is "" here.
    ['GET', '//apis//stable.example.com/v1/crontabs/', 'true get apis  stable.example.com  v1  crontabs v1/crontabs'],
    ['OPTIONS', '/api/v1/pods', 'true  api  v1  pods   pods'],
    ['GET', '/apis/stable.example.com', 'false get apis       '],
    ['GET', '/api', 'false get api       '],
    ['GET', '/healthz', 'false get        '],
    ['GET', '/', 'false get        '],
  ];
  for (const [method, url, want] of cases) assert.equal(info(method, url), want, `${method} ${url}`);
});

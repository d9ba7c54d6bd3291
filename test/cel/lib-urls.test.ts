// Kubernetes' URL library (pkg/cel/library/urls.go): the documented examples, and Go's
// net/url parsing and errors, through the declared overloads.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { URLS_LIBRARY as U, UrlValue } from '../../src/cel/lib/urls.js';
import { CelMap, type Val } from '../../src/cel/values.js';
import { assertError, call, cost } from './lib-support.js';

const url = (s: string): Val => call(U, 'string_to_url', s);
const get = (s: string, id: string): Val => call(U, id, url(s));

function queryOf(s: string): Record<string, Val> {
  const m = get(s, 'url_get_query');
  assert.ok(m instanceof CelMap);
  return Object.fromEntries([...m.keys()].map((k) => [k as string, m.get(k)!]));
}

describe('url and isURL', () => {
  it('accept absolute URIs and absolute paths', () => {
    assert.ok(url('https://user:pass@example.com:80/path?query=val#fragment') instanceof UrlValue);
    assert.ok(url('/absolute-path') instanceof UrlValue);
    assert.equal(call(U, 'is_url_string', 'https://user:pass@example.com:80/path?query=val#fragment'), true);
    assert.equal(call(U, 'is_url_string', '/absolute-path'), true);
    assert.equal(call(U, 'is_url_string', 'https://a:b:c/'), false);
    assert.equal(call(U, 'is_url_string', '../relative-path'), false);
    assert.equal(call(U, 'is_url_string', ''), false);
    assert.equal(call(U, 'is_url_string', 'mailto:someone@example.com'), true);
  });

  it('report net/url errors', () => {
    assertError(url('https://a:b:c/'), 'URL parse error during conversion from string: parse "https://a:b:c/": invalid port ":c" after host');
    assertError(url('../relative-path'), 'URL parse error during conversion from string: parse "../relative-path": invalid URI for request');
    assertError(url(''), 'URL parse error during conversion from string: parse "": empty url');
    assertError(url(':foo'), 'URL parse error during conversion from string: parse ":foo": missing protocol scheme');
    assertError(url('http://a b/'), 'URL parse error during conversion from string: parse "http://a b/": invalid character " " in host name');
    assertError(url('http://a/%zz'), 'URL parse error during conversion from string: parse "http://a/%zz": invalid URL escape "%zz"');
    assertError(url('http://a/\n'), 'URL parse error during conversion from string: parse "http://a/\\n": net/url: invalid control character in URL');
    assertError(url('http://[::1/'), `URL parse error during conversion from string: parse "http://[::1/": missing ']' in host`);
  });
});

describe('accessors', () => {
  it('scheme, host, hostname, port', () => {
    assert.equal(get('/path', 'url_get_scheme'), '');
    assert.equal(get('https://example.com/', 'url_get_scheme'), 'https');
    assert.equal(get('HTTPS://example.com/', 'url_get_scheme'), 'https');
    assert.equal(get('https://example.com:80/', 'url_get_host'), 'example.com:80');
    assert.equal(get('https://example.com/', 'url_get_host'), 'example.com');
    assert.equal(get('https://[::1]:80/', 'url_get_host'), '[::1]:80');
    assert.equal(get('https://[::1]/', 'url_get_host'), '[::1]');
    assert.equal(get('/path', 'url_get_host'), '');
    assert.equal(get('https://example.com:80/', 'url_get_hostname'), 'example.com');
    assert.equal(get('https://127.0.0.1:80/', 'url_get_hostname'), '127.0.0.1');
    assert.equal(get('https://[::1]:80/', 'url_get_hostname'), '::1');
    assert.equal(get('/path', 'url_get_hostname'), '');
    assert.equal(get('https://example.com:80/', 'url_get_port'), '80');
    assert.equal(get('https://example.com/', 'url_get_port'), '');
    assert.equal(get('/path', 'url_get_port'), '');
  });

  it('escaped path', () => {
    assert.equal(get('https://example.com/path', 'url_get_escaped_path'), '/path');
    assert.equal(get('https://example.com/path with spaces/', 'url_get_escaped_path'), '/path%20with%20spaces/');
    assert.equal(get('https://example.com', 'url_get_escaped_path'), '');
    assert.equal(get('https://example.com/a%2Fb', 'url_get_escaped_path'), '/a%2Fb');
    assert.equal(get('https://example.com/é', 'url_get_escaped_path'), '/%C3%A9');
  });

  it('query', () => {
    assert.deepEqual(queryOf('https://example.com/path?k1=a&k2=b&k2=c'), { k1: ['a'], k2: ['b', 'c'] });
    assert.deepEqual(queryOf('https://example.com/path?key with spaces=value with spaces'), { 'key with spaces': ['value with spaces'] });
    assert.deepEqual(queryOf('https://example.com/path?a+b=%41&c'), { 'a b': ['A'], c: [''] });
    assert.deepEqual(queryOf('https://example.com/path?a=1;b=2&c=3'), { c: ['3'] });
    assert.deepEqual(queryOf('https://example.com/path?'), {});
    assert.deepEqual(queryOf('https://example.com/path'), {});
  });

  it('equality compares the String() forms', () => {
    const a = url('https://example.com/a b?x=1#f');
    assert.ok(a instanceof UrlValue);
    assert.equal(a.toString(), 'https://example.com/a%20b?x=1#f');
    assert.ok(a.equals(url('https://example.com/a%20b?x=1#f') as UrlValue));
    assert.ok(!a.equals(url('https://example.com/a%20b?x=2#f') as UrlValue));
  });

  it('costs a traversal to parse, 1 per accessor', () => {
    assert.equal(cost(U, 'string_to_url', 'https://example.com/abcdefghij'), 3);
    assert.equal(cost(U, 'url_get_host', url('https://example.com/')), 1);
    assert.equal(cost(U, 'is_url_string', 'https://example.com/abcdefghij'), 1);
  });
});

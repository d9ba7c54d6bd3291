// A request line's path and query: the plain-path shortcut must give what WHATWG URL parsing (then Go's
// unescaping) gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goUnescapePath, parseRequestURL } from '../../src/server/request-url.js';

function viaURL(raw: string): { path: string; query: [string, string][] } {
  const url = new URL(raw, 'http://localhost');
  return { path: goUnescapePath(url.pathname), query: raw.includes('?') ? [...url.searchParams] : [] };
}

test('request URLs: plain paths and their queries as URL parsing gives them', () => {
  for (const raw of [
    '/apis/stable.example.com/v1/namespaces/default/crontabs/my-new-cron-object',
    '/api/v1/namespaces?limit=500&labelSelector=a%3Db',
    '/a/./b', '/a/../b', '/a/b/.', '/a/b/..', '/.', '/..', '/a/.b/c..', '/a/...', '/a b', '/a\\b', '/é', '/a{b}', '/a"b', '/a#b?c', '/a?b#c',
    '//host/path', '/a//b', '/a?x=1+2&y=%20&z', '/a?', '/?=&&=', "/a/b:c@d!e$f&g'h(i)j*k+l,m;n=o~p_q",
  ]) {
    const got = parseRequestURL(raw);
    const want = viaURL(raw);
    assert.equal(got.path, want.path, raw);
    assert.deepEqual([...got.query], want.query, raw);
  }
});

test('request URLs: random request lines without escapes agree with URL parsing', () => {
  const alphabet = ['/', '/', '/', 'a', 'b', '.', '..', '\t', '\x00', '\x7f', '-', '_', '~', ':', '@', '!', '$', '&', "'", '(', ')', '*', '+', ',', ';', '=', '?', '#', ' ', '\\', 'é', '{', '|', '^', '[', '`', '"', '<'];
  let seed = 7;
  const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) % n);
  for (let i = 0; i < 20_000; i++) {
    let raw = '/';
    const len = rnd(12);
    for (let j = 0; j < len; j++) raw += alphabet[rnd(alphabet.length)];
    let want: ReturnType<typeof viaURL>;
    try {
      want = viaURL(raw);
    } catch {
      // Unparsable (`//[`: a bad host): refused either way, with a 400 by the listener.
      assert.throws(() => parseRequestURL(raw), raw);
      continue;
    }
    const got = parseRequestURL(raw);
    assert.equal(got.path, want.path, raw);
    assert.deepEqual([...got.query], want.query, raw);
  }
});

test('request URLs: percent escapes in the path are decoded as Go does', () => {
  assert.equal(parseRequestURL('/api/v1/namespaces/default/configmaps/%61bc').path, '/api/v1/namespaces/default/configmaps/abc');
  assert.equal(parseRequestURL('/a%2Fb').path, '/a/b');
  assert.equal(parseRequestURL('/a%zz').path, '/a%zz');
});

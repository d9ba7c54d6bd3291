// klog's text and component-base's JSON lines, and Go's Duration.String for latencies.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { goDuration, newLogger } from '../../src/util/klog.js';

test("latencies as Go's time.Duration prints them", () => {
  assert.equal(goDuration(0), '0s');
  assert.equal(goDuration(512), '512ns');
  assert.equal(goDuration(1_000), '1µs');
  assert.equal(goDuration(1_234), '1.234µs');
  assert.equal(goDuration(906_933), '906.933µs');
  assert.equal(goDuration(4_259_843), '4.259843ms');
  assert.equal(goDuration(12_500_000), '12.5ms');
  assert.equal(goDuration(1_500_000_000), '1.5s');
  assert.equal(goDuration(60_000_000_000), '1m0s');
  assert.equal(goDuration(123_500_000_000), '2m3.5s');
  assert.equal(goDuration(3_723_000_000_000), '1h2m3s');
});

test('a message is written at or below the verbosity only; text quotes strings as Go does, JSON keeps the pairs in order', () => {
  const lines: string[] = [];
  const text = newLogger(3, 'text', { write: (l: string) => lines.push(l) });
  text.info(4, 'httplog/httplog.go:134', 'HTTP', [['verb', 'GET']]);
  assert.equal(lines.length, 0);
  text.info(3, 'httplog/httplog.go:134', 'HTTP', [['verb', 'GET'], ['userAgent', 'a "b"\u0001'], ['resp', 200]]);
  assert.match(lines[0]!, /^I\d{4} \d\d:\d\d:\d\d\.\d{6} +\d+ httplog\.go:134\] "HTTP" verb="GET" userAgent="a \\"b\\"\\x01" resp=200\n$/);
  const json = newLogger(5, 'json', { write: (l: string) => lines.push(l) });
  json.info(3, 'httplog/httplog.go:134', 'HTTP', [['verb', 'GET'], ['resp', 200]]);
  const e = JSON.parse(lines[1]!);
  assert.deepEqual(Object.keys(e), ['ts', 'caller', 'msg', 'v', 'verb', 'resp']);
  assert.deepEqual({ ...e, ts: 0 }, { ts: 0, caller: 'httplog/httplog.go:134', msg: 'HTTP', v: 3, verb: 'GET', resp: 200 });
});

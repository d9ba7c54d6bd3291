// The metric vectors' exposition as Go's Prometheus client writes it: numbers in strconv's 'g' form, label
// values escaped, series sorted, cumulative buckets with le last.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CounterVec, exponentialBuckets, goFloat, HistogramVec } from '../../src/server/metrics/vec.js';

test("numbers as Go's strconv.FormatFloat(x, 'g', -1, 64)", () => {
  assert.deepEqual([0, 1, 3, 0.005, 1.25, 60, 131072, 0.00016, 1e-5, 4e-5, 1234567, 1e6, 2.5e-7, NaN, Infinity].map(goFloat), [
    '0', '1', '3', '0.005', '1.25', '60', '131072', '0.00016', '1e-05', '4e-05', '1.234567e+06', '1e+06', '2.5e-07', 'NaN', '+Inf',
  ]);
  assert.deepEqual(exponentialBuckets(0.00001, 4, 10).map(goFloat), ['1e-05', '4e-05', '0.00016', '0.00064', '0.00256', '0.01024', '0.04096', '0.16384', '0.65536', '2.62144']);
});

test('a counter and a histogram in text format 0.0.4', () => {
  const c = new CounterVec('x_total', 'Help with \\ and\nnewline.', ['code', 'path']);
  c.with('200', 'b').value += 2;
  c.with('200', 'a"q').value++;
  assert.equal(c.expose(), ['# HELP x_total Help with \\\\ and\\nnewline.', '# TYPE x_total counter', 'x_total{code="200",path="a\\"q"} 1', 'x_total{code="200",path="b"} 2'].join('\n'));
  const h = new HistogramVec('d_seconds', 'D.', ['verb'], [0.1, 1]);
  const s = h.with('GET');
  for (const v of [0.05, 0.1, 0.5, 7]) s.observe(v);
  assert.equal(
    h.expose(),
    [
      '# HELP d_seconds D.',
      '# TYPE d_seconds histogram',
      'd_seconds_bucket{verb="GET",le="0.1"} 2',
      'd_seconds_bucket{verb="GET",le="1"} 3',
      'd_seconds_bucket{verb="GET",le="+Inf"} 4',
      'd_seconds_sum{verb="GET"} 7.65',
      'd_seconds_count{verb="GET"} 4',
    ].join('\n'),
  );
});

// structured-merge-diff v4.6.0 merge/real_test.go holds benchmarks only (BenchmarkOperations: create,
// apply, apply twice, update and update across versions of real Kubernetes objects against the
// Kubernetes schema, with no expected outcome). Nothing to check, so nothing is ported.
import type { ConformanceFile } from './fixture.js';

export const FILE: ConformanceFile = {
  file: 'merge/real_test.go',
  groups: [],
  skipped: [{ name: 'BenchmarkOperations', reason: 'a benchmark with no expectations (operations on internal/testdata objects); not a conformance case' }],
};

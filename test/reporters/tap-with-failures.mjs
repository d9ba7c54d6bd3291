// node:test's TAP output, with the failed tests listed once more just above the closing summary. CI keeps only
// the end of a long run's output, so a failure deep in four thousand tests was otherwise out of sight.
import { tap } from 'node:test/reporters';

const MAX_MESSAGE = 600;

function describe(data) {
  const error = data.details?.error;
  const cause = error?.cause ?? error;
  const message = String(cause?.message ?? cause ?? '').replace(/\s+/g, ' ').slice(0, MAX_MESSAGE);
  const where = data.file ? ` (${data.file}:${data.line})` : '';
  return `${data.name}${where}: ${message}`;
}

async function* withFailures(source) {
  const failures = [];
  let listed = false;
  for await (const event of source) {
    // A suite fails when one of its tests does; the test itself is the one worth naming.
    if (event.type === 'test:fail' && event.data.details?.type !== 'suite') failures.push(describe(event.data));
    const summaryStarts = event.type === 'test:diagnostic' && event.data.nesting === 0 && /^tests \d+$/.test(event.data.message);
    if (summaryStarts && !listed && failures.length > 0) {
      listed = true;
      yield { type: 'test:diagnostic', data: { nesting: 0, message: `failed tests (${failures.length}):` } };
      for (const failure of failures) yield { type: 'test:diagnostic', data: { nesting: 0, message: `  ${failure}` } };
    }
    yield event;
  }
}

export default async function* tapWithFailures(source) {
  yield* tap(withFailures(source));
}

// Compile errors and their rendering as cel-go's Issues.String() /
// Errors.ToDisplayString(): sorted by position, each with the source line and
// a caret under the offending column.

export interface Issue {
  message: string;
  /** Code point offset into the source; absent for errors without location. */
  offset?: number;
}

export interface Issues {
  issues: Issue[];
  source: string;
}

const MAX_ERRORS = 100;
const MAX_SNIPPET = 16384;

export function isIssues(x: unknown): x is Issues {
  return typeof x === 'object' && x !== null && Array.isArray((x as Issues).issues) && typeof (x as Issues).source === 'string';
}

/** Line starts in code points: offset of the first character of lines 2, 3, .... */
function lineOffsets(cps: readonly string[]): number[] {
  const out: number[] = [];
  for (let i = 0; i < cps.length; i++) if (cps[i] === '\n') out.push(i + 1);
  return out;
}

interface Location { line: number; column: number }

function locate(offset: number, offs: readonly number[]): Location {
  let line = 1;
  for (const o of offs) {
    if (o > offset) break;
    line++;
  }
  const start = line === 1 ? 0 : offs[line - 2]!;
  return { line, column: offset - start };
}

const utf8Len = (ch: string): number => {
  const c = ch.codePointAt(0)!;
  return c < 0x80 ? 1 : c < 0x800 ? 2 : c < 0x10000 ? 3 : 4;
};

/** cel-go's text for a set of issues; description names the source (`<input>`). */
export function formatIssues(i: Issues, description = '<input>'): string {
  const cps = Array.from(i.source);
  const offs = lineOffsets(cps);
  const shown = i.issues.slice(0, MAX_ERRORS).map((issue) => ({
    issue,
    loc: issue.offset === undefined || issue.offset < 0 ? { line: -1, column: -1 } : locate(issue.offset, offs),
  }));
  // Array.prototype.sort is stable, as Go's sort.SliceStable.
  shown.sort((a, b) => a.loc.line - b.loc.line || a.loc.column - b.loc.column);
  const out = shown.map(({ issue, loc }) => render(issue.message, loc, cps, offs, description));
  if (i.issues.length > MAX_ERRORS) out.push(`${i.issues.length - MAX_ERRORS} more errors were truncated`);
  return out.join('\n');
}

function render(message: string, loc: Location, cps: readonly string[], offs: readonly number[], description: string): string {
  let result = `ERROR: ${description}:${loc.line}:${loc.column + 1}: ${message}`;
  const snippet = snippetOf(loc.line, cps, offs);
  if (snippet === undefined) return result;
  const line = snippet.map((c) => (c === '\t' ? ' ' : c));
  if (line.reduce((n, c) => n + utf8Len(c), 0) > MAX_SNIPPET) return result;
  let ind = '';
  for (let k = 0; k < loc.column && k < line.length; k++) ind += utf8Len(line[k]!) > 1 ? '\uff0e' : '.';
  const at = line[loc.column];
  ind += at !== undefined && utf8Len(at) > 1 ? '\uff3e' : '^';
  result += `\n | ${line.join('')}\n | ${ind}`;
  return result;
}

function snippetOf(line: number, cps: readonly string[], offs: readonly number[]): string[] | undefined {
  if (line < 1 || cps.length === 0) return undefined;
  if (line > 1 && line > offs.length + 1) return undefined;
  const start = line === 1 ? 0 : offs[line - 2]!;
  const end = line - 1 < offs.length ? offs[line - 1]! - 1 : cps.length;
  return cps.slice(start, end);
}

// Kubernetes' regex library (k8s.io/apiserver pkg/cel/library/regex.go, "kubernetes.regex"):
// `<string>.find(<regex>)` and `<string>.findAll(<regex> [, <limit>])` with Go's RE2 regexp
// semantics (re2js). Patterns compile once and are cached.

import type { RE2JS } from 're2js';
import { compileRegex as compileCachedRegex } from '../stdlib-ops.js';
import type { Library } from '../decls.js';
import { INT, STRING, listOf } from '../types.js';
import { CelError, type Val } from '../values.js';
import { REGEX_STRING_LENGTH_COST_FACTOR, STRING_TRAVERSAL_COST_FACTOR, actualSize, badArg, member } from './support.js';

/** regexp.Compile, through the cache the checker and planner share (a large pattern costs
 * seconds to compile); the error carries Go's message (`error parsing regexp: …`). */
export function compileRegex(pattern: string): RE2JS | Error {
  const re = compileCachedRegex(pattern);
  return re instanceof CelError ? new Error(re.message) : re;
}

/** Regexp.FindString: the leftmost match, or "" when there is none. */
function findString(re: RE2JS, s: string): string {
  const m = re.matcher(s);
  return m.find() ? s.slice(m.start(), m.end()) : '';
}

/** Regexp.FindAllString: successive non-overlapping matches, at most n (all when n < 0); an
 * empty match right after the previous match is skipped, as Go does. */
function findAllString(re: RE2JS, s: string, n: bigint = -1n): string[] {
  const out: string[] = [];
  const limit = n < 0n ? Infinity : Number(n);
  const m = re.matcher(s);
  const end = s.length;
  let prevMatchEnd = -1;
  for (let pos = 0; out.length < limit && pos <= end;) {
    if (!m.find(pos)) break;
    const start = m.start();
    const stop = m.end();
    let accept = true;
    if (stop === pos) {
      // An empty match: never right after a previous match; step over one code point.
      if (start === prevMatchEnd) accept = false;
      pos += pos < end ? (s.codePointAt(pos)! > 0xffff ? 2 : 1) : 1;
    } else pos = stop;
    prevMatchEnd = stop;
    if (accept) out.push(s.slice(start, stop));
  }
  return out;
}

const illegal = (e: Error): CelError => new CelError(`Illegal regex: ${e.message}`);

function find(args: readonly Val[]): Val {
  const bad = badArg(args, 'string', 'string');
  if (bad) return bad;
  const re = compileRegex(args[1] as string);
  return re instanceof Error ? illegal(re) : findString(re, args[0] as string);
}

function findAll(args: readonly Val[]): Val {
  const bad = args.length === 3 ? badArg(args, 'string', 'string', 'bigint') : badArg(args, 'string', 'string');
  if (bad) return bad;
  const re = compileRegex(args[1] as string);
  if (re instanceof Error) return illegal(re);
  return findAllString(re, args[0] as string, args.length === 3 ? (args[2] as bigint) : -1n);
}

/** Kubernetes' CallCost: ceil((1 + |string|) × 0.1) × ceil(|regex| × 0.25). */
function regexCost(args: readonly Val[]): number {
  const strCost = Math.ceil((1 + actualSize(args[0]!)) * STRING_TRAVERSAL_COST_FACTOR);
  return strCost * Math.ceil(actualSize(args[1]!) * REGEX_STRING_LENGTH_COST_FACTOR);
}

/** Functions whose constant pattern argument cel-go compiles when the program is planned
 * (cel.OptimizeRegex with FindRegexOptimization / FindAllRegexOptimization): an invalid
 * literal pattern fails program creation with the compile error instead of every evaluation. */
export const REGEX_OPTIMIZED_FUNCTIONS: ReadonlyMap<string, { regexIndex: number }> = new Map([
  ['find', { regexIndex: 1 }],
  ['findAll', { regexIndex: 1 }],
]);

export const REGEX_LIBRARY: Library = {
  name: 'kubernetes.regex',
  functions: [
    { name: 'find', overloads: [member('string_find_string', [STRING, STRING], STRING, find, regexCost)] },
    {
      name: 'findAll',
      overloads: [
        member('string_find_all_string', [STRING, STRING], listOf(STRING), findAll, regexCost),
        member('string_find_all_string_int', [STRING, STRING, INT], listOf(STRING), findAll, regexCost),
      ],
    },
  ],
};

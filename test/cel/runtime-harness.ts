// Compile-and-run helpers for the runtime tests: the standard, optional and comprehension libraries
// with declared variables, through the real parser and checker.

import { check } from '../../src/cel/checker.js';
import type { Library } from '../../src/cel/decls.js';
import { Env } from '../../src/cel/env.js';
import { formatIssues, isIssues } from '../../src/cel/issues.js';
import { OPTIONAL_LIBRARY } from '../../src/cel/optional-lib.js';
import { parse } from '../../src/cel/parser.js';
import { plan } from '../../src/cel/program.js';
import type { EvalResult, PlanOptions } from '../../src/cel/program.js';
import { STANDARD_LIBRARY } from '../../src/cel/stdlib.js';
import { COMPREHENSIONS_LIBRARY } from '../../src/cel/stdlib-comprehensions.js';
import type { CelType } from '../../src/cel/types.js';
import type { Val } from '../../src/cel/values.js';

export const BASE_LIBRARIES: Library[] = [STANDARD_LIBRARY, OPTIONAL_LIBRARY, COMPREHENSIONS_LIBRARY];

export interface RunOptions extends PlanOptions {
  types?: Record<string, CelType>;
  vars?: Record<string, Val>;
  costLimit?: number;
  libraries?: Library[];
  /** Skip the checker (a parse-only program). */
  unchecked?: boolean;
}

export function run(source: string, opts: RunOptions = {}): EvalResult {
  const env = new Env(opts.libraries ?? BASE_LIBRARIES, Object.entries(opts.types ?? {}).map(([name, type]) => ({ name, type })));
  const parsed = parse(source, { enableOptionalSyntax: true });
  if (isIssues(parsed)) throw new Error(formatIssues(parsed));
  let ast = parsed;
  if (!opts.unchecked) {
    const checked = check(parsed, env, { validators: [] });
    if (isIssues(checked)) throw new Error(formatIssues(checked));
    ast = checked;
  }
  const program = plan(ast, env, opts);
  return program.eval(opts.vars ?? {}, { costLimit: opts.costLimit });
}

export const value = (source: string, opts: RunOptions = {}): Val => run(source, opts).value;
export const cost = (source: string, opts: RunOptions = {}): number => run(source, opts).cost;

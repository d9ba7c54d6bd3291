// Parse then check, as cel.Env.Compile: parse errors stop before checking.

import type { CheckedAst, ParsedAst } from './ast.js';
import { check, type CheckOptions } from './checker.js';
import type { Env } from './env.js';
import { isIssues, type Issues } from './issues.js';
import { parse, type ParseOptions } from './parser.js';
import { DYN, type CelType } from './types.js';

export interface CompileOptions { parse?: ParseOptions; check?: CheckOptions }

export function compile(env: Env, source: string, options: CompileOptions = {}): { ast: CheckedAst; type: CelType } | { issues: Issues } {
  return compileParsed(env, parse(source, options.parse), options.check);
}

/** compile's second half, for a parse already made (the checker copies what it rewrites: the AST can be shared). */
export function compileParsed(env: Env, parsed: ParsedAst | Issues, options?: CheckOptions): { ast: CheckedAst; type: CelType } | { issues: Issues } {
  if (isIssues(parsed)) return { issues: parsed };
  const checked = check(parsed, env, options);
  if (isIssues(checked)) return { issues: checked };
  return { ast: checked, type: checked.types.get(checked.expr.id) ?? DYN };
}

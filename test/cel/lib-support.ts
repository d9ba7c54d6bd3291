// Helpers for the library tests: call an overload of a Library by its cel-go overload id.

import assert from 'node:assert/strict';
import type { Library, Overload } from '../../src/cel/decls.js';
import { CelError, type Val } from '../../src/cel/values.js';

export function overload(lib: Library, id: string): Overload {
  for (const fn of lib.functions) for (const o of fn.overloads) if (o.id === id) return o;
  throw new Error(`no overload ${id} in ${lib.name}`);
}

/** Calls the overload's implementation with already-evaluated arguments (receiver first). */
export function call(lib: Library, id: string, ...args: Val[]): Val {
  return overload(lib, id).impl(args);
}

/** The runtime cost the overload charges for these arguments (1 when it declares none). */
export function cost(lib: Library, id: string, ...args: Val[]): number {
  const o = overload(lib, id);
  const result = o.impl(args);
  return o.cost ? o.cost(args, result) : 1;
}

export function assertError(v: Val, message: string | RegExp): void {
  assert.ok(v instanceof CelError, `expected an error, got ${String(v)}`);
  if (typeof message === 'string') assert.equal(v.message, message);
  else assert.match(v.message, message);
}
